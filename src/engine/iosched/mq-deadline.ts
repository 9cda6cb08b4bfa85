// mq-deadline as Linux 6.10–6.18 has it (block/mq-deadline.c; LINUX-SCHEDULERS.md §9.2;
// docs/iosched/mq-deadline.md): 2.6 deadline's batches and FIFOs, kept once per I/O
// priority class (RT, BE, IDLE). The differences from deadline.ts, each a rule here:
//  - a FIFO head is expired when jiffies ≥ its deadline (2.6: strictly after);
//  - the sweep resumes at the first request at or above the start of the last one
//    dispatched in that class and direction (latest_pos), not at a remembered successor,
//    and there is no alias rule (the sort tree holds equal sectors side by side);
//  - the class loop: RT first; a lower class gets nothing while a higher one has requests
//    queued or on the device (inserted − finished);
//  - prio aging: with two or more classes busy, a BE or IDLE request inserted at least
//    prio_aging_expire ago goes first;
//  - batching, starved and last_dir are shared by the classes; last_dir starts as WRITE.
// The framework's dispatch queue plays the part of mq-deadline's head-insertion list.
// dd_limit_depth: on kernel 6.18 a write or async request may hold at most async_depth of
// the queue's scheduler tags, sync reads all of them (tags-mq.ts); the kernel starts
// async_depth at nr_requests, so by default nothing is held back.
import {
  MS,
  findBySector,
  fifoRemove,
  firstAtOrAfter,
  jiffiesNow,
  jiffyNs,
  msecsToJiffies,
  predecessor,
  sortInsert,
  sortRemove,
  successor,
} from './common';
import { READ, WRITE, dirOf, type Dir, type FifoEntry } from './deadline';
import { explainDispatch, explainWait, type Pick } from './mq-deadline-explain';
import { MQ_DEADLINE_TUNABLES, tunable } from './mq-deadline-tunables';
import type { Bio, ElevatorContext, ElevatorType } from './types';
import type { IoRequest } from '../request';
import {
  BE,
  IDLE,
  PRIO_NAMES,
  RT,
  ddQueued,
  prioOf,
  type MqDeadlineRule,
  type MqDeadlineState,
  type PerPrio,
  type Prio,
} from './mq-deadline-state';

export {
  RT,
  BE,
  IDLE,
  PRIO_NAMES,
  MQ_DEADLINE_RULES,
  prioOf,
  ddQueued,
  type Prio,
  type MqDeadlineRule,
  type PerPrio,
  type MqDeadlineState,
} from './mq-deadline-state';

export { MQ_DEADLINE_TUNABLES };

export type MqDeadlineView = {
  classes: Array<{
    name: (typeof PRIO_NAMES)[number];
    readFifo: FifoEntry[];
    writeFifo: FifoEntry[];
    sortRead: number[];
    sortWrite: number[];
    /** the debugfs read<N>_next_rq / write<N>_next_rq: first at or above latest_pos */
    nextRq: { read: number | null; write: number | null };
    latestPos: { read: number; write: number };
    /** debugfs "queued" (in the scheduler or on the device) and "owned_by_driver" */
    queued: number;
    ownedByDriver: number;
  }>;
  lastDir: 'read' | 'write';
  batching: number;
  starved: number;
};

function perPrio(): PerPrio {
  return {
    sortList: [[], []],
    fifoList: [[], []],
    latestPos: [0, 0],
    inserted: 0,
    merged: 0,
    dispatched: 0,
    finished: 0,
  };
}

/** The jiffy a request's FIFO deadline falls on (rq.fifoNs holds that jiffy's start). */
function fifoJiffy(rq: IoRequest, hz: number): number {
  return Math.round((rq.fifoNs * hz) / 1e9);
}

/** deadline_check_fifo: time_is_before_eq_jiffies — expired once jiffies reach it. */
export function fifoExpired(pp: PerPrio, dir: Dir, ctx: ElevatorContext): boolean {
  return jiffiesNow(ctx) >= fifoJiffy(ctx.rq(pp.fifoList[dir][0]!), ctx.hz);
}

/** deadline_next_request → deadline_from_pos: the first request at or above latest_pos. */
export function nextRequest(pp: PerPrio, dir: Dir, ctx: ElevatorContext): number {
  return firstAtOrAfter(pp.sortList[dir], pp.latestPos[dir], ctx);
}

/** started_after: inserted (deadline − expire) after the jiffy `latestStartJ`. */
function startedAfter(s: MqDeadlineState, rq: IoRequest, latestStartJ: number, hz: number) {
  return fifoJiffy(rq, hz) - s.fifoExpireJ[dirOf(rq)] > latestStartJ;
}

function removeRequest(pp: PerPrio, rq: IoRequest): void {
  const dir = dirOf(rq);
  fifoRemove(pp.fifoList[dir], rq.slot);
  sortRemove(pp.sortList[dir], rq.slot);
  rq.fifoNs = -1;
}

/**
 * __dd_dispatch_request for one class: continue the batch, or choose a new batch's
 * direction and first request; give it up if it was inserted after `latestStartJ`. The
 * side effects on starved, last_dir and batching happen even then, as in the kernel.
 */
function dispatchClass(
  s: MqDeadlineState,
  p: Prio,
  latestStartJ: number,
  ctx: ElevatorContext,
): Pick | null {
  const pp = s.prio[p];
  let slot = nextRequest(pp, s.lastDir, ctx);
  let pick: Pick;
  if (slot >= 0 && s.batching < s.fifoBatch) {
    pick = { prio: p, slot, dir: s.lastDir, dirRule: null, startRule: 'continue-batch' };
  } else {
    const reads = pp.fifoList[READ].length > 0;
    const writes = pp.fifoList[WRITE].length > 0;
    const starvedBefore = s.starved;
    let dir: Dir;
    let dirRule: MqDeadlineRule;
    if (reads && !(writes && s.starved++ >= s.writesStarved)) {
      dir = READ;
      dirRule = 'new-batch-read';
    } else if (writes) {
      dir = WRITE;
      dirRule = reads ? 'new-batch-write-starved' : 'new-batch-write-only';
      s.starved = 0;
    } else {
      return null;
    }
    const next = nextRequest(pp, dir, ctx);
    const expired = fifoExpired(pp, dir, ctx);
    slot = expired || next < 0 ? pp.fifoList[dir][0]! : next;
    const startRule: MqDeadlineRule = expired
      ? 'fifo-expired'
      : next < 0
        ? 'sweep-ended-fifo-head'
        : 'sweep-continues';
    s.lastDir = dir;
    s.batching = 0;
    pick = { prio: p, slot, dir, dirRule, startRule, starvedBefore };
  }
  const rq = ctx.rq(slot);
  if (startedAfter(s, rq, latestStartJ, ctx.hz)) return null;
  s.batching++;
  removeRequest(pp, rq);
  pp.latestPos[pick.dir] = rq.sector; // dd_start_request
  pp.dispatched++;
  return pick;
}

/** dd_dispatch_prio_aged_requests: with ≥ 2 classes busy, an old BE or IDLE request. */
function dispatchAged(s: MqDeadlineState, nowJ: number, ctx: ElevatorContext): Pick | null {
  const busy = s.prio.filter((pp) => ddQueued(pp) > 0).length;
  if (busy < 2) return null;
  for (const p of [BE, IDLE] as const) {
    const pick = dispatchClass(s, p, nowJ - s.prioAgingExpireJ, ctx);
    if (pick) return { ...pick, aged: true };
  }
  return null;
}

/** dd_dispatch_request: aged requests first, then the classes in order; −1 if none. */
function dispatch(s: MqDeadlineState, ctx: ElevatorContext): number {
  const nowJ = jiffiesNow(ctx);
  let pick = dispatchAged(s, nowJ, ctx);
  let blockedBy = -1;
  if (!pick) {
    for (let p = RT; p <= IDLE; p++) {
      pick = dispatchClass(s, p as Prio, nowJ, ctx);
      if (pick) break;
      if (ddQueued(s.prio[p]!) > 0) {
        blockedBy = p;
        break;
      }
    }
  }
  if (!pick) {
    if (ctx.recording && blockedBy >= 0) explainWait(s, blockedBy as Prio, ctx);
    return -1;
  }
  if (ctx.recording) explainDispatch(s, pick, ctx);
  return pick.slot;
}

function listsOf(s: MqDeadlineState, rq: IoRequest): PerPrio {
  return s.prio[prioOf(rq.ioprioClass)];
}

export const mqDeadline: ElevatorType<MqDeadlineState> = {
  name: 'mq-deadline',
  title: 'mq-deadline (Linux 6.x) — deadline per I/O priority class, with prio aging',
  tunables: MQ_DEADLINE_TUNABLES,
  dispatchInsert: 'append',

  // dd_limit_depth: sync reads are not throttled; writes and async requests (every write,
  // as op_is_sync holds for all reads) get the shallow depth async_depth
  limitDepth: (s, bio) => (bio.write ? s.asyncDepth : Infinity),
  // dd_depth_updated: blk_mq_set_min_shallow_depth(q, 1)
  minShallowDepth: 1,

  init: (t, ctx) => ({
    prio: [perPrio(), perPrio(), perPrio()],
    lastDir: WRITE, // dd_init_sched
    batching: 0,
    starved: 0,
    fifoExpireJ: [
      msecsToJiffies(tunable(t, 'read_expire'), ctx.hz),
      msecsToJiffies(tunable(t, 'write_expire'), ctx.hz),
    ],
    prioAgingExpireJ: msecsToJiffies(tunable(t, 'prio_aging_expire'), ctx.hz),
    fifoBatch: tunable(t, 'fifo_batch'),
    writesStarved: tunable(t, 'writes_starved'),
    frontMerges: tunable(t, 'front_merges') === 1,
    asyncDepth: tunable(t, 'async_depth'),
  }),

  // dd_insert_request: count it in its class, sort it, give it a deadline in jiffies.
  add(s, rq, ctx) {
    const p = prioOf(rq.ioprioClass);
    const pp = s.prio[p];
    if (rq.sched < 0) pp.inserted++;
    rq.sched = p;
    const dir = dirOf(rq);
    sortInsert(pp.sortList[dir], rq.slot, ctx);
    rq.fifoNs = jiffyNs(jiffiesNow(ctx) + s.fifoExpireJ[dir], ctx.hz);
    pp.fifoList[dir].push(rq.slot);
  },

  dispatch: (s, _force, ctx) => dispatch(s, ctx), // never idles: force changes nothing

  // Since 5.x a bio joins only a request of its own I/O priority (blk_rq_merge_ok).
  allowMerge: (_s, rq, bio: Bio) =>
    rq.ioprioClass === bio.ioprioClass && rq.ioprioLevel === bio.ioprioLevel,

  // dd_request_merge: with front_merges, the bio's class and direction sort list.
  frontMergeCandidate(s, bio, endSector, ctx) {
    if (!s.frontMerges) return -1;
    return findBySector(
      s.prio[prioOf(bio.ioprioClass)].sortList[bio.write ? WRITE : READ],
      endSector,
      ctx,
    );
  },

  // dd_request_merged: a front merge moved the start sector — re-sort.
  merged(s, rq, front, ctx) {
    if (!front) return;
    const list = listsOf(s, rq).sortList[dirOf(rq)];
    sortRemove(list, rq.slot);
    sortInsert(list, rq.slot, ctx);
  },

  // dd_merged_requests: the survivor takes an earlier deadline and that FIFO position
  // (list_move: it leaves its own FIFO for the absorbed one's place), then the absorbed
  // request leaves its class's lists.
  requestsMerged(s, survivor, absorbed) {
    const pp = listsOf(s, absorbed);
    pp.merged++;
    const theirs = pp.fifoList[dirOf(absorbed)];
    const mine = listsOf(s, survivor).fifoList[dirOf(survivor)];
    if (
      mine.includes(survivor.slot) &&
      theirs.includes(absorbed.slot) &&
      absorbed.fifoNs < survivor.fifoNs
    ) {
      fifoRemove(mine, survivor.slot);
      theirs[theirs.indexOf(absorbed.slot)] = survivor.slot;
      survivor.fifoNs = absorbed.fifoNs;
      sortRemove(pp.sortList[dirOf(absorbed)], absorbed.slot);
      absorbed.fifoNs = -1;
      return;
    }
    removeRequest(pp, absorbed);
  },

  formerRequest: (s, rq) => predecessor(listsOf(s, rq).sortList[dirOf(rq)], rq.slot),
  latterRequest: (s, rq) => successor(listsOf(s, rq).sortList[dirOf(rq)], rq.slot),

  completed() {},

  // dd_finish_request: a request that was inserted is finished (completed or merged away).
  putRequest(s, rq) {
    if (rq.sched < 0) return;
    s.prio[rq.sched as Prio].finished++;
    rq.sched = -1;
  },

  queued: (s) =>
    s.prio.reduce((n, pp) => n + pp.fifoList[READ].length + pp.fifoList[WRITE].length, 0),

  inspect(s, ctx): MqDeadlineView {
    const id = (slot: number) => ctx.rq(slot).id;
    const fifo = (list: number[]): FifoEntry[] =>
      list.map((slot) => {
        const rq = ctx.rq(slot);
        return { rq: rq.id, sector: rq.sector, nSectors: rq.nSectors, deadlineMs: rq.fifoNs / MS };
      });
    const next = (pp: PerPrio, dir: Dir) => {
      const slot = nextRequest(pp, dir, ctx);
      return slot >= 0 ? id(slot) : null;
    };
    return {
      classes: s.prio.map((pp, p) => ({
        name: PRIO_NAMES[p]!,
        readFifo: fifo(pp.fifoList[READ]),
        writeFifo: fifo(pp.fifoList[WRITE]),
        sortRead: pp.sortList[READ].map(id),
        sortWrite: pp.sortList[WRITE].map(id),
        nextRq: { read: next(pp, READ), write: next(pp, WRITE) },
        latestPos: { read: pp.latestPos[READ], write: pp.latestPos[WRITE] },
        queued: ddQueued(pp),
        ownedByDriver: pp.dispatched + pp.merged - pp.finished,
      })),
      lastDir: s.lastDir === READ ? 'read' : 'write',
      batching: s.batching,
      starved: s.starved,
    };
  },
};
