// AS's ordering rule (LINUX-SCHEDULERS.md §4.4): as_choose_req, a pure comparator of two
// start sectors against the head position, and as_find_next_rq, the request to serve
// after another in elevator order. Timing (expiry, anticipation) lives elsewhere.
import type { ElevatorContext } from './types';
import { BACK_PENALTY, MAXBACK } from './anticipatory-state';

/** Where a request lies from the head: its weighted distance, or "wrapped" (far behind). */
export function seekCost(last: number, sector: number): { wrapped: boolean; distance: number } {
  if (sector >= last) return { wrapped: false, distance: sector - last };
  // Short backward seeks are allowed, at twice the cost of the same forward seek.
  if (sector + MAXBACK >= last) return { wrapped: false, distance: (last - sector) * BACK_PENALTY };
  return { wrapped: true, distance: 0 };
}

/**
 * as_choose_req on sectors: which of two requests (start sectors s1, s2) AS prefers with
 * the head at `last`. Returns 1 or 2.
 * - a request ahead (or at most MAXBACK behind) beats one further behind;
 * - both far behind: the lower one (one long backward seek, then forward again);
 * - otherwise the smaller distance, backward distances doubled; a tie goes to the higher.
 */
export function chooseReq(last: number, s1: number, s2: number): 1 | 2 {
  const a = seekCost(last, s1);
  const b = seekCost(last, s2);
  if (!a.wrapped && b.wrapped) return 1;
  if (a.wrapped && !b.wrapped) return 2;
  if (a.wrapped && b.wrapped) return s1 <= s2 ? 1 : 2;
  if (a.distance < b.distance) return 1;
  if (b.distance < a.distance) return 2;
  return s1 >= s2 ? 1 : 2;
}

/** as_choose_req on request slots (−1 = none): the other one if either is missing. */
export function chooseSlot(last: number, r1: number, r2: number, ctx: ElevatorContext): number {
  if (r1 < 0 || r1 === r2) return r2;
  if (r2 < 0) return r1;
  return chooseReq(last, ctx.rq(r1).sector, ctx.rq(r2).sector) === 1 ? r1 : r2;
}

/**
 * as_find_next_rq: after `slot` (still in its sorted `list`), the better of its sector
 * successor — or the lowest request if it was the highest (the one-way elevator wraps) —
 * and its predecessor, judged from `last`.
 */
export function findNextRq(list: number[], slot: number, last: number, ctx: ElevatorContext) {
  const i = list.indexOf(slot);
  const prev = i > 0 ? list[i - 1]! : -1;
  let next = i + 1 < list.length ? list[i + 1]! : -1;
  if (next < 0 && list.length > 0 && list[0] !== slot) next = list[0]!;
  return chooseSlot(last, next, prev, ctx);
}
