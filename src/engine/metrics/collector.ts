// What a run measures, streamed as it goes (memory stays flat however long it runs):
// per-request Q2C / Q2D / D2C histograms, throughput and queue depth over time,
// per-process figures and the drive's positioning breakdown.
import type { IoRequest } from '../request';
import type { Bio } from '../request';
import { doubleFields } from '../sim/doubles';
import { createHistogram, recordValue, type Histogram } from './histogram';
import {
  countAt,
  countAtBoth,
  createCounterSeries,
  createLevelSeries,
  setLevel,
  type CounterSeries,
  type LevelSeries,
} from './timeseries';

/** Charts hold at most this many windows; windows widen as the run grows. */
const MAX_POINTS = 512;
/** First window width: 10 ms of simulated time. */
const FIRST_WINDOW_NS = 10e6;

export interface ProcessFigures {
  completed: number;
  bytes: number;
  /** Q2C sum and worst, ns (the summary reports each process's mean and max) */
  q2cSumNs: number;
  q2cMaxNs: number;
  /** time the mechanism spent positioning for and transferring its data (its requests,
   * and under write-back the destages of its writes), ns */
  diskNs: number;
}

export interface Collector {
  /** bios queued (Q) */
  queued: number;
  /** requests the device took: D minus requeues (R); and the bios they carried (a split bio's
   * pieces each count) */
  dispatched: number;
  biosDispatched: number;
  /** pieces added by splitting bios over max_sectors (X): a bio in k pieces adds k − 1 */
  splitPieces: number;
  /** requests completed (C) */
  completed: number;
  /** bios completed: the I/Os processes see finish (stop conditions count these) */
  iosCompleted: number;
  bytes: number;
  q2c: Histogram;
  q2d: Histogram;
  d2c: Histogram;
  /** sums over completed host requests and write-back destages, ns (cache hits add zero
   * positioning) */
  seekNs: number;
  rotationNs: number;
  transferNs: number;
  overheadNs: number;
  cacheHits: number;
  lastCompletionNs: number;
  completions: CounterSeries;
  completedBytes: CounterSeries;
  q2cSum: CounterSeries;
  /** commands in the drive (tags in use) over time */
  deviceDepth: LevelSeries;
  /** requests queued in the host, not yet dispatched */
  hostDepth: LevelSeries;
  processes: ProcessFigures[];
}

/** What the collector reads of a simulation: its own figures, and the drive's commands in
 * hand for the device-depth series. */
export interface MeasuredSimulation {
  state: { metrics: Collector; drive: { tagsInUse: number } };
}

export function createCollector(model: { processes: ReadonlyArray<{ count: number }> }): Collector {
  const processes: ProcessFigures[] = [];
  for (const p of model.processes) {
    for (let k = 0; k < p.count; k++)
      processes.push(
        doubleFields(
          { completed: 0, bytes: 0, q2cSumNs: 0, q2cMaxNs: 0, diskNs: 0 },
          'bytes',
          'q2cSumNs',
          'q2cMaxNs',
          'diskNs',
        ),
      );
  }
  const c: Collector = {
    queued: 0,
    dispatched: 0,
    biosDispatched: 0,
    splitPieces: 0,
    completed: 0,
    iosCompleted: 0,
    bytes: 0,
    q2c: createHistogram(),
    q2d: createHistogram(),
    d2c: createHistogram(),
    seekNs: 0,
    rotationNs: 0,
    transferNs: 0,
    overheadNs: 0,
    cacheHits: 0,
    lastCompletionNs: 0,
    completions: createCounterSeries(FIRST_WINDOW_NS, MAX_POINTS),
    completedBytes: createCounterSeries(FIRST_WINDOW_NS, MAX_POINTS),
    q2cSum: createCounterSeries(FIRST_WINDOW_NS, MAX_POINTS),
    deviceDepth: createLevelSeries(FIRST_WINDOW_NS, MAX_POINTS),
    hostDepth: createLevelSeries(FIRST_WINDOW_NS, MAX_POINTS),
    processes,
  };
  return doubleFields(
    c,
    'bytes',
    'seekNs',
    'rotationNs',
    'transferNs',
    'overheadNs',
    'lastCompletionNs',
  );
}

/** A bio was queued (Q) at `now` (its queuedNs). The caller's `now`, as noteDispatched's. */
export function noteQueued(sim: MeasuredSimulation, now: number): void {
  const m = sim.state.metrics;
  m.queued++;
  setLevel(m.hostDepth, now, m.queued + m.splitPieces - m.biosDispatched);
}

/** A bio was split into `pieces` (X): the host holds that many bios instead of one. */
export function noteSplit(sim: MeasuredSimulation, bio: Bio, pieces: number): void {
  const m = sim.state.metrics;
  m.splitPieces += pieces - 1;
  setLevel(m.hostDepth, bio.queuedNs, m.queued + m.splitPieces - m.biosDispatched);
}

/** The device took `rq` at `now` (its dispatchedNs). The caller's `now`, not the field: when
 * V8 does not inline setLevel, a number read from a field is boxed for each call. */
export function noteDispatched(sim: MeasuredSimulation, rq: IoRequest, now: number): void {
  const m = sim.state.metrics;
  m.dispatched++;
  m.biosDispatched += rq.bios.length;
  setLevel(m.hostDepth, now, m.queued + m.splitPieces - m.biosDispatched);
  setLevel(m.deviceDepth, now, sim.state.drive.tagsInUse);
}

/** How many processes' data a request carries: one (its `proc`), or a destage's owners. */
export function ownerCount(rq: IoRequest): number {
  return rq.owners.length > 0 ? rq.owners.length / 2 : 1;
}

/** The process (instance index) of its i-th owner. */
export function ownerProc(rq: IoRequest, i: number): number {
  return rq.owners.length > 0 ? rq.owners[2 * i]! : rq.proc;
}

/** The i-th owner's part of the request: all of it, or a destage's by the sectors of that
 * process's data. */
export function ownerShare(rq: IoRequest, i: number): number {
  return rq.owners.length > 0 ? rq.owners[2 * i + 1]! / rq.nSectors : 1;
}

/** The i-th owner's part of its media time (seek + rotation + transfer). */
export function ownerMediaNs(rq: IoRequest, i: number): number {
  const ns = rq.seekNs + rq.rotationNs + rq.transferNs;
  return rq.owners.length > 0 ? (ns * rq.owners[2 * i + 1]!) / rq.nSectors : ns;
}

/**
 * The mechanism finished its part of a request (media or SSD service): its media time is
 * spent on the data of the process that queued it. A write-back destage (drive-internal)
 * counts too, for the process whose write it puts on the media — the host write itself
 * completed from the buffer, with no media time — split by sectors when that write was a
 * merged request carrying several processes' bios (write-back.ts, `owners`).
 */
export function noteServiced(sim: MeasuredSimulation, rq: IoRequest): void {
  const procs = sim.state.metrics.processes;
  if (rq.owners.length === 0) {
    // one owner, all of it (ownerMediaNs's sum, added here without a call per request)
    const p = procs[rq.proc];
    // compared, not truth-tested: V8 tests an object's truth against every falsy kind
    if (p !== undefined) p.diskNs += rq.seekNs + rq.rotationNs + rq.transferNs;
    return;
  }
  for (let i = 0, n = ownerCount(rq); i < n; i++) {
    const p = procs[ownerProc(rq, i)];
    if (p) p.diskNs += ownerMediaNs(rq, i);
  }
}

/**
 * A write-back destage reached the media: its seek, rotation and transfer are the disk's
 * time spent on host writes that completed from the buffer with none, so they count in the
 * breakdown per completed request (without them a write-back run's writes showed no
 * positioning at all).
 */
export function noteDestaged(sim: MeasuredSimulation, rq: IoRequest): void {
  const m = sim.state.metrics;
  m.seekNs += rq.seekNs;
  m.rotationNs += rq.rotationNs;
  m.transferNs += rq.transferNs;
}

/** A request completed (C) at `t` (its completedNs): device-side figures. The caller's time,
 * not the field: a number read from a field is boxed for each call V8 leaves out of line. */
export function noteCompleted(sim: MeasuredSimulation, rq: IoRequest, t: number): void {
  const m = sim.state.metrics;
  m.completed++;
  m.bytes += rq.nSectors * 512;
  recordValue(m.d2c, t - rq.dispatchedNs);
  m.seekNs += rq.seekNs;
  m.rotationNs += rq.rotationNs;
  m.transferNs += rq.transferNs;
  m.overheadNs += rq.overheadNs;
  if (rq.cacheHit) m.cacheHits++;
  m.lastCompletionNs = t;
  countAt(m.completedBytes, t, rq.nSectors * 512);
  setLevel(m.deviceDepth, t, sim.state.drive.tagsInUse);
}

/** One of its bios ends with it at `t` (the request's completedNs, passed for the reason
 * noteCompleted's is): what the process sees (Q2C, Q2D per I/O, as btt). */
export function noteBioCompleted(
  sim: MeasuredSimulation,
  bio: Bio,
  rq: IoRequest,
  t: number,
): void {
  const m = sim.state.metrics;
  const q2c = t - bio.queuedNs;
  m.iosCompleted++;
  recordValue(m.q2c, q2c);
  // an empty flush's request never went to the device (blk-flush.ts)
  if (rq.dispatchedNs >= 0) recordValue(m.q2d, rq.dispatchedNs - bio.queuedNs);
  countAtBoth(m.completions, m.q2cSum, t, 1, q2c);
  const p = m.processes[bio.proc]!;
  p.completed++;
  p.bytes += bio.nSectors * 512;
  p.q2cSumNs += q2c;
  if (q2c > p.q2cMaxNs) p.q2cMaxNs = q2c;
}
