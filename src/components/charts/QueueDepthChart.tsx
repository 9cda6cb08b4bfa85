// Queue depth over time: I/Os waiting in the block layer (queued, not yet dispatched;
// dashed) and requests in the drive (dispatched, not completed; solid).
import { memo, useMemo } from 'react';
import { scaleLinear } from 'd3-scale';
import { timeDomainMs } from '../../app/chart-data';
import type { DepthSeries } from '../../app/chart-depth';
import { AxisBottom, AxisLeft, ChartFrame, layout, type LegendItem } from './frame';
import type { ChartProps } from './marks';
import type { Plot } from './plot-marks';
import { ms, num, seriesColour, timeAxis } from './palette';

const HOST = '#868e96';

function depthAt(s: DepthSeries, tMs: number): number {
  let lo = 0;
  let hi = s.x.length - 1;
  let ans = 0;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (s.x[mid]! <= tMs) {
      ans = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return s.y[ans] ?? 0;
}

export const QueueDepthChart = memo(function QueueDepthChart(props: ChartProps) {
  const { runs, store } = props;
  const series = props.series.depth;
  const n = runs.length;
  const colour = (s: DepthSeries) =>
    n > 1 ? seriesColour(n, s.run, -1) : s.where === 'host' ? HOST : '#212529';
  const what = (s: DepthSeries) => (s.where === 'host' ? 'block layer' : 'in the drive');
  const legend: LegendItem[] = series.map((s) => ({
    label: `${n > 1 ? runs[s.run]!.label + ': ' : ''}${what(s)} (mean ${num(s.mean)}, max ${s.max})`,
    colour: colour(s),
    dash: s.where === 'host',
  }));
  const lay = layout(legend);
  const [startMs, endMs] = timeDomainMs(runs);
  const x = useMemo(
    () => scaleLinear().domain([startMs, endMs]).range([0, lay.width]),
    [startMs, endMs, lay.width],
  );
  const top = Math.max(1, ...series.map((s) => s.max));
  const y = useMemo(
    () =>
      scaleLinear()
        .domain([0, top * 1.08])
        .range([lay.height, 0])
        .nice(),
    [top, lay.height],
  );
  const plot = useMemo(
    (): Plot => ({
      x,
      y,
      marks: series.map((s) => ({
        kind: 'steps',
        x: s.x,
        y: s.y,
        endX: runs[s.run]!.log.endNs / 1e6,
        colour: n > 1 ? seriesColour(n, s.run, -1) : s.where === 'host' ? HOST : '#212529',
        width: s.where === 'host' ? 1.4 : 1.8,
        dash: s.where === 'host' ? [5, 3] : undefined,
      })),
    }),
    [series, runs, x, y, n],
  );
  const t = timeAxis(endMs);
  const binned = series.some((s) => s.binned);

  function readout(px: number) {
    const tMs = x.invert(px);
    const lines = [`at ${ms(tMs)}${binned ? ' (bin means)' : ''}`];
    for (const s of series)
      lines.push(`${n > 1 ? runs[s.run]!.label + ' ' : ''}${what(s)}: ${num(depthAt(s, tMs))}`);
    return { px, lines };
  }

  return (
    <ChartFrame
      id="queue-depth"
      title="Queue depth over time"
      note={
        'Dashed: I/Os queued (Q) and not yet dispatched to the drive (D). Solid: requests in the drive, D to C.' +
        (binned ? ' Long runs are drawn as time-weighted means per bin.' : '')
      }
      legend={legend}
      lay={lay}
      cursor={{ store, x }}
      readout={readout}
      plot={plot}
      axes={
        <>
          <AxisBottom scale={x} lay={lay} label={t.label} format={t.format} />
          <AxisLeft scale={y} lay={lay} label="requests" format={(v) => String(v)} />
        </>
      }
    />
  );
});
