// Latency over time: every completed I/O at its completion time, its Q2C up the side
// (colour = process, or run in compare mode; reads filled, writes outlined), and the mean
// of each time bin as a line.
import { memo, useMemo } from 'react';
import { scaleLinear } from 'd3-scale';
import { timeDomainMs } from '../../app/chart-data';
import { AxisBottom, AxisLeft, ChartFrame, layout, type LegendItem } from './frame';
import { hasWrites, nearestPoint, type ChartProps } from './marks';
import type { Plot } from './plot-marks';
import { ALL_COLOUR, ms, seriesColour, seriesName, timeAxis } from './palette';
import { ordinal } from '../format';

export const LatencyChart = memo(function LatencyChart({ runs, series, store }: ChartProps) {
  const data = series.latency;
  const labels = runs.map((r) => r.label);
  const names = runs.map((r) => r.log.processes);
  const n = runs.length;
  const writes = hasWrites(data.points);
  const legend: LegendItem[] = [];
  if (n === 1) {
    const procs = [...new Set(data.points.map((p) => p.proc))];
    for (const p of procs)
      legend.push({
        label: seriesName(labels, names, 0, p),
        colour: seriesColour(1, 0, p),
        hollow: false,
      });
    legend.push({ label: 'mean per bin', colour: ALL_COLOUR });
  } else {
    runs.forEach((r, i) =>
      legend.push({ label: `${r.label} (mean per bin)`, colour: seriesColour(n, i, -1) }),
    );
  }
  if (writes) legend.push({ label: 'write', colour: '#868e96', hollow: true });
  const lay = layout(legend);
  const [startMs, endMs] = timeDomainMs(runs);
  const x = useMemo(
    () => scaleLinear().domain([startMs, endMs]).range([0, lay.width]),
    [startMs, endMs, lay.width],
  );
  const y = useMemo(
    () =>
      scaleLinear()
        .domain([0, Math.max(data.yMaxMs * 1.05, 1e-3)])
        .range([lay.height, 0])
        .nice(),
    [data, lay.height],
  );
  const t = timeAxis(endMs);
  const plot = useMemo(
    (): Plot => ({
      x,
      y,
      marks: [
        ...data.points.map((set) => ({
          kind: 'dots' as const,
          set,
          r: 2.3,
          colour: seriesColour(n, set.run, set.proc),
          opacity: n > 1 ? 0.45 : 0.8,
        })),
        ...data.means.map((m) => ({
          kind: 'line' as const,
          x: m.x,
          y: m.y,
          colour: n > 1 ? seriesColour(n, m.run, -1) : ALL_COLOUR,
          width: 1.8,
        })),
      ],
    }),
    [data, x, y, n],
  );

  function readout(px: number, py: number | null) {
    const hit = nearestPoint(data.points, x, y, px, py, 6);
    if (hit) {
      const { set, i } = hit;
      return {
        px: x(set.x[i]!),
        lines: [
          `${seriesName(labels, names, set.run, set.proc)} · ${set.write[i] ? 'write' : 'read'}`,
          `completed at ${ms(set.x[i]!)}`,
          `Q2C ${ms(set.y[i]!)}`,
        ],
      };
    }
    const tMs = x.invert(px);
    const b = Math.floor((tMs - startMs) / data.binMs);
    const b0 = startMs + b * data.binMs;
    const lines = [`${ms(b0)} – ${ms(b0 + data.binMs)}`];
    for (const m of data.means) {
      const v = m.y[b];
      lines.push(
        `${n > 1 ? labels[m.run] + ': ' : ''}mean Q2C ${v !== undefined && v === v ? ms(v) : '— (none completed)'}`,
      );
    }
    return { px, lines };
  }

  return (
    <ChartFrame
      id="latency-over-time"
      title="Latency (Q2C) over time"
      note={
        `Each dot is an I/O at its completion, Q (queued) to C (completed); the line is the mean per ${ms(data.binMs)} bin.` +
        (data.stride > 1 ? ` Every ${ordinal(data.stride)} I/O is drawn (the line uses all).` : '')
      }
      legend={legend}
      lay={lay}
      cursor={{ store, x }}
      readout={readout}
      plot={plot}
      axes={
        <>
          <AxisBottom scale={x} lay={lay} label={t.label} format={t.format} />
          <AxisLeft scale={y} lay={lay} label="Q2C latency (ms)" format={(v) => String(v)} />
        </>
      }
    />
  );
});
