// The Linux 2.6.32 deadline I/O scheduler (block/deadline-iosched.c), rule by rule
// (LINUX-SCHEDULERS.md §1.4 and §3; docs/iosched/deadline.md). Per direction — READ or
// WRITE, never sync — a sector-sorted list and a FIFO whose requests carry a deadline.
// Requests leave in batches of up to fifo_batch, one direction per batch, sweeping up
// the sectors one way; a new batch prefers reads, but at most writes_starved times in a
// row while writes wait; deadlines are looked at only when a batch starts. No idling, no
// timer: dispatch() answers −1 only when empty. Decision texts: deadline-explain.ts.
import {
  MS,
  findBySector,
  fifoRemove,
  predecessor,
  sortInsert,
  sortRemove,
  successor,
} from './common';
import { explainAlias, explainContinue, explainNewBatch } from './deadline-explain';
import type { ElevatorContext, ElevatorType, TunableSpec } from './types';
import type { IoRequest } from '../request';
import { READ, WRITE, type DeadlineRule, type Dir, type DeadlineState } from './deadline-state';

export {
  READ,
  WRITE,
  DEADLINE_RULES,
  type Dir,
  type DeadlineRule,
  type DeadlineState,
} from './deadline-state';

const INT_MAX = 2147483647;
const INT_MIN = -2147483648;

/** The sysfs attributes, with the kernel's defaults and STORE_FUNCTION limits (§3.2). */
export const DEADLINE_TUNABLES: readonly TunableSpec[] = [
  {
    name: 'read_expire',
    default: 500,
    unit: 'ms',
    min: 0,
    max: INT_MAX,
    doc: "A read's deadline after it is inserted; looked at only when a batch starts.",
  },
  {
    name: 'write_expire',
    default: 5000,
    unit: 'ms',
    min: 0,
    max: INT_MAX,
    doc: "A write's deadline after it is inserted (a soft limit, like read_expire).",
  },
  {
    name: 'fifo_batch',
    default: 16,
    unit: 'requests',
    min: 0,
    max: INT_MAX,
    doc: 'Requests in one batch (one direction, ascending sectors) before direction and deadlines are looked at again.',
  },
  {
    name: 'writes_starved',
    default: 2,
    unit: 'count',
    min: INT_MIN,
    max: INT_MAX,
    doc: 'How many new batches in a row may choose reads while writes wait; the next one takes writes.',
  },
  {
    name: 'front_merges',
    default: 1,
    unit: 'bool',
    min: 0,
    max: 1,
    doc: 'Look in the sort list for a request a bio can join at the front (0: only the one-hit cache front-merges).',
  },
];

/** What the UI may show, named as mq-deadline's debugfs attributes where they exist. */
export type DeadlineView = {
  readFifo: FifoEntry[];
  writeFifo: FifoEntry[];
  /** request ids in sector order */
  sortRead: number[];
  sortWrite: number[];
  nextRq: { read: number | null; write: number | null };
  batching: number;
  starved: number;
  lastSector: number;
  /** ids the alias rule moved to dispatch, not yet taken (mq-deadline's "dispatch" list) */
  dispatch: number[];
};
/** One FIFO entry: request id, where it is, and its deadline (simulated time, ms). */
export type FifoEntry = { rq: number; sector: number; nSectors: number; deadlineMs: number };

export function dirOf(rq: IoRequest): Dir {
  return rq.write ? WRITE : READ;
}

/** STORE_FUNCTION: a sysfs write as an integer, clamped to the attribute's limits (mq-deadline
 * stores its attributes the same way). */
export function storeTunable(
  specs: readonly TunableSpec[],
  values: Record<string, number>,
  name: string,
): number {
  const spec = specs.find((t) => t.name === name)!;
  const v = values[name];
  const n = v === undefined || !Number.isFinite(v) ? spec.default : Math.trunc(v);
  return Math.min(spec.max, Math.max(spec.min, n));
}

const tunable = (values: Record<string, number>, name: string) =>
  storeTunable(DEADLINE_TUNABLES, values, name);

/** deadline_del_rq_rb: leave the sort list; a next_rq pointing here moves to its successor. */
function delRb(s: DeadlineState, rq: IoRequest): void {
  const dir = dirOf(rq);
  if (s.nextRq[dir] === rq.slot) s.nextRq[dir] = successor(s.sortList[dir], rq.slot);
  sortRemove(s.sortList[dir], rq.slot);
}

/** deadline_remove_request: off the FIFO (its deadline cleared) and the sort list. */
function removeRequest(s: DeadlineState, rq: IoRequest): void {
  fifoRemove(s.fifoList[dirOf(rq)], rq.slot);
  rq.fifoNs = -1;
  delRb(s, rq);
}

/** deadline_move_request (§3.4 step 6, without the batching count): next_rq becomes the
 * sector successor in this direction only, last_sector the end; the request leaves. */
function moveRequest(s: DeadlineState, slot: number, ctx: ElevatorContext): number {
  const rq = ctx.rq(slot);
  const dir = dirOf(rq);
  s.nextRq[READ] = -1;
  s.nextRq[WRITE] = -1;
  s.nextRq[dir] = successor(s.sortList[dir], slot);
  s.lastSector = rq.sector + rq.nSectors;
  s.lastDir = dir;
  removeRequest(s, rq);
  return slot;
}

/** deadline_add_rq_rb with the alias rule (§1.4): a request already sorted at the same
 * start sector goes straight to dispatch; then this one takes its place. */
function addRb(s: DeadlineState, rq: IoRequest, ctx: ElevatorContext): void {
  const list = s.sortList[dirOf(rq)];
  for (let alias = findBySector(list, rq.sector, ctx); alias >= 0;) {
    moveRequest(s, alias, ctx);
    // On the dispatch queue it is out of the merge hash and the one-hit cache.
    ctx.rq(alias).mergeable = false;
    s.aliased.push({ slot: alias, by: rq.id });
    alias = findBySector(list, rq.sector, ctx);
  }
  sortInsert(list, rq.slot, ctx);
}

/** deadline_check_fifo: the oldest request of `dir` is past its deadline (strictly). */
function fifoExpired(s: DeadlineState, dir: Dir, ctx: ElevatorContext): boolean {
  return ctx.now > ctx.rq(s.fifoList[dir][0]!).fifoNs;
}

/** deadline_dispatch_requests (§3.4): move one request toward the device, or −1. */
function dispatch(s: DeadlineState, ctx: ElevatorContext): number {
  // Aliased requests are already on the kernel's dispatch queue: the driver takes them first.
  const aliased = s.aliased.shift();
  if (aliased) {
    if (ctx.recording) explainAlias(aliased.slot, aliased.by, ctx);
    return aliased.slot;
  }
  const reads = s.fifoList[READ].length > 0;
  const writes = s.fifoList[WRITE].length > 0;

  // Step 1: batches are reads XOR writes, so at most one next_rq is set.
  const next = s.nextRq[WRITE] >= 0 ? s.nextRq[WRITE] : s.nextRq[READ];

  // Step 2: a next request and still entitled to batch — deadlines are not looked at.
  if (next >= 0 && s.batching < s.fifoBatch) {
    if (ctx.recording) explainContinue(s, next, ctx);
    s.batching++;
    return moveRequest(s, next, ctx);
  }

  // Step 3: a new batch — choose its direction. Reads are preferred, but each time they
  // are chosen over waiting writes `starved` counts it (the post-increment happens only
  // when writes wait); once it has reached writes_starved, writes go.
  const starvedBefore = s.starved;
  let dir: Dir;
  let dirRule: DeadlineRule;
  if (reads) {
    if (writes && s.starved++ >= s.writesStarved) {
      dir = WRITE;
      dirRule = 'new-batch-write-starved';
    } else {
      dir = READ;
      dirRule = 'new-batch-read';
    }
  } else if (writes) {
    dir = WRITE;
    dirRule = 'new-batch-write-only';
  } else {
    return -1; // empty: deadline never idles
  }
  if (dir === WRITE) s.starved = 0;

  // Step 4: the batch's first request. An expired FIFO head, or no next_rq in this
  // direction (the last batch went the other way, or the sweep ran off the top: there is
  // no wrap), restarts from the oldest request; otherwise the sweep goes on up.
  const expired = fifoExpired(s, dir, ctx);
  const head = s.fifoList[dir][0]!;
  const rq = expired || s.nextRq[dir] < 0 ? head : s.nextRq[dir];
  if (ctx.recording) {
    const startRule: DeadlineRule = expired
      ? 'fifo-expired'
      : s.nextRq[dir] < 0
        ? 'sweep-ended-fifo-head'
        : 'sweep-continues';
    explainNewBatch(s, { dir, dirRule, startRule, starvedBefore, next, slot: rq }, ctx);
  }

  // Steps 5–6: a new batch of one so far.
  s.batching = 1;
  return moveRequest(s, rq, ctx);
}

export const deadline: ElevatorType<DeadlineState> = {
  name: 'deadline',
  title: 'deadline — per-direction deadlines, batched one-way sweeps, reads preferred',
  tunables: DEADLINE_TUNABLES,
  dispatchInsert: 'append',

  init: (t) => ({
    sortList: [[], []],
    fifoList: [[], []],
    nextRq: [-1, -1],
    batching: 0,
    starved: 0,
    lastSector: 0,
    aliased: [],
    lastDir: -1,
    readExpireNs: tunable(t, 'read_expire') * MS,
    writeExpireNs: tunable(t, 'write_expire') * MS,
    fifoBatch: tunable(t, 'fifo_batch'),
    writesStarved: tunable(t, 'writes_starved'),
    frontMerges: tunable(t, 'front_merges') === 1,
  }),

  // §3.3: sort it (alias rule), give it its deadline, append it to its direction's FIFO.
  add(s, rq, ctx) {
    addRb(s, rq, ctx);
    rq.fifoNs = ctx.now + (rq.write ? s.writeExpireNs : s.readExpireNs);
    s.fifoList[dirOf(rq)].push(rq.slot);
  },

  dispatch: (s, _force, ctx) => dispatch(s, ctx), // force changes nothing: it never idles

  // §3.5: a request starting where the bio ends, looked up only with front_merges = 1.
  frontMergeCandidate(s, bio, endSector, ctx) {
    if (!s.frontMerges) return -1;
    return findBySector(s.sortList[bio.write ? WRITE : READ], endSector, ctx);
  },

  // §3.5: a front merge changed the start sector: re-sort (the alias rule applies again).
  merged(s, rq, front, ctx) {
    if (!front) return;
    sortRemove(s.sortList[dirOf(rq)], rq.slot);
    addRb(s, rq, ctx);
  },

  // §3.5, §1.4: when both are on the FIFO and the absorbed one expires first, the survivor
  // takes its deadline and its FIFO position; then the absorbed one leaves every list.
  requestsMerged(s, survivor, absorbed) {
    const fifo = s.fifoList[dirOf(survivor)];
    if (
      fifo.includes(survivor.slot) &&
      fifo.includes(absorbed.slot) &&
      absorbed.fifoNs < survivor.fifoNs
    ) {
      fifoRemove(fifo, survivor.slot);
      fifo[fifo.indexOf(absorbed.slot)] = survivor.slot;
      survivor.fifoNs = absorbed.fifoNs;
    }
    removeRequest(s, absorbed);
  },

  // elv_rb_former_request / elv_rb_latter_request: sort-list neighbours, same direction.
  formerRequest: (s, rq) => predecessor(s.sortList[dirOf(rq)], rq.slot),
  latterRequest: (s, rq) => successor(s.sortList[dirOf(rq)], rq.slot),

  completed() {},

  queued: (s) => s.fifoList[READ].length + s.fifoList[WRITE].length + s.aliased.length,

  inspect(s, ctx): DeadlineView {
    const id = (slot: number) => ctx.rq(slot).id;
    const fifo = (list: number[]): FifoEntry[] =>
      list.map((slot) => {
        const rq = ctx.rq(slot);
        return { rq: rq.id, sector: rq.sector, nSectors: rq.nSectors, deadlineMs: rq.fifoNs / MS };
      });
    return {
      readFifo: fifo(s.fifoList[READ]),
      writeFifo: fifo(s.fifoList[WRITE]),
      sortRead: s.sortList[READ].map(id),
      sortWrite: s.sortList[WRITE].map(id),
      nextRq: {
        read: s.nextRq[READ] >= 0 ? id(s.nextRq[READ]) : null,
        write: s.nextRq[WRITE] >= 0 ? id(s.nextRq[WRITE]) : null,
      },
      batching: s.batching,
      starved: s.starved,
      lastSector: s.lastSector,
      dispatch: s.aliased.map((a) => id(a.slot)),
    };
  },
};
