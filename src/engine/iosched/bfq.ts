// BFQ as Linux 6.18 has it (block/bfq-iosched.c, bfq-wf2q.c, bfq-iosched.h; LINUX-
// SCHEDULERS.md §9.3; docs/iosched/bfq.md), without cgroups: per-process sync queues and
// per-priority async queues scheduled by B-WF2Q+ (bfq-wf2q.ts) on budgets in sectors, not
// time slices. The in-service queue is served until its budget is used up, its budget
// timeout passes, or it empties and idling is not worth it (bfq-expire.ts); the next
// budget follows from why it stopped. Weight raising under low_latency (bfq-wr.ts).
// Around them: I/O injection while idling (bfq-inject.ts), cooperating-queue merging
// and bursts (bfq-coop.ts, bfq-pos.ts, bfq-burst.ts), the peak-rate estimator that tunes
// max_budget (bfq-peak.ts). This file: the hooks — insertion, dispatch
// (bfq_select_queue), completion, the idle timer, merging — and the inspection view.
import { msecsToJiffies } from './common';
import { explainDispatch, explainDispatchList, explainIdle, explainInject } from './bfq-explain';
import { setupCooperator, mergeQueues } from './bfq-coop';
import { pickInjection, updateInjectLimit, type InjectWhy } from './bfq-inject';
import { calcMaxBudget, rateOnCompletion, updatePeakRate } from './bfq-peak';
import { posTreeAddMove } from './bfq-pos';
import {
  armSliceTimer,
  betterToIdle,
  budgetTimedOut,
  expire,
  mayExpireForTimeout,
  mustIdle,
  setInService,
} from './bfq-expire';
import { bicOf, chooseReq, queueFor, queueOf, servToCharge } from './bfq-queue';
import {
  BFQ_DEFAULT_MAX_BUDGET,
  BFQ_HW_QUEUE_SAMPLES,
  BFQ_HW_QUEUE_THRESHOLD,
  BFQ_TUNABLES,
  BFQ_WR_COEFF,
  bfqTunable,
} from './bfq-tunables';
import {
  budgetLeft,
  jiffies,
  totBusy,
  type BfqQueue,
  type BfqState,
  type BfqTunables,
} from './bfq-types';
import { add, addHead, removeRequest, updatedNextReq } from './bfq-insert';
import { bfqView } from './bfq-view';
import { bfqqServed, weightsTreeRemove } from './bfq-wf2q';
import { initRates, softrtNextStart, updateWrData } from './bfq-wr';
import { findBySector, predecessor, sortInsert, sortRemove, successor } from './common';
import type { Bio, ElevatorContext, ElevatorType } from './types';
import type { IoRequest } from '../request';

export type { BfqState } from './bfq-types';
export { BFQ_RULES } from './bfq-explain';

const MS = 1e6;

function tunablesOf(v: Record<string, number>, ctx: ElevatorContext): BfqTunables {
  const us = bfqTunable(v, 'slice_idle_us');
  // the two attributes write one value: slice_idle_us when it was changed, else slice_idle
  let sliceIdleNs = us !== 8000 ? us * 1000 : bfqTunable(v, 'slice_idle') * MS;
  const strict = bfqTunable(v, 'strict_guarantees') === 1;
  // bfq_strict_guarantees_store: at least 8 ms of idling with strict guarantees
  if (strict && sliceIdleNs < 8 * MS) sliceIdleNs = 8 * MS;
  return {
    fifoExpireNs: [bfqTunable(v, 'fifo_expire_async') * MS, bfqTunable(v, 'fifo_expire_sync') * MS],
    backMaxKiB: bfqTunable(v, 'back_seek_max'),
    backPenalty: bfqTunable(v, 'back_seek_penalty'),
    sliceIdleNs,
    userMaxBudget: bfqTunable(v, 'max_budget'),
    timeoutJ: msecsToJiffies(v.timeout_sync ?? BFQ_TUNABLES[7]!.defaultForHz!(ctx.hz), ctx.hz),
    strictGuarantees: strict,
    lowLatency: bfqTunable(v, 'low_latency') === 1,
  };
}

function init(v: Record<string, number>, ctx: ElevatorContext): BfqState {
  const t = tunablesOf(v, ctx);
  const tree = () => ({ vtime: 0, wsum: 0, active: [], idle: [] });
  const s: BfqState = {
    t,
    hz: ctx.hz,
    rot: !ctx.nonRotational(),
    queues: [],
    syncOf: {},
    asyncOf: {},
    trees: [tree(), tree(), tree()],
    inService: -1,
    busyQueues: [0, 0, 0],
    wrBusyQueues: 0,
    queuedTotal: 0,
    rqInDriver: 0,
    dispatchList: [],
    hwTag: -1,
    maxRqInDriver: 0,
    hwTagSamples: 0,
    budgetsAssigned: 0,
    maxBudget: t.userMaxBudget > 0 ? t.userMaxBudget : BFQ_DEFAULT_MAX_BUDGET,
    peakRate: 0,
    rateDurProd: 0,
    lastPosition: 0,
    lastBudgetStartNs: 0,
    lastIdlingStartNs: 0,
    lastCompletionNs: 0,
    classIdleLastService: 0,
    weights: [],
    idleTimerAt: -1,
    asyncDepths: [
      [Infinity, Infinity],
      [Infinity, Infinity],
    ],
    expirations: {
      'too-idle': 0,
      'budget-timeout': 0,
      'budget-exhausted': 0,
      'no-more-requests': 0,
      preempted: 0,
    },
    lastIdlingStartJ: 0,
    peakRateSamples: 0,
    sequentialSamples: 0,
    totSectorsDispatched: 0,
    lastRqMaxSize: 0,
    firstDispatchNs: 0,
    lastDispatchNs: 0,
    deltaFromFirstNs: 0,
    peakRateUpdates: 0,
    // hw_tag is −1 (unknown, true in C) until measured
    nonrotWithQueueing: ctx.nonRotational(),
    bics: {},
    posTree: [],
    inServLastPos: 0,
    lastBfqqCreated: -1,
    burstList: [],
    burstSize: 0,
    largeBurst: false,
    lastInsInBurstJ: 0,
    activeList: [],
    rqsInjected: false,
    waitDispatch: false,
    waitedRq: -1,
    lastEmptyOccupiedNs: 0,
    lastCompletedQ: -1,
    merges: 0,
    splits: 0,
    injected: 0,
  };
  initRates(s);
  // bfq_timeout_sync_store: a written timeout_sync recomputes an automatic max_budget
  if (t.userMaxBudget === 0 && t.timeoutJ !== Math.floor(ctx.hz / 8))
    s.maxBudget = calcMaxBudget(s);
  return s;
}

type Pick = { q: BfqQueue; fresh: boolean; inject: InjectWhy | null };

/** bfq_select_queue: keep the in-service queue, or expire it and let B-WF2Q+ choose;
 * while idling for it, a queue to inject from, or null. */
function selectQueue(s: BfqState, force: boolean, ctx: ElevatorContext): Pick | null {
  let q: BfqQueue | null = s.queues[s.inService] ?? null;
  let fresh = false;
  if (q && mayExpireForTimeout(q, ctx) && !mustIdle(s, q)) {
    expire(s, q, false, 'budget-timeout', ctx);
    q = setInService(s, ctx);
    fresh = true;
  } else if (!q) {
    q = setInService(s, ctx);
    fresh = true;
  }
  while (q) {
    if (q.nextRq >= 0) {
      if (servToCharge(s, q, ctx.rq(q.nextRq)) > budgetLeft(q)) {
        expire(s, q, false, 'budget-exhausted', ctx);
      } else {
        if (q.waitRequest) {
          q.waitRequest = false;
          if (s.idleTimerAt >= 0) {
            s.idleTimerAt = -1;
            ctx.clearTimer();
          }
        }
        return { q, fresh, inject: null };
      }
    } else if (!force && (q.waitRequest || (q.dispatched !== 0 && betterToIdle(s, q)))) {
      // plugging for q: inject into the service hole, if anything may go
      const inj = pickInjection(s, q, ctx);
      return inj ? { q: inj.q, fresh: false, inject: inj.why } : null;
    } else expire(s, q, false, 'no-more-requests', ctx);
    q = setInService(s, ctx);
    fresh = true;
  }
  return null;
}

/** bfq_dispatch_rq_from_bfqq: charge the queue, take its next request. */
function dispatchFrom(s: BfqState, pick: Pick, ctx: ElevatorContext): number {
  const q = pick.q;
  const slot = q.nextRq;
  const rq = ctx.rq(slot);
  const fromFifo = q.nextFromFifo;
  const inService = q.id === s.inService;
  bfqqServed(s, q, servToCharge(s, q, rq), jiffies(ctx));
  if (inService && s.waitDispatch) {
    s.waitDispatch = false;
    s.waitedRq = slot; // its completion measures the total service time
  }
  if (ctx.recording) {
    if (pick.inject) explainInject(s, q, slot, pick.inject, ctx);
    else explainDispatch(s, q, slot, pick.fresh ? 'new-queue' : 'keep-queue', fromFifo, ctx);
  }
  if (pick.inject) s.injected++;
  // bfq_dispatch_remove
  q.dispatched++;
  updatePeakRate(s, rq, inService, ctx);
  removeRequest(s, q, rq, ctx);
  s.rqInDriver++;
  if (inService) {
    updateWrData(s, q, ctx);
    // an idle-class queue gives way as soon as others wait
    if (totBusy(s) > 1 && q.ioprioClass === 3) expire(s, q, false, 'budget-exhausted', ctx);
  }
  return slot;
}

/** __bfq_dispatch_request: bfqd->dispatch first, counted here as the usual path counts */
function dispatch(s: BfqState, force: boolean, ctx: ElevatorContext): number {
  if (s.dispatchList.length > 0) {
    const slot = s.dispatchList.shift()!;
    const q = s.queues[ctx.rq(slot).sched]!;
    q.dispatched++;
    s.rqInDriver++;
    if (ctx.recording) explainDispatchList(slot, ctx);
    return slot;
  }
  if (totBusy(s) === 0) return -1;
  // strict_guarantees: one request at a time on the device
  if (s.t.strictGuarantees && s.rqInDriver > 0) return -1;
  const pick = selectQueue(s, force, ctx);
  if (!pick) return -1;
  return dispatchFrom(s, pick, ctx);
}

/** bfq_update_hw_tag: after 32 samples with enough in flight, does the device queue? */
function updateHwTag(s: BfqState): void {
  s.maxRqInDriver = Math.max(s.maxRqInDriver, s.rqInDriver);
  if (s.hwTag === 1) return;
  if (s.rqInDriver + s.queuedTotal <= BFQ_HW_QUEUE_THRESHOLD) return;
  const q = s.queues[s.inService];
  if (
    q &&
    q.hasShortTtime &&
    q.dispatched + q.queued[0] + q.queued[1] < BFQ_HW_QUEUE_THRESHOLD &&
    s.rqInDriver < BFQ_HW_QUEUE_THRESHOLD
  )
    return;
  if (s.hwTagSamples++ < BFQ_HW_QUEUE_SAMPLES) return;
  s.hwTag = s.maxRqInDriver > BFQ_HW_QUEUE_THRESHOLD ? 1 : 0;
  s.maxRqInDriver = 0;
  s.hwTagSamples = 0;
  s.nonrotWithQueueing = !s.rot && s.hwTag === 1;
}

/** bfq_finish_requeue_request → bfq_completed_request */
function completed(s: BfqState, rq: IoRequest, ctx: ElevatorContext): void {
  if (rq.sched < 0) return;
  const q = queueOf(s, rq);
  if (rq.slot === s.waitedRq) updateInjectLimit(s, q, ctx);
  updateHwTag(s);
  s.rqInDriver--;
  q.dispatched--;
  if (q.dispatched === 0 && !q.busy) {
    q.budgetTimeout = jiffies(ctx);
    weightsTreeRemove(s, q);
  }
  q.ttimeLastEnd = ctx.now;
  rateOnCompletion(s, ctx.now);
  // a shared queue is not trusted as a waker
  s.lastCompletedQ = q.coop ? -1 : q.id;
  if (q.softrtUpdate && q.dispatched === 0 && q.sortList.length === 0 && q.wrCoeff !== BFQ_WR_COEFF)
    q.softRtNextStart = softrtNextStart(s, q, ctx);
  if (s.inService !== q.id) return;
  if (mustIdle(s, q)) {
    if (q.dispatched === 0) {
      const sl = armSliceTimer(s, q, ctx);
      if (ctx.recording) explainIdle(s, q, sl, ctx);
    }
  } else if (mayExpireForTimeout(q, ctx)) expire(s, q, false, 'budget-timeout', ctx);
  else if (q.sortList.length === 0 && (q.dispatched === 0 || !betterToIdle(s, q)))
    expire(s, q, false, 'no-more-requests', ctx);
}

/** bfq_idle_slice_timer_body */
function timer(s: BfqState, ctx: ElevatorContext): void {
  s.idleTimerAt = -1;
  const q = s.queues[s.inService];
  if (!q) return;
  q.waitRequest = false;
  if (budgetTimedOut(q, ctx)) expire(s, q, true, 'budget-timeout', ctx);
  else if (q.queued[0] === 0 && q.queued[1] === 0) expire(s, q, true, 'too-idle', ctx);
}

export const bfq: ElevatorType<BfqState> = {
  name: 'bfq',
  title: 'bfq (Linux 6.x) — budget fair queueing: B-WF2Q+ over per-process queues, weight raising',
  tunables: BFQ_TUNABLES,
  dispatchInsert: 'append',

  // bfq_limit_depth: sync reads take any tag; writes get async_depths[raised busy][sync]
  limitDepth: (s, bio: Bio) =>
    bio.write ? s.asyncDepths[s.wrBusyQueues > 0 ? 1 : 0][bio.sync ? 1 : 0] : Infinity,
  // bfq_depth_updated (6.18): 50% / 75% of nr_requests for async / sync writes, 3/16 and
  // 6/16 while raised queues are busy; the min shallow depth is 1
  depthUpdated(s, nr) {
    s.asyncDepths = [
      [Math.max(nr >> 1, 1), Math.max((nr * 3) >> 2, 1)],
      [Math.max((nr * 3) >> 4, 1), Math.max((nr * 6) >> 4, 1)],
    ];
    return 1;
  },

  init,

  // bfq_prepare_request: no queue yet — bfq_init_rq gives it one when it is inserted
  // (so a request waiting in a plug takes no bio: bfq_allow_bio_merge finds no queue)
  setRequest(_s, rq) {
    rq.sched = -1;
  },
  // bfq_finish_requeue_request: the process has one request fewer in BFQ
  putRequest(s, rq) {
    if (rq.sched >= 0) bicOf(s, rq.pid).requests--;
  },

  add,
  addHead,
  dispatch,

  // bfq_allow_bio_merge: not a sync bio into an async request; only into a request of the
  // bio's own queue — after a close cooperator, if any, became that queue
  allowMerge(s, rq, bio, ctx) {
    const sync = !bio.write || bio.sync;
    if (sync && !rq.sync) return false;
    const id = queueFor(s, bio.pid, sync, bio.ioprioClass, bio.ioprioLevel, null);
    if (id < 0) return false;
    let q = s.queues[id]!;
    const nq = setupCooperator(s, q, bio.sector, bio.pid, ctx);
    if (nq) {
      mergeQueues(s, bio.pid, q, nq, ctx);
      q = nq;
    }
    return q.id === rq.sched;
  },
  // bfq_request_merge: a request of the bio's queue starting where the bio ends
  frontMergeCandidate(s, bio, end, ctx) {
    const sync = !bio.write || bio.sync;
    const id = queueFor(s, bio.pid, sync, bio.ioprioClass, bio.ioprioLevel, null);
    return id < 0 ? -1 : findBySector(s.queues[id]!.sortList, end, ctx);
  },
  // bfq_request_merged: a front merge moved the start — re-sort, next_rq may change
  merged(s, rq, front, ctx) {
    if (!front) return;
    const q = queueOf(s, rq);
    const prevSlot = predecessor(q.sortList, rq.slot);
    if (prevSlot < 0 || rq.sector >= ctx.rq(prevSlot).sector) return;
    sortRemove(q.sortList, rq.slot);
    sortInsert(q.sortList, rq.slot, ctx);
    const prev = q.nextRq;
    q.nextRq = chooseReq(s, q.nextRq, rq.slot, s.lastPosition, ctx);
    if (prev !== q.nextRq) {
      updatedNextReq(s, q, ctx);
      if (!s.nonrotWithQueueing) posTreeAddMove(s, q, ctx);
    }
  },
  // bfq_requests_merged: the survivor takes the earlier FIFO time and place
  requestsMerged(s, survivor, absorbed, ctx) {
    const q = queueOf(s, absorbed);
    const fifo = q.fifo;
    const a = fifo.indexOf(absorbed.slot);
    const b = fifo.indexOf(survivor.slot);
    if (a >= 0 && b >= 0 && absorbed.fifoNs < survivor.fifoNs) {
      fifo.splice(b, 1);
      fifo[fifo.indexOf(absorbed.slot)] = survivor.slot;
      fifo.push(absorbed.slot); // removed just below
      survivor.fifoNs = absorbed.fifoNs;
    }
    if (q.nextRq === absorbed.slot) q.nextRq = survivor.slot;
    removeRequest(s, q, absorbed, ctx);
  },
  formerRequest: (s, rq) => predecessor(queueOf(s, rq).sortList, rq.slot),
  latterRequest: (s, rq) => successor(queueOf(s, rq).sortList, rq.slot),

  completed,
  timer,
  queued: (s) => s.queuedTotal + s.dispatchList.length,
  inspect: (s, ctx) => bfqView(s, ctx),
};
