// BFQ's inspection view (bfq.ts): each queue's weight (and its raising), budget and
// service, start and finish virtual times against its tree's V, its requests, and the
// idling state of the in-service queue; per class the tree's V and weight sum.
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
  } | null;
  classes: Array<{ name: string; vtime: number; wsum: number; busy: number }>;
  queues: Array<{
    name: string;
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
        name: queueName(q),
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
    hwTag: s.hwTag,
    wrBusyQueues: s.wrBusyQueues,
    rqInDriver: s.rqInDriver,
    expirations: { ...s.expirations },
  };
}
