// A request as a small chip: its id, first sector and size, in its process's colour;
// reads filled, writes outlined, a sync write marked S (UI.md, visual language). A range
// write shows where it may land — its range, or how many — since its address is the
// drive's choice.
import type { RequestLife } from '../app/replay';
import { inkOn, processColour } from './colors';

export function RequestChip({
  q,
  id,
  highlight,
  brief = false,
}: {
  q?: RequestLife;
  id: number;
  highlight?: boolean;
  /** only the id (presenter view: the sectors are on the platter and in the title) */
  brief?: boolean;
}) {
  if (!q) return <span className="chip unknown">#{id}</span>;
  const colour = processColour(q.proc);
  const style = q.write
    ? { borderColor: colour, color: '#212529', background: '#fff' }
    : { borderColor: colour, background: colour, color: inkOn(colour) };
  return (
    <span
      className={`chip${highlight ? ' chosen' : ''}`}
      data-sync={q.write && q.sync ? '' : undefined}
      style={style}
      title={
        q.ranges
          ? `request ${q.rq}: range write of ${q.nSectors} sectors, to any free place in ${rangesText(q.ranges)} (the drive chooses; sector ${q.sector} is the file system's placeholder), process ${q.proc}`
          : `request ${q.rq}: ${q.write ? (q.sync ? 'sync write' : 'write') : 'read'}, sector ${q.sector}, ${q.nSectors} sectors, cylinder ${q.cylinder} head ${q.head}, process ${q.proc}`
      }
    >
      #{q.rq}
      {!brief && ' '}
      <small hidden={brief}>
        {q.ranges
          ? q.ranges.length === 1
            ? `s${q.ranges[0]!.begin}…${q.ranges[0]!.end}`
            : `${q.ranges.length} ranges`
          : q.nSectors === 1
            ? `sector ${q.sector}`
            : `sectors ${q.sector}–${q.sector + q.nSectors - 1}`}
      </small>
    </span>
  );
}

function rangesText(ranges: ReadonlyArray<{ begin: number; end: number }>): string {
  const sectors = ranges.reduce((n, r) => n + r.end - r.begin, 0);
  return ranges.length === 1
    ? `sectors ${ranges[0]!.begin}–${ranges[0]!.end}`
    : `${ranges.length} ranges (${sectors} sectors)`;
}
