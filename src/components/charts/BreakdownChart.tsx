// Where the drive's time per request went: seek, rotational wait, media transfer and
// controller overhead (the phase colours of the platter), mean per completed request —
// for the run and, with one run, each process.
import { memo } from 'react';
import { scaleLinear } from 'd3-scale';
import { PHASES } from '../../app/chart-data';
import { PHASE_COLOURS, PHASE_LABELS } from '../colors';
import { rowAt, RowLabels, type BarRow } from './bars';
import { AxisBottom, ChartFrame, layout, type LegendItem } from './frame';
import type { ChartProps } from './marks';
import { ms } from './palette';

export const BreakdownChart = memo(function BreakdownChart({ runs, series }: ChartProps) {
  const data = series.breakdown;
  const n = runs.length;
  const rows: BarRow[] = data.map((b) => ({
    key: `${b.run}:${b.proc}`,
    label:
      b.proc < 0
        ? n > 1
          ? runs[b.run]!.label
          : 'all'
        : (runs[b.run]!.log.processes[b.proc] ?? `proc ${b.proc}`),
  }));
  const legend: LegendItem[] = PHASES.map((p) => ({
    label: PHASE_LABELS[p],
    colour: PHASE_COLOURS[p],
    swatch: true,
  }));
  const lay = layout(legend);
  const total = (i: number) => PHASES.reduce((a, p) => a + data[i]!.meanMs[p], 0);
  const x = scaleLinear()
    .domain([0, Math.max(1e-3, ...data.map((_, i) => total(i))) * 1.05])
    .range([0, lay.width])
    .nice();
  const h = lay.height / Math.max(1, rows.length);

  function readout(px: number, py: number | null) {
    const i = rowAt(rows.length, lay, px, py);
    const b = data[i]!;
    return {
      px: x(total(i)),
      lines: [
        `${rows[i]!.label}: ${b.requests} requests${b.cacheHits ? `, ${b.cacheHits} cache hits` : ''}`,
        ...PHASES.map((p) => `${PHASE_LABELS[p]} ${ms(b.meanMs[p])}`),
        `total ${ms(total(i))} per request`,
      ],
    };
  }

  return (
    <ChartFrame
      id="positioning-breakdown"
      title="Positioning breakdown (mean per request)"
      note="The drive's time per completed request: seek, rotational wait, media transfer, controller overhead. A cache hit adds no positioning."
      legend={legend}
      lay={lay}
      readout={readout}
      axes={
        <>
          <AxisBottom scale={x} lay={lay} label="ms per request" format={(v) => String(v)} />
          <RowLabels rows={rows} lay={lay} />
        </>
      }
    >
      {data.map((b, i) => {
        let at = 0;
        return (
          <g key={rows[i]!.key} transform={`translate(0,${i * h + h * 0.15})`}>
            {PHASES.map((p) => {
              const x0 = x(at);
              at += b.meanMs[p];
              return (
                <rect
                  key={p}
                  x={x0}
                  width={Math.max(0, x(at) - x0)}
                  height={h * 0.7}
                  fill={PHASE_COLOURS[p]}
                />
              );
            })}
          </g>
        );
      })}
    </ChartFrame>
  );
});
