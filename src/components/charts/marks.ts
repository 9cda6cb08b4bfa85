// Small drawing helpers shared by the charts: marks as SVG paths (an exported chart's dots
// and lines, ./plot-canvas.tsx marksSvg), the nearest point, the props every chart takes.
import { line } from 'd3-shape';
import type { ChartRun, PointSet } from '../../app/chart-data';
import type { ChartSeries } from '../../app/chart-series';
import type { Store } from '../../app/store';

export interface ChartProps {
  runs: readonly ChartRun[];
  /** the runs' series, computed in the panel's worker (app/chart-series.ts) */
  series: ChartSeries;
  store: Store;
}

type Scale = (v: number) => number;

/** Circles of radius r at (x[i], y[i]) as one path. */
export function dotsPath(set: PointSet, x: Scale, y: Scale, r: number, write: 0 | 1): string {
  let d = '';
  const n = set.x.length;
  for (let i = 0; i < n; i++) {
    if (set.write[i] !== write) continue;
    const px = x(set.x[i]!);
    const py = y(set.y[i]!);
    d += `M${(px - r).toFixed(1)},${py.toFixed(1)}a${r},${r} 0 1,0 ${2 * r},0a${r},${r} 0 1,0 ${-2 * r},0`;
  }
  return d;
}

export function hasWrites(sets: readonly PointSet[]): boolean {
  return sets.some((s) => s.write.includes(1));
}

/** A polyline with gaps where y is NaN; a point with gaps on both sides is a short dash
 * (a one-point line would draw nothing: a lone bin's mean would be invisible). */
export function linePath(xs: readonly number[], ys: readonly number[], x: Scale, y: Scale): string {
  const defined = (i: number) => ys[i] === ys[i];
  const gen = line<number>()
    .defined(defined)
    .x((i) => x(xs[i]!))
    .y((i) => y(ys[i]!));
  let d = gen(xs.map((_, i) => i)) ?? '';
  for (let i = 0; i < xs.length; i++)
    if (defined(i) && !(i > 0 && defined(i - 1)) && !(i + 1 < xs.length && defined(i + 1)))
      d += `M${(x(xs[i]!) - LONE_DASH / 2).toFixed(1)},${y(ys[i]!).toFixed(1)}h${LONE_DASH}`;
  return d;
}

/** px: the width of a lone point's dash */
const LONE_DASH = 6;

/** A step line: the value ys[i] holds from xs[i] to xs[i+1], the last one to `endX`. */
export function stepPath(
  xs: readonly number[],
  ys: readonly number[],
  x: Scale,
  y: Scale,
  endX: number,
): string {
  if (xs.length === 0) return '';
  let d = `M${x(xs[0]!).toFixed(1)},${y(ys[0]!).toFixed(1)}`;
  for (let i = 1; i < xs.length; i++) {
    d += `H${x(xs[i]!).toFixed(1)}V${y(ys[i]!).toFixed(1)}`;
  }
  return d + `H${x(endX).toFixed(1)}`;
}

/** The nearest point of any set to (px, py) within `radius` px, or null. */
export function nearestPoint(
  sets: readonly PointSet[],
  x: Scale,
  y: Scale,
  px: number,
  py: number | null,
  radius: number,
): { set: PointSet; i: number } | null {
  let best: { set: PointSet; i: number } | null = null;
  let bestD = radius * radius;
  for (const set of sets) {
    for (let i = 0; i < set.x.length; i++) {
      const dx = x(set.x[i]!) - px;
      if (dx > radius || dx < -radius) continue;
      const dy = py === null ? 0 : y(set.y[i]!) - py;
      const d = dx * dx + dy * dy;
      if (d <= bestD) {
        bestD = d;
        best = { set, i };
      }
    }
  }
  return best;
}
