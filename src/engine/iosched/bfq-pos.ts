// BFQ's request-position tree (bfqg->rq_pos_tree in block/bfq-iosched.c): the queues that
// may still merge, filed by the sector of their next request, where a new request looks
// for a close cooperator (bfq_pos_tree_add_move, bfqq_find_close). Spindle keeps it as a
// sorted array of queue ids; the kernel's red-black tree answers the same questions.
import { BFQQ_CLOSE_THR, bfqMergeTimeLimitJ } from './bfq-tunables';
import { jiffies, type BfqQueue, type BfqState } from './bfq-types';
import type { ElevatorContext } from './types';

/** bfq_too_late_for_merging: served for over HZ/10 since its backlog began */
export function tooLateForMerging(s: BfqState, q: BfqQueue, ctx: ElevatorContext): boolean {
  return q.serviceFromBacklogged > 0 && q.firstIoJ + bfqMergeTimeLimitJ(s.hz) < jiffies(ctx);
}

export function posTreeRemove(s: BfqState, q: BfqQueue): void {
  if (q.posKey < 0) return;
  const i = s.posTree.indexOf(q.id);
  if (i >= 0) s.posTree.splice(i, 1);
  q.posKey = -1;
}

/** the index of the first queue filed at or after `sector` */
function lowerBound(s: BfqState, sector: number): number {
  let lo = 0;
  let hi = s.posTree.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (s.queues[s.posTree[mid]!]!.posKey < sector) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** bfq_pos_tree_add_move: refile the queue under its next request — unless it can no
 * longer merge, is of the idle class, is empty, or another queue holds that sector. */
export function posTreeAddMove(s: BfqState, q: BfqQueue, ctx: ElevatorContext): void {
  posTreeRemove(s, q);
  if (tooLateForMerging(s, q, ctx) || q.ioprioClass === 3 || q.nextRq < 0) return;
  const sector = ctx.rq(q.nextRq).sector;
  const i = lowerBound(s, sector);
  const at = s.posTree[i];
  if (at !== undefined && s.queues[at]!.posKey === sector) return;
  s.posTree.splice(i, 0, q.id);
  q.posKey = sector;
}

const close = (a: number, b: number) => Math.abs(a - b) <= BFQQ_CLOSE_THR;

/** bfqq_find_close: the queue whose next request starts at `sector`, else a neighbour in
 * the tree within BFQQ_CLOSE_THR (the kernel tries the leaf's parent, then the next one
 * toward the sector: one of the two neighbours, then the other — Spindle the nearer
 * first). */
export function findClose(s: BfqState, sector: number): BfqQueue | null {
  const i = lowerBound(s, sector);
  const after = s.posTree[i] !== undefined ? s.queues[s.posTree[i]!]! : null;
  if (after && after.posKey === sector) return after;
  const before = i > 0 ? s.queues[s.posTree[i - 1]!]! : null;
  const order =
    before && after && sector - before.posKey > after.posKey - sector
      ? [after, before]
      : [before, after];
  for (const q of order) if (q && close(q.posKey, sector)) return q;
  return null;
}

export { close as closeToSector };
