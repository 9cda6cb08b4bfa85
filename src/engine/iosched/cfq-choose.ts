// Choosing between two requests of one queue (cfq_choose_req, lifted from AS) and the
// queue's next request after a dispatch (cfq_find_next_rq). Pure ordering rules, kept
// apart from CFQ's timing rules (STYLE.md habit 9); tested with small tables.
// LINUX-SCHEDULERS.md §5.5.
import { predecessor, successor } from './common';

/** What the comparator looks at. */
export interface ChoiceInfo {
  sector: number;
  sync: boolean;
  /** metadata request (Spindle's requests never are: the flag is not modelled) */
  meta?: boolean;
}

/** Why the comparator picked what it picked (for decision texts and tests). */
export type ChoiceReason =
  | 'only-one'
  | 'sync-over-async'
  | 'meta-over-data'
  | 'closer'
  | 'tie-higher-sector'
  | 'other-wrapped'
  | 'both-wrapped-lower-sector';

export interface Choice<T> {
  chosen: T | null;
  reason: ChoiceReason;
}

/**
 * cfq_choose_req: which of rq1 and rq2 is best served now, the head being at `last`
 * (the end of the last request activated on the device). A request ahead of the head
 * costs its distance; one behind costs `penalty` × its distance if within backMaxKiB
 * (KiB, 2 sectors each), otherwise it "wraps" and loses to any non-wrapped one.
 */
export function cfqChooseReq<T extends ChoiceInfo>(
  rq1: T | null,
  rq2: T | null,
  last: number,
  backMaxKiB: number,
  penalty: number,
): Choice<T> {
  if (rq1 === null || rq1 === rq2) return { chosen: rq2, reason: 'only-one' };
  if (rq2 === null) return { chosen: rq1, reason: 'only-one' };
  if (rq1.sync !== rq2.sync) return { chosen: rq1.sync ? rq1 : rq2, reason: 'sync-over-async' };
  if (Boolean(rq1.meta) !== Boolean(rq2.meta))
    return { chosen: rq1.meta ? rq1 : rq2, reason: 'meta-over-data' };

  const backMax = backMaxKiB * 2;
  const s1 = rq1.sector;
  const s2 = rq2.sector;
  let d1 = 0;
  let d2 = 0;
  let wrap1 = false;
  let wrap2 = false;
  // Strict one-way elevator, except short backward seeks at `penalty` times the cost.
  if (s1 >= last) d1 = s1 - last;
  else if (s1 + backMax >= last) d1 = (last - s1) * penalty;
  else wrap1 = true;
  if (s2 >= last) d2 = s2 - last;
  else if (s2 + backMax >= last) d2 = (last - s2) * penalty;
  else wrap2 = true;

  if (!wrap1 && !wrap2) {
    if (d1 < d2) return { chosen: rq1, reason: 'closer' };
    if (d2 < d1) return { chosen: rq2, reason: 'closer' };
    return { chosen: s1 >= s2 ? rq1 : rq2, reason: 'tie-higher-sector' };
  }
  if (wrap1 !== wrap2) return { chosen: wrap1 ? rq2 : rq1, reason: 'other-wrapped' };
  // Both behind the head: the one further behind first, so only one backward seek.
  return { chosen: s1 <= s2 ? rq1 : rq2, reason: 'both-wrapped-lower-sector' };
}

/**
 * cfq_find_next_rq: after `last` leaves the queue, the better of its sector
 * predecessor and its successor (the lowest request when it was the highest).
 */
export function findNextRq<T extends ChoiceInfo & { slot: number }>(
  sortList: readonly number[],
  lastSlot: number,
  info: (slot: number) => T,
  head: number,
  backMaxKiB: number,
  penalty: number,
): number {
  const list = sortList as number[];
  const prevSlot = predecessor(list, lastSlot);
  let nextSlot = successor(list, lastSlot);
  if (nextSlot < 0 && list.length > 0 && list[0] !== lastSlot) nextSlot = list[0]!;
  // The requests themselves, not copies: this runs at every dispatch.
  const next = nextSlot >= 0 ? info(nextSlot) : null;
  const prev = prevSlot >= 0 ? info(prevSlot) : null;
  const c = cfqChooseReq(next, prev, head, backMaxKiB, penalty);
  return c.chosen ? c.chosen.slot : -1;
}
