// The deadline scheduler's state and the names of its rules, apart from its policy so the
// decision texts (deadline-explain.ts) and mq-deadline can share them without importing it.
import type { SortList } from './common';

/** Index into the per-direction pairs: the kernel's READ and WRITE (rq_data_dir). */
export const READ = 0;
export const WRITE = 1;
export type Dir = typeof READ | typeof WRITE;

/**
 * Why a request left the scheduler: one value per branch of deadline_dispatch_requests
 * (§3.4), plus the sort-tree alias rule (§1.4). A new batch makes two choices, so it
 * gives two decision records: its direction (a `new-batch-*` rule), then its first
 * request (`fifo-expired`, `sweep-ended-fifo-head` or `sweep-continues`).
 */
export type DeadlineRule =
  /** §1.4: an inserted request had the same start sector as this one, which was moved
   * straight to the dispatch queue (it leaves before anything dispatch() chooses) */
  | 'alias'
  /** §3.4 step 2: next_rq exists and batching < fifo_batch — the batch goes on up */
  | 'continue-batch'
  /** §3.4 step 3: reads queued, and no writes or starved < writes_starved */
  | 'new-batch-read'
  /** §3.4 step 3: reads and writes queued, reads already preferred writes_starved times */
  | 'new-batch-write-starved'
  /** §3.4 step 3: only writes queued */
  | 'new-batch-write-only'
  /** §3.4 step 4: the direction's oldest request is past its deadline: start there */
  | 'fifo-expired'
  /** §3.4 step 4: no next_rq in this direction (other direction last, or the sweep ran
   * past the highest sector — there is no wrap): start from the oldest request */
  | 'sweep-ended-fifo-head'
  /** §3.4 step 4: nothing expired: go on up from where this direction's sweep stopped */
  | 'sweep-continues';

export const DEADLINE_RULES: readonly DeadlineRule[] = [
  'alias',
  'continue-batch',
  'new-batch-read',
  'new-batch-write-starved',
  'new-batch-write-only',
  'fifo-expired',
  'sweep-ended-fifo-head',
  'sweep-continues',
];
/** deadline_data: plain data, so snapshots (structuredClone) work. Pairs are [READ, WRITE]. */
export interface DeadlineState {
  /** request slots by start sector: the kernel's per-direction rb-tree sort_list */
  sortList: [SortList, SortList];
  /** request slots in insertion order; each request's deadline is in rq.fifoNs (ns) */
  fifoList: [number[], number[]];
  /** the sector successor of the last request dispatched, per direction; −1 = none.
   * At most one is set: a dispatch clears the other direction's. */
  nextRq: [number, number];
  batching: number; // requests dispatched in the current batch
  starved: number; // new batches that chose reads while writes waited, since the last write batch
  lastSector: number; // end sector of the last request moved to dispatch (recorded, not used)
  /** requests the alias rule moved to the dispatch queue, oldest first; `by` is the id of
   * the request that aliased it. The kernel appends them to the dispatch queue at once;
   * dispatch() returns one slot per call, so they wait here and leave first. */
  aliased: Array<{ slot: number; by: number }>;
  /** direction of the last move to dispatch, −1 before any (explanations only; the
   * kernel keeps no such field) */
  lastDir: Dir | -1;
  readExpireNs: number; // read_expire
  writeExpireNs: number; // write_expire
  fifoBatch: number; // fifo_batch, requests
  writesStarved: number; // writes_starved, new batches
  frontMerges: boolean; // front_merges
}
