// ReiserFS's journal as 2.6.32 runs it, data=ordered (the default since 2.6.6), for a
// generator thread whose file system is ReiserFS when a page cache is on (page-cache.ts).
// Sources: fs/reiserfs/journal.c (do_journal_begin_r, journal_mark_dirty, check_journal_end,
// do_journal_end, flush_commit_list, flush_journal_list, flush_used_journal_lists,
// flush_async_commits, check_advise_trans_params), fs/reiserfs/super.c (reiserfs_write_super
// → reiserfs_sync_fs), fs/reiserfs/inode.c (reiserfs_commit_page), mm/backing-dev.c
// (the sync_supers thread). Read in a later 2.6/3.x journal.c (vzalloc, alloc_workqueue,
// WRITE_FLUSH_FUA: where it differs from 2.6.32 — create_workqueue, no flush barrier by
// default — 2.6.32's is followed), a 2.6.3x super.c (write_super, s_dirt) and 2.6.32's
// backing-dev.c; the threads' I/O is reiserfs-threads.ts.
//
//  - Each metadata update is a handle (journal_begin … journal_mark_dirty … journal_end) of
//    its own blocks. Its blocks join the running transaction, each once (buffer_journaled),
//    out of writeback's reach while in it (reiserfs_prepare_for_journal); journal_mark_dirty
//    marks the super block dirty (s_dirt). Buffered writes' pages join the running
//    transaction's ordered list (reiserfs_commit_page → reiserfs_add_ordered_list: new
//    blocks and pages past the end of file — every data write Postmark makes), but only a
//    page not dirty already: one still dirty stays on the list it is on (the older list's
//    commit writes it); a clean one on an older list still to commit (written back
//    meanwhile) moves to the running transaction's (__add_jh).
//  - Who ends a transaction:
//    · the sync_supers thread, every dirty_writeback_interval (5 s; its timer rounded up to
//      a whole second, round_jiffies_up), for a dirty super block: write_super →
//      reiserfs_sync_fs → journal_end_sync (COMMIT_NOW | WAIT). It ends the running
//      transaction (an empty one logs the super block) and commits it itself, waiting; then
//      s_dirt = 0 "even if it's not true". So with the defaults a transaction commits within
//      5 s, not at JOURNAL_MAX_TRANS_AGE: 30 s is only reached when the interval is longer;
//    · the writer: a handle that would take the transaction to j_max_batch (900 blocks,
//      do_journal_begin_r: j_len_alloc + nblocks + 2) ends it first, and a handle ending a
//      transaction older than j_max_trans_age (30 s, in whole seconds: get_seconds) or at
//      j_max_batch ends it (check_journal_end). do_journal_end queues the commit work
//      (queue_delayed_work(commit_wq, HZ / 10)), which the `reiserfs/0` workqueue thread
//      runs 100 ms later (flush_async_commits: the youngest list, and every older one
//      first); the writer itself commits only when the next transaction's list bitmap (one
//      of JOURNAL_NUM_BITMAPS = 5, round robin: get_list_bitmap) still belongs to an
//      uncommitted list — the lists up to that one. JOURNAL_MAX_COMMIT_AGE (30 s) is read
//      into j_max_commit_age but no commit path of 2.6.32 consults it.
//  - The log (8192 blocks by default, after the super block; its header block after it): a
//    transaction of n blocks takes n + 2 log blocks from j_start, block by block modulo the
//    log (it may wrap): the descriptor (its tags hold 1018 block numbers, the commit block
//    the rest: one descriptor whatever the size), the n copies, the commit block.
//  - The commit (flush_commit_list, ordered lists committed oldest first): the ordered data
//    still dirty, one bio each (write_ordered_buffers: submit_bh WRITE), those under
//    writeback waited for too; the descriptor and copies (ll_rw_block WRITE), waited for;
//    the commit block (sync_dirty_buffer: WRITE_SYNC; no barrier by default in 2.6.32),
//    waited for; then each block is dirty in place for writeback (dirty_one_transaction)
//    unless a newer transaction logged it.
//  - In-place flush (flush_journal_list): when the next transaction's room (j_start +
//    j_trans_max + 1) reaches an older list still in the log, do_journal_end (whoever ended
//    the transaction; never reiserfs/0) flushes from it (flush_used_journal_lists: up to
//    256 lists or 256 blocks): each block it logged that no newer transaction holds, still
//    dirty, is written (WRITE) and waited for (one under writeback is waited for), then the
//    journal header (WRITE_SYNC) records the new tail. Old lists by age
//    (flush_old_journal_lists) go only once all their blocks were freed (test_transaction):
//    Postmark frees none.
// Simplified: each metadata block is a handle of its own (the kernel's create or unlink is one
// handle of all its blocks); a commit writes only its own log blocks (flush_commit_list
// writes whatever is dirty of the 256 log blocks from its start: a younger list's too, when
// it is short); a handle reserves exactly its own blocks (the kernel's reserve more:
// JOURNAL_PER_BALANCE_CNT per balance), and joins before its writer's do_journal_end work
// (the kernel's ends the old transaction first); a writer does not sleep in
// reiserfs_async_progress_wait (congestion_wait while a commit writes its log); tails
// (j_tail_bh_list) are not modelled; the log blocks are not dirty pages of the block device
// meanwhile; the journal area Postmark reserves (32 MiB) holds the super block, the log and
// the header, so the log is 8190 blocks (mkreiserfs: 8192 and the header).
import { pushEvent } from '../sim/heap';
import { EventKind, EventPriority } from '../sim/events';
import type { WorkloadSimulation } from './sim-view';
import {
  BLOCK_SECTORS,
  joinData,
  joinMetadata,
  openTransaction,
  type KernelIo,
  type Transaction,
} from './journal-io';
import { bufferDirty } from './page-cache';

/** JOURNAL_TRANS_MAX_DEFAULT: the most blocks a transaction logs */
export const JOURNAL_TRANS_MAX = 1024;
/** JOURNAL_MAX_BATCH_DEFAULT: blocks at which a transaction stops batching handles */
export const JOURNAL_MAX_BATCH = 900;
/** JOURNAL_MAX_TRANS_AGE, s */
export const JOURNAL_MAX_TRANS_AGE_S = 30;
/** JOURNAL_NUM_BITMAPS: list bitmaps, one per list until it commits */
export const JOURNAL_NUM_BITMAPS = 5;
/** JOURNAL_MIN_RATIO: the log holds at least this many transactions of j_trans_max */
const JOURNAL_MIN_RATIO = 2;
/** the commit work's delay: HZ / 10 */
export const COMMIT_WORK_DELAY_NS = 100e6;
/** flush_used_journal_lists: at most 256 lists, until 256 blocks */
const FLUSH_LISTS = 256;
const FLUSH_BLOCKS = 256;

/** An ended transaction still in the log (a journal list, j_journal_list). */
export interface ReiserList {
  tid: number;
  /** its descriptor's log block (j_start) */
  start: number;
  t: Transaction;
  committed: boolean;
  /** the context committing it, −1 none */
  committer: number;
}

export interface ReiserJournal {
  /** the generator thread whose file system it is */
  owner: number;
  /** the super block, the first log block, the journal header (sectors); log blocks */
  superSector: number;
  logSector: number;
  size: number;
  headerSector: number;
  /** j_trans_max and j_max_batch for this log (check_advise_trans_params) */
  transMax: number;
  maxBatch: number;
  /** the next transaction's first log block (j_start) */
  start: number;
  running: Transaction | null;
  /** s_dirt: the super block is dirty (sync_supers will call write_super) */
  sDirt: boolean;
  /** ended transactions still in the log, oldest first */
  lists: ReiserList[];
  nextTid: number;
  /** the commit work is queued (its timer runs), and on the workqueue */
  workArmed: boolean;
  /** the context flushing lists in place, −1 none */
  flusher: number;
  /** the writer's own journal I/O (do_journal_end in its context) */
  writer: ReiserContext;
  /** each logged block's latest list */
  cpOwner: Map<number, number>;
  /** each ordered data page's list (−1: the running transaction) until it commits */
  dataOwner: Map<number, number>;
  commits: number;
  /** commits by sync_supers, reiserfs/0 and the writer */
  commitsBy: [number, number, number];
  orderedPages: number;
  logBlocks: number;
  flushes: number;
  inPlaceBlocks: number;
}

/** The ReiserFS journals of a run and the two kernel threads that write them. */
export interface ReiserfsState {
  journals: ReiserJournal[];
  /** sync_supers, then reiserfs/0 */
  threads: ReiserContext[];
}

type Phase = 'idle' | 'data' | 'log' | 'commit' | 'inplace' | 'header';

/** A context that writes a journal (reiserfs-threads.ts): a kernel thread, or a writer. */
export interface ReiserContext extends KernelIo {
  /** 0 sync_supers, 1 reiserfs/0, 2 + k the writer of journal k */
  index: number;
  /** journals whose work waits for it, in order (the threads) */
  queue: number[];
  /** the journal it works on (−1 none), the youngest list it commits, its operation and
   * the operation's phase; waiting for another context */
  journal: number;
  target: number;
  op: ReiserOp | null;
  phase: Phase;
  waiting: boolean;
  armSeq: number;
  armed: boolean;
}

export function createReiserContext(index: number, inst: number, ids: boolean): ReiserContext {
  return {
    index,
    inst,
    pending: [],
    inFlight: 0,
    awaited: [],
    sleeping: false,
    ...(ids ? { ids: [] } : {}),
    queue: [],
    journal: -1,
    target: -1,
    op: null,
    phase: 'idle',
    waiting: false,
    armSeq: 0,
    armed: false,
  };
}

export function createReiserJournal(
  owner: number,
  writerIndex: number,
  area: { startSector: number; sectors: number },
): ReiserJournal {
  const blocks = area.sectors / BLOCK_SECTORS;
  const size = blocks - 2;
  // mkreiserfs's defaults where the log allows them, else the largest j_trans_max that
  // check_advise_trans_params accepts, and its batch in the same proportion
  const transMax = Math.min(JOURNAL_TRANS_MAX, Math.floor(size / JOURNAL_MIN_RATIO));
  return {
    owner,
    superSector: area.startSector,
    logSector: area.startSector + BLOCK_SECTORS,
    size,
    headerSector: area.startSector + (blocks - 1) * BLOCK_SECTORS,
    transMax,
    maxBatch: Math.floor((transMax * JOURNAL_MAX_BATCH) / JOURNAL_TRANS_MAX),
    start: 0,
    running: null,
    sDirt: false,
    lists: [],
    nextTid: 0,
    workArmed: false,
    flusher: -1,
    writer: createReiserContext(writerIndex, owner, true),
    cpOwner: new Map(),
    dataOwner: new Map(),
    commits: 0,
    commitsBy: [0, 0, 0],
    orderedPages: 0,
    logBlocks: 0,
    flushes: 0,
    inPlaceBlocks: 0,
  };
}

/** A log block's sector (block index modulo the log). */
export function logSector(j: ReiserJournal, block: number): number {
  return j.logSector + (block % j.size) * BLOCK_SECTORS;
}

function ageS(t: Transaction, now: number): number {
  return Math.floor(now / 1e9) - Math.floor(t.startNs / 1e9);
}

/** A metadata update by the writer: one handle of its blocks. */
export function reiserfsMetadata(
  sim: WorkloadSimulation,
  j: ReiserJournal,
  sector: number,
  n: number,
  now: number,
): void {
  const nblocks = Math.ceil(n / BLOCK_SECTORS);
  // do_journal_begin_r: no room in the batch for this handle — end the transaction first
  let ended =
    j.running && j.running.meta.length + nblocks + 2 >= j.maxBatch
      ? endTransaction(sim, j, now)
      : null;
  j.running ??= openTransaction(now);
  joinMetadata(sim.state.workload.pageCache!, j.running, sector, n);
  j.sDirt = true; // journal_mark_dirty
  // check_journal_end: too old, or the batch is full — end it, the commit goes to the workqueue
  const t = j.running;
  if (ageS(t, now) > JOURNAL_MAX_TRANS_AGE_S || t.meta.length >= j.maxBatch)
    ended = endTransaction(sim, j, now);
  // the rest of the writer's do_journal_end (the handle joins first here)
  if (ended) sim.reiserfsThreads.writerEnded(sim, j, ended.tid - (JOURNAL_NUM_BITMAPS - 1), now);
}

/** A buffered write's pages [first, last], before it dirties them, join the running
 * transaction's ordered list. fs/reiserfs/inode.c reiserfs_commit_page: only a buffer that
 * was not dirty yet is marked dirty and added (reiserfs_add_ordered_list); one still dirty
 * stays on the list it is on. */
export function reiserfsData(
  sim: WorkloadSimulation,
  j: ReiserJournal,
  first: number,
  last: number,
  now: number,
): void {
  const pc = sim.state.workload.pageCache!;
  j.running ??= openTransaction(now);
  for (let p = first; p <= last; p++) {
    if (bufferDirty(pc, p)) continue;
    joinData(j.running, p, p);
    // __add_jh: a page on an older list still to commit (written back meanwhile, clean
    // again) moves to the running transaction's
    j.dataOwner.set(p, -1);
  }
}

/** do_journal_end: the running transaction becomes a list in the log (an empty one logs the
 * super block); its commit work is queued (a no-op while pending). */
export function endTransaction(sim: WorkloadSimulation, j: ReiserJournal, now: number): ReiserList {
  const t = j.running ?? openTransaction(now);
  if (t.meta.length === 0)
    joinMetadata(sim.state.workload.pageCache!, t, j.superSector, BLOCK_SECTORS);
  const list: ReiserList = {
    tid: j.nextTid++,
    start: j.start,
    t,
    committed: false,
    committer: -1,
  };
  for (const p of t.meta) j.cpOwner.set(p, list.tid);
  for (const p of t.data) j.dataOwner.set(p, list.tid);
  j.lists.push(list);
  j.start = (j.start + t.meta.length + 2) % j.size;
  j.running = null;
  if (!j.workArmed) {
    j.workArmed = true;
    const index = sim.state.workload.reiserfs!.journals.indexOf(j);
    pushEvent(
      sim.state.heap,
      now + COMMIT_WORK_DELAY_NS,
      EventPriority.Issue,
      EventKind.ReiserfsWork,
      index,
    );
  }
  return list;
}

/** What a thread does next for a journal. */
export type ReiserOp = { kind: 'commit'; tid: number } | { kind: 'flush'; tids: number[] };

/**
 * The next operation of a context that commits the journal's lists up to `target`
 * (flush_commit_list with flushall: older lists first, each by one context at a time,
 * j_commit_mutex). One that ended a transaction (`ender`: do_journal_end) first flushes a
 * list where the next transaction may write (j_start + j_trans_max + 1, modulo the log),
 * oldest first, with the committed lists after it up to 256 lists or 256 blocks
 * (flush_used_journal_lists; one flush at a time, j_flush_mutex), each committed first if it
 * is not. 'wait': another context holds what comes next; null: done.
 */
export function nextOp(
  j: ReiserJournal,
  thread: number,
  target: number,
  ender: boolean,
): ReiserOp | 'wait' | null {
  const first = j.lists[0];
  if (ender && first && inRoom(j, first.start)) {
    if (!first.committed) return claimCommit(first, thread);
    if (j.flusher >= 0 && j.flusher !== thread) return 'wait';
    let n = 1;
    let blocks = first.t.meta.length;
    while (n < j.lists.length && n < FLUSH_LISTS && blocks < FLUSH_BLOCKS) {
      const l = j.lists[n]!;
      if (!l.committed) break;
      blocks += l.t.meta.length;
      n++;
    }
    return { kind: 'flush', tids: j.lists.slice(0, n).map((l) => l.tid) };
  }
  const l = j.lists.find((x) => !x.committed);
  if (!l || l.tid > target) return null;
  return claimCommit(l, thread);
}

function claimCommit(l: ReiserList, thread: number): ReiserOp | 'wait' {
  return l.committer >= 0 && l.committer !== thread ? 'wait' : { kind: 'commit', tid: l.tid };
}

/** A list starting at log block `s` lies where the next transaction may write
 * (do_journal_end's first_jl loop): from j_start up to j_start + j_trans_max + 1, and past the
 * log's end only when that sum exceeds the log size, modulo it. */
function inRoom(j: ReiserJournal, s: number): boolean {
  const end = j.start + j.transMax + 1;
  if (j.start <= s) return end >= s;
  return end > j.size && end % j.size >= s;
}

/** The journal's figures for the summary. */
export function reiserfsJournalView(j: ReiserJournal) {
  return {
    fs: 'reiserfs' as const,
    commits: j.commits,
    bySyncSupers: j.commitsBy[0],
    byWorkqueue: j.commitsBy[1],
    byWriter: j.commitsBy[2],
    orderedPages: j.orderedPages,
    logBlocks: j.logBlocks,
    flushes: j.flushes,
    inPlaceBlocks: j.inPlaceBlocks,
  };
}
