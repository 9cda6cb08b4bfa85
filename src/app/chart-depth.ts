// Queue depth over time, from the chart tables: I/Os waiting in the block layer (Q to D) and
// requests in the drive (D to C), as exact steps or, for long runs, time-weighted bin means.
import { MAX_LINE_POINTS, type ChartRun } from './chart-data';

const NS_PER_MS = 1e6;

export interface DepthSeries {
  run: number;
  /** "host": I/Os queued (Q) and not yet dispatched (D); "drive": requests D and not C */
  where: 'host' | 'drive';
  /** a step line: the depth is y[i] from x[i] until x[i+1] (binned means when long) */
  x: number[];
  y: number[];
  /** exact steps, or the time-weighted mean of each bin */
  binned: boolean;
  /** the time-weighted mean depth over the run, and the most at any instant */
  mean: number;
  max: number;
}

/** A depth step function over [fromNs, endNs] from [start, end) intervals (end NaN: until
 * endNs; an interval begun before fromNs counts from fromNs). */
function steps(
  starts: Float64Array,
  ends: Float64Array,
  extraStarts: Float64Array,
  fromNs: number,
  endNs: number,
): { x: number[]; y: number[]; mean: number; max: number } {
  // Starts and ends sorted apart (native typed-array sorts), then merged in time order.
  const n = starts.length + extraStarts.length;
  const up = new Float64Array(n);
  const down = new Float64Array(n);
  let k = 0;
  for (let i = 0; i < starts.length; i++) {
    const s = starts[i]!;
    if (s !== s) continue;
    const e = ends[i]! === ends[i]! ? ends[i]! : endNs;
    if (fromNs > 0 && e <= fromNs) continue; // over before the window
    up[k] = Math.max(s, fromNs);
    down[k++] = e;
  }
  for (const s of extraStarts) {
    up[k] = Math.max(s, fromNs);
    down[k++] = endNs;
  }
  const ups = up.subarray(0, k).sort();
  const downs = down.subarray(0, k).sort();
  const x: number[] = [fromNs];
  const y: number[] = [0];
  let depth = 0;
  let max = 0;
  let area = 0;
  let prev = fromNs;
  let i = 0;
  let j = 0;
  while (i < k || j < k) {
    const now = Math.min(i < k ? ups[i]! : Infinity, j < k ? downs[j]! : Infinity);
    while (i < k && ups[i] === now) {
      depth++;
      i++;
    }
    while (j < k && downs[j] === now) {
      depth--;
      j++;
    }
    area += y[y.length - 1]! * (now - prev);
    prev = now;
    if (now === x[x.length - 1]) y[y.length - 1] = depth;
    else {
      x.push(now);
      y.push(depth);
    }
    if (depth > max) max = depth;
  }
  area += y[y.length - 1]! * Math.max(0, endNs - prev);
  const span = endNs - fromNs;
  return { x, y, mean: span > 0 ? area / span : 0, max };
}

/** Time-weighted mean of a step function over `bins` equal bins of [fromNs, endNs]. */
function binSteps(x: number[], y: number[], fromNs: number, endNs: number, bins: number): number[] {
  const w = (endNs - fromNs) / bins;
  const out = new Array<number>(bins).fill(0);
  for (let i = 0; i < x.length; i++) {
    const a = x[i]! - fromNs;
    const b = (i + 1 < x.length ? x[i + 1]! : endNs) - fromNs;
    if (y[i] === 0 || b <= a) continue;
    for (let k = Math.floor(a / w); k < bins && k * w < b; k++) {
      const lo = Math.max(a, k * w);
      const hi = Math.min(b, (k + 1) * w);
      if (hi > lo) out[k]! += (y[i]! * (hi - lo)) / w;
    }
  }
  return out;
}

export function queueDepth(runs: readonly ChartRun[]): DepthSeries[] {
  const out: DepthSeries[] = [];
  runs.forEach((run, ri) => {
    const { ios, requests, inDriveDNs } = run.log.tables;
    const { fromNs, endNs } = run.log;
    const host = steps(ios.qNs, ios.dNs, new Float64Array(0), fromNs, endNs);
    const drive = steps(requests.dNs, requests.cNs, inDriveDNs, fromNs, endNs);
    for (const [where, s] of [
      ['host', host],
      ['drive', drive],
    ] as const) {
      if (s.x.length <= MAX_LINE_POINTS) {
        out.push({
          run: ri,
          where,
          x: s.x.map((v) => v / NS_PER_MS),
          y: s.y,
          binned: false,
          mean: s.mean,
          max: s.max,
        });
      } else {
        const bins = MAX_LINE_POINTS / 2;
        const y = binSteps(s.x, s.y, fromNs, endNs, bins);
        out.push({
          run: ri,
          where,
          x: y.map((_, k) => (fromNs + (k * (endNs - fromNs)) / bins) / NS_PER_MS),
          y,
          binned: true,
          mean: s.mean,
          max: s.max,
        });
      }
    }
  });
  return out;
}
