// The latency CDF: the fraction of I/Os that completed within x ms of being queued, for
// the whole run and (one run) each process; one curve per run in compare mode.
import { useMemo } from 'react';
import { scaleLinear } from 'd3-scale';
import { latencyCdf } from '../../app/chart-data';
import { AxisBottom, AxisLeft, ChartFrame, layout, type LegendItem } from './frame';
import { linePath, type ChartProps } from './marks';
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

export function CdfChart({ runs }: ChartProps) {
  const curves = useMemo(() => latencyCdf(runs), [runs]);
  const labels = runs.map((r) => r.label);
  const names = runs.map((r) => r.log.processes);
  const n = runs.length;
  const legend: LegendItem[] = curves.map((c) => ({
    label: seriesName(labels, names, c.run, c.proc),
    colour: seriesColour(n, c.run, c.proc),
  }));
  const lay = layout(legend);
  const maxMs = Math.max(1e-3, ...curves.map((c) => c.figures.max));
  const x = scaleLinear().domain([0, maxMs]).range([0, lay.width]).nice();
  const y = scaleLinear().domain([0, 1]).range([lay.height, 0]);

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
    >
      {curves.map((c) => {
        // A CDF is a step: hold each fraction until the next latency.
        const xs: number[] = [0];
        const ys: number[] = [0];
        for (let i = 0; i < c.x.length; i++) {
          xs.push(c.x[i]!, c.x[i]!);
          ys.push(ys[ys.length - 1]!, c.y[i]!);
        }
        return (
          <path
            key={`${c.run}:${c.proc}`}
            d={linePath(xs, ys, x, y)}
            fill="none"
            stroke={seriesColour(n, c.run, c.proc)}
            strokeWidth={c.proc < 0 ? 2.2 : 1.5}
          />
        );
      })}
    </ChartFrame>
  );
}
