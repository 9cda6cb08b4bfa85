// Writeback passes over the page cache (page-cache.ts): which pages a thread writing back
// takes, when they go under writeback, and what their completion does — shared by the
// flusher (flusher.ts), 2.6's throttled writers (balance-dirty.ts) and the journals
// (journal-io.ts). 2.6.32's fs/fs-writeback.c (writeback_single_inode, requeue_io) and
// mm/page-writeback.c (write_cache_pages, test_clear_page_writeback).
import { propInc } from './bdi-stats';
import {
  DIRTY,
  MAX_WRITEBACK_PAGES,
  QUEUED,
  REDIRTIED,
  WRITEBACK,
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

/**
 * The next pass over one file: the oldest-dirtied file (kupdate: only if dirtied at or
 * before `expiredBeforeNs`), up to `maxPages` of its dirty pages in page order
 * from its cursor, wrapping round, cut into bios of contiguous pages up to its bio size.
 * The pages join the pass, still dirty (`startWriteback` puts each bio's under writeback
 * when it is sent). The file goes to the back of the list; when the pass is over (its last
 * bio sent: passOver, at `nowNs`) with pages still dirty it goes there again. A file in
 * `busy` (another thread is writing it: I_SYNC) goes to the back untouched (requeue_io).
 * Empty when nothing qualifies.
 */
export function takeWritebackPass(
  pc: PageCacheState,
  expiredBeforeNs: number,
  maxPages = MAX_WRITEBACK_PAGES,
  busy: ReadonlySet<number> = new Set(),
  nowNs = 0,
): WritebackBio[] {
  const first = pc.files.entries().next();
  if (first.done) return [];
  const [file, f] = first.value;
  if (f.sinceNs > expiredBeforeNs) return [];
  if (busy.has(file)) {
    pc.files.delete(file);
    pc.files.set(file, f);
    return [];
  }
  const sorted = f.pages.slice().sort((x, y) => x - y);
  let start = sorted.findIndex((p) => p >= f.cursor);
  if (start < 0) start = 0;
  const order = sorted.slice(start).concat(sorted.slice(0, start));
  // a page still under an earlier writeback is skipped (WB_SYNC_NONE) and stays dirty
  const take: number[] = [];
  const left: number[] = [];
  for (const p of order)
    if (take.length < maxPages && pc.busy.get(p) === DIRTY) take.push(p);
    else left.push(p);
  const bios: WritebackBio[] = [];
  for (const p of take) {
    const last = bios[bios.length - 1];
    if (last && last.first + last.count === p && last.count < f.bioPages) last.count++;
    else bios.push({ file, first: p, count: 1 });
    pc.busy.set(p, QUEUED);
  }
  f.queued += take.length;
  if (take.length > 0) f.cursor = take[take.length - 1]! + 1;
  f.pages = left;
  pc.files.delete(file);
  if (left.length > 0 || f.queued > 0) pc.files.set(file, f);
  // writeback_single_inode (2.6.32): kupdate having used up nr_to_write requeues the file
  // (requeue_io), any other pass that leaves pages dirty redirties it (redirty_tail)
  f.pass = expiredBeforeNs !== Infinity && take.length === maxPages ? 'requeue' : 'redirty';
  if (f.queued === 0) passOver(pc, file, nowNs); // nothing it could write
  return bios;
}

/**
 * writeback_single_inode's end (fs/fs-writeback.c of 2.6.32): a pass over `file` is over.
 * If it still has dirty pages it goes to the back of the list — requeue_io keeping its
 * dirtied time, or redirty_tail: dirtied now if a file on the list was dirtied after it
 * (so kupdate waits dirty_expire_centisecs for it again). Simplified: one list stands for
 * b_dirty, b_io and b_more_io.
 */
export function passOver(pc: PageCacheState, file: number, nowNs: number): void {
  const f = pc.files.get(file);
  if (!pc.redirtyTail || !f || f.pass === 'none' || f.queued > 0) return;
  const redirty = f.pass === 'redirty';
  f.pass = 'none';
  pc.files.delete(file);
  if (redirty) {
    let newest = -Infinity;
    for (const g of pc.files.values()) newest = g.sinceNs;
    if (f.sinceNs < newest) f.sinceNs = nowNs;
  }
  pc.files.set(file, f);
}

/**
 * A pass's bio is about to be sent: its first run of pages still dirty in the pass goes
 * under writeback — the bio actually sent (null if none is left: deleted, or written by
 * another thread, since the pass was chosen) — and what follows the run is the rest of it,
 * to send next (null if nothing).
 */
export function startWriteback(
  pc: PageCacheState,
  b: WritebackBio,
): { run: WritebackBio | null; rest: WritebackBio | null } {
  const end = b.first + b.count;
  let p = b.first;
  while (p < end && pc.busy.get(p) !== QUEUED) p++;
  if (p === end) return { run: null, rest: null };
  const run = { file: b.file, first: p, count: 0 };
  for (; p < end && pc.busy.get(p) === QUEUED; p++) {
    unlistDirty(pc, p);
    pc.busy.set(p, WRITEBACK);
    pc.writeback++;
    run.count++;
  }
  return { run, rest: p < end ? { file: b.file, first: p, count: end - p } : null };
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
