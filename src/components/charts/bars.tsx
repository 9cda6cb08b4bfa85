// Horizontal bar rows with labels at the left: the frame's axes for the bar charts.
import type { Layout } from './layout';

export interface BarRow {
  key: string;
  label: string;
}

/** The row at a pointer's y (or, from the keyboard, the row at the same fraction of x). */
export function rowAt(rows: number, lay: Layout, px: number, py: number | null): number {
  const f = py === null ? px / lay.width : py / lay.height;
  return Math.min(rows - 1, Math.max(0, Math.floor(f * rows)));
}

export function RowLabels({ rows, lay }: { rows: readonly BarRow[]; lay: Layout }) {
  const h = lay.height / Math.max(1, rows.length);
  // labels stay 12 px (a phone shows the chart at its own size); rows thinner than that
  // label every k-th so they do not overlap
  const size = 12;
  const every = Math.ceil(14 / h);
  return (
    <g transform={`translate(${lay.left},${lay.top})`} className="chart-axis">
      <line y1={0} y2={lay.height} stroke="#868e96" />
      {rows.map((r, i) =>
        i % every !== 0 ? null : (
          <text
            key={r.key}
            x={-8}
            y={(i + 0.5) * h}
            dy="0.32em"
            textAnchor="end"
            fontSize={size}
            fill="#495057"
          >
            {r.label.length > 10 ? r.label.slice(0, 9) + '…' : r.label}
          </text>
        ),
      )}
    </g>
  );
}
