// Requests inside one CFQ queue: the sort list with its alias rule (cfq_add_rq_rb),
// next_rq kept as the best candidate for the head (cfq_choose_req, cfq_find_next_rq),
// removal on dispatch or merge, and the move to the dispatch list (cfq_dispatch_insert).
// LINUX-SCHEDULERS.md §5.5, §1.4 (alias rule).
import type { IoRequest } from '../request';
import { fifoRemove, findBySector, sortInsert, sortRemove } from './common';
import { cfqChooseSlot, findNextRq } from './cfq-choose';
import { queueOf } from './cfq-queue';
import { addCfqqRr, delCfqqRr, prioTreeAdd } from './cfq-service-tree';
import { decide, logq, queueName, type CfqQueue, type CfqState } from './cfq-types';
import type { ElevatorContext } from './types';

/** The better of two requests for the head at last_position (cfq_choose_req). */
function choose(s: CfqState, a: number, b: number, ctx: ElevatorContext): number {
  const ra = a >= 0 ? ctx.rq(a) : null;
  const rb = b >= 0 ? ctx.rq(b) : null;
  return cfqChooseSlot(ra, rb, s.lastPosition, s.t.backSeekMaxKiB, s.t.backSeekPenalty);
}

function nextAfter(s: CfqState, q: CfqQueue, slot: number, ctx: ElevatorContext): number {
  const t = s.t;
  return findNextRq(
    q.sortList,
    slot,
    ctx, // requests read through the context: no closure per call
    s.lastPosition,
    t.backSeekMaxKiB,
    t.backSeekPenalty,
  );
}

/** cfq_add_rq_rb: into the sort list (an alias — same start sector — goes out first). */
export function addRqRb(s: CfqState, rq: IoRequest, ctx: ElevatorContext): void {
  const q = queueOf(s, rq);
  if (rq.sync) q.queuedSync++;
  else q.queuedAsync++;
  for (;;) {
    const alias = findBySector(q.sortList, rq.sector, ctx);
    if (alias < 0) break;
    dispatchInsert(s, alias, ctx);
    s.aliasOut.push(alias);
    if (ctx.recording) recordAlias(q, rq, alias, ctx);
  }
  sortInsert(q.sortList, rq.slot, ctx);
  if (!q.onRr) addCfqqRr(s, q, ctx);
  const prev = q.nextRq;
  q.nextRq = choose(s, q.nextRq, rq.slot, ctx);
  if (prev !== q.nextRq) prioTreeAdd(s, q, ctx);
}

/** The alias decision record (apart: a closure in addRqRb would cost it a context per call). */
function recordAlias(q: CfqQueue, rq: IoRequest, alias: number, ctx: ElevatorContext): void {
  decide(
    ctx,
    'alias-dispatch',
    alias,
    () => [{ slot: rq.slot, note: 'same start sector: takes its place' }],
    () => `${queueName(q)}: request at sector ${rq.sector} already queued; it goes straight out`,
  );
}

/** cfq_del_rq_rb: out of the sort list; an emptied queue leaves the busy list. */
function delRqRb(s: CfqState, rq: IoRequest, ctx: ElevatorContext): void {
  const q = queueOf(s, rq);
  if (rq.sync) q.queuedSync--;
  else q.queuedAsync--;
  sortRemove(q.sortList, rq.slot);
  if (q.onRr && q.sortList.length === 0) delCfqqRr(s, q, ctx);
}

/** cfq_remove_request: out of the queue entirely (dispatched, or merged away). */
export function removeRequest(s: CfqState, rq: IoRequest, ctx: ElevatorContext): void {
  const q = queueOf(s, rq);
  if (q.nextRq === rq.slot) q.nextRq = nextAfter(s, q, rq.slot, ctx);
  fifoRemove(q.fifo, rq.slot);
  delRqRb(s, rq, ctx);
  s.rqQueued--;
}

/** cfq_reposition_rq_rb: a front merge moved the request's start sector. */
export function repositionRq(s: CfqState, rq: IoRequest, ctx: ElevatorContext): void {
  const q = queueOf(s, rq);
  sortRemove(q.sortList, rq.slot);
  if (rq.sync) q.queuedSync--;
  else q.queuedAsync--;
  addRqRb(s, rq, ctx);
}

/** cfq_dispatch_insert: from the queue to the dispatch list. */
export function dispatchInsert(s: CfqState, slot: number, ctx: ElevatorContext): void {
  const rq = ctx.rq(slot);
  const q = queueOf(s, rq);
  logq(ctx, q, 'dispatch_insert');
  q.nextRq = nextAfter(s, q, slot, ctx);
  removeRequest(s, rq, ctx);
  q.dispatched++;
  if (q.sync) s.syncFlight++;
}
