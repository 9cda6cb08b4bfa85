// A solid-state drive has no platter and no arm: show the requests it holds, by process.
import { useInView } from '../../app/in-view';
import { pendingAt, type Replay } from '../../app/replay';
import { useStore, type Store } from '../../app/store';
import { processColour } from '../colors';

export function SsdView({ replay, store }: { replay: Replay; store: Store }) {
  // not while scrolled out of sight
  const [viewRef, shown] = useInView<HTMLElement>();
  const tNs = useStore(store, (s) => s.tNs, shown);
  const pending = pendingAt(replay, tNs);
  const inDrive = pending.filter((q) => q.dispatchNs <= tNs);
  return (
    <figure className="disk-view ssd" ref={viewRef}>
      <svg viewBox="0 0 640 200" role="img" aria-label="Solid-state drive: no platter, no arm">
        <rect x={10} y={10} width={620} height={180} rx={12} fill="#eef2f7" stroke="#b8c2cf" />
        <text x={24} y={40} className="svg-label">
          SSD — no arm, no rotation: every address is equally far ({inDrive.length} in the drive)
        </text>
        {inDrive.slice(0, 64).map((q, i) => (
          <rect
            key={q.rq}
            x={24 + (i % 16) * 37}
            y={60 + Math.floor(i / 16) * 30}
            width={30}
            height={22}
            rx={3}
            fill={q.write ? '#fff' : processColour(q.proc)}
            stroke={processColour(q.proc)}
            strokeWidth={q.write ? 3 : 1}
          />
        ))}
      </svg>
    </figure>
  );
}
