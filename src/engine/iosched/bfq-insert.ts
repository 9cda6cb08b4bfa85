// A request enters BFQ (block/bfq-iosched.c): bfq_init_rq (the process's queue, split
// off a shared one if need be: bfq-coop.ts) → __bfq_insert_request (a close cooperator
// may take it) → bfq_add_request → bfq_rq_enqueued, with the idle-to-busy switch (budget
// for the activation, weight raising, preemption of the in-service queue), and its
// removal (bfq_remove_request).
import { msecsToJiffies } from './common';
import { explainRaise } from './bfq-explain';
import {
  addBusy,
  betterToIdle,
  budgetTimedOut,
  delBusy,
  expire,
  idlingBoostsThr,
} from './bfq-expire';
import { initSyncRq, mergeQueues, setupCooperator } from './bfq-coop';
import { injectOnArrival, injectOnTtimeChange } from './bfq-inject';
import { posTreeAddMove, posTreeRemove } from './bfq-pos';
import {
  addToQueue,
  bicOf,
  chooseReq,
  findNext,
  queueFor,
  servToCharge,
  takeFromQueue,
  updateIoIntensity,
  updateSeek,
  updateShortTtime,
  updateThinktime,
} from './bfq-queue';
import { BFQ_SMALL_REQ_SECTORS, BFQ_WR_COEFF, BFQ_WR_MIN_INTER_ARR_ASYNC_MS } from './bfq-tunables';
import { ON_ACTIVE, budgetLeft, jiffies, type BfqQueue, type BfqState } from './bfq-types';
import { activateRequeue, firstActive, vtimeJump } from './bfq-wf2q';
import { classify, idleLong, seekyEndsSoftRt, wrDuration, wrOnArrival } from './bfq-wr';
import type { ElevatorContext } from './types';
import type { IoRequest } from '../request';

/** bfq_updated_next_req: a waiting queue's budget follows its new next request. */
export function updatedNextReq(s: BfqState, q: BfqQueue, ctx: ElevatorContext): void {
  if (q.nextRq < 0 || q.id === s.inService) return;
  const budget = Math.max(q.maxBudget, servToCharge(s, q, ctx.rq(q.nextRq)), q.service);
  if (q.budget !== budget) {
    q.budget = budget;
    if (q.busy) activateRequeue(s, q, false);
  }
}

/** bfq_bfqq_update_budg_for_activation: a queue whose next request came soon after it
 * emptied goes on with the budget it had left (and may preempt); else a fresh budget. */
function budgForActivation(s: BfqState, q: BfqQueue, inTime: boolean, ctx: ElevatorContext) {
  if (q.nonBlockingWaitRq && inTime && budgetLeft(q) > 0) {
    q.budget = Math.min(budgetLeft(q), q.maxBudget);
    q.service = 0;
    return true;
  }
  q.service = 0;
  q.budget = Math.max(q.maxBudget, servToCharge(s, q, ctx.rq(q.nextRq)));
  q.nonBlockingWaitRq = false;
  return false;
}

/** bfq_bfqq_higher_class_or_weight */
function higherClassOrWeight(q: BfqQueue, inServ: BfqQueue): boolean {
  return q.ioprioClass < inServ.ioprioClass || q.weight > inServ.weight;
}

/** next_queue_may_preempt: sd->next_in_service != sd->in_service_entity. The root
 * group's next_in_service is the best entity on its active trees; the in-service queue
 * was taken off its tree when set in service (bfq_get_next_queue) and goes back only as it
 * expires, so without groups the two never coincide while a queue is in service. */
function nextQueueMayPreempt(s: BfqState, inServ: BfqQueue): boolean {
  if (inServ.tree !== ON_ACTIVE) return true;
  // __bfq_lookup_next_entity with an entity in service: no virtual-time update
  for (const st of s.trees) {
    if (st.active.length === 0) continue;
    return firstActive(s, st, vtimeJump(s, st)) !== inServ;
  }
  return true;
}

/** bfq_bfqq_handle_idle_busy_switch */
function idleBusySwitch(
  s: BfqState,
  q: BfqQueue,
  oldWr: number,
  rq: IoRequest,
  ctx: ElevatorContext,
) {
  const j = jiffies(ctx);
  const a = classify(s, q, bicOf(s, rq.pid).stablyMerged, ctx);
  const inTime = ctx.now <= q.ttimeLastEnd + s.t.sliceIdleNs * 3;
  const wantsToPreempt = budgForActivation(s, q, inTime, ctx);
  // idle for far longer than an interactive queue: its burst's I/O is over
  if (!q.justCreated && idleLong(s, q, j) && q.budgetTimeout + msecsToJiffies(10000, s.hz) < j) {
    if (q.inBurstList) s.burstList = s.burstList.filter((id) => id !== q.id);
    q.inBurstList = false;
    q.inLargeBurst = false;
  }
  q.justCreated = false;
  // no raising for 2 s after a split (bfq_wr_min_idle_time)
  if (s.t.lowLatency && q.splitJ + msecsToJiffies(2000, s.hz) < j) {
    wrOnArrival(s, q, oldWr, a, ctx);
    if (oldWr === 1 && q.wrCoeff > 1 && ctx.recording)
      explainRaise(q, a.interactive, q.wrCurMaxTime, s.hz, ctx);
  }
  q.lastIdleBklogged = j;
  q.serviceFromBacklogged = 0;
  q.softrtUpdate = false;
  addBusy(s, q);
  const inServ = s.queues[s.inService];
  if (
    inServ &&
    ((wantsToPreempt && q.wrCoeff >= inServ.wrCoeff) ||
      higherClassOrWeight(q, inServ) ||
      !betterToIdle(s, inServ)) &&
    nextQueueMayPreempt(s, inServ)
  ) {
    expire(s, inServ, false, 'preempted', ctx);
    ctx.kick();
  }
  return a.interactive;
}

/** bfq_init_rq: the request's queue (a sync one made, or split, here), its process's
 * request count */
function initRq(s: BfqState, rq: IoRequest, ctx: ElevatorContext): BfqQueue {
  bicOf(s, rq.pid).requests++;
  if (rq.sync) return initSyncRq(s, rq, ctx);
  return s.queues[queueFor(s, rq.pid, false, rq.ioprioClass, rq.ioprioLevel, ctx)]!;
}

/** bfq_insert_request with BLK_MQ_INSERT_AT_HEAD: bfq_init_rq gives it its queue, then it
 * goes to the head of bfqd->dispatch — not into the queue, which stays as it was */
export function addHead(s: BfqState, rq: IoRequest, ctx: ElevatorContext): void {
  rq.sched = initRq(s, rq, ctx).id;
  s.dispatchList.unshift(rq.slot);
}

/** bfq_insert_request → __bfq_insert_request → bfq_add_request → bfq_rq_enqueued */
export function add(s: BfqState, rq: IoRequest, ctx: ElevatorContext): void {
  let q = initRq(s, rq, ctx);
  const nq = setupCooperator(s, q, rq.sector, rq.pid, ctx);
  if (nq) {
    // the request goes to the shared queue; its process too, if not redirected already
    if (s.syncOf[rq.pid] === q.id) mergeQueues(s, rq.pid, q, nq, ctx);
    q.justCreated = false;
    q = nq;
  }
  rq.sched = q.id;
  const now = ctx.now;
  const j = jiffies(ctx);
  updateThinktime(s, q, now);
  const wasShort = q.hasShortTtime;
  updateShortTtime(s, q, j);
  if (q.sync && q.ioprioClass !== 3 && s.t.sliceIdleNs > 0) injectOnTtimeChange(s, q, wasShort, j);
  updateSeek(s, q, rq);
  seekyEndsSoftRt(s, q, ctx);
  const oldWr = q.wrCoeff;
  if (q.sync && bicOf(s, rq.pid).requests <= 1) injectOnArrival(s, q, ctx);
  if (q.sync) updateIoIntensity(q, now);
  addToQueue(s, q, rq, ctx);
  const prev = q.nextRq;
  q.nextRq = chooseReq(s, q.nextRq, rq.slot, s.lastPosition, ctx);
  if (q.nextRq !== prev) {
    q.nextFromFifo = false;
    if (!s.nonrotWithQueueing) posTreeAddMove(s, q, ctx);
  }
  let interactive = false;
  if (!q.busy) interactive = idleBusySwitch(s, q, oldWr, rq, ctx);
  else {
    // an async queue's request 500 ms after its last one is raised too
    if (
      s.t.lowLatency &&
      oldWr === 1 &&
      !rq.sync &&
      q.lastWrStartFinish + msecsToJiffies(BFQ_WR_MIN_INTER_ARR_ASYNC_MS, s.hz) < j
    ) {
      q.wrCoeff = BFQ_WR_COEFF;
      q.wrCurMaxTime = wrDuration(s);
      s.wrBusyQueues++;
      q.prioChanged = true;
    }
    if (prev !== q.nextRq) updatedNextReq(s, q, ctx);
  }
  if (s.t.lowLatency && (oldWr === 1 || q.wrCoeff === 1 || interactive)) q.lastWrStartFinish = j;
  // bfq_rq_enqueued
  q.lastRequestPos = rq.sector + rq.nSectors;
  if (q.id === s.inService && q.waitRequest) {
    const small = q.queued[rq.sync ? 1 : 0] === 1 && rq.nSectors < BFQ_SMALL_REQ_SECTORS;
    const timedOut = budgetTimedOut(q, ctx);
    if (small && idlingBoostsThr(s, q) && !timedOut) return; // wait for merges
    q.waitRequest = false;
    if (s.idleTimerAt >= 0) {
      s.idleTimerAt = -1;
      ctx.clearTimer();
    }
    if (timedOut) expire(s, q, false, 'budget-timeout', ctx);
    ctx.kick();
  }
}

/** bfq_remove_request: the next request is found again; an emptied waiting queue leaves
 * (its budget and service start afresh) and the position tree follows. */
export function removeRequest(s: BfqState, q: BfqQueue, rq: IoRequest, ctx: ElevatorContext): void {
  if (q.nextRq === rq.slot) {
    q.nextRq = findNext(s, q, rq.slot, ctx);
    updatedNextReq(s, q, ctx);
  }
  takeFromQueue(s, q, rq);
  if (q.sortList.length === 0) {
    q.nextRq = -1;
    if (q.busy && q.id !== s.inService) {
      delBusy(s, q);
      q.budget = q.service = 0;
    }
    posTreeRemove(s, q);
  } else if (!s.nonrotWithQueueing) posTreeAddMove(s, q, ctx);
}
