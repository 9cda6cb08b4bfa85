// BFQ's inspection view (bfq.ts): each queue's weight (and its raising), budget and
// service, start and finish virtual times against its tree's V, its requests, its
// injection limit and waker, whether it is shared (merged) or in a large burst, and the
// idling and injection state of the in-service queue; per class the tree's V and weight
// sum; the peak-rate estimate and the max_budget it tunes; merges, splits, injections.
import type { BfqState } from './bfq-types';
import { budgetLeft, queueName } from './bfq-types';
import { idlingBoostsThr, idlingNeededForGuarantees, mustIdle } from './bfq-expire';
import { seeky } from './bfq-queue';
import type { ElevatorContext } from './types';

const CLASS = ['RT', 'BE', 'IDLE'] as const;
/** virtual times are kept × 2^22 (WFQ_SERVICE_SHIFT): shown in sectors per unit weight */
const vt = (v: number) => +(v / 2 ** 22).toFixed(3);
const TREE = ['—', 'active', 'idle'] as const;

export type BfqView = {
  inService: string | null;
  idling: {
    waitRequest: boolean;
    timerAtMs: number | null;
    mustIdle: boolean;
    boostsThroughput: boolean;
    neededForGuarantees: boolean;
    /** a first request's total service time is being measured (bfq_update_inject_limit) */
    measuring: boolean;
    injectedSinceEmpty: boolean;
  } | null;
  classes: Array<{ name: string; vtime: number; wsum: number; busy: number }>;
  queues: Array<{
    id: number;
    name: string;
    /** the processes feeding it: its own, or several once merged */
    processes: number[];
    shared: boolean;
    /** new_bfqq: the queue it is scheduled to merge into */
    mergingInto: string | null;
    splitPending: boolean;
    inLargeBurst: boolean;
    injectLimit: number;
    /** the baseline total service time of its first requests, ms (null: not sampled) */
    baselineMs: number | null;
    waker: string | null;
    class: string;
    weight: number;
    origWeight: number;
    weightRaised: string | null;
    budget: number;
    service: number;
    budgetLeft: number;
    maxBudget: number;
    start: number;
    finish: number;
    tree: string;
    eligible: boolean;
    queued: number[];
    nextRq: number | null;
    dispatched: number;
    seeky: boolean;
    shortThinkTime: boolean;
    ioBound: boolean;
  }>;
  maxBudget: number;
  /** the peak-rate estimate, MB/s, and how many intervals updated it */
  peakRateMBps: number;
  peakRateUpdates: number;
  nonrotWithQueueing: boolean;
  burst: { size: number; large: boolean; queues: string[] };
  merges: number;
  splits: number;
  injected: number;
  hwTag: number;
  wrBusyQueues: number;
  rqInDriver: number;
  expirations: Record<string, number>;
};

export function bfqView(s: BfqState, ctx: ElevatorContext): BfqView {
  const inServ = s.queues[s.inService];
  return {
    inService: inServ ? queueName(inServ) : null,
    idling: inServ
      ? {
          waitRequest: inServ.waitRequest,
          timerAtMs: s.idleTimerAt >= 0 ? s.idleTimerAt / 1e6 : null,
          mustIdle: mustIdle(s, inServ),
          boostsThroughput: idlingBoostsThr(s, inServ),
          neededForGuarantees: idlingNeededForGuarantees(s, inServ),
          measuring: s.waitDispatch || s.waitedRq >= 0,
          injectedSinceEmpty: s.rqsInjected,
        }
      : null,
    classes: s.trees.map((t, i) => ({
      name: CLASS[i]!,
      vtime: vt(t.vtime),
      wsum: t.wsum,
      busy: s.busyQueues[i]!,
    })),
    queues: s.queues
      .filter((q) => q.busy || q.dispatched > 0 || q.id === s.inService)
      .map((q) => ({
        id: q.id,
        name: queueName(q),
        processes: Object.keys(s.syncOf)
          .map(Number)
          .filter((pid) => s.syncOf[pid] === q.id),
        shared: q.coop,
        mergingInto: q.newQueue >= 0 ? queueName(s.queues[q.newQueue]!) : null,
        splitPending: q.splitCoop,
        inLargeBurst: q.inLargeBurst,
        injectLimit: q.injectLimit,
        baselineMs: q.lastServTimeNs > 0 ? +(q.lastServTimeNs / 1e6).toFixed(3) : null,
        waker: q.wakerQ >= 0 ? queueName(s.queues[q.wakerQ]!) : null,
        class: CLASS[q.ioprioClass - 1]!,
        weight: q.weight,
        origWeight: q.origWeight,
        weightRaised:
          q.wrCoeff === 1
            ? null
            : `× ${q.wrCoeff} ${q.wrCoeff > 30 ? 'soft real-time' : 'interactive'} for ${Math.round((q.wrCurMaxTime * 1000) / s.hz)} ms from ${Math.round((q.lastWrStartFinish * 1000) / s.hz)} ms`,
        budget: q.budget,
        service: q.service,
        budgetLeft: budgetLeft(q),
        maxBudget: q.maxBudget,
        start: vt(q.start),
        finish: vt(q.finish),
        tree: q.id === s.inService ? 'in service' : TREE[q.tree]!,
        eligible: q.start <= s.trees[q.ioprioClass - 1]!.vtime,
        queued: q.sortList.map((slot) => ctx.rq(slot).id),
        nextRq: q.nextRq >= 0 ? ctx.rq(q.nextRq).id : null,
        dispatched: q.dispatched,
        seeky: seeky(q),
        shortThinkTime: q.hasShortTtime,
        ioBound: q.ioBound,
      })),
    maxBudget: s.maxBudget,
    // sectors/µs << 16 → MB/s
    peakRateMBps: +((s.peakRate / 2 ** 16) * 512).toFixed(1),
    peakRateUpdates: s.peakRateUpdates,
    nonrotWithQueueing: s.nonrotWithQueueing,
    burst: {
      size: s.burstSize,
      large: s.largeBurst,
      queues: s.burstList.map((id) => queueName(s.queues[id]!)),
    },
    merges: s.merges,
    splits: s.splits,
    injected: s.injected,
    hwTag: s.hwTag,
    wrBusyQueues: s.wrBusyQueues,
    rqInDriver: s.rqInDriver,
    expirations: { ...s.expirations },
  };
}
