// Writeback over the page cache (page-cache.ts): which files and pages a thread writing back
// takes, when they go under writeback, and what their completion does — shared by the
// flusher (flusher.ts), 2.6's throttled writers (balance-dirty.ts) and the journals
// (journal-io.ts). 2.6.32's fs/fs-writeback.c (writeback_inodes_wb, queue_io,
// writeback_single_inode, requeue_io, redirty_tail) and mm/page-writeback.c
// (write_cache_pages, test_clear_page_writeback), as read in a 2.6.32.9 tree.
// Simplified: one bdi (the disk) and one superblock; times are ns, not jiffies (a file
// dirtied in the jiffy a call began does not end its walk in the kernel, here it does); a
// bio's pages go under writeback when it is sent (mpage_writepages has already cleaned the
// page that ends a bio when it submits that bio and sleeps); a file its pass cleaned and a
// writer dirtied again goes back to the front of b_io (the kernel's inode stays where it is).
import { propInc } from './bdi-stats';
import {
  DIRTY,
  REDIRTIED,
  WRITEBACK,
  offIoLists,
  touchClean,
  unlistDirty,
  type PageCacheState,
} from './page-cache';

/** One writeback bio: pages [first, first + count) of `file`. */
export interface WritebackBio {
  file: number;
  first: number;
  count: number;
}

/** include/linux/pagevec.h: the dirty pages write_cache_pages looks up at a time */
export const PAGEVEC_SIZE = 14;

/**
 * write_cache_pages (mm/page-writeback.c of 2.6.32) over one file, range_cyclic, WB_SYNC_NONE,
 * in progress: the file's dirty pages are looked up from `index`, PAGEVEC_SIZE at a time
 * (pagevec_lookup_tag over PAGECACHE_TAG_DIRTY), as the thread goes — so a page dirtied
 * while it sleeps for a request joins the pass if it lies ahead of the last look-up, and
 * one deleted or written by another thread meanwhile drops out. The first sweep runs from
 * the file's writeback_index to its end, then (if it did not start at 0 and the budget is
 * not spent) a second from 0 to writeback_index − 1.
 */
export interface WbPass {
  file: number;
  /** where the next look-up starts, and the sweep's last page (inclusive) */
  index: number;
  end: number;
  /** writeback_index when the pass began */
  wbIndex: number;
  cycled: boolean;
  /** the pagevec: pages looked up, not yet handled */
  vec: number[];
  /** done_index: the page after the last one handled (the file's next writeback_index) */
  doneIndex: number;
}

/**
 * One writeback_inodes_wb call (fs/fs-writeback.c of 2.6.32) in progress: its wbc, whose
 * nr_to_write (`left`, of `budget`) every page written in any file decrements, walking b_io
 * a file at a time; `pass` is the file being written (writeback_single_inode). `single`:
 * one file only, run from writeback_index to the file's end without wrapping (kernel 6.18's
 * passes: filePass, from wb-writeback-618.ts).
 */
export interface WbChunk {
  budget: number;
  left: number;
  kupdate: boolean;
  /** when the call began (its livelock avoidance: a file dirtied after it ends the walk) */
  startNs: number;
  /** wbc.more_io: files are left for a later call (requeued, or the budget ran out) */
  moreIo: boolean;
  over: boolean;
  single: boolean;
  pass: WbPass | null;
  /** kernel 6.18: the writeback_sb_inodes call's dirtied_before (requeue_inode requeues a
   * file that spent its chunk only if it was not dirtied after it) */
  requeueBeforeNs: number;
}

/**
 * queue_io (2.6.32; 6.18's the same with dirtied_before, less its b_dirty_time list): b_more_io
 * goes to b_io, to be taken first, then the files on b_dirty dirtied at or before `beforeNs`,
 * oldest first (move_expired_inodes), behind what is left.
 */
export function queueIo(pc: PageCacheState, beforeNs: number): void {
  for (const id of pc.moreIo) pc.files.get(id)!.list = 'io';
  pc.io = pc.moreIo.concat(pc.io);
  pc.moreIo = [];
  for (const [id, f] of pc.files) {
    if (f.list !== 'dirty') continue;
    if (f.sinceNs > beforeNs) break; // b_dirty is in dirtied order
    f.list = 'io';
    pc.io.push(id);
  }
}

/**
 * A writeback_inodes_wb call with nr_to_write = `budget` begins (2.6.32): queue_io first,
 * unless it is kupdate's (for_kupdate, older than `beforeNs`) and b_io still holds files.
 */
export function newChunk(
  pc: PageCacheState,
  budget: number,
  kupdate: boolean,
  beforeNs: number,
  nowNs: number,
): WbChunk {
  if (!kupdate || pc.io.length === 0) queueIo(pc, kupdate ? beforeNs : Infinity);
  return { ...newChunkBare(budget), kupdate, startNs: nowNs };
}

/** A pass over `file` begins at its writeback_index (write_cache_pages, range_cyclic). */
export function startPass(pc: PageCacheState, file: number): WbPass {
  const at = pc.files.get(file)?.cursor ?? 0;
  return {
    file,
    index: at,
    end: Infinity,
    wbIndex: at,
    cycled: at === 0,
    vec: [],
    doneIndex: at,
  };
}

/** Kernel 6.18: one file's pass with its own nr_to_write of `budget` pages (writeback_sb_inodes:
 * writeback_chunk_size per inode; wb-writeback-618.ts), in a writeback_sb_inodes call whose
 * dirtied_before is `dirtiedBeforeNs`. The pass runs from writeback_index to the file's end
 * only (mm/page-writeback.c writeback_iter: "we do not loop back to the start of the file"). */
export function filePass(
  pc: PageCacheState,
  file: number,
  budget: number,
  dirtiedBeforeNs: number,
): WbChunk {
  const c = newChunkBare(budget);
  c.single = true;
  c.requeueBeforeNs = dirtiedBeforeNs;
  c.pass = startPass(pc, file);
  c.pass.cycled = true; // no wrap to page 0
  return c;
}

function newChunkBare(budget: number): WbChunk {
  return {
    budget,
    left: budget,
    kupdate: false,
    startNs: 0,
    moreIo: false,
    over: false,
    single: false,
    pass: null,
    requeueBeforeNs: Infinity,
  };
}

/** pagevec_lookup_tag: the next PAGEVEC_SIZE dirty pages of the file in [index, end], into
 * the pagevec; at the end of the first sweep, the wrap to page 0 (range_cyclic). False when
 * the pass has nothing more to look at. (Called with nr_to_write left: the wrap's "!done".) */
function lookup(pc: PageCacheState, pass: WbPass): boolean {
  for (;;) {
    const pages = pc.files.get(pass.file)?.pages ?? [];
    const vec: number[] = [];
    for (const p of pages) {
      if (p < pass.index || p > pass.end) continue;
      if (vec.length === PAGEVEC_SIZE && p > vec[PAGEVEC_SIZE - 1]!) continue;
      let i = vec.length;
      while (i > 0 && vec[i - 1]! > p) i--;
      vec.splice(i, 0, p);
      if (vec.length > PAGEVEC_SIZE) vec.pop();
    }
    if (vec.length > 0) {
      pass.vec = vec;
      pass.index = vec[vec.length - 1]! + 1;
      return true;
    }
    if (pass.cycled) return false;
    // "hit the last page and there is more work to be done: wrap back to the start"
    pass.cycled = true;
    pass.index = 0;
    pass.end = pass.wbIndex - 1;
    pass.doneIndex = 0;
  }
}

/**
 * The pass's next bio, built as it is sent: the next dirty pages in the pagevec (looking up
 * more as it empties), contiguous, up to the file system's bio size, each going under
 * writeback (clear_page_dirty_for_io, set_page_writeback) and spending one page of the
 * chunk's nr_to_write. A page no longer dirty or no longer the file's is passed over, and
 * so is one still under writeback (WB_SYNC_NONE). Null when the pass is over: nothing more
 * to look at, or nr_to_write spent ("done").
 */
function passNextBio(pc: PageCacheState, c: WbChunk): WritebackBio | null {
  const pass = c.pass!;
  let bio: WritebackBio | null = null;
  while (c.left > 0) {
    if (pass.vec.length === 0 && !lookup(pc, pass)) break;
    const p = pass.vec[0]!;
    if (pc.busy.get(p) !== DIRTY || pc.owner.get(p) !== pass.file) {
      pass.vec.shift();
      pass.doneIndex = p + 1;
      continue;
    }
    const bioPages = pc.files.get(pass.file)!.bioPages;
    if (bio && (p !== bio.first + bio.count || bio.count >= bioPages)) break;
    pass.vec.shift();
    pass.doneIndex = p + 1;
    unlistDirty(pc, p);
    pc.busy.set(p, WRITEBACK);
    pc.writeback++;
    if (bio) bio.count++;
    else bio = { file: pass.file, first: p, count: 1 };
    c.left--;
  }
  return bio;
}

/**
 * writeback_single_inode's end (fs/fs-writeback.c of 2.6.32): the file's writeback_index is
 * where the pass stopped; if it still has dirty pages, kupdate having spent nr_to_write
 * requeues it (requeue_io: b_more_io, keeping its dirtied time); any other pass puts it at
 * the newest end of b_dirty (redirty_tail), dirtied now if a file there was dirtied after
 * it (so kupdate waits dirty_expire_centisecs for it again). A file a writer dirtied while
 * the pass was on (2.6.32's __mark_inode_dirty on an I_SYNC inode: I_DIRTY_PAGES, its
 * dirtied_when kept; page-cache.ts inSync, syncDirtied) is dirty to writeback_single_inode
 * even if the pass wrote those pages too: it goes back on the lists with no dirty page, and a
 * later dirtying keeps its dirtied_when (already I_DIRTY); the next pass over it finds it
 * clean. Kernel 6.18 (requeue_inode, the same redirty_tail_locked): a pass that spent its
 * nr_to_write requeues it ("slice used up") unless the file was dirtied after the call's
 * dirtied_before (inode_dirtied_after); any other redirties it.
 */
function endPass(pc: PageCacheState, c: WbChunk, nowNs: number): void {
  const pass = c.pass!;
  c.pass = null;
  const sinceNs = pc.inSync.get(pass.file);
  pc.inSync.delete(pass.file);
  // I_DIRTY_PAGES set again while the pass was on: the file stays on the lists, dirty or not
  const redirtied = pc.syncDirtied.delete(pass.file);
  let f = pc.files.get(pass.file);
  if (!f && redirtied && sinceNs !== undefined) {
    // cleaned by its own pass: kept, dirtied_when and all, with no dirty page
    f = { sinceNs, pages: [], bioPages: 1, cursor: 0, list: 'dirty' };
    pc.files.set(pass.file, f);
  }
  if (!f) {
    // clean: off the lists, its writeback_index where the pass stopped
    if (!c.single) pc.wbIndex.set(pass.file, pass.doneIndex);
    return;
  }
  // 6.18 writeback_iter (a single file's pass, since 4.20): one that reached the file's end
  // with nr_to_write left sets writeback_index to 0
  f.cursor = c.single && c.left > 0 ? 0 : pass.doneIndex;
  if (f.pages.length === 0 && !redirtied) {
    // a file kept on the lists with no dirty page, found clean (inode_in_use)
    pc.files.delete(pass.file);
    offIoLists(pc, pass.file, f);
    pc.wbIndex.set(pass.file, f.cursor);
    return;
  }
  offIoLists(pc, pass.file, f);
  // 6.18 requeue_inode: "slice used up" and not dirtied after the call's dirtied_before
  const requeue = c.kupdate || (pc.requeueSpent && f.sinceNs <= c.requeueBeforeNs);
  if (requeue && c.left <= 0) {
    f.list = 'more';
    pc.moreIo.push(pass.file);
    return;
  }
  let newest = -Infinity;
  for (const g of pc.files.values()) if (g.list === 'dirty' && g !== f) newest = g.sinceNs;
  if (f.sinceNs < newest) f.sinceNs = nowNs;
  pc.files.delete(pass.file);
  pc.files.set(pass.file, f);
}

/**
 * The next bio a writeback_inodes_wb call sends (2.6.32), or null when its walk is over:
 * the pass in progress goes on; when it is over the walk ends if nr_to_write is spent
 * (more_io), else takes the next file on b_io — ending at a file dirtied after the call
 * began (inode_dirtied_after), and passing a file another thread is writing (`busy`:
 * I_SYNC) to b_more_io (requeue_io, more_io). A `single` chunk ends with its pass.
 */
export function chunkNextBio(
  pc: PageCacheState,
  c: WbChunk,
  busy: ReadonlySet<number>,
  nowNs: number,
): WritebackBio | null {
  for (;;) {
    if (c.pass) {
      const b = passNextBio(pc, c);
      if (b) return b;
      endPass(pc, c, nowNs);
      if (c.single) c.over = true;
      else if (c.left <= 0) {
        c.moreIo = true;
        c.over = true;
      } else if (pc.moreIo.length > 0) c.moreIo = true;
    }
    if (c.over) return null;
    const file = pc.io[0];
    const f = file === undefined ? undefined : pc.files.get(file);
    if (file === undefined || !f || f.sinceNs > c.startNs) {
      c.over = true;
      return null;
    }
    if (busy.has(file)) {
      offIoLists(pc, file, f);
      f.list = 'more';
      pc.moreIo.push(file);
      c.moreIo = true;
      continue;
    }
    c.pass = startPass(pc, file); // it stays on b_io while written (I_SYNC)
    pc.inSync.set(file, f.sinceNs);
  }
}

/** A writeback bio completed: its pages are clean (or dirty again if dirtied meanwhile), and
 * count as the disk's completed writeback (test_clear_page_writeback → bdi_writeout_inc). */
export function writebackDone(pc: PageCacheState, first: number, count: number): void {
  propInc(pc.bdi.completions, pc.bdi.bdiCompletions, count);
  if (pc.wb) pc.wb.written += count; // __wb_writeout_add: WB_WRITTEN (6.18)
  for (let p = first; p < first + count; p++) {
    const s = pc.busy.get(p);
    pc.writeback--;
    pc.pagesWritten++;
    if (s === REDIRTIED) pc.busy.set(p, DIRTY);
    else if (s === WRITEBACK) {
      // written: clean, and the most recently used (a deleted file's page just goes)
      pc.busy.delete(p);
      if (!pc.dropped.delete(p)) touchClean(pc, p);
    }
  }
}
