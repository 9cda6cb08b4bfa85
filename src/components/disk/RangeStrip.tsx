// A range write's candidate tracks unrolled (issue #6): one row per track of its ranges, by
// cylinder then head; across, how far the platter must still turn before each place reaches
// the heads (0 at the left = under the head now, so the strip slides as the platter turns).
// On a disk of thousands of cylinders the ranges' tracks are a pixel apart on the platter;
// here HRS's scan reads plainly: the pieces it examined (filled, with seek + rotation on
// hover), the pruned and never-reached ones (dimmed), each piece's best start, and the chosen
// block (ringed) — with the seek to each cylinder beside its rows.
import type { GeometryView, LogRangePiece, LogRangeRecord, TrackArc } from '../../worker/log';
import { PHASE_COLOURS, processColour } from '../colors';
import { formatNs } from '../format';
import { pieceTitle, type PieceState } from './RangeMarks';

const W = 640;
const LEFT = 196;
const RIGHT = 12;
const TOP = 30;
const PLOT = W - LEFT - RIGHT;
/** past this many tracks the strip shows only those HRS's scan reached */
const MANY_ROWS = 48;
const key = (t: TrackArc): string => `${t.cylinder}:${t.head}`;

function frac(x: number): number {
  return x - Math.floor(x);
}

/** [x, width] pieces of the arc a0…a1 relative to the head's angle p (split where it wraps). */
function spans(a0: number, a1: number, p: number): Array<[number, number]> {
  const s = frac(a0 - p);
  const len = Math.min(1, Math.max(0.004, a1 - a0));
  if (s + len <= 1) return [[s, len]];
  return [
    [s, 1 - s],
    [0, s + len - 1],
  ];
}

export function RangeStrip(props: {
  record: LogRangeRecord;
  chosen: boolean;
  proc: number;
  g: Readonly<GeometryView>;
  /** the platter's angle under the heads now */
  p: number;
  /** the arm's cylinder now */
  armCylinder: number;
  others: number;
}) {
  const { record: r, chosen, proc, g, p, armCylinder, others } = props;
  const colour = processColour(proc);
  const byTrack = new Map<string, LogRangePiece>();
  for (const x of r.pieces) byTrack.set(`${x.cylinder}:${x.head}`, x);
  // A row per track (a list of free extents may put several arcs on one); past MANY_ROWS
  // tracks, only those HRS's scan reached (the rest are counted under the strip).
  const arcsOf = new Map<string, TrackArc[]>();
  for (const t of [...r.tracks].sort((a, b) => a.cylinder - b.cylinder || a.head - b.head)) {
    const key = `${t.cylinder}:${t.head}`;
    const list = arcsOf.get(key);
    if (list) list.push(t);
    else arcsOf.set(key, [t]);
  }
  let rows = [...arcsOf.values()];
  const hidden = rows.length > MANY_ROWS ? rows.filter((a) => !byTrack.has(key(a[0]!))).length : 0;
  if (hidden > 0) rows = rows.filter((a) => byTrack.has(key(a[0]!)));
  const tracks = rows.map((a) => a[0]!);
  const rowH = Math.max(3, Math.min(12, 240 / Math.max(1, tracks.length)));
  const H = TOP + tracks.length * rowH + 20;
  const x = (u: number) => LEFT + u * PLOT;
  // One label per cylinder: its least seek among the examined pieces.
  const groups: Array<{ cylinder: number; first: number; rows: number; seekNs: number | null }> =
    [];
  tracks.forEach((t, i) => {
    const last = groups[groups.length - 1];
    const piece = byTrack.get(`${t.cylinder}:${t.head}`);
    const seek = piece ? piece.seekNs : null;
    if (last && last.cylinder === t.cylinder) {
      last.rows++;
      if (seek !== null) last.seekNs = last.seekNs === null ? seek : Math.min(last.seekNs, seek);
    } else groups.push({ cylinder: t.cylinder, first: i, rows: 1, seekNs: seek });
  });
  const revMs = g.revolutionNs / 1e6;
  return (
    <>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        className="range-strip"
        data-testid="range-strip"
        role="img"
        aria-label={`Range write ${r.rq}: ${tracks.length} candidate tracks unrolled, by how far each must turn to reach the head`}
      >
        <text x={4} y={16} className="svg-small" style={{ fill: 'var(--ink)' }}>
          Range write #{r.rq}
          {chosen ? ` — the drive chose sector ${r.sector}` : ' — weighed, not chosen'}
          {others > 0 ? ` (${others} other range write${others === 1 ? '' : 's'} weighed)` : ''}
        </text>
        {groups.map((gr, i) => (
          <g key={gr.cylinder}>
            <rect
              x={LEFT}
              y={TOP + gr.first * rowH}
              width={PLOT}
              height={gr.rows * rowH}
              style={{ fill: i % 2 ? 'var(--hover)' : 'var(--line)' }}
            />
            <text
              x={LEFT - 6}
              y={TOP + (gr.first + gr.rows / 2) * rowH + 4}
              textAnchor="end"
              className="svg-small"
              style={{
                fill:
                  Math.round(armCylinder) === gr.cylinder ? PHASE_COLOURS.seek : 'var(--heading)',
              }}
            >
              {Math.round(armCylinder) === gr.cylinder ? '▶ ' : ''}cyl {gr.cylinder}
              {gr.seekNs !== null ? ` · seek ${formatNs(gr.seekNs)}` : ''}
            </text>
          </g>
        ))}
        {tracks.map((t, i) => {
          const piece = byTrack.get(`${t.cylinder}:${t.head}`);
          const state: PieceState = piece ? (piece.pruned ? 'pruned' : 'examined') : 'unreached';
          const y = TOP + i * rowH + 0.5;
          const h = Math.max(1.5, rowH - 1);
          const arcs: Array<[number, number]> = piece
            ? [[piece.startAngle, piece.endAngle]]
            : rows[i]!.map((a) => [a.startAngle, a.endAngle]);
          return (
            <g key={i} opacity={state === 'examined' ? 1 : 0.35}>
              {arcs
                .flatMap(([a0, a1]) => spans(a0, a1, p))
                .map(([u, len], k) => (
                  <rect
                    key={k}
                    x={x(u)}
                    y={y}
                    width={len * PLOT}
                    height={h}
                    fill={state === 'examined' ? colour : 'none'}
                    fillOpacity={0.35}
                    stroke={state === 'unreached' ? '#868e96' : colour}
                    strokeWidth={1}
                    strokeDasharray={state === 'examined' ? undefined : '3 2'}
                    data-testid="range-strip-piece"
                    data-state={state}
                  >
                    <title>{pieceTitle(r.rq, t, piece, state)}</title>
                  </rect>
                ))}
              {state === 'examined' &&
                piece &&
                piece.bestStart >= 0 &&
                spans(piece.bestStart, piece.bestEnd, p).map(([u, len], k) => (
                  <rect key={`b${k}`} x={x(u)} y={y} width={len * PLOT} height={h} fill={colour} />
                ))}
            </g>
          );
        })}
        {chosen &&
          r.block &&
          (() => {
            const i = tracks.findIndex(
              (t) => t.cylinder === r.block!.cylinder && t.head === r.block!.head,
            );
            if (i < 0) return null;
            return spans(r.block.startAngle, r.block.endAngle, p).map(([u, len], k) => (
              <rect
                key={`c${k}`}
                x={x(u) - 2}
                y={TOP + i * rowH - 2}
                width={len * PLOT + 4}
                height={Math.max(rowH, 6) + 3}
                fill="none"
                style={{ stroke: 'var(--ink)' }}
                strokeWidth={2}
                data-testid="range-strip-chosen"
              >
                <title>{`the block the drive chose: sector ${r.sector}, cylinder ${r.block!.cylinder}, head ${r.block!.head}`}</title>
              </rect>
            ));
          })()}
        <line
          x1={LEFT}
          x2={LEFT}
          y1={TOP - 4}
          y2={H - 16}
          stroke={PHASE_COLOURS.seek}
          strokeWidth={2}
        />
        {[0, 0.25, 0.5, 0.75, 1].map((u) => (
          <text
            key={u}
            x={x(u)}
            y={H - 2}
            textAnchor={u === 0 ? 'start' : u === 1 ? 'end' : 'middle'}
            className="svg-small"
            style={{ fill: 'var(--heading)' }}
          >
            {u === 0 ? '0' : `${(u * revMs).toFixed(1)} ms`}
          </text>
        ))}
      </svg>
      <p className="range-strip-note muted small">
        Across: the rotation until each place is under the head (a revolution is {revMs.toFixed(1)}{' '}
        ms); a row per track.
        {hidden > 0 && (
          <span data-testid="range-strip-hidden">
            {' '}
            Shown: the tracks HRS reached; {hidden} more of the ranges’ tracks, never reached, are
            not.
          </span>
        )}
      </p>
    </>
  );
}
