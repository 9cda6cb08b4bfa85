// CFQ's state (plain data: it is structuredClone'd with the simulation), its constants,
// the closed list of decision rules, and the small helpers every cfq-*.ts file shares:
// the jiffy clock and the blktrace 'm' message prefix. See docs/iosched/cfq.md.
import type { Candidate, ElevatorContext } from './types';

/** slice = base + base/CFQ_SLICE_SCALE × (4 − level) */
export const CFQ_SLICE_SCALE = 5;
/** hw_tag: the driver held at least this many requests at its peak */
export const CFQ_HW_QUEUE_MIN = 5;
/** a queue is seeky when its mean seek distance exceeds this (sectors, 4 MiB) */
export const CFQQ_SEEK_THR = 8 * 1024;
/** think time treated as immediate; also the short idle for seeky queues (ms) */
export const CFQ_MIN_TT_MS = 2;
/** idle-class queues go this far behind the last queue of the service tree (ms, HZ/5) */
export const CFQ_IDLE_DELAY_MS = 200;
/** a preempting queue goes this far before the first queue (ms, HZ) */
export const CFQ_PREEMPT_LEAD_MS = 1000;
/** merged (cooperating) queues are split after this long seeky (ms, HZ) */
export const CFQQ_COOP_TOUT_MS = 1000;
/** a request larger than a page ends idling at once (bytes) */
export const PAGE_CACHE_SIZE = 4096;
export const IOPRIO_BE_NR = 8;

export const CLASS_RT = 1;
export const CLASS_BE = 2;
export const CLASS_IDLE = 3;
export const CLASS_NAMES: Record<number, 'rt' | 'be' | 'idle'> = { 1: 'rt', 2: 'be', 3: 'idle' };

/**
 * Every decision CFQ records, one per branch of the 2.6.32 code (STYLE.md habit 8).
 * Dispatches carry the chosen request; refusals and expiries carry −1.
 */
export const CFQ_RULES = {
  'continue-slice': 'the active queue keeps the disk within its slice: its next_rq goes',
  'fifo-expired-in-queue': 'first dispatch of the slice: the queue FIFO head is past its deadline',
  'new-queue-from-service-tree': 'no active queue: the leftmost queue of the service tree starts',
  'class-switch': 'the new active queue is of another class than the last one (RT before BE)',
  'idle-class-when-idle': 'an IDLE-class queue starts: no RT or BE queue has requests',
  'close-cooperator': 'the active queue ran dry; a queue with a request near the head runs now',
  'slice-expired': 'the active queue used its time slice: expire it (slice expired)',
  'queue-empty-expire': 'the active queue has nothing queued, nothing to wait for: expire it',
  'async-slice-limit': 'an async queue dispatched its slice budget (slice_async_rq) of requests',
  'idle-class-expire': 'an IDLE-class queue expires after each dispatch and each completion',
  'idle-arm': 'the last request of a sync queue completed: idle slice_idle for its next one',
  'idle-wait': 'the idle timer runs: dispatch nothing while the active process may issue more',
  'wait-in-flight': 'the active queue is empty but its requests are in the driver: wait',
  'idle-hit': 'the process the queue idled for issued a request: it must be dispatched',
  'idle-timeout': 'the idle timer fired with nothing queued: expire the active queue',
  'idle-timer-kick': 'the idle timer fired and the queue has work (or must dispatch): run it',
  'drain-async-before-sync': 'an idling (sync) queue waits until async requests leave the driver',
  'sync-in-flight': 'an async queue waits while sync requests are in flight',
  'quantum-reached': 'the active queue has quantum requests in the driver and others are busy',
  'async-depth-ramp': 'low_latency: async depth is 1 per slice_sync since the last sync completion',
  'idle-class-one-in-flight': 'an IDLE-class queue may have one request in the driver',
  'preempt-slice-used': 'a request arrived and the active queue had used its slice: preempt',
  'preempt-idle-class': 'a request arrived for a queue better than the IDLE-class active queue',
  'preempt-sync-over-async': 'a sync request arrived while an async queue is active: preempt',
  'preempt-rt': 'a request arrived for an RT queue while a non-RT queue is active: preempt',
  'preempt-close': 'while idling, a request arrived within the mean seek distance: preempt',
  'alias-dispatch': 'a request with the same start sector arrived: the older goes straight out',
  'forced-dispatch': 'forced dispatch (barrier, elevator switch): drain every queue',
} as const;
export type CfqRule = keyof typeof CFQ_RULES;

/** A cfq_queue: one process's sync I/O, or the async I/O of one priority (shared). */
export interface CfqQueue {
  id: number;
  /** the process that created it (blktrace prints cfq<pid>) */
  pid: number;
  sync: boolean;
  /** I/O priority class (1 RT, 2 BE, 3 IDLE) and level 0–7 (IDLE: 7) */
  ioprioClass: number;
  ioprio: number;
  /** request slots sorted by start sector (the sort_list rb-tree) */
  sortList: number[];
  /** request slots in arrival order, each with its fifo deadline in rq.fifoNs */
  fifo: number[];
  /** the request to serve next if the FIFO has nothing expired, slot or −1 */
  nextRq: number;
  /** requests in sortList, sync and async (queued[1], queued[0]) */
  queuedSync: number;
  queuedAsync: number;
  /** requests allocated to it and not yet freed */
  allocated: number;
  /** requests on the dispatch list or in the driver */
  dispatched: number;
  /** slice end (jiffies), valid once sliceNew is false */
  sliceEnd: number;
  /** when the slice started (jiffies; for inspection only) */
  sliceStart: number;
  /** unused (+) or overrun (−) slice, jiffies, carried into the next service-tree key */
  sliceResid: number;
  /** requests dispatched in this slice */
  sliceDispatch: number;
  /** service-tree key (jiffies) and whether the queue sits in the tree */
  rbKey: number;
  onTree: boolean;
  /** on the round-robin (busy) list: it has queued requests */
  onRr: boolean;
  /** the per-level prio tree it sits in (by next_rq sector), −1 if none */
  pRoot: number;
  /** the cfqq flags */
  waitRequest: boolean;
  mustDispatch: boolean;
  mustAllocSlice: boolean;
  fifoExpire: boolean;
  idleWindow: boolean;
  sliceNew: boolean;
  coop: boolean;
  /** seek statistics (fixed point, as the kernel keeps them); sectors */
  seekSamples: number;
  seekTotal: number;
  seekMean: number;
  lastRequestPos: number;
  /** when a shared (cooperating) queue turned seeky, jiffies, 0 = not */
  seekyStart: number;
  /** the queue this one will be merged into at its process's next request, −1 */
  newQueue: number;
  /** process references (io contexts using it, plus merges promised) */
  procRefs: number;
}

/** A cfq_io_context: one process's view of this device. */
export interface CfqIoContext {
  pid: number;
  /** jiffies of its last sync completion */
  lastEndRequest: number;
  /** think time, fixed point (mean in jiffies) */
  ttimeSamples: number;
  ttimeTotal: number;
  ttimeMean: number;
  /** its queues: async (cfqq[0]) and sync (cfqq[1]), −1 if none */
  asyncQueue: number;
  syncQueue: number;
}

/** Tunables as the kernel holds them: times in jiffies. */
export interface CfqTunables {
  quantum: number;
  fifoExpireSync: number;
  fifoExpireAsync: number;
  backSeekMaxKiB: number;
  backSeekPenalty: number;
  sliceSync: number;
  sliceAsync: number;
  sliceAsyncRq: number;
  sliceIdle: number;
  lowLatency: number;
}

export interface CfqState {
  t: CfqTunables;
  /** every queue ever allocated, by id (queues are never freed: processes do not exit) */
  queues: CfqQueue[];
  /** io contexts by pid */
  cics: Record<number, CfqIoContext>;
  /** the shared async queues: key 'rt0'…'rt7', 'be0'…'be7', 'idle' → queue id */
  asyncQueues: Record<string, number>;
  /** the service tree: busy queue ids, leftmost first (RT, then BE, then IDLE; by rbKey) */
  serviceTree: number[];
  /** per original level, queue ids sorted by their next_rq sector (close cooperators) */
  prioTrees: number[][];
  busyQueues: number;
  /** requests in the driver: async, sync */
  rqInDriverAsync: number;
  rqInDriverSync: number;
  /** requests of sync queues dispatched and not completed */
  syncFlight: number;
  /** requests inside CFQ (all queues) */
  rqQueued: number;
  /** hw_tag estimate: does the device queue internally? */
  hwTag: number;
  hwTagSamples: number;
  rqInDriverPeak: number;
  /** the queue being served, −1 if none, and the pid of the io context it serves */
  activeQueue: number;
  activeCic: number;
  /** the class of the last active queue (for 'class-switch'), 0 before any */
  lastClass: number;
  /** end sector of the last request the driver took (any queue) */
  lastPosition: number;
  /** jiffies of the last sync completion on the device */
  lastEndSyncRq: number;
  /** the idle slice timer: when it fires (jiffies), −1 if not pending */
  idleTimerAt: number;
  /** requests released by the alias rule, waiting to be handed to the dispatch queue */
  aliasOut: number[];
  /** requests moved by the current forced dispatch */
  forcedCount: number;
}

// ── the jiffy clock ──

export { jiffiesNow, jiffyNs, msecsToJiffies } from './common';

export function jiffiesToMsExact(j: number, hz: number): number {
  return (j * 1000) / hz;
}

/** sample_valid(): a fixed-point average has seen enough samples. */
export function sampleValid(samples: number): boolean {
  return samples > 80;
}

export function seeky(q: CfqQueue): boolean {
  return q.seekMean > CFQQ_SEEK_THR;
}

// ── blktrace messages and decision records ──

/** cfq_log_cfqq: "cfq<pid> <text>" (skipped, string and all, when nothing listens) */
export function logq(ctx: ElevatorContext, q: CfqQueue, text: string): void {
  if (ctx.recording) ctx.message(`cfq${q.pid} ${text}`);
}

/** cfq_log: "cfq <text>" */
export function logd(ctx: ElevatorContext, text: string): void {
  if (ctx.recording) ctx.message(`cfq ${text}`);
}

/** %p of a request: a stable stand-in for the kernel address (rq id × 0x100). */
export function rqPointer(id: number): string {
  return `ffff8800${((id * 0x100) >>> 0).toString(16).padStart(8, '0')}`;
}

/** %p of a queue (queue id × 0x200 in another region). */
export function queuePointer(id: number): string {
  return `ffff8801${((id * 0x200) >>> 0).toString(16).padStart(8, '0')}`;
}

/** Record a decision if anyone listens; candidates are built only then. */
export function decide(
  ctx: ElevatorContext,
  rule: CfqRule,
  chosen: number,
  candidates: () => Candidate[],
  text: () => string,
): void {
  if (ctx.recording) ctx.decide(rule, chosen, candidates(), text());
}

/** "cfq1001 (be/4)": how decision texts name a queue. */
export function queueName(q: CfqQueue): string {
  return `cfq${q.pid}${q.sync ? '' : ' async'} (${CLASS_NAMES[q.ioprioClass]}/${q.ioprio})`;
}
