// CFQ, Linux 2.6.32's Completely Fair Queueing I/O scheduler (docs/iosched/cfq.md,
// LINUX-SCHEDULERS.md §5): each process's sync I/O gets exclusive, time-sliced use of the
// disk in service-tree order, slices scaled by I/O priority, with a short idle at the end
// of a sync queue for the process's next request; async I/O is pooled per priority.
// This file is the elevator_ops table; the rules live in cfq-*.ts:
//   cfq-types.ts        state, constants, rule names, jiffy clock, 'm' messages
//   cfq-tunables.ts     the sysfs tunables and their 2.6.32 defaults
//   cfq-choose.ts       cfq_choose_req / cfq_find_next_rq (pure)
//   cfq-queue.ts        queues, io contexts, slices and budgets, statistics
//   cfq-service-tree.ts service tree, prio trees, close cooperators
//   cfq-rq.ts           requests inside a queue: sort list, next_rq, alias rule
//   cfq-dispatch.ts     queue selection, may_dispatch, dispatch, slice expiry
//   cfq-events.ts       arrival and preemption, completion and idling, the idle timer
import { findBySector, predecessor, successor } from './common';
import { cfqDispatch } from './cfq-dispatch';
import { removeRequest, repositionRq } from './cfq-rq';
import { completedRequest, idleSliceTimer, insertRequest } from './cfq-events';
import { attachQueue, bioQueue, prioToMaxrq, queueOf } from './cfq-queue';
import { CFQ_TUNABLES, cfqTunables } from './cfq-tunables';
import {
  CLASS_NAMES,
  IOPRIO_BE_NR,
  jiffiesNow,
  jiffiesToMsExact,
  logq,
  type CfqQueue,
  type CfqState,
} from './cfq-types';
import type { Bio, ElevatorContext, ElevatorType } from './types';

export type { CfqRule } from './cfq-types';
export { CFQ_RULES } from './cfq-types';
export { cfqChooseReq } from './cfq-choose';

function initState(given: Record<string, number>, ctx: ElevatorContext): CfqState {
  return {
    t: cfqTunables(given, ctx),
    queues: [],
    cics: {},
    asyncQueues: {},
    serviceTree: [],
    prioTrees: Array.from({ length: IOPRIO_BE_NR }, () => []),
    busyQueues: 0,
    rqInDriverAsync: 0,
    rqInDriverSync: 0,
    syncFlight: 0,
    rqQueued: 0,
    // cfq_init_queue assumes a queueing device until 50 samples say otherwise
    hwTag: 1,
    hwTagSamples: 0,
    rqInDriverPeak: 0,
    activeQueue: -1,
    activeCic: -1,
    lastClass: 0,
    lastPosition: 0,
    lastEndSyncRq: jiffiesNow(ctx),
    idleTimerAt: -1,
    aliasOut: [],
    forcedCount: 0,
  };
}

/** cfq_bio_sync: reads, and writes flagged sync. */
function bioSync(bio: Bio): boolean {
  return !bio.write || bio.sync;
}

function label(q: CfqQueue): string {
  return q.sync ? `cfq${q.pid}` : `async ${CLASS_NAMES[q.ioprioClass]}${q.ioprio}`;
}

function inspectCfq(s: CfqState, ctx: ElevatorContext): Record<string, unknown> {
  const hz = ctx.hz;
  const ms = (j: number) => jiffiesToMsExact(j, hz);
  const now = jiffiesNow(ctx);
  const a = s.activeQueue >= 0 ? s.queues[s.activeQueue]! : null;
  const ids = (slots: number[]) => slots.map((slot) => ctx.rq(slot).id);
  return {
    activeQueue: a && {
      queue: label(a),
      pid: a.sync ? a.pid : `async ${CLASS_NAMES[a.ioprioClass]}${a.ioprio}`,
      class: CLASS_NAMES[a.ioprioClass],
      level: a.ioprio,
      // the slice starts at the first completion after the queue is set active
      sliceStartMs: a.sliceNew ? null : ms(a.sliceStart),
      sliceEndMs: a.sliceNew ? null : ms(a.sliceEnd),
      sliceRemainingMs: a.sliceNew ? null : Math.max(0, ms(a.sliceEnd - now)),
      dispatched: a.dispatched,
      sliceDispatched: a.sliceDispatch,
      budget: a.sync ? null : prioToMaxrq(s, a),
      waitRequest: a.waitRequest,
      mustDispatch: a.mustDispatch,
    },
    idleWindow: {
      armed: s.idleTimerAt >= 0,
      untilMs: s.idleTimerAt >= 0 ? ms(s.idleTimerAt) : null,
    },
    serviceTree: s.serviceTree.map((id) => {
      const q = s.queues[id]!;
      return { queue: label(q), class: CLASS_NAMES[q.ioprioClass], key: ms(q.rbKey) };
    }),
    queues: s.queues.map((q) => {
      const cic = q.sync ? s.cics[q.pid] : undefined;
      return {
        id: q.id,
        queue: label(q),
        pid: q.pid,
        sync: q.sync,
        class: CLASS_NAMES[q.ioprioClass],
        level: q.ioprio,
        sortList: ids(q.sortList),
        fifo: ids(q.fifo),
        nextRq: q.nextRq >= 0 ? ctx.rq(q.nextRq).id : null,
        idleWindow: q.idleWindow,
        thinkMeanMs: cic ? ms(cic.ttimeMean) : null,
        seekMean: q.seekMean,
        seeky: q.seekMean > 8 * 1024,
      };
    }),
    busyQueues: s.busyQueues,
    syncFlight: s.syncFlight,
    lastPosition: s.lastPosition,
    hwTag: s.hwTag,
  };
}

export const cfq: ElevatorType<CfqState> = {
  name: 'cfq',
  title: 'CFQ — Linux 2.6.32 Completely Fair Queueing: time slices per process',
  tunables: CFQ_TUNABLES,
  dispatchInsert: 'sort',
  init: initState,

  // ── merging: only within the submitting process's own queue ──
  frontMergeCandidate(s, bio, endSector, ctx) {
    const q = bioQueue(s, bio.pid, bioSync(bio));
    if (!q) return -1;
    const slot = findBySector(q.sortList, endSector, ctx);
    return slot >= 0 && cfq.allowMerge!(s, ctx.rq(slot), bio, ctx) ? slot : -1;
  },
  allowMerge(s, rq, bio) {
    // no sync bio into an async request; and only into the queue the bio would go to
    if (bioSync(bio) && !rq.sync) return false;
    // a request the alias rule pushed out is on its way to the dispatch list, where the
    // kernel has already taken it out of the merge hash
    if (s.aliasOut.includes(rq.slot)) return false;
    const q = bioQueue(s, bio.pid, bioSync(bio));
    return q !== null && q.id === rq.sched;
  },
  merged(s, rq, front, ctx) {
    if (front) repositionRq(s, rq, ctx);
  },
  requestsMerged(s, survivor, absorbed, ctx) {
    // the survivor takes the absorbed request's FIFO place and deadline if that was older
    const q = queueOf(s, survivor);
    const i = q.fifo.indexOf(survivor.slot);
    const j = q.fifo.indexOf(absorbed.slot);
    if (i >= 0 && j >= 0 && absorbed.fifoNs < survivor.fifoNs) {
      q.fifo.splice(i, 1);
      q.fifo.splice(q.fifo.indexOf(absorbed.slot) + 1, 0, survivor.slot);
      survivor.fifoNs = absorbed.fifoNs;
    }
    removeRequest(s, absorbed, ctx);
  },
  formerRequest(s, rq) {
    return predecessor(queueOf(s, rq).sortList, rq.slot);
  },
  latterRequest(s, rq) {
    return successor(queueOf(s, rq).sortList, rq.slot);
  },

  // ── allocation and life cycle ──
  mayQueue(s, bio) {
    // the process the active queue idles for may allocate once per slice past the limit
    const q = bioQueue(s, bio.pid, bioSync(bio));
    if (q && q.waitRequest && !q.mustAllocSlice) {
      q.mustAllocSlice = true;
      return 'must';
    }
    return 'may';
  },
  setRequest(s, rq, _bio, ctx) {
    attachQueue(s, rq, ctx);
  },
  add(s, rq, ctx) {
    // until the framework calls setRequest at G, attach the queue here
    if (rq.sched < 0) attachQueue(s, rq, ctx);
    insertRequest(s, rq, ctx);
  },
  dispatch: cfqDispatch,
  activate(s, rq, ctx) {
    if (rq.sync) s.rqInDriverSync++;
    else s.rqInDriverAsync++;
    if (ctx.recording)
      if (ctx.recording)
        logq(ctx, queueOf(s, rq), `activate rq, drv=${s.rqInDriverSync + s.rqInDriverAsync}`);
    s.lastPosition = rq.sector + rq.nSectors;
  },
  deactivate(s, rq, ctx) {
    if (rq.sync) s.rqInDriverSync--;
    else s.rqInDriverAsync--;
    if (ctx.recording)
      if (ctx.recording)
        logq(ctx, queueOf(s, rq), `deactivate rq, drv=${s.rqInDriverSync + s.rqInDriverAsync}`);
  },
  completed: completedRequest,
  putRequest(s, rq) {
    if (rq.sched < 0) return;
    queueOf(s, rq).allocated--;
    rq.sched = -1;
  },
  timer: idleSliceTimer,
  queued: (s) => s.rqQueued + s.aliasOut.length,
  inspect: inspectCfq,
};
