// The charts' series, computed from the worker's chart tables (src/worker/chart-tables.ts):
// pure functions, no DOM, no d3 drawing. Latencies are per I/O (bio) as processes see them,
// Q to C, as the engine's summary counts them; positions and phases per request (what the
// device did). Times on the charts are ms of simulated time; one run or 2–4 overlaid.
import { tickStep } from 'd3-array';
import type { ChartLog } from '../worker/chart-tables';

export interface ChartRun {
  label: string;
  log: ChartLog;
}

const NS_PER_MS = 1e6;

/** Points drawn per run at most (scatter charts keep every k-th I/O beyond it). */
export const MAX_POINTS_PER_RUN = 6000;
/** Vertices of a step or CDF line at most. */
export const MAX_LINE_POINTS = 1200;

/** The common time axis of the runs, ms: their window, [0, end] for whole runs and later
 * for a played window that starts later (ChartLog.fromNs). */
export function timeDomainMs(runs: readonly ChartRun[]): [number, number] {
  const end = Math.max(0, ...runs.map((r) => r.log.endNs)) / NS_PER_MS;
  const start = runs.length > 0 ? Math.min(...runs.map((r) => r.log.fromNs)) / NS_PER_MS : 0;
  return [start, Math.max(end, start + 1e-6)];
}

/** A bin width, ms: about `perBin` completed I/Os per bin on average, 8–150 bins, nice.
 * Bins start at the time domain's start. */
export function binWidthMs(runs: readonly ChartRun[], perBin = 5): number {
  const [start, end] = timeDomainMs(runs);
  const n = Math.max(...runs.map((r) => completedIos(r.log)), 1);
  const bins = Math.min(150, Math.max(8, Math.round(n / perBin)));
  const step = tickStep(0, end - start, bins);
  return step > 0 ? step : (end - start) / bins;
}

export function completedIos(log: ChartLog): number {
  const c = log.tables.ios.cNs;
  let n = 0;
  for (let i = 0; i < c.length; i++) if (c[i]! === c[i]!) n++;
  return n;
}

/** Nearest-rank quantile of an ascending array (the engine's histogram definition). */
export function nearestRank(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return 0;
  if (q <= 0) return sorted[0]!;
  let rank = q * n;
  const r = Math.round(rank);
  if (Math.abs(rank - r) < 1e-9) rank = r;
  return sorted[Math.min(n, Math.max(1, Math.ceil(rank))) - 1]!;
}

export interface LatencyFigures {
  count: number;
  mean: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

function figures(sorted: Float64Array): LatencyFigures {
  let sum = 0;
  for (const v of sorted) sum += v;
  const n = sorted.length;
  return {
    count: n,
    mean: n > 0 ? sum / n : 0,
    p50: nearestRank(sorted, 0.5),
    p95: nearestRank(sorted, 0.95),
    p99: nearestRank(sorted, 0.99),
    max: n > 0 ? sorted[n - 1]! : 0,
  };
}

/** Q2C of every completed I/O, ms, ascending: [all, process 0, process 1, …] (one pass). */
export function sortedLatencies(log: ChartLog): Float64Array[] {
  const { qNs, cNs, proc: p } = log.tables.ios;
  const np = log.processes.length;
  const counts = new Int32Array(np + 1);
  for (let i = 0; i < cNs.length; i++) {
    if (cNs[i]! !== cNs[i]!) continue;
    counts[0]!++;
    const k = p[i]!;
    if (k >= 0 && k < np) counts[k + 1]!++;
  }
  const out = Array.from(counts, (n) => new Float64Array(n));
  const fill = new Int32Array(np + 1);
  for (let i = 0; i < cNs.length; i++) {
    const c = cNs[i]!;
    if (c !== c) continue;
    const v = (c - qNs[i]!) / NS_PER_MS;
    out[0]![fill[0]!++] = v;
    const k = p[i]!;
    if (k >= 0 && k < np) out[k + 1]![fill[k + 1]!++] = v;
  }
  for (const a of out) a.sort();
  return out;
}

// ---------------------------------------------------------------- latency over time

export interface PointSet {
  run: number;
  proc: number;
  /** x: ms of simulated time; y: the chart's value */
  x: Float64Array;
  y: Float64Array;
  write: Uint8Array;
}

export interface XYLine {
  run: number;
  /** −1: every process */
  proc: number;
  x: number[];
  y: number[];
}

export interface LatencyOverTime {
  /** each completed I/O at its completion time (every `stride`-th when there are many) */
  points: PointSet[];
  stride: number;
  /** the mean Q2C of the I/Os completed in each bin, per run (a gap where none did) */
  means: XYLine[];
  binMs: number;
  yMaxMs: number;
}

export function latencyOverTime(runs: readonly ChartRun[]): LatencyOverTime {
  const binMs = binWidthMs(runs);
  const [startMs] = timeDomainMs(runs);
  const stride = Math.max(
    1,
    Math.ceil(Math.max(...runs.map((r) => completedIos(r.log))) / MAX_POINTS_PER_RUN),
  );
  const points: PointSet[] = [];
  const means: XYLine[] = [];
  let yMax = 0;
  runs.forEach((run, ri) => {
    const { qNs, cNs, proc, write } = run.log.tables.ios;
    const byProc = new Map<number, { x: number[]; y: number[]; w: number[] }>();
    const sums: number[] = [];
    const counts: number[] = [];
    let k = 0;
    for (let i = 0; i < cNs.length; i++) {
      const c = cNs[i]!;
      if (c !== c) continue;
      const t = c / NS_PER_MS;
      const ms = (c - qNs[i]!) / NS_PER_MS;
      if (ms > yMax) yMax = ms;
      const b = Math.floor((t - startMs) / binMs);
      sums[b] = (sums[b] ?? 0) + ms;
      counts[b] = (counts[b] ?? 0) + 1;
      if (k++ % stride !== 0) continue;
      let s = byProc.get(proc[i]!);
      if (!s) byProc.set(proc[i]!, (s = { x: [], y: [], w: [] }));
      s.x.push(t);
      s.y.push(ms);
      s.w.push(write[i]!);
    }
    for (const [p, s] of [...byProc].sort((a, b) => a[0] - b[0])) {
      points.push({
        run: ri,
        proc: p,
        x: Float64Array.from(s.x),
        y: Float64Array.from(s.y),
        write: Uint8Array.from(s.w),
      });
    }
    const line: XYLine = { run: ri, proc: -1, x: [], y: [] };
    for (let b = 0; b < counts.length; b++) {
      line.x.push(startMs + (b + 0.5) * binMs);
      line.y.push(counts[b] ? sums[b]! / counts[b]! : NaN);
    }
    means.push(line);
  });
  return { points, stride, means, binMs, yMaxMs: yMax };
}

// ---------------------------------------------------------------- latency CDF

export interface CdfCurve extends XYLine {
  figures: LatencyFigures;
}

/** The empirical CDF of Q2C, at most MAX_LINE_POINTS vertices (exact at the ends). */
function cdfOf(sorted: Float64Array, run: number, proc: number): CdfCurve {
  const n = sorted.length;
  const x: number[] = [];
  const y: number[] = [];
  const step = Math.max(1, Math.ceil(n / MAX_LINE_POINTS));
  for (let i = 0; i < n; i += step) {
    x.push(sorted[i]!);
    y.push((i + 1) / n);
  }
  if (n > 0 && y[y.length - 1] !== 1) {
    x.push(sorted[n - 1]!);
    y.push(1);
  }
  return { run, proc, x, y, figures: figures(sorted) };
}

/** One curve per run; with one run, also one per process that completed anything. */
export function latencyCdf(runs: readonly ChartRun[]): CdfCurve[] {
  const out: CdfCurve[] = [];
  runs.forEach((run, ri) => {
    const sorted = sortedLatencies(run.log);
    out.push(cdfOf(sorted[0]!, ri, -1));
    if (runs.length === 1 && run.log.processes.length > 1) {
      run.log.processes.forEach((_, p) => {
        const s = sorted[p + 1]!;
        if (s.length > 0) out.push(cdfOf(s, ri, p));
      });
    }
  });
  return out;
}

// ---------------------------------------------------------------- throughput and IOPS

export interface RateSeries {
  run: number;
  /** bin starts, ms */
  x: number[];
  /** I/Os (bios) completed per second in each bin */
  iops: number[];
  /** MB/s (10^6 bytes) the device completed in each bin */
  mbps: number[];
  /** over the run, as the summary counts them: per second of time to the last completion */
  totalIops: number;
  totalMbps: number;
  ios: number;
  bytes: number;
}

export interface Throughput {
  series: RateSeries[];
  binMs: number;
}

export function throughput(runs: readonly ChartRun[]): Throughput {
  const binMs = binWidthMs(runs);
  const [startMs, endMs] = timeDomainMs(runs);
  const nb = Math.max(1, Math.ceil((endMs - startMs) / binMs));
  const bin = (cNs: number) =>
    Math.min(nb - 1, Math.max(0, Math.floor((cNs / NS_PER_MS - startMs) / binMs)));
  const series = runs.map((run, ri): RateSeries => {
    const ios = new Array<number>(nb).fill(0);
    const bytes = new Array<number>(nb).fill(0);
    const t = run.log.tables;
    let nIos = 0;
    let nBytes = 0;
    let last = 0;
    for (let i = 0; i < t.ios.cNs.length; i++) {
      const c = t.ios.cNs[i]!;
      if (c !== c) continue;
      nIos++;
      ios[bin(c)]!++;
    }
    for (let i = 0; i < t.requests.n; i++) {
      const c = t.requests.cNs[i]!;
      const b = t.requests.nSectors[i]! * 512;
      nBytes += b;
      if (c > last) last = c;
      bytes[bin(c)]! += b;
    }
    // Per second of each bin; the run's last bin may be cut short by its end.
    const runEndMs = run.log.endNs / NS_PER_MS;
    const binAt = (b: number) => startMs + b * binMs;
    const perS = (b: number) => 1000 / Math.max(1e-9, Math.min(binMs, runEndMs - binAt(b)));
    // from the window's start (a run's start) to the last completion
    const seconds = (last - run.log.fromNs) / 1e9;
    return {
      run: ri,
      x: ios.map((_, b) => binAt(b)),
      iops: ios.map((v, b) => v * perS(b)),
      mbps: bytes.map((v, b) => (v * perS(b)) / 1e6),
      totalIops: seconds > 0 ? nIos / seconds : 0,
      totalMbps: seconds > 0 ? nBytes / seconds / 1e6 : 0,
      ios: nIos,
      bytes: nBytes,
    };
  });
  return { series, binMs };
}

// ---------------------------------------------------------------- LBA over time

export interface LbaOverTime {
  /** each completed request at its dispatch time (D), y = its first sector */
  points: PointSet[];
  stride: number;
  maxSector: number;
}

export function lbaOverTime(runs: readonly ChartRun[]): LbaOverTime {
  const stride = Math.max(
    1,
    Math.ceil(Math.max(...runs.map((r) => r.log.tables.requests.n)) / MAX_POINTS_PER_RUN),
  );
  const points: PointSet[] = [];
  let maxSector = 0;
  runs.forEach((run, ri) => {
    const r = run.log.tables.requests;
    const byProc = new Map<number, { x: number[]; y: number[]; w: number[] }>();
    for (let i = 0; i < r.n; i += stride) {
      if (r.dNs[i]! < run.log.fromNs) continue; // dispatched before the window
      let s = byProc.get(r.proc[i]!);
      if (!s) byProc.set(r.proc[i]!, (s = { x: [], y: [], w: [] }));
      s.x.push(r.dNs[i]! / NS_PER_MS);
      s.y.push(r.sector[i]!);
      s.w.push(r.flags[i]! & 1);
    }
    for (let i = 0; i < r.n; i++) maxSector = Math.max(maxSector, r.sector[i]! + r.nSectors[i]!);
    for (const [p, s] of [...byProc].sort((a, b) => a[0] - b[0])) {
      points.push({
        run: ri,
        proc: p,
        x: Float64Array.from(s.x),
        y: Float64Array.from(s.y),
        write: Uint8Array.from(s.w),
      });
    }
  });
  return { points, stride, maxSector };
}

// ---------------------------------------------------------------- positioning breakdown

export const PHASES = ['seek', 'rotation', 'transfer', 'overhead'] as const;
export type ChartPhase = (typeof PHASES)[number];

export interface Breakdown {
  run: number;
  /** −1: every request of the run; else one process's requests */
  proc: number;
  /** mean per completed request, ms (a drive cache hit adds no positioning) */
  meanMs: Record<ChartPhase, number>;
  requests: number;
  cacheHits: number;
}

/** Per run: all its requests, then (one run only) each process's that completed any. */
export function breakdown(runs: readonly ChartRun[]): Breakdown[] {
  const out: Breakdown[] = [];
  runs.forEach((run, ri) => {
    const r = run.log.tables.requests;
    const groups = runs.length === 1 && run.log.processes.length > 1 ? run.log.processes.length : 0;
    const sums = Array.from({ length: groups + 1 }, () => [0, 0, 0, 0, 0, 0]);
    for (let i = 0; i < r.n; i++) {
      const g = r.proc[i]! + 1;
      for (const s of g > 0 && g <= groups ? [sums[0]!, sums[g]!] : [sums[0]!]) {
        s[0]! += r.seekNs[i]!;
        s[1]! += r.rotationNs[i]!;
        s[2]! += r.transferNs[i]!;
        s[3]! += r.overheadNs[i]!;
        s[4]!++;
        if (r.flags[i]! & 4) s[5]!++;
      }
    }
    // write-back destages: the media time of writes that completed from the buffer (the
    // summary's breakdown counts them, collector.ts noteDestaged)
    const { all, byProc } = run.log.tables.destagePhaseNs;
    for (let k = 0; k < 3; k++) sums[0]![k]! += all[k]!;
    for (let g = 1; g <= groups; g++)
      for (let k = 0; k < 3; k++) sums[g]![k]! += byProc[3 * (g - 1) + k] ?? 0;
    sums.forEach((s, g) => {
      if (g > 0 && s[4] === 0) return;
      const n = Math.max(1, s[4]!) * NS_PER_MS;
      out.push({
        run: ri,
        proc: g - 1,
        meanMs: { seek: s[0]! / n, rotation: s[1]! / n, transfer: s[2]! / n, overhead: s[3]! / n },
        requests: s[4]!,
        cacheHits: s[5]!,
      });
    });
  });
  return out;
}
