// Kernel 6.18's flusher work (fs/fs-writeback.c: wb_do_writeback, wb_writeback,
// __writeback_inodes_wb / writeback_sb_inodes, writeback_chunk_size, requeue_inode), as
// flusher.ts runs it a bio at a time. Read in torvalds/linux fs/fs-writeback.c at commit
// 65e57574 (the index's stored version, of the v6.x era: I_SYNC_QUEUED, blk_flush_plug(plug,
// false), I_PINNING_FSCACHE_WB) and mm/page-writeback.c (wb_over_bg_thresh); checked again
// against a newer tree (CachyOS/linux 1b23b9f8, inode_state_read/I_PINNING_NETFS_WB: 6.18
// era) and writeback_iter (6.9+), which give three rules marked "(newer tree)" below.
//  - wb_do_writeback, once woken: a kupdate work if dirty_writeback_centisecs have passed
//    since the last (wb_check_old_data_flush: nr_pages = dirty pages + dirty inodes), then a
//    background work if the disk is over its background threshold (wb_check_background_flush:
//    nr_pages unlimited); then it sleeps dirty_writeback_centisecs (wb_wakeup_delayed).
//  - wb_writeback's loop: stop when nr_pages is spent; background stops under the threshold
//    (wb_over_bg_thresh, checked before each call); kupdate's dirtied_before is
//    now − dirty_expire_centisecs, background's now; queue_io (writeback.ts) when b_io is
//    empty; then one __writeback_inodes_wb call (one superblock: writeback_sb_inodes). Some
//    progress, or queue_io not yet called in this work (`queued`, newer tree): again; none and
//    b_more_io empty: done.
//  - writeback_sb_inodes: the files on b_io in turn (no dirtied-after stop: queue_io's
//    dirtied_before is the livelock avoidance), each with its own nr_to_write =
//    writeback_chunk_size; the pass runs from writeback_index to the file's end, no wrap
//    (writeback_iter, newer tree: writeback_index 0 if it got there with nr_to_write left);
//    after each, requeue_inode (writeback.ts endPass: requeue_io if it spent its chunk and
//    was not dirtied after the call's own dirtied_before — kupdate's now − expire,
//    background's now (newer tree) — redirty_tail if pages are left otherwise),
//    work.nr_pages −= what it wrote, and — once anything was written (pages, or a file made clean) — the call returns
//    to wb_writeback after HZ/10 or when nr_pages is spent.
// Simplified: no other thread holds a file under I_SYNC on 6.18 here (writers only pause), so
// neither writeback_sb_inodes' requeue_io of such a file nor the wait on b_more_io
// (inode_sleep_on_writeback) happens; no work items (sync, WB_start_all), so background and
// kupdate never yield to one; one superblock; the jiffies tests use the simulated clock.
import { jiffiesNow } from '../iosched/common';
import { expiredBeforeNs, type PageCacheState } from './page-cache';
import { domainDirtyLimits, wbCalcThresh, writepagesDone, writepagesStart } from './wb-state';
import { chunkNextBio, filePass, queueIo, type WbChunk, type WritebackBio } from './writeback';

/** MIN_WRITEBACK_PAGES: 4 MiB of pages */
export const MIN_WRITEBACK_PAGES = 1024;
/** DIRTY_SCOPE (mm/page-writeback.c) */
const DIRTY_SCOPE = 8;
const NONE: ReadonlySet<number> = new Set();

/** A wb_writeback work in progress and its current writeback_sb_inodes call. */
export interface Work618 {
  kupdate: boolean;
  /** work->nr_pages: pages left to write (Infinity: background's LONG_MAX) */
  nrPages: number;
  /** a writeback_sb_inodes call is walking b_io; its start (jiffies) and total_wrote */
  walking: boolean;
  walkStartJ: number;
  /** the file whose pass is in progress */
  file: number;
  wrote: number;
  /** wb_writeback has made a call (its progress is `wrote`) */
  called: boolean;
  /** wb_writeback has called queue_io (its `queued`: only then does a call without progress
   * end the work) */
  queued: boolean;
  /** the call's own dirtied_before (writeback_sb_inodes, for requeue_inode) */
  walkBeforeNs: number;
}

/** What the 6.18 work loop keeps in the flusher (flusher.ts FlusherState). */
export interface Flusher618 {
  chunk: WbChunk | null;
  work618: Work618 | null;
  lastOldFlushNs: number;
}

/** writeback_chunk_size for WB_SYNC_NONE: half the disk's measured write bandwidth
 * (avg_write_bandwidth, pages a second: wb-state.ts) or an eighth of the dirty limit
 * (global_wb_domain.dirty_limit = thresh here), whichever is less, at most the work's
 * nr_pages, + MIN_WRITEBACK_PAGES rounded down to a multiple of it. */
export function writebackChunkSize(pc: PageCacheState, nrPages: number): number {
  const limit = domainDirtyLimits(pc).thresh;
  const bw = pc.wb!.avgWriteBandwidth;
  const pages = Math.min(Math.floor(bw / 2), Math.floor(limit / DIRTY_SCOPE), nrPages);
  return Math.floor((pages + MIN_WRITEBACK_PAGES) / MIN_WRITEBACK_PAGES) * MIN_WRITEBACK_PAGES;
}

/** wb_over_bg_thresh with one disk: the dirty pages (NR_FILE_DIRTY, not those under
 * writeback) over bg_thresh, or the disk's own (WB_RECLAIMABLE: the same pages) over its
 * share of bg_thresh (wbCalcThresh: none before any writeback completed). */
export function wbOverBgThresh(pc: PageCacheState): boolean {
  const { bgThresh } = domainDirtyLimits(pc);
  if (pc.dirty > bgThresh) return true;
  const share = wbCalcThresh({ thresh: bgThresh, bgThresh }, pc.dirty, pc.wb!.written);
  return pc.dirty > share;
}

function newWork(kupdate: boolean, nrPages: number): Work618 {
  return {
    kupdate,
    nrPages,
    walking: false,
    walkStartJ: 0,
    file: -1,
    wrote: 0,
    called: false,
    queued: false,
    walkBeforeNs: 0,
  };
}

/** wb_do_writeback's checks after its work items: kupdate first (unless `afterKupdate`: it
 * has just run), then background. False: nothing to do. */
function nextWork(
  pc: PageCacheState,
  fl: Flusher618,
  now: number,
  periodNs: number,
  afterKupdate: boolean,
): boolean {
  if (!afterKupdate && now >= fl.lastOldFlushNs + periodNs) {
    fl.lastOldFlushNs = now;
    const nrPages = pc.dirty + pc.files.size; // get_nr_dirty_pages
    if (nrPages > 0) {
      fl.work618 = newWork(true, nrPages);
      return true;
    }
  }
  if (!wbOverBgThresh(pc)) return false;
  fl.work618 = newWork(false, Infinity);
  return true;
}

/** The flusher's next bio on kernel 6.18 (null: it has nothing more to do and sleeps its
 * period). `hz`: the kernel's HZ; `periodNs`: dirty_writeback_centisecs. */
export function nextBio618(
  pc: PageCacheState,
  fl: Flusher618,
  now: number,
  hz: number,
  periodNs: number,
): WritebackBio | null {
  const nowJ = jiffiesNow({ now, hz });
  // each round sends a bio, ends a file's pass, a call or a work (the bound: a safety stop)
  for (let round = 0; round < 4 * (pc.files.size + pc.io.length + pc.moreIo.length + 8); round++) {
    const w = fl.work618;
    const c = fl.chunk;
    if (c && w) {
      const b = chunkNextBio(pc, c, NONE, now);
      if (b) return b;
      // the file's pass is over: do_writepages' bandwidth update, then (requeue_inode done)
      // account it
      writepagesDone(pc, nowJ, hz);
      fl.chunk = null;
      const written = c.budget - c.left;
      w.nrPages -= written;
      w.wrote += written;
      if (!pc.files.has(w.file)) w.wrote++; // the inode is clean: it counts too
      // bail out to wb_writeback often enough to check the background threshold
      if (w.wrote > 0 && (nowJ > w.walkStartJ + Math.floor(hz / 10) || w.nrPages <= 0))
        w.walking = false;
      continue;
    }
    if (!w) {
      if (!nextWork(pc, fl, now, periodNs, false)) return null;
      continue;
    }
    if (w.walking) {
      const file = pc.io[0];
      if (file === undefined) {
        w.walking = false; // b_io walked
        continue;
      }
      w.file = file;
      fl.chunk = filePass(pc, file, writebackChunkSize(pc, w.nrPages), w.walkBeforeNs);
      writepagesStart(pc, nowJ, hz); // do_writepages: wb_bandwidth_estimate_start
      continue;
    }
    // wb_writeback's loop
    if (
      (w.called && w.wrote === 0 && w.queued && pc.moreIo.length === 0) ||
      w.nrPages <= 0 ||
      (!w.kupdate && !wbOverBgThresh(pc))
    ) {
      fl.work618 = null;
      if (!w.kupdate || !nextWork(pc, fl, now, periodNs, true)) return null;
      continue;
    }
    const dirtiedBefore = w.kupdate ? expiredBeforeNs(pc, now) : now;
    if (pc.io.length === 0) {
      queueIo(pc, dirtiedBefore);
      w.queued = true;
    }
    w.walkBeforeNs = dirtiedBefore; // writeback_sb_inodes computes the same at its start
    w.called = true;
    w.walking = true;
    w.walkStartJ = nowJ;
    w.wrote = 0;
  }
  fl.chunk = null;
  fl.work618 = null;
  return null;
}
