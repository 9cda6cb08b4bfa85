// Every chart's series for a set of runs, computed at once off the page's main thread (the
// charts panel's worker, src/worker/chart-series.ts): for a 100,000-request run the sorts and
// scans take longer than a frame. Pure; the charts draw what this returns.
import {
  breakdown,
  latencyCdf,
  latencyOverTime,
  lbaOverTime,
  throughput,
  type Breakdown,
  type CdfCurve,
  type ChartRun,
  type LatencyOverTime,
  type LbaOverTime,
  type Throughput,
} from './chart-data';
import { queueDepth, type DepthSeries } from './chart-depth';
import { processShares, type ProcessShare } from './chart-shares';
import type { ChartLog } from '../worker/chart-tables';

export interface ChartSeries {
  latency: LatencyOverTime;
  cdf: CdfCurve[];
  throughput: Throughput;
  depth: DepthSeries[];
  lba: LbaOverTime;
  breakdown: Breakdown[];
  shares: ProcessShare[];
}

/** What the series are computed from: the chart tables and the window, not the rest of a
 * run's log (its events and decisions would only be copied to the worker for nothing). */
export type SeriesLog = Pick<ChartLog, 'tables' | 'processes' | 'fromNs' | 'endNs'>;

export function seriesInput(runs: readonly ChartRun[]): Array<{ label: string; log: SeriesLog }> {
  return runs.map(({ label, log }) => ({
    label,
    log: { tables: log.tables, processes: log.processes, fromNs: log.fromNs, endNs: log.endNs },
  }));
}

export function chartSeries(runs: ReadonlyArray<{ label: string; log: SeriesLog }>): ChartSeries {
  // the series functions read only the fields SeriesLog keeps
  const r = runs as readonly ChartRun[];
  return {
    latency: latencyOverTime(r),
    cdf: latencyCdf(r),
    throughput: throughput(r),
    depth: queueDepth(r),
    lba: lbaOverTime(r),
    breakdown: breakdown(r),
    shares: processShares(r),
  };
}

/** The series' typed arrays' buffers, to transfer rather than copy. */
export function seriesBuffers(s: ChartSeries): ArrayBuffer[] {
  return [...s.latency.points, ...s.lba.points].flatMap((p) => [
    p.x.buffer as ArrayBuffer,
    p.y.buffer as ArrayBuffer,
    p.write.buffer as ArrayBuffer,
  ]);
}
