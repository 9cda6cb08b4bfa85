// Cooperating queues (block/bfq-iosched.c): processes doing interleaved I/O on the same
// area of a rotating disk, or a set of queues created within bfq_burst_interval of each
// other, have their sync queues merged into one shared queue, served in sector order and
// without idling between them. A close cooperator is found at insertion (and on a bio
// merge attempt) among the in-service queue and the position tree (bfq_setup_cooperator);
// a queue created shortly after the last one is merged with it at once on a queueing SSD,
// else 600 ms later unless idling boosts its throughput (stable merging). A shared queue
// that turns seeky is split again when one of its processes next inserts (bfq_split_bfqq).
import { msecsToJiffies } from './common';
import { explainMerge, explainSplit } from './bfq-explain';
import { delBusy, idlingBoostsThr } from './bfq-expire';
import { bicOf, newQueue, ioprioOf, seeky } from './bfq-queue';
import { closeToSector, findClose, tooLateForMerging } from './bfq-pos';
import {
  BFQ_ACTIVATION_STABLE_MERGING_MS,
  BFQ_BURST_INTERVAL_MS,
  BFQ_LATE_STABLE_MERGING_MS,
} from './bfq-tunables';
import {
  jiffies,
  totBusy,
  type BfqBic,
  type BfqQueue,
  type BfqSavedState,
  type BfqState,
} from './bfq-types';
import { handleBurst } from './bfq-burst';
import { setWaker } from './bfq-inject';
import { backToInteractive, rtMaxTime, wrDuration } from './bfq-wr';
import type { ElevatorContext } from './types';
import type { IoRequest } from '../request';

/** bfq_may_be_close_cooperator: same class (not idle), neither seeky, both sync, and the
 * other not served for too long already */
function mayBeCloseCooperator(s: BfqState, q: BfqQueue, nq: BfqQueue, ctx: ElevatorContext) {
  if (tooLateForMerging(s, nq, ctx)) return false;
  if (q.ioprioClass === 3 || nq.ioprioClass === 3 || q.ioprioClass !== nq.ioprioClass) return false;
  return !seeky(q) && !seeky(nq) && q.sync && nq.sync;
}

/** bfq_setup_merge: schedule q's processes to move to nq (the end of nq's own chain) */
function setupMerge(s: BfqState, q: BfqQueue, nq: BfqQueue): BfqQueue | null {
  if (nq.procRefs === 0) return null;
  while (nq.newQueue >= 0) {
    const next = s.queues[nq.newQueue]!;
    if (next === q) return null; // no circular chain
    nq = next;
  }
  if (q.procRefs === 0 || nq.procRefs === 0) return null;
  q.newQueue = nq.id;
  nq.procRefs += q.procRefs;
  return nq;
}

/** bfq_setup_stable_merge: the delayed merge, unless idling would serve q better */
function setupStableMerge(s: BfqState, q: BfqQueue, bic: BfqBic, ctx: ElevatorContext) {
  const stable = s.queues[bic.stableMergeQ]!;
  const procRef = Math.min(q.procRefs, stable.procRefs);
  bic.stableMergeQ = -1;
  if (idlingBoostsThr(s, q) || procRef === 0) return null;
  const nq = setupMerge(s, q, stable);
  if (nq) {
    bic.stablyMerged = true;
    if (nq.bic >= 0) bicOf(s, nq.bic).stablyMerged = true;
    if (ctx.recording) explainMerge(s, q, nq, 'stable', ctx);
  }
  return nq;
}

/** bfq_setup_cooperator: the queue this request (or bio) of `pid` should move to, or null */
export function setupCooperator(
  s: BfqState,
  q: BfqQueue,
  pos: number,
  pid: number,
  ctx: ElevatorContext,
): BfqQueue | null {
  if (q.newQueue >= 0) return s.queues[q.newQueue]!;
  const j = jiffies(ctx);
  const bic = bicOf(s, pid);
  const late = msecsToJiffies(BFQ_LATE_STABLE_MERGING_MS, s.hz);
  if (
    !s.nonrotWithQueueing &&
    q.sync &&
    bic.stableMergeQ >= 0 &&
    !q.justCreated &&
    q.splitJ + late < j &&
    q.creationJ + late < j
  )
    return setupStableMerge(s, q, bic, ctx);
  // a queueing SSD reorders by itself: no merging there
  if (s.nonrotWithQueueing || tooLateForMerging(s, q, ctx) || totBusy(s) === 1) return null;
  const inServ = s.queues[s.inService];
  if (
    inServ &&
    inServ !== q &&
    closeToSector(pos, s.inServLastPos) &&
    mayBeCloseCooperator(s, q, inServ, ctx)
  ) {
    const nq = setupMerge(s, q, inServ);
    if (nq) {
      if (ctx.recording) explainMerge(s, q, nq, 'in-service', ctx);
      return nq;
    }
  }
  const c = findClose(s, pos);
  if (!c || c === q || !mayBeCloseCooperator(s, q, c, ctx)) return null;
  const nq = setupMerge(s, q, c);
  if (nq && ctx.recording) explainMerge(s, q, nq, 'close', ctx);
  return nq;
}

/** bfq_bfqq_save_state: what the process's own queue was, kept in its bic */
function saveState(s: BfqState, q: BfqQueue, ctx: ElevatorContext): void {
  if (q.bic < 0) return;
  const bic = bicOf(s, q.bic);
  const prevFromWr = bic.saved?.serviceFromWr ?? 0;
  const sv: BfqSavedState = {
    hasShortTtime: q.hasShortTtime,
    ioBound: q.ioBound,
    lastServTimeNs: q.lastServTimeNs,
    injectLimit: q.injectLimit,
    decreaseTimeJ: q.decreaseTimeJ,
    weight: q.origWeight,
    ttimeSamples: q.ttimeSamples,
    ttimeTotal: q.ttimeTotal,
    ttimeMean: q.ttimeMean,
    ttimeLastEnd: q.ttimeLastEnd,
    ioStartTime: q.ioStartTime,
    totIdleTime: q.totIdleTime,
    idleWrap: q.idleWrap,
    inLargeBurst: q.inLargeBurst,
    wasInBurstList: q.inBurstList,
    wrCoeff: q.wrCoeff,
    wrStartAtSwitchToSrt: q.wrStartAtSwitchToSrt,
    serviceFromWr: q.serviceFromWr,
    lastWrStartFinish: q.lastWrStartFinish,
    wrCurMaxTime: q.wrCurMaxTime,
  };
  if (q.justCreated && !q.inLargeBurst && s.t.lowLatency) {
    // merged before its first request raised it: keep the raising it would have had
    sv.wrCoeff = 30;
    sv.wrStartAtSwitchToSrt = -Infinity;
    sv.wrCurMaxTime = wrDuration(s);
    sv.lastWrStartFinish = jiffies(ctx);
    sv.serviceFromWr = prevFromWr;
  }
  bic.saved = sv;
}

/** bfq_release_process_ref: a process leaves the queue */
function releaseProcessRef(s: BfqState, q: BfqQueue): void {
  if (q.busy && q.sortList.length === 0 && q.id !== s.inService) delBusy(s, q);
  if (s.lastBfqqCreated === q.id) s.lastBfqqCreated = -1;
  q.procRefs = Math.max(0, q.procRefs - 1);
}

/** bfq_merge_bfqqs: redirect `pid` from q to nq, which inherits raising, I/O-boundness
 * and the waker */
export function mergeQueues(
  s: BfqState,
  pid: number,
  q: BfqQueue,
  nq: BfqQueue,
  ctx: ElevatorContext,
): void {
  saveState(s, q, ctx);
  saveState(s, nq, ctx);
  if (q.ioBound) nq.ioBound = true;
  q.ioBound = false;
  if (q.wakerQ >= 0 && nq.wakerQ < 0 && q.wakerQ !== nq.id) setWaker(s, nq, q.wakerQ);
  if (nq.wrCoeff === 1 && q.wrCoeff > 1) {
    nq.wrCoeff = q.wrCoeff;
    nq.wrCurMaxTime = q.wrCurMaxTime;
    nq.lastWrStartFinish = q.lastWrStartFinish;
    nq.wrStartAtSwitchToSrt = q.wrStartAtSwitchToSrt;
    if (nq.busy) s.wrBusyQueues++;
    nq.prioChanged = true;
  }
  if (q.wrCoeff > 1) {
    q.wrCoeff = 1;
    q.prioChanged = true;
    if (q.busy) s.wrBusyQueues--;
  }
  // bic_set_bfqq: the process's sync queue is now nq (a pending stable merge into nq is moot)
  s.syncOf[pid] = nq.id;
  const bic = bicOf(s, pid);
  if (bic.stableMergeQ === nq.id) bic.stableMergeQ = -1;
  nq.coop = true;
  nq.bic = -1;
  nq.pid = -1;
  q.bic = -1;
  if (s.lastBfqqCreated === q.id) s.lastBfqqCreated = nq.id;
  releaseProcessRef(s, q);
  s.merges++;
}

/** bfq_do_or_sched_stable_merge: a sync queue created within bfq_burst_interval of the
 * last one, at the same priority, merges with it — now on a queueing SSD, else later. */
function doOrSchedStableMerge(s: BfqState, q: BfqQueue, pid: number, ctx: ElevatorContext) {
  const last = s.queues[s.lastBfqqCreated];
  if (
    !last ||
    last.creationJ + msecsToJiffies(BFQ_ACTIVATION_STABLE_MERGING_MS, s.hz) < q.creationJ ||
    q.ioprio !== last.ioprio ||
    q.ioprioClass !== last.ioprioClass
  ) {
    s.lastBfqqCreated = q.id;
    return q;
  }
  if (last.creationJ + msecsToJiffies(BFQ_BURST_INTERVAL_MS, s.hz) < q.creationJ) return q;
  const bic = bicOf(s, pid);
  if (!s.nonrotWithQueueing) {
    bic.stableMergeQ = last.id; // decided 600 ms from now (bfq_setup_stable_merge)
    return q;
  }
  // bfq_do_early_stable_merge
  const nq = setupMerge(s, q, last);
  if (!nq) return q;
  if (nq.bic >= 0) bicOf(s, nq.bic).stablyMerged = true;
  bic.stablyMerged = true;
  if (ctx.recording) explainMerge(s, q, nq, 'early-stable', ctx);
  mergeQueues(s, pid, q, nq, ctx);
  return nq;
}

/** bfq_get_queue for a sync request: a new queue for the process (bfq_init_bfqq), merged
 * stably unless it respawns after a split */
function getSyncQueue(s: BfqState, rq: IoRequest, respawn: boolean, ctx: ElevatorContext) {
  const [cls, lvl] = ioprioOf(rq.ioprioClass, rq.ioprioLevel);
  const q = newQueue(s, rq.pid, true, cls, lvl, ctx);
  s.syncOf[rq.pid] = q.id;
  return respawn ? q : doOrSchedStableMerge(s, q, rq.pid, ctx);
}

/** bfq_split_bfqq: the process leaves the shared queue (it keeps it if it is the last) */
function splitQueue(s: BfqState, pid: number, q: BfqQueue): BfqQueue | null {
  if (q.procRefs === 1) {
    q.pid = pid;
    q.coop = false;
    q.splitCoop = false;
    return q;
  }
  s.syncOf[pid] = -1;
  // bfq_put_cooperator: the references taken for a pending merge go too
  for (let n = q.newQueue; n >= 0; n = s.queues[n]!.newQueue)
    s.queues[n]!.procRefs = Math.max(0, s.queues[n]!.procRefs - 1);
  releaseProcessRef(s, q);
  return null;
}

/** bfq_bfqq_resume_state: a split queue takes back what its process's queue was */
function resumeState(s: BfqState, q: BfqQueue, bic: BfqBic, existing: boolean, j: number) {
  const sv = bic.saved;
  if (!sv) return;
  const busy = existing && q.busy;
  q.hasShortTtime = sv.hasShortTtime;
  q.ioBound = sv.ioBound;
  q.lastServTimeNs = sv.lastServTimeNs;
  q.injectLimit = sv.injectLimit;
  q.decreaseTimeJ = sv.decreaseTimeJ;
  q.origWeight = sv.weight;
  q.ttimeSamples = sv.ttimeSamples;
  q.ttimeTotal = sv.ttimeTotal;
  q.ttimeMean = sv.ttimeMean;
  q.ttimeLastEnd = sv.ttimeLastEnd;
  q.ioStartTime = sv.ioStartTime;
  q.totIdleTime = sv.totIdleTime;
  q.idleWrap = sv.idleWrap;
  let oldWr = 1;
  if (s.t.lowLatency) {
    oldWr = q.wrCoeff;
    q.wrCoeff = sv.wrCoeff;
  }
  q.serviceFromWr = sv.serviceFromWr;
  q.wrStartAtSwitchToSrt = sv.wrStartAtSwitchToSrt;
  q.lastWrStartFinish = sv.lastWrStartFinish;
  q.wrCurMaxTime = sv.wrCurMaxTime;
  if (q.wrCoeff > 1 && (q.inLargeBurst || q.lastWrStartFinish + q.wrCurMaxTime < j)) {
    const srt = q.wrCurMaxTime === rtMaxTime(s);
    if (srt && !q.inLargeBurst && q.wrStartAtSwitchToSrt + wrDuration(s) >= j)
      backToInteractive(s, q);
    else q.wrCoeff = 1;
  }
  q.prioChanged = true;
  if (!busy) return;
  if (oldWr === 1 && q.wrCoeff > 1) s.wrBusyQueues++;
  else if (oldWr > 1 && q.wrCoeff === 1) s.wrBusyQueues--;
}

/** bfq_init_rq, for a sync request at insertion: the process's queue (created, or split
 * off a shared queue gone seeky), and the burst it may belong to */
export function initSyncRq(s: BfqState, rq: IoRequest, ctx: ElevatorContext): BfqQueue {
  const pid = rq.pid;
  const bic = bicOf(s, pid);
  const j = jiffies(ctx);
  const id = s.syncOf[pid];
  let q = id !== undefined && id >= 0 ? s.queues[id]! : null;
  let split = false;
  let existing = false;
  if (!q) q = getSyncQueue(s, rq, false, ctx);
  else if (q.coop && q.splitCoop && !bic.stablyMerged) {
    const old = q;
    if (q.inLargeBurst && bic.saved) bic.saved.inLargeBurst = true;
    q = splitQueue(s, pid, q);
    split = true;
    if (q) existing = true;
    else {
      // bfq_get_bfqq_handle_split: a fresh queue that remembers its burst
      q = getSyncQueue(s, rq, true, ctx);
      const sv = bic.saved;
      q.inLargeBurst = !!sv && ((sv.wasInBurstList && s.largeBurst) || sv.inLargeBurst);
      if (!q.inLargeBurst && sv?.wasInBurstList) {
        s.burstList.unshift(q.id);
        q.inBurstList = true;
      }
      q.splitJ = j;
      if (old.wakerQ >= 0) setWaker(s, q, old.wakerQ);
    }
    s.splits++;
    if (ctx.recording) explainSplit(s, old, q, ctx);
  }
  if (q.procRefs === 1) {
    q.bic = pid;
    if (split) resumeState(s, q, bic, existing, j);
  }
  if (q.justCreated && (s.burstSize > 0 || totBusy(s) === 0)) handleBurst(s, q, ctx);
  return q;
}
