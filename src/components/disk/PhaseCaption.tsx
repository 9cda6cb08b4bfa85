// One sentence under the platter saying which of seek, rotation and transfer is happening,
// with the legend of the phase colours (UI.md, first screen).
import type { MechanismAt, Phase, RequestLife } from '../../app/replay';
import { PHASE_COLOURS, PHASE_LABELS } from '../colors';
import { formatNs } from '../format';

const SHOWN: Phase[] = ['seek', 'rotation', 'transfer', 'overhead'];

function sentence(
  mech: MechanismAt,
  target: RequestLife | undefined,
  tNs: number,
  inDrive: readonly RequestLife[],
): string {
  const s = mech.service;
  if (!s || !target) {
    const next = inDrive[0];
    if (next)
      return `The drive holds request ${next.rq}: the controller's overhead runs before the mechanism starts it.`;
    return 'The mechanism is idle: nothing to serve.';
  }
  const what = `request ${target.rq} (sector ${target.sector}, ${target.nSectors} × 512 B)`;
  switch (mech.phase) {
    case 'seek':
      // on the same cylinder the "seek" is a head switch (with a write's settle: mechanics.ts)
      if (s.fromCylinder === s.toCylinder)
        return `Head switch: the arm stays on cylinder ${s.toCylinder}; head ${s.head} takes over${target.write ? ' and settles before writing' : ''} for ${what} — ${formatNs(s.seekEndNs - s.startNs)} in all.`;
      return `Seek: the arm moves from cylinder ${s.fromCylinder} to ${s.toCylinder} for ${what} — ${formatNs(s.seekEndNs - s.startNs)} in all.`;
    case 'rotation':
      return `Rotation: the head waits on cylinder ${s.toCylinder} for the first sector of ${what} to come round — ${formatNs(s.mediaStartNs - tNs)} more.`;
    case 'transfer':
      return `Transfer: the sectors of ${what} pass under head ${s.head} — ${formatNs(s.mediaEndNs - s.mediaStartNs)}.`;
    case 'overhead':
      return `Overhead: the drive finishes ${what}.`;
    default:
      return 'The mechanism is idle.';
  }
}

export function PhaseCaption(props: {
  mech: MechanismAt;
  target: RequestLife | undefined;
  tNs: number;
  /** requests dispatched to the drive and not completed */
  inDrive: readonly RequestLife[];
}) {
  const { mech } = props;
  return (
    <figcaption className="phase-caption">
      <ul className="phase-legend" aria-label="Phase colours">
        {SHOWN.map((p) => (
          <li key={p} className={mech.phase === p ? 'now' : undefined}>
            <span className="swatch" style={{ background: PHASE_COLOURS[p] }} />
            {PHASE_LABELS[p]}
          </li>
        ))}
      </ul>
      <p
        aria-live="off"
        data-testid="phase-sentence"
        style={{ borderLeftColor: PHASE_COLOURS[mech.phase] }}
      >
        {sentence(mech, props.target, props.tNs, props.inDrive)}
      </p>
    </figcaption>
  );
}
