// When BFQ's in-service queue stops (block/bfq-iosched.c): whether idling for it is better
// (bfq_better_to_idle), the budget feedback (__bfq_bfqq_recalc_budget), charging a slow
// queue its time (bfq_bfqq_is_slow, bfq_bfqq_charge_time), the expiration itself
// (bfq_bfqq_expire), the busy list (bfq_add_bfqq_busy, bfq_del_bfqq_busy) and choosing the
// next queue (bfq_set_in_service_queue with B-WF2Q+).
import { MS } from './common';
import { explainExpire } from './bfq-explain';
import { BFQ_MIN_TT_NS } from './bfq-tunables';
import { asymmetric, bfqMaxBudget, bfqMinBudget, seeky, servToCharge } from './bfq-queue';
import { posTreeAddMove } from './bfq-pos';
import {
  budgetLeft,
  classIdx,
  jiffies,
  totBusy,
  type BfqExpiration,
  type BfqQueue,
  type BfqState,
} from './bfq-types';
import {
  activateRequeue,
  activeExtract,
  deactivateEntity,
  firstActive,
  bfqqServed,
  updateVtime,
  vtimeJump,
  weightsTreeAdd,
  weightsTreeRemove,
} from './bfq-wf2q';
import { rtMaxTime, softrtNextStart } from './bfq-wr';
import type { ElevatorContext } from './types';

/** idling_needed_for_service_guarantees (never for a queue no process sends I/O to) */
export function idlingNeededForGuarantees(s: BfqState, q: BfqQueue): boolean {
  if (q.procRefs === 0) return false;
  const busy = totBusy(s);
  return (
    (q.wrCoeff > 1 && (s.wrBusyQueues < busy || s.rqInDriver >= q.dispatched + 4)) ||
    asymmetric(s, q) ||
    busy === 1
  );
}

/** idling_boosts_thr_without_issues: a rotational disk without queueing, or a sequential,
 * I/O-bound queue with a short think time (not on a queueing SSD); never while raised
 * queues are busy. */
export function idlingBoostsThr(s: BfqState, q: BfqQueue): boolean {
  if (q.procRefs === 0) return false;
  // hw_tag starts at −1 (unknown): `!bfqd->hw_tag` holds only once it is known to be 0
  const noQueueing = s.hwTag === 0;
  const rotWithoutQueueing = s.rot && noQueueing;
  const seqIoBound = !seeky(q) && q.ioBound && q.hasShortTtime;
  const boosts = rotWithoutQueueing || ((s.rot || noQueueing) && seqIoBound);
  return boosts && s.wrBusyQueues === 0;
}

/** bfq_better_to_idle */
export function betterToIdle(s: BfqState, q: BfqQueue): boolean {
  if (q.procRefs === 0) return false;
  if (s.t.strictGuarantees) return true;
  if (s.t.sliceIdleNs === 0 || !q.sync || q.ioprioClass === 3) return false;
  return idlingBoostsThr(s, q) || idlingNeededForGuarantees(s, q);
}

/** bfq_bfqq_must_idle */
export const mustIdle = (s: BfqState, q: BfqQueue) => q.sortList.length === 0 && betterToIdle(s, q);

/** bfq_bfqq_budget_timeout: jiffies reached the queue's budget timeout */
export const budgetTimedOut = (q: BfqQueue, ctx: ElevatorContext) =>
  q.budgetTimeout <= jiffies(ctx);

/** bfq_may_expire_for_budg_timeout */
export const mayExpireForTimeout = (q: BfqQueue, ctx: ElevatorContext) =>
  (!q.waitRequest || budgetLeft(q) >= q.budget / 3) && budgetTimedOut(q, ctx);

/** __bfq_bfqq_recalc_budget: the next budget from why this one ended. */
export function recalcBudget(
  s: BfqState,
  q: BfqQueue,
  reason: BfqExpiration,
  ctx: ElevatorContext,
) {
  const min = bfqMinBudget(s);
  let budget = q.wrCoeff === 1 ? q.maxBudget : 2 * min;
  if (q.sync && q.wrCoeff === 1) {
    if (reason === 'too-idle') {
      if (q.dispatched > 0) budget = Math.min(budget * 2, s.maxBudget);
      else budget = budget > 5 * min ? budget - 4 * min : min;
    } else if (reason === 'budget-timeout') budget = Math.min(budget * 2, s.maxBudget);
    else if (reason === 'budget-exhausted') budget = Math.min(budget * 4, s.maxBudget);
    else if (reason === 'no-more-requests') budget = Math.max(q.service, min);
    else return;
  } else if (!q.sync) budget = s.maxBudget;
  q.maxBudget = budget;
  if (s.budgetsAssigned >= 194 && s.t.userMaxBudget === 0)
    q.maxBudget = Math.min(q.maxBudget, s.maxBudget);
  if (q.nextRq >= 0) q.budget = Math.max(q.maxBudget, servToCharge(s, q, ctx.rq(q.nextRq)));
}

/** bfq_bfqq_is_slow: seeky over a short slot; else under half the max budget in > 20 ms. */
export function isSlow(s: BfqState, q: BfqQueue, compensate: boolean, ctx: ElevatorContext) {
  let slow = seeky(q);
  if (!q.sync) return { slow: false, deltaMs: 0 };
  const end = compensate ? s.lastIdlingStartNs : ctx.now;
  const deltaUs = Math.floor((end - s.lastBudgetStartNs) / 1000);
  if (deltaUs < 1000) {
    // at least one seek (the default slice_idle, 8 ms), on an SSD what idling would cost
    const deltaMs = s.rot ? 8 : BFQ_MIN_TT_NS / MS;
    return { slow, deltaMs };
  }
  if (deltaUs > 20000) slow = q.service < s.maxBudget / 2;
  return { slow, deltaMs: Math.floor(deltaUs / 1000) };
}

/** bfq_bfqq_charge_time: the time in service, as a share of the timeout's max budget. */
function chargeTime(s: BfqState, q: BfqQueue, timeMs: number, j: number): void {
  const timeoutMs = Math.floor((Math.floor(s.hz / 8) * 1000) / s.hz); // the const bfq_timeout
  const bounded = Math.min(timeMs, timeoutMs);
  const forTime = Math.floor((s.maxBudget * bounded) / timeoutMs);
  const tot = Math.max(forTime, q.service);
  if (tot > q.budget) q.budget = tot;
  bfqqServed(s, q, Math.max(0, tot - q.service), j);
}

/** bfq_add_bfqq_busy */
export function addBusy(s: BfqState, q: BfqQueue): void {
  activateRequeue(s, q, q.nonBlockingWaitRq);
  q.nonBlockingWaitRq = false;
  q.busy = true;
  s.busyQueues[classIdx(q)]!++;
  if (q.dispatched === 0 && q.wrCoeff === 1) weightsTreeAdd(s, q);
  if (q.wrCoeff > 1) s.wrBusyQueues++;
  // the head of its waker's woken list: the first to be injected while the waker idles
  const waker = s.queues[q.wakerQ];
  if (waker && waker.woken[0] !== q.id) {
    waker.woken = waker.woken.filter((id) => id !== q.id);
    waker.woken.unshift(q.id);
  }
}

/** bfq_del_bfqq_busy */
export function delBusy(s: BfqState, q: BfqQueue): void {
  q.busy = false;
  s.busyQueues[classIdx(q)]!--;
  if (q.wrCoeff > 1) s.wrBusyQueues--;
  if (q.dispatched === 0) weightsTreeRemove(s, q);
  deactivateEntity(s, q, true);
}

/** __bfq_bfqd_reset_in_service: nobody in service, no idle timer. */
function resetInService(s: BfqState, ctx: ElevatorContext): void {
  const q = s.queues[s.inService];
  if (q) q.waitRequest = false;
  if (s.idleTimerAt >= 0) {
    s.idleTimerAt = -1;
    ctx.clearTimer();
  }
  s.inService = -1;
}

/** bfq_bfqq_expire */
export function expire(
  s: BfqState,
  q: BfqQueue,
  compensate: boolean,
  reason: BfqExpiration,
  ctx: ElevatorContext,
): void {
  const { slow, deltaMs } = isSlow(s, q, compensate, ctx);
  const charged =
    q.wrCoeff === 1 && (slow || (reason === 'budget-timeout' && budgetLeft(q) >= q.budget / 3));
  const before = { service: q.service, budget: q.budget, maxBudget: q.maxBudget };
  const j = jiffies(ctx);
  if (charged) chargeTime(s, q, deltaMs, j);
  if (s.t.lowLatency && q.wrCoeff === 1) q.lastWrStartFinish = j;
  if (s.t.lowLatency && q.sortList.length === 0) {
    if (q.dispatched === 0) q.softRtNextStart = softrtNextStart(s, q, ctx);
    else q.softrtUpdate = true;
  }
  // no total service time is being measured any longer (injection)
  s.rqsInjected = s.waitDispatch = false;
  s.waitedRq = -1;
  recalcBudget(s, q, reason, ctx);
  s.expirations[reason]++;
  if (ctx.recording) explainExpire(s, q, reason, { slow, charged, deltaMs, ...before }, ctx);
  // __bfq_bfqq_expire: a shared queue gone seeky is to be split
  if (q.coop && seeky(q)) q.splitCoop = true;
  if (q.sortList.length === 0 && !(reason === 'preempted' && idlingNeededForGuarantees(s, q))) {
    if (q.dispatched === 0) q.budgetTimeout = j;
    delBusy(s, q);
  } else {
    activateRequeue(s, q, false);
    if (!s.nonrotWithQueueing && q.sortList.length > 0) posTreeAddMove(s, q, ctx);
  }
  resetInService(s, ctx);
  if (!q.busy && reason !== 'budget-timeout' && reason !== 'budget-exhausted')
    q.nonBlockingWaitRq = true; // service kept: an early next request goes on with it
  else q.service = 0;
}

/** bfq_lookup_next_entity: the idle class after 200 ms without service, else classes in
 * order, each by B-WF2Q+. */
function lookupNext(s: BfqState, ctx: ElevatorContext): BfqQueue | null {
  const j = jiffies(ctx);
  let first = 0;
  if (s.classIdleLastService + Math.floor(s.hz / 5) < j) {
    if (s.trees[2].active.length > 0) first = 2;
    s.classIdleLastService = j;
  }
  for (let c = first; c < 3; c++) {
    const st = s.trees[c]!;
    if (st.active.length === 0) continue;
    const v = vtimeJump(s, st);
    updateVtime(s, st, v);
    const q = firstActive(s, st, v);
    if (q) return q;
  }
  return null;
}

/** bfq_set_in_service_queue → bfq_get_next_queue, __bfq_set_in_service_queue and
 * bfq_set_budget_timeout. */
export function setInService(s: BfqState, ctx: ElevatorContext): BfqQueue | null {
  s.inServLastPos = 0;
  if (totBusy(s) === 0) return null;
  const q = lookupNext(s, ctx);
  if (!q) return null;
  activeExtract(s, s.trees[classIdx(q)]!, q);
  q.fifoExpire = false;
  s.budgetsAssigned = Math.floor((s.budgetsAssigned * 7 + 256) / 8);
  const j = jiffies(ctx);
  if (
    q.lastWrStartFinish < j &&
    q.wrCoeff > 1 &&
    q.wrCurMaxTime === rtMaxTime(s) &&
    q.budgetTimeout < j
  ) {
    // a soft real-time period is moved on by the time the queue waited for service
    if (q.budgetTimeout > q.lastWrStartFinish) q.lastWrStartFinish += j - q.budgetTimeout;
    else q.lastWrStartFinish = j;
  }
  const coeff = q.wrCurMaxTime === rtMaxTime(s) ? 1 : Math.floor(q.weight / q.origWeight);
  s.lastBudgetStartNs = ctx.now;
  q.budgetTimeout = j + s.t.timeoutJ * coeff;
  s.inService = q.id;
  return q;
}

/** bfq_arm_slice_timer: idle for the empty in-service queue — at most 2 ms for a seeky
 * one in a symmetric scenario, at least 20 ms for a raised one. */
export function armSliceTimer(s: BfqState, q: BfqQueue, ctx: ElevatorContext): number {
  q.waitRequest = true;
  let sl = s.t.sliceIdleNs;
  if (seeky(q) && q.wrCoeff === 1 && !asymmetric(s, q)) sl = Math.min(sl, BFQ_MIN_TT_NS);
  else if (q.wrCoeff > 1) sl = Math.max(sl, 20 * MS);
  s.lastIdlingStartNs = ctx.now;
  s.lastIdlingStartJ = jiffies(ctx);
  s.idleTimerAt = ctx.now + sl;
  ctx.setTimer(s.idleTimerAt);
  return sl;
}

export { asymmetric, bfqMaxBudget };
