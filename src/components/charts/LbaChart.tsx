// LBA over time, as seekwatcher draws it: each request at the time it went to the drive
// (D), at its first sector; the head's sweeps and jumps show as lines and scatter.
import { memo, useMemo } from 'react';
import { scaleLinear } from 'd3-scale';
import { timeDomainMs } from '../../app/chart-data';
import { AxisBottom, AxisLeft, ChartFrame, layout, type LegendItem } from './frame';
import { hasWrites, nearestPoint, type ChartProps } from './marks';
import type { Plot } from './plot-marks';
import { ms, seriesColour, seriesName, tick, timeAxis } from './palette';
import { ordinal } from '../format';

export const LbaChart = memo(function LbaChart({ runs, series, store }: ChartProps) {
  const data = series.lba;
  const labels = runs.map((r) => r.label);
  const names = runs.map((r) => r.log.processes);
  const n = runs.length;
  const legend: LegendItem[] =
    n > 1
      ? runs.map((r, i) => ({ label: r.label, colour: seriesColour(n, i, -1), hollow: false }))
      : [...new Set(data.points.map((p) => p.proc))].map((p) => ({
          label: seriesName(labels, names, 0, p),
          colour: seriesColour(1, 0, p),
          hollow: false,
        }));
  if (hasWrites(data.points)) legend.push({ label: 'write', colour: '#868e96', hollow: true });
  const lay = layout(legend);
  const [startMs, endMs] = timeDomainMs(runs);
  const x = useMemo(
    () => scaleLinear().domain([startMs, endMs]).range([0, lay.width]),
    [startMs, endMs, lay.width],
  );
  const y = useMemo(
    () =>
      scaleLinear()
        .domain([0, Math.max(1, data.maxSector)])
        .range([lay.height, 0])
        .nice(),
    [data, lay.height],
  );
  const t = timeAxis(endMs);
  const plot = useMemo(
    (): Plot => ({
      x,
      y,
      marks: data.points.map((set) => ({
        kind: 'dots',
        set,
        r: 2.2,
        colour: seriesColour(n, set.run, set.proc),
        opacity: 0.85,
      })),
    }),
    [data, x, y, n],
  );

  function readout(px: number, py: number | null) {
    const hit = nearestPoint(data.points, x, y, px, py, 6);
    if (!hit) return { px, lines: [`at ${ms(x.invert(px))}`, 'no request dispatched here'] };
    const { set, i } = hit;
    return {
      px: x(set.x[i]!),
      lines: [
        `${seriesName(labels, names, set.run, set.proc)} · ${set.write[i] ? 'write' : 'read'}`,
        `dispatched at ${ms(set.x[i]!)}`,
        `sector ${set.y[i]!.toLocaleString('en')}`,
      ],
    };
  }

  return (
    <ChartFrame
      id="lba-over-time"
      title="LBA over time"
      note={
        'Each request at its dispatch to the drive (D) and its first sector; reads filled, writes outlined.' +
        (data.stride > 1 ? ` Every ${ordinal(data.stride)} request is drawn.` : '')
      }
      legend={legend}
      lay={lay}
      cursor={{ store, x }}
      readout={readout}
      plot={plot}
      axes={
        <>
          <AxisBottom scale={x} lay={lay} label={t.label} format={t.format} />
          <AxisLeft scale={y} lay={lay} label="sector (LBA)" format={tick} />
        </>
      }
    />
  );
});
