// The disk view: a static platter layer (zones, tracks, sector ticks) turned at the simulated
// speed, and a live layer — pending requests at their sectors, the rotary arm over its
// cylinder, the request being served, and the phase in its colour. React owns the <svg>.
import { memo, useMemo } from 'react';
import {
  lastAtOrBefore,
  mechanismAt,
  pendingAt,
  platterAngle,
  type Replay,
  type RequestLife,
} from '../../app/replay';
import { useInView } from '../../app/in-view';
import { useStore, type Store } from '../../app/store';
import { PHASE_COLOURS, processColour } from '../colors';
import { PhaseCaption } from './PhaseCaption';
import { rangeIndex, rangeSceneAt, type RangeIndex } from './range-index';
import { PlacedBlock, RangeWriteMarks } from './RangeMarks';
import { RangeStrip } from './RangeStrip';
import {
  CX,
  CY,
  PIVOT,
  VIEW_H,
  VIEW_W,
  bandPath,
  cylinderRadius,
  polar,
  sectorsPerTrack,
  trackWidth,
} from './shape';
import { StaticPlatter } from './StaticPlatter';
import { SsdView } from './SsdView';

interface Props {
  replay: Replay;
  store: Store;
}

export function DiskView({ replay, store }: Props) {
  return replay.log.geometry.rotating ? (
    <PlatterView replay={replay} store={store} />
  ) : (
    <SsdView replay={replay} store={store} />
  );
}

function PlatterView({ replay, store }: Props) {
  // the platter turns every frame: not while scrolled out of sight
  const [viewRef, shown] = useInView<HTMLElement>();
  const tNs = useStore(store, (s) => s.tNs, shown);
  const g = replay.log.geometry;
  const p = platterAngle(replay, tNs);
  const mech = mechanismAt(replay, tNs);
  // The requests in the system change only at the log's stops (their Q and C are events):
  // found once per stop, not once per frame.
  const stop = lastAtOrBefore(replay.stops, tNs);
  const atStop = stop >= 0 ? replay.stops[stop]! : replay.log.fromNs;
  const pending = useMemo(() => pendingAt(replay, atStop), [replay, atStop]);
  const targetRq = mech.service?.rq ?? -1;
  const ranges = rangeIndex(replay);
  const scene = rangeSceneAt(replay, ranges, pending, tNs);
  // A range write's log entries hold its placeholder until completion: once the drive has
  // chosen its block, it is where the block is.
  const target = placedLife(replay.requests.get(targetRq), ranges, tNs);
  const focus = scene.chosen ?? scene.weighed[0] ?? null;
  const w = trackWidth(g);
  const headR = cylinderRadius(g, mech.cylinder);
  const [hx, hy] = polar(headR, 0);
  const phaseColour = PHASE_COLOURS[mech.phase];

  return (
    <figure className="disk-view" ref={viewRef}>
      <DiskFacts g={g} active={mech.head} />
      <svg
        viewBox={`0 0 ${VIEW_W} ${VIEW_H}`}
        role="img"
        aria-label={`Disk platter, surface ${mech.head}, arm at cylinder ${Math.round(mech.cylinder)}, ${mech.phase}`}
      >
        <g data-testid="platter" transform={`rotate(${(-p * 360).toFixed(3)} ${CX} ${CY})`}>
          <StaticPlatter geometry={g} head={mech.head} />
          {target && mech.phase === 'rotation' && target.head === mech.head && (
            // What the platter still has to turn before the sector reaches the head.
            <path
              d={bandPath(
                cylinderRadius(g, target.cylinder) - w * 0.5,
                cylinderRadius(g, target.cylinder) + w * 0.5,
                p,
                target.angle >= p ? target.angle : target.angle + 1,
              )}
              fill={PHASE_COLOURS.rotation}
              opacity={0.18}
            />
          )}
          {scene.waiting.map((r) => (
            <RangeWriteMarks
              key={`w${r.rq}`}
              record={r}
              role="waiting"
              proc={replay.requests.get(r.rq)?.proc ?? 0}
              g={g}
              activeHead={mech.head}
              transferring={false}
            />
          ))}
          {scene.weighed.map((r) => (
            <RangeWriteMarks
              key={`l${r.rq}`}
              record={r}
              role="weighed"
              proc={replay.requests.get(r.rq)?.proc ?? 0}
              g={g}
              activeHead={mech.head}
              transferring={false}
            />
          ))}
          {scene.placed.map((b) => (
            <PlacedBlock
              key={`p${b.rq}`}
              rq={b.rq}
              block={b.block}
              g={g}
              proc={replay.requests.get(b.rq)?.proc ?? 0}
              activeHead={mech.head}
            />
          ))}
          {scene.chosen && (
            <RangeWriteMarks
              record={scene.chosen}
              role="chosen"
              proc={replay.requests.get(scene.chosen.rq)?.proc ?? 0}
              g={g}
              activeHead={mech.head}
              transferring={scene.chosen.rq === targetRq && mech.phase === 'transfer'}
            />
          )}
          {pending.map((q) =>
            ranges.first.has(q.rq) ? null : (
              <RequestMark
                key={q.rq}
                q={q}
                g={replay.log.geometry}
                activeHead={mech.head}
                isTarget={q.rq === targetRq}
                transferring={q.rq === targetRq && mech.phase === 'transfer'}
              />
            ),
          )}
        </g>
        {/* The rotary arm: pivot off the platter, head over the current cylinder at angle 0. */}
        <line
          x1={PIVOT[0]}
          y1={PIVOT[1]}
          x2={hx}
          y2={hy}
          stroke={mech.phase === 'seek' ? PHASE_COLOURS.seek : '#6b7785'}
          strokeWidth={9}
          strokeLinecap="round"
          data-testid="arm"
        />
        <circle cx={PIVOT[0]} cy={PIVOT[1]} r={14} fill="#4a5562" />
        <rect
          x={hx - 9}
          y={hy - 6}
          width={18}
          height={12}
          rx={3}
          fill={phaseColour}
          stroke="#212529"
          strokeWidth={1.5}
          data-testid="head"
        />
      </svg>
      {focus && (
        <RangeStrip
          record={focus}
          chosen={focus === scene.chosen}
          proc={replay.requests.get(focus.rq)?.proc ?? 0}
          g={g}
          p={p}
          armCylinder={mech.cylinder}
          others={(scene.decision?.ranges?.length ?? 1) - 1}
        />
      )}
      <PhaseCaption
        mech={mech}
        target={target}
        tNs={tNs}
        inDrive={pending.filter((q) => q.dispatchNs <= tNs)}
      />
    </figure>
  );
}

/** A request as drawn: a range write the drive has placed takes its chosen block's place. */
function placedLife(
  q: RequestLife | undefined,
  ranges: RangeIndex,
  tNs: number,
): RequestLife | undefined {
  const p = q && ranges.placed.get(q.rq);
  if (!q || !p || p.tNs > tNs) return q;
  const { block } = p;
  return {
    ...q,
    sector: p.record.sector,
    cylinder: block.cylinder,
    head: block.head,
    angle: block.startAngle,
  };
}

/** A pending request's mark: redrawn when it changes, not every frame the platter turns. */
const RequestMark = memo(function RequestMark(props: {
  q: RequestLife;
  g: Replay['log']['geometry'];
  activeHead: number;
  isTarget: boolean;
  transferring: boolean;
}) {
  const { q, g, activeHead, isTarget, transferring } = props;
  if (q.cylinder < 0) return null;
  const w = trackWidth(g);
  const half = Math.max(w * 0.42, 5);
  const r = cylinderRadius(g, q.cylinder);
  const spt = sectorsPerTrack(g, q.cylinder);
  const span = Math.max(Math.min(q.nSectors, spt) / spt, 0.012);
  const colour = processColour(q.proc);
  const d = bandPath(r - half, r + half, q.angle, q.angle + span);
  const other = q.head !== activeHead;
  return (
    <g opacity={other ? 0.35 : 1} className={isTarget ? 'target' : undefined}>
      <path
        d={d}
        fill={q.write ? '#ffffff' : colour}
        stroke={q.write ? colour : '#ffffff'}
        strokeWidth={q.write ? 3 : 1.5}
        data-rq={q.rq}
      />
      {isTarget && (
        <path
          d={d}
          fill={transferring ? PHASE_COLOURS.transfer : 'none'}
          fillOpacity={0.55}
          stroke="#111"
          strokeWidth={3}
          className="target-ring"
        />
      )}
    </g>
  );
});

/**
 * The drive in words above the platter — its speed, cylinders and the surface being read —
 * as page text (it stays readable at any size, where SVG text shrinks with the drawing).
 * The surfaces are a plain picture of platters seen edge-on, the active one marked: nothing
 * here is a control, and nothing looks like one.
 */
const DiskFacts = memo(function DiskFacts({
  g,
  active,
}: {
  g: Replay['log']['geometry'];
  active: number;
}) {
  const shown = Math.min(g.surfaces, 16);
  return (
    <p className="disk-facts">
      <span>
        {Number(g.rpm.toFixed(1))} RPM · {g.cylinders} cylinders (0 outermost)
      </span>
      <span
        className="surface-strip"
        data-testid="surface-strip"
        aria-label={`Active surface: head ${active} of ${g.surfaces}`}
      >
        surface: head {active} of {g.surfaces}{' '}
        <span className="surface-edges" aria-hidden="true">
          {Array.from({ length: shown }, (_, h) => (
            <span key={h} className={h === active ? 'edge active' : 'edge'} />
          ))}
        </span>
      </span>
    </p>
  );
});
