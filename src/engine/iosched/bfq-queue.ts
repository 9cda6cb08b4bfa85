// A bfq_queue and its requests (block/bfq-iosched.c): which queue a request goes to
// (bfq_get_queue: the process's sync queue, or the shared async queue of its I/O
// priority), its weight (bfq_ioprio_to_weight), the sort list and next_rq (bfq_choose_req
// with back_seek_max and back_seek_penalty, as CFQ), the FIFO checked once per service
// slot (bfq_check_fifo), and the per-queue statistics: think time, seekiness, I/O-boundness.
import { fifoRemove, msecsToJiffies, sortInsert, sortRemove } from './common';
import { cfqChooseSlot, findNextRq } from './cfq-choose';
import {
  BFQ_ASYNC_CHARGE_FACTOR,
  BFQ_DEFAULT_MAX_BUDGET,
  BFQ_STATS_MIN_BUDGETS,
  BFQ_TTIME_VALID_SAMPLES,
  BFQ_WEIGHT_CONVERSION_COEFF,
  BFQQ_SECT_THR_NONROT,
  BFQQ_SEEK_THR,
  BFQQ_SEEKY_COUNT,
  IOPRIO_NR_LEVELS,
} from './bfq-tunables';
import { NOT_ON_TREE, jiffies, type BfqBic, type BfqQueue, type BfqState } from './bfq-types';
import type { ElevatorContext } from './types';
import type { IoRequest } from '../request';

/** bfq_ioprio_to_weight: (IOPRIO_NR_LEVELS − level) × 10; BE 4 → 40 */
export function ioprioToWeight(level: number): number {
  return (IOPRIO_NR_LEVELS - level) * BFQ_WEIGHT_CONVERSION_COEFF;
}

/** bfq_set_next_ioprio_data: class none is BE at the nice-0 level 4; IDLE is level 7. */
export function ioprioOf(cls: number, level: number): [number, number] {
  if (cls === 1) return [1, level];
  if (cls === 3) return [3, IOPRIO_NR_LEVELS - 1];
  return [2, cls === 2 ? level : 4];
}

/** bfq_max_budget / bfq_min_budget: the default until 194 budgets were assigned */
export function bfqMaxBudget(s: BfqState): number {
  return s.budgetsAssigned < BFQ_STATS_MIN_BUDGETS ? BFQ_DEFAULT_MAX_BUDGET : s.maxBudget;
}
export function bfqMinBudget(s: BfqState): number {
  return Math.floor(bfqMaxBudget(s) / 32);
}

/** bfq_init_bfqq */
export function newQueue(
  s: BfqState,
  pid: number,
  sync: boolean,
  cls: number,
  lvl: number,
  ctx: ElevatorContext,
) {
  const w = ioprioToWeight(lvl);
  const j = jiffies(ctx);
  const q: BfqQueue = {
    id: s.queues.length,
    pid,
    sync,
    ioprioClass: cls,
    ioprio: lvl,
    weight: w,
    origWeight: w,
    prioChanged: false,
    start: 0,
    finish: 0,
    budget: 0,
    service: 0,
    tree: NOT_ON_TREE,
    onSt: false,
    maxBudget: Math.floor((2 * bfqMaxBudget(s)) / 3),
    sortList: [],
    fifo: [],
    nextRq: -1,
    nextFromFifo: false,
    queued: [0, 0],
    dispatched: 0,
    busy: false,
    waitRequest: false,
    nonBlockingWaitRq: false,
    fifoExpire: false,
    // tentatively short think time (not for the idle class)
    hasShortTtime: sync && cls !== 3,
    ioBound: true,
    budgetTimeout: -Infinity, // bfq_smallest_from_now
    seekHistory: 1, // the first request is almost certainly seeky
    lastRequestPos: 0,
    ttimeLastEnd: ctx.now + 1,
    ttimeSamples: 0,
    ttimeTotal: 0,
    ttimeMean: 0,
    ioStartTime: ctx.now,
    totIdleTime: 0,
    idleWrap: -1,
    justCreated: sync,
    inWeightsTree: false,
    wrCoeff: 1,
    wrCurMaxTime: 0,
    lastWrStartFinish: j,
    wrStartAtSwitchToSrt: -Infinity,
    serviceFromWr: 0,
    softRtNextStart: j,
    lastIdleBklogged: j,
    serviceFromBacklogged: 0,
    softrtUpdate: false,
    creationJ: j,
    splitJ: -Infinity,
    firstIoJ: j,
    bic: sync ? pid : -1,
    procRefs: sync ? 1 : 0,
    newQueue: -1,
    coop: false,
    splitCoop: false,
    posKey: -1,
    inLargeBurst: false,
    inBurstList: false,
    injectLimit: 0,
    lastServTimeNs: 0,
    decreaseTimeJ: j,
    wakerQ: -1,
    tentativeWakerQ: -1,
    numWakerDetections: 0,
    wakerDetectionStartedNs: 0,
    woken: [],
  };
  s.queues.push(q);
  return q;
}

/** a process's bfq_io_cq, made on first use */
export function bicOf(s: BfqState, pid: number): BfqBic {
  return (s.bics[pid] ??= {
    asyncQ: -1,
    requests: 0,
    stableMergeQ: -1,
    stablyMerged: false,
    saved: null,
  });
}

/** The queue a request of this process, sync or not, at this priority goes to (−1: none
 * yet, unless `create`). */
export function queueFor(
  s: BfqState,
  pid: number,
  sync: boolean,
  ioprioClass: number,
  ioprioLevel: number,
  ctx: ElevatorContext | null,
): number {
  const [cls, lvl] = ioprioOf(ioprioClass, ioprioLevel);
  if (sync) {
    const id = s.syncOf[pid];
    if ((id !== undefined && id >= 0) || !ctx) return id ?? -1;
    return (s.syncOf[pid] = newQueue(s, pid, true, cls, lvl, ctx).id);
  }
  // bfq_async_queue_prio: one per RT/BE level; IDLE has one
  const key = cls === 3 ? 'idle' : `${cls}.${lvl}`;
  let id = s.asyncOf[key];
  if (id === undefined) {
    if (!ctx) return -1;
    id = s.asyncOf[key] = newQueue(s, -1, false, cls, lvl, ctx).id;
  }
  if (ctx) {
    // bic->bfqq[0]: the process's async queue, one process reference each
    const bic = bicOf(s, pid);
    if (bic.asyncQ !== id) {
      if (bic.asyncQ >= 0) s.queues[bic.asyncQ]!.procRefs--;
      bic.asyncQ = id;
      s.queues[id]!.procRefs++;
    }
  }
  return id;
}

export const queueOf = (s: BfqState, rq: IoRequest) => s.queues[rq.sched]!;

/** bfq_asymmetric_scenario: queues of different weights (bfqq not the lightest), or
 * several classes busy. */
export function asymmetric(s: BfqState, q: BfqQueue): boolean {
  const w = s.weights;
  const isSmallest = q.inWeightsTree && w.length > 0 && q.weight === w[0]![0];
  const varied = !isSmallest && w.length > 1;
  const b = s.busyQueues;
  const classes = (b[0] > 0 ? 1 : 0) + (b[1] > 0 ? 1 : 0) + (b[2] > 0 ? 1 : 0);
  return varied || classes > 1;
}

/** bfq_serv_to_charge: async requests of a non-raised queue cost 3 × their sectors, unless
 * the scenario is asymmetric. */
export function servToCharge(s: BfqState, q: BfqQueue, rq: IoRequest): number {
  if (q.sync || q.wrCoeff > 1 || asymmetric(s, q)) return rq.nSectors;
  return rq.nSectors * BFQ_ASYNC_CHARGE_FACTOR;
}

/** bfq_choose_req at a head position */
export function chooseReq(s: BfqState, a: number, b: number, head: number, ctx: ElevatorContext) {
  const ra = a >= 0 ? ctx.rq(a) : null;
  const rb = b >= 0 ? ctx.rq(b) : null;
  return cfqChooseSlot(ra, rb, head, s.t.backMaxKiB, s.t.backPenalty);
}

/** bfq_check_fifo: once per service slot, an expired FIFO head (not `last`) goes next. */
function checkFifo(q: BfqQueue, last: number, ctx: ElevatorContext): number {
  if (q.fifoExpire) return -1;
  q.fifoExpire = true;
  const head = q.fifo[0];
  if (head === undefined || head === last || ctx.now < ctx.rq(head).fifoNs) return -1;
  return head;
}

/** bfq_find_next_rq: the FIFO's expired head, else the better neighbour of `last`. */
export function findNext(s: BfqState, q: BfqQueue, last: number, ctx: ElevatorContext): number {
  const fifo = checkFifo(q, last, ctx);
  q.nextFromFifo = fifo >= 0;
  if (fifo >= 0) return fifo;
  const head = ctx.rq(last).sector;
  return findNextRq(q.sortList, last, ctx, head, s.t.backMaxKiB, s.t.backPenalty);
}

/** elv_rb_add, and the request's deadline in the FIFO (__bfq_insert_request). */
export function addToQueue(s: BfqState, q: BfqQueue, rq: IoRequest, ctx: ElevatorContext): void {
  q.queued[rq.sync ? 1 : 0]++;
  s.queuedTotal++;
  sortInsert(q.sortList, rq.slot, ctx);
  rq.fifoNs = ctx.now + s.t.fifoExpireNs[rq.sync ? 1 : 0];
  q.fifo.push(rq.slot);
}

/** bfq_remove_request's bookkeeping (the caller handles next_rq and an emptied queue). */
export function takeFromQueue(s: BfqState, q: BfqQueue, rq: IoRequest): void {
  fifoRemove(q.fifo, rq.slot);
  sortRemove(q.sortList, rq.slot);
  q.queued[rq.sync ? 1 : 0]--;
  s.queuedTotal--;
}

/** BFQ_RQ_SEEKY: farther than 800 sectors from the last request (on an SSD, only small). */
export function rqSeeky(s: BfqState, lastPos: number, rq: IoRequest): boolean {
  const dist = lastPos ? Math.abs(rq.sector - lastPos) : 0;
  return dist > BFQQ_SEEK_THR && (s.rot || rq.nSectors < BFQQ_SECT_THR_NONROT);
}

/** BFQQ_SEEKY: more than 19 of the last 32 requests seeky */
export function seeky(q: BfqQueue): boolean {
  let n = 0;
  for (let h = q.seekHistory; h !== 0; h &= h - 1) n++;
  return n > BFQQ_SEEKY_COUNT;
}

/** BFQQ_TOTALLY_SEEKY: all of the last 32 */
export const totallySeeky = (q: BfqQueue) => q.seekHistory === -1;

/** bfq_update_io_seektime (the soft-real-time end is in bfq-wr.ts) */
export function updateSeek(s: BfqState, q: BfqQueue, rq: IoRequest): void {
  q.seekHistory = (q.seekHistory << 1) | (rqSeeky(s, q.lastRequestPos, rq) ? 1 : 0);
}

/** bfq_update_io_thinktime: only when the queue had nothing queued or in flight. A new
 * queue's last_end_request is "now + 1", minus infinity in u64 arithmetic: its first
 * sample is the cap, 2 × slice_idle (the 6.18 trace shows the long think time it makes
 * after three samples). */
export function updateThinktime(s: BfqState, q: BfqQueue, now: number): void {
  if (q.dispatched > 0 || q.busy) return;
  const since = now - q.ttimeLastEnd;
  const elapsed = since < 0 ? 2 * s.t.sliceIdleNs : Math.min(since, 2 * s.t.sliceIdleNs);
  q.ttimeSamples = Math.floor((7 * q.ttimeSamples + 256) / 8);
  q.ttimeTotal = Math.floor((7 * q.ttimeTotal + 256 * elapsed) / 8);
  q.ttimeMean = Math.floor((q.ttimeTotal + 128) / q.ttimeSamples);
}

/** bfq_update_has_short_ttime: long once the mean think time is over slice_idle / 2 (not
 * in the 2 s after a split, when the statistics just restored mean nothing). */
export function updateShortTtime(s: BfqState, q: BfqQueue, j: number): void {
  if (!q.sync || q.ioprioClass === 3 || s.t.sliceIdleNs === 0) return;
  if (q.splitJ + msecsToJiffies(2000, s.hz) >= j) return;
  q.hasShortTtime = !(
    q.ttimeSamples > BFQ_TTIME_VALID_SAMPLES && q.ttimeMean > s.t.sliceIdleNs / 2
  );
}

// tot_idle_time is a u64. A new queue's first sample is −1 ns (last_end_request is "now +
// 1", and insertion sees the same cached plug time), which makes it 2^64 − 1: the queue
// counts as idle, not I/O-bound, until an arrival on the empty queue brings it back
// around or some forty halvings (of 100–200 ms windows) bring it down. Spindle keeps such
// a value as 2^(64 − idleWrap) − totIdleTime.
const TWO_64 = 2 ** 64;

/** tot_idle_time += add, modulo 2^64 */
function idleAdd(q: BfqQueue, add: number): void {
  if (q.idleWrap < 0) {
    const v = q.totIdleTime + add;
    if (v >= 0) q.totIdleTime = v;
    else {
      q.idleWrap = 0;
      q.totIdleTime = -v;
    }
    return;
  }
  // a request issued "at" a completion comes a little after it in a kernel (its clock is
  // read again): at least 1 ns, enough to come back around
  const deficit = q.totIdleTime - Math.max(add, 1);
  if (q.idleWrap === 0 && deficit <= 0) {
    q.idleWrap = -1; // around past 2^64: a small value again
    q.totIdleTime = -deficit;
  } else q.totIdleTime = deficit;
}

/** tot_idle_time × 5 (modulo 2^64) > tot */
function idleTimes5Over(q: BfqQueue, tot: number): boolean {
  if (q.idleWrap < 0) return q.totIdleTime * 5 > tot;
  const k = q.idleWrap;
  const top = k === 0 ? TWO_64 : k <= 2 ? 2 ** (64 - k) : 5 * 2 ** (64 - k); // 5·2^(64−k) mod 2^64
  let p = top - 5 * q.totIdleTime;
  if (p < 0) p += TWO_64;
  return p > tot;
}

/** tot_idle_time >>= 1 */
function idleHalve(q: BfqQueue): void {
  if (q.idleWrap < 0) {
    q.totIdleTime = Math.floor(q.totIdleTime / 2);
    return;
  }
  q.idleWrap++;
  q.totIdleTime = Math.ceil(q.totIdleTime / 2);
  const base = 2 ** (64 - q.idleWrap);
  if (base <= 2 ** 52) {
    q.idleWrap = -1; // exact in a double from here on
    q.totIdleTime = base - q.totIdleTime;
  }
}

/** bfq_update_io_intensity: I/O-bound when busy at least 80% of a ≤ 200 ms window. */
export function updateIoIntensity(q: BfqQueue, now: number): void {
  const tot = now - q.ioStartTime;
  if (q.sortList.length === 0 && q.dispatched === 0) idleAdd(q, now - q.ttimeLastEnd);
  if (q.justCreated) return;
  q.ioBound = !idleTimes5Over(q, tot);
  if (tot > 200e6) {
    q.ioStartTime = now - Math.floor(tot / 2);
    idleHalve(q);
  }
}
