// The latency CDF: the fraction of I/Os that completed within x ms of being queued, for
// the whole run and (one run) each process; one curve per run in compare mode.
import { memo, useMemo } from 'react';
import { scaleLinear } from 'd3-scale';
import { AxisBottom, AxisLeft, ChartFrame, layout, type LegendItem } from './frame';
import type { ChartProps } from './marks';
import type { Plot } from './plot-marks';
import { ms, pct, seriesColour, seriesName } from './palette';

/** Fraction of the curve's samples ≤ v (its vertices are sampled; exact at them). */
function fractionAt(xs: readonly number[], ys: readonly number[], v: number): number {
  let lo = 0;
  let hi = xs.length - 1;
  let ans = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! <= v) {
      ans = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return ans < 0 ? 0 : ys[ans]!;
}

export const CdfChart = memo(function CdfChart({ runs, series }: ChartProps) {
  const curves = series.cdf;
  const labels = runs.map((r) => r.label);
  const names = runs.map((r) => r.log.processes);
  const n = runs.length;
  const legend: LegendItem[] = curves.map((c) => ({
    label: seriesName(labels, names, c.run, c.proc),
    colour: seriesColour(n, c.run, c.proc),
  }));
  const lay = layout(legend);
  const maxMs = Math.max(1e-3, ...curves.map((c) => c.figures.max));
  const x = useMemo(
    () => scaleLinear().domain([0, maxMs]).range([0, lay.width]).nice(),
    [maxMs, lay.width],
  );
  const y = useMemo(() => scaleLinear().domain([0, 1]).range([lay.height, 0]), [lay.height]);
  const plot = useMemo(
    (): Plot => ({
      x,
      y,
      marks: curves.map((c) => {
        // A CDF is a step: hold each fraction until the next latency.
        const xs = new Float64Array(2 * c.x.length + 1);
        const ys = new Float64Array(2 * c.x.length + 1);
        for (let i = 0; i < c.x.length; i++) {
          xs[2 * i + 1] = xs[2 * i + 2] = c.x[i]!;
          ys[2 * i + 1] = ys[2 * i]!;
          ys[2 * i + 2] = c.y[i]!;
        }
        return {
          kind: 'line',
          x: xs,
          y: ys,
          colour: seriesColour(n, c.run, c.proc),
          width: c.proc < 0 ? 2.2 : 1.5,
        };
      }),
    }),
    [curves, x, y, n],
  );

  function readout(px: number) {
    const v = x.invert(px);
    const lines = [`Q2C ≤ ${ms(v)}:`];
    for (const c of curves.slice(0, 8)) {
      lines.push(
        `${seriesName(labels, names, c.run, c.proc)}: ${pct(fractionAt(c.x, c.y, v))} (p95 ${ms(c.figures.p95)})`,
      );
    }
    return { px, lines };
  }

  return (
    <ChartFrame
      id="latency-cdf"
      title="Latency CDF (Q2C)"
      note="The fraction of I/Os completed within each latency, Q to C, as processes see them."
      legend={legend}
      lay={lay}
      readout={readout}
      plot={plot}
      axes={
        <>
          <AxisBottom scale={x} lay={lay} label="Q2C latency (ms)" format={(v) => String(v)} />
          <AxisLeft
            scale={y}
            lay={lay}
            label="fraction of I/Os"
            format={(v) => `${Math.round(v * 100)}%`}
          />
        </>
      }
    />
  );
});
