// Range writes on the platter (issue #5 item 1, issue #6): a range write has no address until
// the drive picks one, so it is drawn as its candidate ranges — dashed arcs on their tracks in
// its process's colour (outlined: a write) — the pieces the drive examined with their seek +
// rotation estimate (hover), the pruned or never-reached ones dimmed, and the block finally
// chosen ringed. Drawn in the platter's frame; memoized per record (the log's objects).
import { memo } from 'react';
import type { GeometryView, LogRangePiece, LogRangeRecord, TrackArc } from '../../worker/log';
import { PHASE_COLOURS, processColour } from '../colors';
import { formatNs } from '../format';
import { bandPath, cylinderRadius, trackWidth } from './shape';

type Role = 'chosen' | 'weighed' | 'waiting';

export type PieceState = 'examined' | 'pruned' | 'unreached' | 'waiting';

const ms = (ns: number) => formatNs(ns);

export function pieceTitle(
  rq: number,
  t: TrackArc,
  p: LogRangePiece | undefined,
  state: PieceState,
) {
  const where = `range write #${rq}, cylinder ${t.cylinder}, head ${t.head}`;
  if (state === 'waiting') return `${where}: a candidate track, not weighed yet`;
  if (state === 'unreached')
    return `${where}: not reached — HRS stopped before this distance (no seek from here could beat the best)`;
  if (!p) return where;
  const starts = `starts ${p.firstSector}–${p.lastSector}`;
  if (state === 'pruned')
    return `${where} (${starts}): pruned — seek ${ms(p.seekNs)} alone was no better than the best so far`;
  const rot = p.rotationNs;
  if (rot === null || p.sector < 0)
    return `${where} (${starts}): seek ${ms(p.seekNs)}, every start in use`;
  return `${where} (${starts}): seek ${ms(p.seekNs)} + rotation ${ms(rot)} = ${ms(p.seekNs + rot)} to sector ${p.sector}`;
}

/** Past this many arcs a write's ranges are too many to draw track by track (a file
 * system's mini-group: about 190 tracks, or hundreds of free extents). */
export const MANY_ARCS = 64;

/**
 * The arcs to draw for a write: each examined track once (its piece's arc), and the rest
 * as they are — or, when the ranges have more than MANY_ARCS arcs, only those on the
 * active head's surface (the others would be drawn dimmed, on top of one another).
 */
export function drawnTracks(
  arcs: readonly TrackArc[],
  byTrack: ReadonlyMap<string, LogRangePiece>,
  activeHead: number,
): TrackArc[] {
  const many = arcs.length > MANY_ARCS;
  const seen = new Set<string>();
  const out: TrackArc[] = [];
  for (const t of arcs) {
    const key = `${t.cylinder}:${t.head}`;
    const p = byTrack.get(key);
    if (p && !p.pruned) {
      if (!seen.has(key)) out.push(t);
      seen.add(key);
    } else if (!many || t.head === activeHead) {
      if (p && seen.has(key)) continue; // a pruned track: its piece's arc once
      seen.add(key);
      out.push(t);
    }
  }
  return out;
}

/** One range write's candidate tracks, examined pieces and (if chosen) its block. */
export const RangeWriteMarks = memo(function RangeWriteMarks(props: {
  record: LogRangeRecord;
  role: Role;
  proc: number;
  g: Readonly<GeometryView>;
  activeHead: number;
  /** the chosen block is being written */
  transferring: boolean;
}) {
  const { record: r, role, proc, g, activeHead, transferring } = props;
  const w = trackWidth(g);
  const half = Math.max(w * 0.3, 2.5);
  const colour = processColour(proc);
  const byTrack = new Map<string, LogRangePiece>();
  if (role !== 'waiting') for (const p of r.pieces) byTrack.set(`${p.cylinder}:${p.head}`, p);
  // Surface by surface: the active head's tracks on top, the others dimmed (as requests are).
  const tracks = drawnTracks(r.tracks, byTrack, activeHead).sort(
    (a, b) => Number(a.head === activeHead) - Number(b.head === activeHead),
  );
  const base = role === 'weighed' ? 0.55 : 1;
  return (
    <g data-testid="range-candidates" data-rq={r.rq} data-role={role}>
      {tracks.map((t, i) => {
        const p = byTrack.get(`${t.cylinder}:${t.head}`);
        const state: PieceState =
          role === 'waiting' ? 'waiting' : p ? (p.pruned ? 'pruned' : 'examined') : 'unreached';
        const rad = cylinderRadius(g, t.cylinder);
        const other = t.head !== activeHead ? 0.35 : 1;
        const dim = state === 'examined' ? 1 : state === 'waiting' ? 0.6 : 0.3;
        const a0 = p ? p.startAngle : t.startAngle;
        const a1 = p ? p.endAngle : t.endAngle;
        return (
          <g key={i} opacity={base * other * dim}>
            <path
              d={bandPath(rad - half, rad + half, a0, a1)}
              fill={state === 'examined' ? colour : 'none'}
              fillOpacity={0.22}
              stroke={colour}
              strokeWidth={1.5}
              strokeDasharray="4 3"
              data-testid="range-piece"
              data-state={state}
            >
              <title>{pieceTitle(r.rq, t, p, state)}</title>
            </path>
            {state === 'examined' && p && p.bestStart >= 0 && (
              // Where this piece's best start lies: what the drive would write here.
              <path
                d={bandPath(rad - half * 1.6, rad + half * 1.6, p.bestStart, p.bestEnd)}
                fill={colour}
                stroke="none"
              />
            )}
          </g>
        );
      })}
      {role === 'chosen' && r.block && (
        <ChosenBlock
          block={r.block}
          g={g}
          colour={colour}
          transferring={transferring}
          rq={r.rq}
          sector={r.sector}
        />
      )}
    </g>
  );
});

function ChosenBlock(props: {
  block: TrackArc;
  g: Readonly<GeometryView>;
  colour: string;
  transferring: boolean;
  rq: number;
  sector: number;
}) {
  const { block: b, g, colour, transferring, rq, sector } = props;
  const w = trackWidth(g);
  const half = Math.max(w * 0.42, 6);
  const rad = cylinderRadius(g, b.cylinder);
  const d = bandPath(rad - half, rad + half, b.startAngle, b.endAngle);
  const halo = bandPath(rad - half - 5, rad + half + 5, b.startAngle - 0.012, b.endAngle + 0.012);
  return (
    <g data-testid="range-chosen" data-rq={rq} data-sector={sector}>
      <title>{`range write #${rq}: the block the drive chose — sector ${sector}, cylinder ${b.cylinder}, head ${b.head}`}</title>
      <path d={halo} fill="none" stroke="#111" strokeWidth={2} strokeDasharray="2 2" />
      <path
        d={d}
        fill={transferring ? PHASE_COLOURS.transfer : '#ffffff'}
        stroke={colour}
        strokeWidth={3}
      />
      <path d={d} fill="none" stroke="#111" strokeWidth={1.5} />
    </g>
  );
}

/** A range write already given a block: an ordinary write mark at that block. */
export function PlacedBlock(props: {
  block: TrackArc;
  g: Readonly<GeometryView>;
  proc: number;
  activeHead: number;
  rq: number;
}) {
  const { block: b, g, proc, activeHead, rq } = props;
  const w = trackWidth(g);
  const half = Math.max(w * 0.42, 5);
  const rad = cylinderRadius(g, b.cylinder);
  return (
    <path
      d={bandPath(rad - half, rad + half, b.startAngle, b.endAngle)}
      fill="#ffffff"
      stroke={processColour(proc)}
      strokeWidth={3}
      opacity={b.head !== activeHead ? 0.35 : 1}
      data-rq={rq}
      data-testid="range-placed"
    />
  );
}
