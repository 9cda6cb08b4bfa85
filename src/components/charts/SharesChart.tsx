// Per-process shares: each process's share of the mechanism's time (solid) and of the I/Os
// completed (outlined), with its throughput and latency in the read-out. In compare mode a
// pair of bars per process and run, in the run's colour.
import { memo } from 'react';
import { scaleLinear } from 'd3-scale';
import { rowAt, RowLabels, type BarRow } from './bars';
import { AxisBottom, ChartFrame, layout, type LegendItem } from './frame';
import type { ChartProps } from './marks';
import { ms, num, pct, seriesColour } from './palette';

export const SharesChart = memo(function SharesChart({ runs, series }: ChartProps) {
  const data = series.shares;
  const n = runs.length;
  const rows: BarRow[] = data.map((s) => ({
    key: `${s.run}:${s.proc}`,
    label: n > 1 ? `${s.name} · ${runs[s.run]!.label}` : s.name,
  }));
  const legend: LegendItem[] = [
    { label: 'share of disk time', colour: '#495057', swatch: true },
    { label: 'share of I/Os completed', colour: '#495057', hollow: true },
  ];
  if (n > 1)
    runs.forEach((r, i) =>
      legend.push({ label: r.label, colour: seriesColour(n, i, -1), swatch: true }),
    );
  const lay = layout(legend);
  const top = Math.max(0.05, ...data.map((s) => Math.max(s.diskShare, s.iosShare)));
  const x = scaleLinear()
    .domain([0, Math.min(1, top * 1.1)])
    .range([0, lay.width])
    .nice();
  const h = lay.height / Math.max(1, rows.length);

  function readout(px: number, py: number | null) {
    const i = rowAt(rows.length, lay, px, py);
    const s = data[i]!;
    return {
      px: x(Math.max(s.diskShare, s.iosShare)),
      lines: [
        rows[i]!.label,
        `disk time ${pct(s.diskShare)} · I/Os ${pct(s.iosShare)} (${s.ios})`,
        `${num(s.mbps)} MB/s · Q2C mean ${ms(s.q2cMeanMs)}, max ${ms(s.q2cMaxMs)}`,
      ],
    };
  }

  return (
    <ChartFrame
      id="process-shares"
      title="Per-process shares"
      note="Solid: the share of the mechanism's time (seek, rotation, transfer) spent on its requests. Outlined: its share of the I/Os completed."
      legend={legend}
      lay={lay}
      readout={readout}
      axes={
        <>
          <AxisBottom
            scale={x}
            lay={lay}
            label="share of the run"
            format={(v) => `${Math.round(v * 100)}%`}
          />
          <RowLabels rows={rows} lay={lay} />
        </>
      }
    >
      {data.map((s, i) => {
        const c = seriesColour(n, s.run, s.proc);
        return (
          <g key={rows[i]!.key} transform={`translate(0,${i * h})`}>
            <rect y={h * 0.12} width={x(s.diskShare)} height={h * 0.38} fill={c} />
            <rect
              y={h * 0.52}
              width={x(s.iosShare)}
              height={h * 0.36}
              fill="none"
              stroke={c}
              strokeWidth={1.4}
            />
          </g>
        );
      })}
    </ChartFrame>
  );
});
