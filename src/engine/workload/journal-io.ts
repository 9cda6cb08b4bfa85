// What the two journals Spindle models with a page cache share — ext3's jbd (journal.ts) and
// ReiserFS's own (reiserfs-journal.ts), both 2.6.32 in data=ordered mode:
//  - a transaction: the metadata blocks that joined it, each once however often it changes
//    (jbd: journal_get_write_access + journal_dirty_metadata; ReiserFS: journal_mark_dirty,
//    buffer_journaled), taken out of writeback's reach while in it (jbd:
//    do_get_write_access; ReiserFS: reiserfs_prepare_for_journal clears the dirty bit), and
//    its ordered data pages, each once, in the order they joined;
//  - a kernel thread writing a commit's blocks: one 4 KiB bio per block (submit_bh /
//    ll_rw_block), a phase's bios back to back under the thread's own pid, the phase over once
//    all completed and the pages it waits for under the flusher's writeback are written too;
//    a bio that finds no free request sleeps in get_request and so does the thread;
//  - after the commit block, each metadata block is dirty in place in the buffer cache (the
//    block device's pages, page-cache.ts's file −1) for writeback, unless it joined the
//    running transaction meanwhile (jbd: it stays the journal's; ReiserFS:
//    dirty_one_transaction skips a buffer no longer journal-dirty).
// All state is plain data.
import type { Bio } from '../iosched/types';
import { bioSleeps } from '../iosched/host';
import type { WorkloadSimulation } from './sim-view';
import { PAGE_SECTORS, dirtyPages, pageSpan, undirtyPage, type PageCacheState } from './page-cache';
import { writebackDone } from './writeback';
import { submitKernelWrite } from './flusher';

/** the block device's own pages (buffer heads) in the page cache */
export const METADATA_FILE = -1;
/** a journal block: 4 KiB, one page */
export const BLOCK_SECTORS = PAGE_SECTORS;

export interface Transaction {
  /** when its first update joined it, ns */
  startNs: number;
  /** metadata blocks (pages), each once, in the order they joined */
  meta: number[];
  metaIn: Set<number>;
  /** data pages, each once, in the order they joined */
  data: number[];
  dataIn: Set<number>;
}

export function openTransaction(now: number): Transaction {
  return { startNs: now, meta: [], metaIn: new Set(), data: [], dataIn: new Set() };
}

/** A metadata update [sector, sector + n) joins `t`: each block once; a block dirty in
 * place from an earlier commit is the journal's again (not written back meanwhile). */
export function joinMetadata(pc: PageCacheState, t: Transaction, sector: number, n: number): void {
  const [first, last] = pageSpan(sector, n);
  for (let p = first; p <= last; p++) {
    if (t.metaIn.has(p)) continue;
    t.metaIn.add(p);
    t.meta.push(p);
    undirtyPage(pc, p);
  }
}

/** A buffered write's pages [first, last] join `t`'s ordered data, each once. */
export function joinData(t: Transaction, first: number, last: number): void {
  for (let p = first; p <= last; p++) {
    if (t.dataIn.has(p)) continue;
    t.dataIn.add(p);
    t.data.push(p);
  }
}

/** A kernel thread's journal I/O in progress: one phase's bios. */
export interface KernelIo {
  /** its process instance */
  inst: number;
  /** bios of this phase not yet submitted (sectors), and submitted but not completed */
  pending: number[];
  inFlight: number;
  /** pages the flusher was writing when the phase began: waited for as well */
  awaited: number[];
  /** its last bio sleeps for a request */
  sleeping: boolean;
  /** its bios in flight, by id, when it shares its process with other I/O */
  ids?: number[];
}

/** The phase's next bio (one block; WRITE, or WRITE_SYNC when `sync`); true when the thread
 * goes on submitting at once. */
export function submitNext(
  sim: WorkloadSimulation,
  io: KernelIo,
  now: number,
  sync: boolean,
): boolean {
  const sector = io.pending.shift();
  if (sector === undefined) return false;
  io.inFlight++;
  const bio = submitKernelWrite(sim, io.inst, sector, BLOCK_SECTORS, now, sync);
  io.ids?.push(bio.id);
  if (bio.rq < 0 && bioSleeps(sim, bio.slot)) {
    io.sleeping = true;
    return false;
  }
  return io.pending.length > 0;
}

/** The thread's bio got the request it slept for; true when it goes on submitting. */
export function ioWakes(io: KernelIo): boolean {
  if (!io.sleeping) return false;
  io.sleeping = false;
  return io.pending.length > 0;
}

/** One of the thread's bios completed (`pages`: it wrote a page-cache page); true when the
 * phase is over. */
export function ioDone(sim: WorkloadSimulation, io: KernelIo, bio: Bio, pages: boolean): boolean {
  if (pages) writebackDone(sim.state.workload.pageCache!, bio.sector / PAGE_SECTORS, 1);
  io.inFlight--;
  if (io.ids) io.ids.splice(io.ids.indexOf(bio.id), 1);
  return phaseOver(io);
}

/** The flusher's bio completed: pages the phase waits for may be among them; true when
 * that ended the phase. */
export function ioSeesWriteback(io: KernelIo, bio: Bio): boolean {
  if (io.awaited.length === 0) return false;
  const first = bio.sector / PAGE_SECTORS;
  const last = first + bio.nSectors / PAGE_SECTORS;
  io.awaited = io.awaited.filter((p) => p < first || p >= last);
  return phaseOver(io);
}

export function phaseOver(io: KernelIo): boolean {
  return io.inFlight === 0 && io.pending.length === 0 && io.awaited.length === 0;
}

/** A committed transaction's metadata blocks are dirty in place (dirtied now), except
 * those `rejoined` the running transaction; returns the pages dirtied. */
export function dirtyInPlace(
  pc: PageCacheState,
  meta: readonly number[],
  rejoined: Set<number> | undefined,
  now: number,
): number[] {
  const pages: number[] = [];
  for (const p of meta) {
    if (rejoined?.has(p)) continue;
    dirtyPages(pc, METADATA_FILE, p * PAGE_SECTORS, BLOCK_SECTORS, 1, now);
    pages.push(p);
  }
  return pages;
}
