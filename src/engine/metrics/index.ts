/**
 * Streaming metrics: latency histograms (HDR-style, exact for small runs)
 * and bounded adaptive-window time series (throughput, queue depth).
 * Everything here is plain-data state plus pure functions over it.
 */

export {
  EXACT_SAMPLE_LIMIT,
  MAX_TRACKABLE_NS,
  cdfPoints,
  createHistogram,
  mergeHistograms,
  recordValue,
  summarizeMs,
  valueAtQuantile,
} from './histogram';
export type { CdfPoint, Histogram, LatencySummaryMs } from './histogram';

export {
  countAt,
  countAtBoth,
  createCounterSeries,
  createLevelSeries,
  seriesPoints,
  setLevel,
} from './timeseries';
export type { CounterPoint, CounterSeries, LevelPoint, LevelSeries } from './timeseries';
