// Throughput and IOPS over time: I/Os completed per second and MB/s completed by the
// device, per time bin; a line per run (one run: the whole run's, processes are in Shares).
import { memo, useMemo } from 'react';
import { scaleLinear } from 'd3-scale';
import { timeDomainMs, type RateSeries } from '../../app/chart-data';
import { AxisBottom, AxisLeft, ChartFrame, layout, type LegendItem } from './frame';
import type { ChartProps } from './marks';
import type { Plot } from './plot-marks';
import { ms, num, seriesColour, tick, timeAxis } from './palette';

function RateChart(props: ChartProps & { metric: 'iops' | 'mbps' }) {
  const { runs, series, store, metric } = props;
  const data = series.throughput;
  const n = runs.length;
  const legend: LegendItem[] = data.series.map((s) => ({
    label: `${n > 1 ? runs[s.run]!.label + ': ' : ''}${metric === 'iops' ? 'IOPS' : 'MB/s'} (run mean ${metric === 'iops' ? num(s.totalIops) : num(s.totalMbps)})`,
    colour: seriesColour(n, s.run, -1),
  }));
  const lay = layout(legend);
  const [startMs, endMs] = timeDomainMs(runs);
  const x = useMemo(
    () => scaleLinear().domain([startMs, endMs]).range([0, lay.width]),
    [startMs, endMs, lay.width],
  );
  const values = (s: RateSeries) => (metric === 'iops' ? s.iops : s.mbps);
  const top = Math.max(1e-6, ...data.series.flatMap(values));
  const y = useMemo(
    () =>
      scaleLinear()
        .domain([0, top * 1.05])
        .range([lay.height, 0])
        .nice(),
    [top, lay.height],
  );
  const plot = useMemo(
    (): Plot => ({
      x,
      y,
      marks: data.series.map((s) => ({
        kind: 'steps',
        x: s.x,
        y: metric === 'iops' ? s.iops : s.mbps,
        endX: Math.min(endMs, startMs + s.x.length * data.binMs),
        colour: seriesColour(n, s.run, -1),
        width: 1.8,
      })),
    }),
    [data, x, y, n, metric, startMs, endMs],
  );
  const t = timeAxis(endMs);
  const unit = metric === 'iops' ? 'IOPS' : 'MB/s';

  function readout(px: number) {
    const b = Math.max(0, Math.floor((x.invert(px) - startMs) / data.binMs));
    const b0 = startMs + b * data.binMs;
    const lines = [`${ms(b0)} – ${ms(b0 + data.binMs)}`];
    for (const s of data.series) {
      const v = values(s)[b];
      lines.push(
        `${n > 1 ? runs[s.run]!.label + ': ' : ''}${v === undefined ? '—' : num(v)} ${unit}`,
      );
    }
    return { px, lines };
  }

  return (
    <ChartFrame
      id={metric === 'iops' ? 'iops-over-time' : 'throughput-over-time'}
      title={metric === 'iops' ? 'IOPS over time' : 'Throughput over time'}
      note={
        metric === 'iops'
          ? `I/Os completed per second in each ${ms(data.binMs)} bin (the run's figure in the legend is over the time to its last completion).`
          : `MB/s (10⁶ bytes) the device completed in each ${ms(data.binMs)} bin.`
      }
      legend={legend}
      lay={lay}
      cursor={{ store, x }}
      readout={readout}
      plot={plot}
      axes={
        <>
          <AxisBottom scale={x} lay={lay} label={t.label} format={t.format} />
          <AxisLeft scale={y} lay={lay} label={unit} format={tick} />
        </>
      }
    />
  );
}

export const ThroughputChart = memo(function ThroughputChart(props: ChartProps) {
  return (
    <div className="chart-pair">
      <RateChart {...props} metric="mbps" />
      <RateChart {...props} metric="iops" />
    </div>
  );
});
