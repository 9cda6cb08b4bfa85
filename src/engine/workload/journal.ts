// ext3's journal as 2.6.32's jbd runs it in data=ordered mode (fs/jbd/transaction.c,
// fs/jbd/commit.c journal_commit_transaction, fs/ext3/inode.c ext3_ordered_write_end), for a
// generator thread whose file system journals through jbd (generators: `journalled`), when
// a page cache is on (page-cache.ts). The kernel thread `kjournald` (a process model.ts adds
// for each such thread, before the flusher) does the journal's I/O under its own pid.
//
//  - A metadata update joins the running transaction (journal_get_write_access +
//    journal_dirty_metadata): each block once per transaction however often it changes. A
//    block still dirty from an earlier commit is journal-dirty instead while in the
//    transaction (do_get_write_access): writeback does not write it meanwhile.
//  - Every buffered write joins the running transaction's data list, each page once, in the
//    order they join (ext3_ordered_write_end → journal_dirty_data: t_sync_datalist).
//  - The first update of a transaction starts it; kjournald commits it when it is
//    JBD_DEFAULT_MAX_COMMIT_AGE (5 s) old (t_expires, j_commit_timer), or at once when it
//    holds j_max_transaction_buffers (a quarter of the journal) metadata blocks. One
//    transaction commits at a time; updates meanwhile join a new running transaction.
//  - The commit: (1) the ordered data: the data list's pages still dirty, in list order, one
//    4 KiB bio per block (submit_bh), waited for, and so are those of its pages the flusher
//    is writing (t_locked_list); pages deleted meanwhile are gone (their
//    buffers left the list at truncate) and cost nothing; (2) the log: a descriptor block,
//    then a copy of each metadata block, sequentially from the journal's head (wrapping
//    at its end), a new descriptor after every 506 tags (a 4 KiB descriptor's 4084 bytes of
//    tags: 8 bytes each, the first with a 16-byte UUID), waited for; (3) the commit block,
//    waited for. Data and log blocks are WRITE (async) bios, as 2.6.32 submits them when no
//    one waits for the commit (t_synchronous_commit: fsync); the commit block goes by
//    sync_dirty_buffer, WRITE_SYNC.
//  - Committed, each metadata block is dirty again in the buffer cache (the block device's
//    pages, page-cache.ts's file −1) and is written in place later (checkpoint) by
//    writeback like any dirty page — unless it joined the running transaction meanwhile.
//  - Log space: a committed transaction's blocks are freed once its metadata blocks have been
//    written in place or journalled again (the tail moves past it, oldest first).
//    Simplified: when a commit would not fit, 2.6.32 would first have made the writers
//    checkpoint (log_do_checkpoint in start_this_handle); here the commit goes on and the
//    overrun is counted (`logFull`).
// What this shares with ReiserFS's journal (reiserfs-journal.ts) — transaction membership,
// a kernel thread's bios, dirtying in place — is journal-io.ts. All state is plain data.
import type { Bio } from '../iosched/types';
import { pushEvent } from '../sim/heap';
import { EventKind, EventPriority } from '../sim/events';
import type { WorkloadSimulation } from './sim-view';
import { PAGE_SECTORS, takePages, underWriteback, type PageCacheState } from './page-cache';
import { kickFlusher, wbWakeupDelayed } from './flusher';
import {
  BLOCK_SECTORS,
  dirtyInPlace,
  ioDone,
  ioSeesWriteback,
  ioWakes,
  joinData,
  joinMetadata,
  openTransaction,
  submitNext,
  type KernelIo,
  type Transaction,
} from './journal-io';

export { METADATA_FILE, type Transaction } from './journal-io';

/** JBD_DEFAULT_MAX_COMMIT_AGE: the commit interval, ns (5 s) */
export const COMMIT_INTERVAL_NS = 5e9;
/** metadata blocks one descriptor block tags (4 KiB blocks) */
export const TAGS_PER_DESCRIPTOR = 506;

/** A committed transaction whose log blocks are not yet free. */
interface Checkpoint {
  tid: number;
  /** its first log block (counted from the start, j.logBlocks then) */
  startBlock: number;
  pages: number[];
}

type Phase = 'idle' | 'data' | 'log' | 'commit';

/** kjournald's journal; `inst` is kjournald's process instance (KernelIo: its I/O). */
export interface JournalState extends KernelIo {
  /** the generator thread whose journal it is */
  owner: number;
  /** the journal area, sectors (its first block is the journal superblock), and the next
   * log block (j_head) */
  startSector: number;
  sectors: number;
  head: number;
  running: Transaction | null;
  committing: Transaction | null;
  /** the running transaction is full: commit it as soon as kjournald is free */
  commitRequested: boolean;
  phase: Phase;
  armSeq: number;
  armed: boolean;
  /** committed transactions not yet checkpointed, oldest first; the latest committed
   * transaction each block belongs to */
  checkpoints: Checkpoint[];
  cpOwner: Map<number, number>;
  /** the committing transaction's first log block (counted as logBlocks) */
  commitStart: number;
  commits: number;
  orderedPages: number;
  logBlocks: number;
  logFull: number;
}

export function createJournal(
  inst: number,
  owner: number,
  area: { startSector: number; sectors: number },
): JournalState {
  return {
    inst,
    owner,
    startSector: area.startSector,
    sectors: area.sectors,
    head: area.startSector + BLOCK_SECTORS,
    running: null,
    committing: null,
    commitRequested: false,
    phase: 'idle',
    pending: [],
    inFlight: 0,
    awaited: [],
    sleeping: false,
    armSeq: 0,
    armed: false,
    checkpoints: [],
    cpOwner: new Map(),
    commitStart: 0,
    commits: 0,
    orderedPages: 0,
    logBlocks: 0,
    logFull: 0,
  };
}

/** j_max_transaction_buffers: a quarter of the journal, blocks */
function maxTransactionBlocks(j: JournalState): number {
  return Math.max(1, Math.floor(j.sectors / BLOCK_SECTORS / 4));
}

/** kjournald runs at `atNs` (a Journal event: a = journal index, rq = arming number). */
function arm(sim: WorkloadSimulation, j: JournalState, atNs: number): void {
  j.armed = true;
  j.armSeq++;
  const index = sim.state.workload.journals.indexOf(j);
  pushEvent(sim.state.heap, atNs, EventPriority.Issue, EventKind.Journal, index, j.armSeq);
}

/** The running transaction (started now if there is none: its commit timer starts). */
function running(sim: WorkloadSimulation, j: JournalState, now: number): Transaction {
  if (j.running) return j.running;
  const t = openTransaction(now);
  j.running = t;
  if (j.phase === 'idle') arm(sim, j, now + COMMIT_INTERVAL_NS);
  return t;
}

/** A metadata block update [sector, sector + n): its blocks join the running transaction. */
export function journalMetadata(
  sim: WorkloadSimulation,
  j: JournalState,
  sector: number,
  n: number,
  now: number,
): void {
  const t = running(sim, j, now);
  joinMetadata(sim.state.workload.pageCache!, t, sector, n);
  if (t.meta.length >= maxTransactionBlocks(j) && !j.commitRequested) {
    j.commitRequested = true;
    if (j.phase === 'idle') arm(sim, j, now);
  }
}

/** A buffered data write's pages [first, last] join the running transaction's data list. */
export function journalData(
  sim: WorkloadSimulation,
  j: JournalState,
  first: number,
  last: number,
  now: number,
): void {
  joinData(running(sim, j, now), first, last);
}

/** A Journal event: kjournald commits an expired (or full) transaction, or submits its
 * phase's next bio. */
export function onJournal(sim: WorkloadSimulation, index: number, seq: number, now: number): void {
  const j = sim.state.workload.journals[index]!;
  if (!j.armed || seq !== j.armSeq) return; // superseded by a later arming
  j.armed = false;
  if (j.phase === 'idle') {
    const t = j.running;
    if (!t) return;
    if (now < t.startNs + COMMIT_INTERVAL_NS && !j.commitRequested) {
      arm(sim, j, t.startNs + COMMIT_INTERVAL_NS);
      return;
    }
    beginCommit(sim, j, now);
    return;
  }
  // the commit block goes by sync_dirty_buffer: WRITE_SYNC; the rest as WRITE
  if (submitNext(sim, j, now, j.phase === 'commit')) arm(sim, j, now);
}

/** kjournald's bio got the request it slept for: it goes on. */
export function journalWakes(sim: WorkloadSimulation, j: JournalState, now: number): void {
  if (ioWakes(j)) arm(sim, j, now);
}

/** Phase 1–2: the running transaction commits; its ordered data goes first. */
function beginCommit(sim: WorkloadSimulation, j: JournalState, now: number): void {
  const pc = sim.state.workload.pageCache!;
  const t = j.running!;
  j.running = null;
  j.committing = t;
  j.commitRequested = false;
  j.phase = 'data';
  // pages already under writeback (the flusher's) are waited for too (t_locked_list)
  j.awaited = t.data.filter((p) => underWriteback(pc, p));
  const pages = takePages(pc, t.data);
  j.orderedPages += pages.length;
  j.pending = pages.map((p) => p * PAGE_SECTORS);
  startPhase(sim, j, now);
}

/** The flusher's bio completed: an ordered page the commit waits for may be among its pages. */
export function journalSeesWriteback(sim: WorkloadSimulation, bio: Bio, now: number): void {
  for (const j of sim.state.workload.journals)
    if (j.phase === 'data' && ioSeesWriteback(j, bio)) nextPhase(sim, j, now);
}

function startPhase(sim: WorkloadSimulation, j: JournalState, now: number): void {
  if (j.pending.length > 0) arm(sim, j, now);
  else if (j.phase === 'data' && j.awaited.length > 0)
    return; // the flusher's writes end it
  else nextPhase(sim, j, now);
}

/** The next log block, wrapping at the journal's end. */
function logBlock(j: JournalState): number {
  const s = j.head;
  j.head += BLOCK_SECTORS;
  if (j.head >= j.startSector + j.sectors) j.head = j.startSector + BLOCK_SECTORS;
  j.logBlocks++;
  return s;
}

/** This phase's I/O completed: the next phase, or the commit is done. */
function nextPhase(sim: WorkloadSimulation, j: JournalState, now: number): void {
  const t = j.committing!;
  if (j.phase === 'data') {
    // phase 3: descriptor blocks and the metadata blocks' copies, from the head
    j.phase = 'log';
    const descriptors = Math.ceil(t.meta.length / TAGS_PER_DESCRIPTOR);
    j.commitStart = j.logBlocks;
    reserveLog(sim, j, t.meta.length + descriptors + 1);
    const out: number[] = [];
    t.meta.forEach((_, i) => {
      if (i % TAGS_PER_DESCRIPTOR === 0) out.push(logBlock(j));
      out.push(logBlock(j));
    });
    j.pending = out;
  } else if (j.phase === 'log') {
    // phase 6: the commit block, once the log blocks are on the disk
    j.phase = 'commit';
    j.pending = [logBlock(j)];
  } else {
    finishCommit(sim, j, now);
    return;
  }
  startPhase(sim, j, now);
}

/** One of kjournald's bios completed. */
export function journalDone(sim: WorkloadSimulation, j: JournalState, bio: Bio, now: number): void {
  if (ioDone(sim, j, bio, j.phase === 'data')) nextPhase(sim, j, now);
}

/** Phase 7: the metadata blocks are dirty in the buffer cache, to be written in place;
 * kjournald commits the next transaction if it is due. */
function finishCommit(sim: WorkloadSimulation, j: JournalState, now: number): void {
  const pc = sim.state.workload.pageCache!;
  const t = j.committing!;
  const tid = j.commits++;
  for (const p of t.meta) j.cpOwner.set(p, tid);
  // a block journalled again meanwhile stays the journal's
  const pages = dirtyInPlace(pc, t.meta, j.running?.metaIn, now);
  j.checkpoints.push({ tid, startBlock: j.commitStart, pages });
  j.committing = null;
  j.phase = 'idle';
  wbWakeupDelayed(sim, now);
  kickFlusher(sim, now);
  const next = j.running;
  if (next) arm(sim, j, j.commitRequested ? now : Math.max(now, next.startNs + COMMIT_INTERVAL_NS));
}

/** Log space for `blocks` more: the tail moves past transactions whose blocks have all
 * been written in place or journalled again (oldest first); a commit that still does not
 * fit in the log (its blocks less the journal superblock) counts. */
function reserveLog(sim: WorkloadSimulation, j: JournalState, blocks: number): void {
  const pc: PageCacheState = sim.state.workload.pageCache!;
  while (j.checkpoints.length > 0) {
    const cp = j.checkpoints[0]!;
    if (cp.pages.some((p) => j.cpOwner.get(p) === cp.tid && pc.busy.has(p))) break;
    j.checkpoints.shift();
    for (const p of cp.pages) if (j.cpOwner.get(p) === cp.tid) j.cpOwner.delete(p);
  }
  const tail = j.checkpoints.length > 0 ? j.checkpoints[0]!.startBlock : j.logBlocks;
  if (j.logBlocks - tail + blocks > j.sectors / BLOCK_SECTORS - 1) j.logFull++;
}

/** The journal's state for the summary. */
export function journalView(j: JournalState): {
  commits: number;
  orderedPages: number;
  logBlocks: number;
  logFull: number;
} {
  return {
    commits: j.commits,
    orderedPages: j.orderedPages,
    logBlocks: j.logBlocks,
    logFull: j.logFull,
  };
}
