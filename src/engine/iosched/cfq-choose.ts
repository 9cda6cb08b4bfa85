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
  const c = choiceCode(rq1, rq2, last, backMaxKiB, penalty);
  const which = c & 3;
  return { chosen: which === 1 ? rq1 : which === 2 ? rq2 : null, reason: REASONS[c >> 2]! };
}

/** cfqChooseReq's choice as a slot (−1 for none), allocating nothing: for the hot path. */
export function cfqChooseSlot<T extends ChoiceInfo & { slot: number }>(
  rq1: T | null,
  rq2: T | null,
  last: number,
  backMaxKiB: number,
  penalty: number,
): number {
  const which = choiceCode(rq1, rq2, last, backMaxKiB, penalty) & 3;
  return which === 1 ? rq1!.slot : which === 2 ? rq2!.slot : -1;
}

const REASONS: readonly ChoiceReason[] = [
  'only-one',
  'sync-over-async',
  'meta-over-data',
  'closer',
  'tie-higher-sector',
  'other-wrapped',
  'both-wrapped-lower-sector',
];

/** The rules of cfqChooseReq as a number: 4 × the reason's index + which (1 rq1, 2 rq2, 0
 * none), so a caller that wants only the choice allocates no result object. */
function choiceCode(
  rq1: ChoiceInfo | null,
  rq2: ChoiceInfo | null,
  last: number,
  backMaxKiB: number,
  penalty: number,
): number {
  const ONLY = 0;
  const SYNC = 4;
  const META = 8;
  const CLOSER = 12;
  const TIE = 16;
  const OTHER = 20;
  const BOTH = 24;
  if (rq1 === null || rq1 === rq2) return ONLY | (rq2 === null ? 0 : 2);
  if (rq2 === null) return ONLY | 1;
  if (rq1.sync !== rq2.sync) return SYNC | (rq1.sync ? 1 : 2);
  if (Boolean(rq1.meta) !== Boolean(rq2.meta)) return META | (rq1.meta ? 1 : 2);

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
    if (d1 < d2) return CLOSER | 1;
    if (d2 < d1) return CLOSER | 2;
    return TIE | (s1 >= s2 ? 1 : 2);
  }
  if (wrap1 !== wrap2) return OTHER | (wrap1 ? 2 : 1);
  // Both behind the head: the one further behind first, so only one backward seek.
  return BOTH | (s1 <= s2 ? 1 : 2);
}

/**
 * cfq_find_next_rq: after `last` leaves the queue, the better of its sector
 * predecessor and its successor (the lowest request when it was the highest).
 */
export function findNextRq<T extends ChoiceInfo & { slot: number }>(
  sortList: readonly number[],
  lastSlot: number,
  info: { rq(slot: number): T },
  head: number,
  backMaxKiB: number,
  penalty: number,
): number {
  const list = sortList as number[];
  const prevSlot = predecessor(list, lastSlot);
  let nextSlot = successor(list, lastSlot);
  if (nextSlot < 0 && list.length > 0 && list[0] !== lastSlot) nextSlot = list[0]!;
  // The requests themselves, not copies: this runs at every dispatch.
  const next = nextSlot >= 0 ? info.rq(nextSlot) : null;
  const prev = prevSlot >= 0 ? info.rq(prevSlot) : null;
  return cfqChooseSlot(next, prev, head, backMaxKiB, penalty);
}
