// A request as a small chip: its id, first sector and size, in its process's colour;
// reads filled, writes outlined (UI.md, visual language).
import type { RequestLife } from '../app/replay';
import { processColour } from './colors';

export function RequestChip({
  q,
  id,
  highlight,
}: {
  q?: RequestLife;
  id: number;
  highlight?: boolean;
}) {
  if (!q) return <span className="chip unknown">#{id}</span>;
  const colour = processColour(q.proc);
  const style = q.write
    ? { borderColor: colour, color: '#212529', background: '#fff' }
    : { borderColor: colour, background: colour, color: '#fff' };
  return (
    <span
      className={`chip${highlight ? ' chosen' : ''}`}
      style={style}
      title={`request ${q.rq}: ${q.write ? 'write' : 'read'}, sector ${q.sector}, ${q.nSectors} sectors, cylinder ${q.cylinder} head ${q.head}, process ${q.proc}`}
    >
      #{q.rq}{' '}
      <small>
        s{q.sector}+{q.nSectors}
      </small>
    </span>
  );
}
