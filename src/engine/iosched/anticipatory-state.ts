import { jiffyNs } from './common';
// The anticipatory scheduler's state, constants and rule names (docs/iosched/anticipatory.md,
// LINUX-SCHEDULERS.md §4). Plain data only: the whole state is structuredClone'd with the
// simulation. Split from anticipatory.ts so the helpers (statistics, as_choose_req, the
// anticipation state machine) can share the types without a cycle.

/** AS classifies by sync/async, not read/write (§4): index 1 = sync, 0 = async, as the
 * kernel's BLK_RW_SYNC / BLK_RW_ASYNC. */
export type Dir = 0 | 1;
export const ASYNC: Dir = 0;
export const SYNC: Dir = 1;

/** The anticipation state machine (the kernel's enum anticipation_status, §4.5). */
export const AnticStatus = {
  /** Not anticipating: normal operation. */
  OFF: 'OFF',
  /** Anticipating, but the anticipated process's last request has not completed yet; the
   * timer is not running. */
  WAIT_REQ: 'WAIT_REQ',
  /** The anticipated process's last request has completed; waiting up to antic_expire
   * from that completion for its next request (the timer runs). */
  WAIT_NEXT: 'WAIT_NEXT',
  /** Anticipation ended (a good request arrived, or the time ran out); the next dispatch
   * runs the next request and does not restart anticipation. */
  FINISHED: 'FINISHED',
} as const;
export type AnticStatus = (typeof AnticStatus)[keyof typeof AnticStatus];

/**
 * Every rule a decision record can name. Dispatches carry the rule that picked the request;
 * refusals (−1) and the anticipation outcomes name why the device was left idle or why
 * waiting stopped. The "anticipation-*" and "no-anticipation-*" rules are the branches of
 * as_can_break_anticipation / as_can_anticipate (§4.6).
 */
export type AsRule =
  // ── a request moves to the dispatch queue ──
  /** the current batch continues with next_rq, the next request in elevator order */
  | 'continue-batch'
  /** the head of the batch class's FIFO had expired (checked at most once per expire) */
  | 'fifo-expired'
  /** both classes queued and the batch ran out of time (or of write budget): switch */
  | 'batch-expired-switch'
  /** a sync batch starts at the sync FIFO head (the async batch had nothing left) */
  | 'read-batch'
  /** an async batch starts at the async FIFO head (no sync request is queued) */
  | 'write-batch'
  /** the alias rule: a new request has the same start sector; the old one is dispatched */
  | 'alias-dispatch'
  /** forced dispatch (drain): all sync requests, then all async ones */
  | 'forced-dispatch'
  /** the last dispatched request was async: there is no process to anticipate on */
  | 'no-anticipation-async'
  // ── the device is left idle on purpose ──
  /** can_anticipate held: start waiting (WAIT_REQ, or WAIT_NEXT with the timer armed) */
  | 'anticipate-start'
  /** the anticipated process's request completed: the antic_expire timer starts */
  | 'anticipation-timing'
  /** dispatch asked while WAIT_REQ or WAIT_NEXT: nothing, not even async requests */
  | 'anticipating'
  /** a batch change waits for the old batch's requests to complete */
  | 'batch-drain'
  // ── anticipation ends (or is not worth starting): as_can_break_anticipation ──
  /** the anticipated process itself submitted a request */
  | 'anticipation-hit'
  /** antic_expire ran out (the timer fired, or it is due and has not run yet) */
  | 'anticipation-timeout'
  /** the anticipated process still has requests queued in AS */
  | 'anticipation-broken-queued'
  /** the anticipated process has requests in the dispatch queue (not yet taken) */
  | 'anticipation-broken-dispatched'
  /** a sync request of another process lies inside the "close" window around the head */
  | 'anticipation-broken-close-request'
  /** a sync request of another process is nearer than the anticipated mean seek */
  | 'anticipation-broken-seek'
  /** the anticipated process has exited (never in Spindle: processes live all run) */
  | 'anticipation-broken-exited'
  /** no think-time history, and new processes think longer than antic_expire */
  | 'anticipation-broken-new-process'
  /** the anticipated process's mean think time exceeds antic_expire */
  | 'anticipation-broken-think-time';

/** The reasons as_can_break_anticipation can give (a subset of AsRule). */
export type BreakReason = Extract<
  AsRule,
  | 'anticipation-hit'
  | 'anticipation-timeout'
  | 'anticipation-broken-queued'
  | 'anticipation-broken-dispatched'
  | 'anticipation-broken-close-request'
  | 'anticipation-broken-seek'
  | 'anticipation-broken-exited'
  | 'anticipation-broken-new-process'
  | 'anticipation-broken-think-time'
>;

/** Per process ("io context", the kernel's as_io_context), keyed by pid (§4.2, §4.3). */
/** Per process ("io context", the kernel's as_io_context), keyed by pid (§4.2, §4.3).
 * Times are jiffies (suffix J), as the kernel keeps them. */
export interface AsIoContext {
  pid: number;
  /** AS_TASK_RUNNING: not exited. Always true: Spindle's processes live the whole run. */
  running: boolean;
  /** AS_TASK_IOSTARTED: has submitted a sync request */
  ioStarted: boolean;
  /** AS_TASK_IORUNNING: a sync request of it has completed */
  ioRunning: boolean;
  /** requests in AS's lists */
  nrQueued: number;
  /** requests moved to the dispatch queue and not yet taken by the driver (activate) */
  nrDispatched: number;
  /** when its last sync request completed, jiffies */
  lastEndRequestJ: number;
  /** end sector of its last sync request */
  lastRequestPos: number;
  /** think time: decaying fixed-point average (samples → 256; total = 256 × jiffies) */
  ttimeSamples: number;
  ttimeTotal: number;
  ttimeMeanJ: number; // jiffies
  /** seek distance: decaying fixed-point average, sectors */
  seekSamples: number;
  seekTotal: number;
  seekMean: number;
}

/** The scheduler's state (the kernel's as_data). Times are jiffies (suffix J), counted
 * from the start of the run; the simulated clock is ns, and jiffies = ⌊now · HZ / 10⁹⌋. */
export interface AsState {
  // ── settings, as the kernel stores them: whole jiffies ──
  hz: number;
  fifoExpireJ: [number, number]; // [async write_expire, sync read_expire]
  batchExpireJ: [number, number]; // [write_batch_expire, read_batch_expire]
  anticExpireJ: number; // antic_expire; 0 = no anticipation (deadline-like)

  // ── requests: per class a sector-sorted list and a FIFO (slots) ──
  sortList: [number[], number[]];
  fifoList: [number[], number[]];
  nextRq: [number, number]; // next_rq per class, slot or −1
  lastSector: [number, number]; // end of the last dispatched request per class, sectors

  // ── batches ──
  batchDir: Dir; // batch_data_dir (starts async: the kernel's zeroed as_data)
  currentBatchExpiresJ: number; // when the current batch ends, jiffies
  lastCheckFifoJ: [number, number]; // last FIFO expiry check per class, jiffies
  changedBatch: boolean; // waiting for the old batch to drain
  newBatch: boolean; // a sync batch waits for its first completion to start its clock
  writeBatchCount: number; // auto-tuned async batch budget, requests
  currentWriteCount: number; // requests left in this async batch
  writeBatchIdled: boolean; // the async batch ran uncontended (not timed)
  nrDispatched: number; // requests dispatched and not yet completed

  // ── anticipation ──
  anticStatus: AnticStatus;
  anticStartJ: number; // when the anticipated process's last request completed, jiffies
  anticPid: number; // the process anticipated on (owner of the last sync dispatch), −1
  iocFinished: boolean; // that process's last dispatched request has completed
  /** requests the alias rule moved to dispatch during add/merge: handed to the framework
   * by the next dispatch() call, before anything else */
  aliasPending: number[];

  // ── statistics ──
  exitProb: number; // 0…256 fixed point
  exitNoCoop: number; // 0…256 fixed point
  newTtimeTotal: number;
  newTtimeMeanJ: number; // mean first think time of new processes, jiffies
  newSeekTotal: number;
  newSeekMean: number; // sectors
  aic: Record<string, AsIoContext>;
}

export const MS = 1e6;

/** MAXBACK: the longest backward seek as_choose_req accepts, sectors (512 MiB). */
export const MAXBACK = 1024 * 1024;
/** A backward seek counts this many times its distance. */
export const BACK_PENALTY = 2;

// ── the jiffy clock ──

export { jiffiesNow, jiffyNs, msecsToJiffies as msToJiffies } from './common';

/** "0.4 ms" — ns shown in ms, the unit of every tunable. */
export function fmtMs(ns: number): string {
  const ms = ns / MS;
  return `${Number(ms.toFixed(ms < 10 ? 2 : 1))} ms`;
}

/** "8 ms (2 jiffies)" — a jiffy count in the sysfs unit, with the count itself. */
export function fmtJ(j: number, hz: number): string {
  return `${fmtMs(jiffyNs(j, hz))} (${j} ${j === 1 ? 'jiffy' : 'jiffies'})`;
}

export function dirName(d: Dir): 'sync' | 'async' {
  return d === SYNC ? 'sync' : 'async';
}
