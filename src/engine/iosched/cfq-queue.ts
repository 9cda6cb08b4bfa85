// CFQ's queues and io contexts: which queue a request belongs to (cfq_set_request,
// cfq_get_queue: one sync queue per process, one async queue per priority shared by all),
// slice length and request budget by priority, and the per-process statistics that
// decide idling (think time, seek distance, the idle window). LINUX-SCHEDULERS.md §5.2,
// §5.3, §5.8.
import type { IoRequest } from '../request';
import {
  CFQ_MIN_TT_MS,
  CFQ_SLICE_SCALE,
  CFQQ_COOP_TOUT_MS,
  CLASS_IDLE,
  CLASS_NAMES,
  IOPRIO_BE_NR,
  jiffiesNow,
  logq,
  msecsToJiffies,
  queuePointer,
  sampleValid,
  seeky,
  type CfqIoContext,
  type CfqQueue,
  type CfqState,
} from './cfq-types';
import type { ElevatorContext } from './types';

// ── slices and budgets (§5.3) ──

/** cfq_prio_slice: base + base/5 × (4 − level); base = slice_sync or slice_async (jiffies). */
export function prioSlice(s: CfqState, sync: boolean, level: number): number {
  const base = sync ? s.t.sliceSync : s.t.sliceAsync;
  return base + Math.floor(base / CFQ_SLICE_SCALE) * (4 - level);
}

export function queueSlice(s: CfqState, q: CfqQueue): number {
  return prioSlice(s, q.sync, q.ioprio);
}

/** cfq_prio_to_maxrq: the async request budget of a slice, 2 × (n + n × (7 − level)). */
export function prioToMaxrq(s: CfqState, q: CfqQueue): number {
  const base = s.t.sliceAsyncRq;
  return 2 * (base + base * (IOPRIO_BE_NR - 1 - q.ioprio));
}

/** cfq_set_prio_slice: the slice starts now (at the first completion of the slice). */
export function setPrioSlice(s: CfqState, q: CfqQueue, ctx: ElevatorContext): void {
  const now = jiffiesNow(ctx);
  const len = queueSlice(s, q);
  q.sliceStart = now;
  q.sliceEnd = now + len;
  if (ctx.recording) logq(ctx, q, `set_slice=${len}`);
}

/** cfq_slice_used: a started slice whose end has come. */
export function sliceUsed(q: CfqQueue, ctx: ElevatorContext): boolean {
  if (q.sliceNew) return false;
  return jiffiesNow(ctx) >= q.sliceEnd;
}

// ── io contexts and queues (§5.2) ──

export function cicOf(s: CfqState, pid: number, ctx: ElevatorContext): CfqIoContext {
  let cic = s.cics[pid];
  if (!cic) {
    // cfq_alloc_io_context: last_end_request starts at "now"
    cic = {
      pid,
      lastEndRequest: jiffiesNow(ctx),
      ttimeSamples: 0,
      ttimeTotal: 0,
      ttimeMean: 0,
      asyncQueue: -1,
      syncQueue: -1,
    };
    s.cics[pid] = cic;
  }
  return cic;
}

function newQueue(
  s: CfqState,
  pid: number,
  sync: boolean,
  ioprioClass: number,
  level: number,
  ctx: ElevatorContext,
): CfqQueue {
  const idle = ioprioClass === CLASS_IDLE;
  const q: CfqQueue = {
    id: s.queues.length,
    pid,
    sync,
    ioprioClass,
    // cfq_init_prio_data: the IDLE class always runs at level 7
    ioprio: idle ? 7 : level,
    sortList: [],
    fifo: [],
    nextRq: -1,
    queuedSync: 0,
    queuedAsync: 0,
    allocated: 0,
    dispatched: 0,
    sliceEnd: 0,
    sliceStart: 0,
    sliceResid: 0,
    sliceDispatch: 0,
    rbKey: 0,
    onTree: false,
    onRr: false,
    pRoot: -1,
    waitRequest: false,
    mustDispatch: false,
    mustAllocSlice: false,
    fifoExpire: false,
    // only sync, non-IDLE queues may idle
    idleWindow: sync && !idle,
    sliceNew: false,
    coop: false,
    seekSamples: 0,
    seekTotal: 0,
    seekMean: 0,
    lastRequestPos: 0,
    seekyStart: 0,
    newQueue: -1,
    procRefs: 0,
  };
  s.queues.push(q);
  logq(ctx, q, 'alloced');
  return q;
}

function asyncKey(ioprioClass: number, level: number): string {
  return ioprioClass === CLASS_IDLE ? 'idle' : `${CLASS_NAMES[ioprioClass]}${level}`;
}

/** cfq_get_queue: the process's sync queue, or the shared async queue of its priority. */
function getQueue(s: CfqState, rq: IoRequest, ctx: ElevatorContext): CfqQueue {
  if (!rq.sync) {
    const key = asyncKey(rq.ioprioClass, rq.ioprioLevel);
    const id = s.asyncQueues[key];
    if (id !== undefined) return s.queues[id]!;
    const q = newQueue(s, rq.pid, false, rq.ioprioClass, rq.ioprioLevel, ctx);
    s.asyncQueues[key] = q.id;
    return q;
  }
  return newQueue(s, rq.pid, true, rq.ioprioClass, rq.ioprioLevel, ctx);
}

/** should_split_cfqq: a shared queue that has been seeky for longer than a second. */
function shouldSplit(q: CfqQueue, ctx: ElevatorContext): boolean {
  return (
    q.seekyStart !== 0 && jiffiesNow(ctx) > q.seekyStart + msecsToJiffies(CFQQ_COOP_TOUT_MS, ctx.hz)
  );
}

/**
 * cfq_set_request: attach the request to its queue (rq.sched = queue id). A process's
 * sync queue that was marked to merge with a cooperating queue is redirected here, and
 * a merged queue that went seeky is split apart again.
 */
export function attachQueue(s: CfqState, rq: IoRequest, ctx: ElevatorContext): CfqQueue {
  const cic = cicOf(s, rq.pid, ctx);
  let q: CfqQueue | null = null;
  for (;;) {
    const id = rq.sync ? cic.syncQueue : cic.asyncQueue;
    if (id < 0) {
      q = getQueue(s, rq, ctx);
      q.procRefs++;
      if (rq.sync) cic.syncQueue = q.id;
      else cic.asyncQueue = q.id;
      break;
    }
    q = s.queues[id]!;
    if (q.coop && shouldSplit(q, ctx)) {
      logq(ctx, q, 'breaking apart cfqq');
      if (q.procRefs === 1) {
        // the last process on it keeps it, as its own again
        q.seekyStart = 0;
        q.pid = rq.pid;
        q.coop = false;
      } else {
        cic.syncQueue = -1;
        q.procRefs--;
        continue;
      }
    }
    if (q.newQueue >= 0) {
      // cfq_merge_cfqqs: this process now queues on the cooperating queue
      const target = s.queues[q.newQueue]!;
      if (ctx.recording) logq(ctx, q, `merging with queue ${queuePointer(target.id)}`);
      cic.syncQueue = target.id;
      target.coop = true;
      q.procRefs--;
      q = target;
    }
    break;
  }
  q.allocated++;
  rq.sched = q.id;
  return q;
}

export function queueOf(s: CfqState, rq: IoRequest): CfqQueue {
  return s.queues[rq.sched]!;
}

/** The queue a bio would go to (merge hooks), or null if its process has none yet. */
export function bioQueue(s: CfqState, pid: number, sync: boolean): CfqQueue | null {
  const cic = s.cics[pid];
  if (!cic) return null;
  const id = sync ? cic.syncQueue : cic.asyncQueue;
  return id >= 0 ? s.queues[id]! : null;
}

// ── statistics (§5.8) ──

/** cfq_update_io_thinktime: time since its last sync completion, as a decaying mean. */
export function updateThinkTime(s: CfqState, cic: CfqIoContext, ctx: ElevatorContext): void {
  const elapsed = jiffiesNow(ctx) - cic.lastEndRequest;
  const ttime = Math.min(elapsed, 2 * s.t.sliceIdle);
  cic.ttimeSamples = Math.floor((7 * cic.ttimeSamples + 256) / 8);
  cic.ttimeTotal = Math.floor((7 * cic.ttimeTotal + 256 * ttime) / 8);
  cic.ttimeMean = Math.floor((cic.ttimeTotal + 128) / cic.ttimeSamples);
}

/** cfq_update_io_seektime: distance from the end of the queue's previous request. */
export function updateSeekTime(q: CfqQueue, rq: IoRequest, ctx: ElevatorContext): void {
  let sdist: number;
  if (!q.lastRequestPos) sdist = 0;
  else sdist = Math.abs(rq.sector - q.lastRequestPos);
  // Don't let the odd far fragment dominate the mean.
  if (q.seekSamples <= 60) sdist = Math.min(sdist, q.seekMean * 4 + 2 * 1024 * 1024);
  else sdist = Math.min(sdist, q.seekMean * 4 + 2 * 1024 * 64);
  q.seekSamples = Math.floor((7 * q.seekSamples + 256) / 8);
  q.seekTotal = Math.floor((7 * q.seekTotal + 256 * sdist) / 8);
  q.seekMean = Math.floor((q.seekTotal + Math.floor(q.seekSamples / 2)) / q.seekSamples);
  // A shared queue remembers when it went seeky (it is split after a second of that).
  if (q.coop) {
    if (seeky(q) && !q.seekyStart) q.seekyStart = jiffiesNow(ctx);
    else if (!seeky(q)) q.seekyStart = 0;
  }
}

/**
 * cfq_update_idle_window: a sync queue idles for its process unless that process thinks
 * longer than slice_idle (2 ms if seeky), once its statistics are valid.
 */
export function updateIdleWindow(
  s: CfqState,
  q: CfqQueue,
  cic: CfqIoContext,
  ctx: ElevatorContext,
): void {
  if (!q.sync || q.ioprioClass === CLASS_IDLE) return;
  const old = q.idleWindow;
  let enable = old;
  // (the kernel also disables it when the process has exited; Spindle's never exit)
  if (!s.t.sliceIdle || (!s.t.lowLatency && s.hwTag && seeky(q))) enable = false;
  else if (sampleValid(cic.ttimeSamples)) {
    let limit = s.t.sliceIdle;
    if (sampleValid(q.seekSamples) && seeky(q)) limit = msecsToJiffies(CFQ_MIN_TT_MS, ctx.hz);
    enable = cic.ttimeMean <= limit;
  }
  if (old !== enable) {
    if (ctx.recording) logq(ctx, q, `idle=${enable ? 1 : 0}`);
    q.idleWindow = enable;
  }
}
