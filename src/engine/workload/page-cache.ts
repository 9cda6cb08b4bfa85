// The page cache between generator threads and the block layer (Linux 2.6.32's mm/
// filemap.c, mm/page-writeback.c, fs/fs-writeback.c, reduced to what decides which bios
// reach the scheduler and when). Opt-in: `workload.pageCache` in a scenario.
//
//  - A page is 4 KiB of the disk (sector / 8). Cached pages are kept least recently used
//    first; when the cache is full the oldest clean page is evicted (dirty pages and pages
//    under writeback stay until written).
//  - A buffered read whose pages are all cached is served from memory (no bio); otherwise
//    its bio goes to the disk and its pages are cached when it completes.
//  - A buffered write dirties its pages (no bio). Each file (inode) remembers when it was
//    first dirtied; a page dirtied again while dirty costs nothing more — the disk sees it
//    once. A page dirtied while under writeback is dirty again (written once more later).
//  - Deleting a file drops its pages, dirty ones too, without I/O (truncate_inode_pages).
//  - Writeback (writeback.ts: the flusher, flusher.ts; on 2.6 a throttled writer too,
//    balance-dirty.ts) walks the files in 2.6.32's lists (b_dirty oldest-dirtied first, b_io,
//    b_more_io) with one page budget per call (nr_to_write: MAX_WRITEBACK_PAGES for the
//    flusher, a writer's write_chunk) shared by the files it visits (kernel 6.18: one per
//    file, writeback_chunk_size: wb-writeback-618.ts); in each file it looks
//    the dirty pages up as it goes, from where its last pass stopped (range_cyclic), a
//    pagevec at a time, and sends contiguous dirty pages together, up to the file system's
//    bio size. A page goes under writeback when its bio is sent: while the thread sleeps for
//    a request, a page dirtied ahead of it joins the pass, one deleted or written by
//    kjournald meanwhile drops out. A file the pass leaves dirty is requeued or redirtied
//    (writeback.ts endPass: requeue_io, redirty_tail).
//  - Thresholds as 2.6.32 computes them, on `memoryMiB` of dirtyable memory: background
//    writeback above dirty_background_ratio %, writers are throttled near dirty_ratio %
//    (dirty + under writeback; 2.6's exact rule in balance-dirty.ts; 6.18's IO-less one, a
//    pause, in dirty-throttle.ts), kupdate writes files dirtied more than
//    dirty_expire_centisecs ago every dirty_writeback_centisecs.
// All state is plain data (Maps and Sets keep insertion order: that order is the LRU and
// the dirtied order), so a snapshot is a structuredClone and runs are deterministic. Clean
// pages and busy ones (dirty or under writeback) are kept apart, so eviction never walks
// past dirty pages.

import { createBdi, type BdiState } from './bdi-stats';
import { createWb, domainDirtyLimits, type WbState } from './wb-state';

/** The scenario's `workload.pageCache`: sizes and the vm sysctls, with their names. */
export interface PageCacheSpec {
  /** memory the page cache may use (dirtyable memory), MiB */
  memoryMiB: number;
  /** vm.dirty_ratio: % of memory dirty + under writeback at which writers are throttled */
  dirty_ratio: number;
  /** vm.dirty_background_ratio: % of memory dirty at which the flusher starts */
  dirty_background_ratio: number;
  /** vm.dirty_expire_centisecs: a file dirty this long is written by kupdate */
  dirty_expire_centisecs: number;
  /** vm.dirty_writeback_centisecs: the flusher's period */
  dirty_writeback_centisecs: number;
}

/** 2.6.32's defaults (memory chosen: the papers' machines' was not available). */
export const PAGE_CACHE_DEFAULTS: PageCacheSpec = {
  memoryMiB: 1024,
  dirty_ratio: 20,
  dirty_background_ratio: 10,
  dirty_expire_centisecs: 3000,
  dirty_writeback_centisecs: 500,
};

const CENTISEC_NS = 1e7;
/** dirty_writeback_centisecs in ns: the flusher's period (and 2.6's sync_supers') */
export const writebackPeriodNs = (pc: PageCacheState): number =>
  pc.spec.dirty_writeback_centisecs * CENTISEC_NS;
/** kupdate's cut-off at `nowNs` (older_than_this, dirtied_before): files dirtied at or
 * before it have been dirty dirty_expire_centisecs */
export const expiredBeforeNs = (pc: PageCacheState, nowNs: number): number =>
  nowNs - pc.spec.dirty_expire_centisecs * CENTISEC_NS;

/** fs/fs-writeback.c: the flusher's page budget per writeback_inodes_wb call (a chunk) */
export const MAX_WRITEBACK_PAGES = 1024;
export const PAGE_SECTORS = 8;

/** a page's state in `busy`: dirty; under writeback; under writeback and dirtied again */
export const DIRTY = 1;
export const WRITEBACK = 2;
export const REDIRTIED = 3;

/** One dirty file: the kernel's inode on the bdi's dirty list. */
export interface DirtyFile {
  /** when it was first dirtied (dirtied_when), ns */
  sinceNs: number;
  /** its dirty pages (unordered; looked up in page order when written) */
  pages: number[];
  /** the largest bio its file system sends, pages */
  bioPages: number;
  /** the page after the last one written (writeback_index) */
  cursor: number;
  /** the bdi list it is on (2.6.32): b_dirty (its place in `files`), b_io or b_more_io */
  list: 'dirty' | 'io' | 'more';
}

/** What a run reports of the page cache (page-cache-view.ts pageCacheCounters). */
export interface PageCacheCounters {
  readHits: number;
  readMisses: number;
  pagesDirtied: number;
  pagesWritten: number;
  pagesDropped: number;
  evicted: number;
  pagesWrittenByWriters: number;
}

export interface PageCacheState extends PageCacheCounters {
  spec: PageCacheSpec;
  capacity: number;
  /** clean cached pages: a list from the least recently used (head) to the most (tail),
   * as page → next and page → previous (−1 at the ends), so every step is O(1) */
  clean: Map<number, number>;
  cleanPrev: Map<number, number>;
  lruHead: number;
  lruTail: number;
  /** dirty or under writeback: page → DIRTY | WRITEBACK | REDIRTIED */
  busy: Map<number, number>;
  /** pages deleted while under writeback: not cached once written */
  dropped: Set<number>;
  /** dirty page → the file it belongs to */
  owner: Map<number, number>;
  /** dirty files, oldest dirtied first (of those on b_dirty, that list's order) */
  files: Map<number, DirtyFile>;
  /** 2.6.32's b_io and b_more_io: files in the order writeback takes them (writeback.ts) */
  io: number[];
  moreIo: number[];
  dirty: number;
  writeback: number;
  /** the disk's backing device: what 2.6's balance_dirty_pages keeps (bdi-stats.ts) */
  bdi: BdiState;
  /** kernel 6.18: the disk's writeback as its IO-less balance_dirty_pages measures it
   * (wb-state.ts); null on 2.6 */
  wb: WbState | null;
  /** kernel 6.18's requeue_inode for a file a pass leaves dirty (writeback.ts endPass):
   * requeue_io whenever its nr_to_write is spent, not only kupdate's (2.6.32) */
  requeueSpent: boolean;
  /** 2.6.32 (writeback.ts): the files a pass is writing (I_SYNC) → their dirtied_when then;
   * those dirtied again meanwhile (I_DIRTY_PAGES); clean files' writeback_index */
  inSync: Map<number, number>;
  syncDirtied: Set<number>;
  wbIndex: Map<number, number>;
  /** a file was dirtied while no file was (the disk's writeback lists went from empty to
   * populated: __mark_inode_dirty's wb_wakeup_delayed, flusher.ts wbWakeupDelayed) */
  listsPopulated: boolean;
}

/** The page cache of a run (`kernel26`: 2.6's writeback rules, the default kernel). */
export function createPageCache(spec: PageCacheSpec, kernel26 = true): PageCacheState {
  const capacity = Math.max(1, Math.floor((spec.memoryMiB * 1024) / 4));
  const pc: PageCacheState = {
    spec,
    capacity,
    clean: new Map(),
    cleanPrev: new Map(),
    lruHead: -1,
    lruTail: -1,
    busy: new Map(),
    dropped: new Set(),
    owner: new Map(),
    files: new Map(),
    io: [],
    moreIo: [],
    dirty: 0,
    writeback: 0,
    requeueSpent: !kernel26,
    inSync: new Map(),
    syncDirtied: new Set(),
    wbIndex: new Map(),
    listsPopulated: false,
    // calc_period_shift: dirty_ratio of determine_dirtyable_memory (+ 1, as get_dirty_limits)
    bdi: createBdi(capacity, Math.floor((spec.dirty_ratio * (capacity + 1)) / 100)),
    wb: null,
    readHits: 0,
    readMisses: 0,
    pagesDirtied: 0,
    pagesWritten: 0,
    pagesWrittenByWriters: 0,
    pagesDropped: 0,
    evicted: 0,
  };
  if (!kernel26) pc.wb = createWb(domainDirtyLimits(pc).thresh);
  return pc;
}

/** The pages [first, last] a sector range touches. */
export function pageSpan(sector: number, nSectors: number): [number, number] {
  return [
    Math.floor(sector / PAGE_SECTORS),
    Math.floor((sector + Math.max(1, nSectors) - 1) / PAGE_SECTORS),
  ];
}

function cached(pc: PageCacheState, page: number): boolean {
  return pc.clean.has(page) || pc.busy.has(page);
}

/** Take a page out of the clean list (no-op if it is not there). */
function unlinkClean(pc: PageCacheState, page: number): void {
  const next = pc.clean.get(page);
  if (next === undefined) return;
  const prev = pc.cleanPrev.get(page)!;
  if (prev >= 0) pc.clean.set(prev, next);
  else pc.lruHead = next;
  if (next >= 0) pc.cleanPrev.set(next, prev);
  else pc.lruTail = prev;
  pc.clean.delete(page);
  pc.cleanPrev.delete(page);
}

/** A clean page used now: the most recently used. */
export function touchClean(pc: PageCacheState, page: number): void {
  unlinkClean(pc, page);
  pc.clean.set(page, -1);
  pc.cleanPrev.set(page, pc.lruTail);
  if (pc.lruTail >= 0) pc.clean.set(pc.lruTail, page);
  else pc.lruHead = page;
  pc.lruTail = page;
}

/** Make room for one more page: evict the least recently used clean page, if any (dirty
 * pages and pages under writeback stay until written). */
function makeRoom(pc: PageCacheState): void {
  if (pc.clean.size + pc.busy.size < pc.capacity || pc.lruHead < 0) return;
  unlinkClean(pc, pc.lruHead);
  pc.evicted++;
}

/** A buffered read: true if every page is cached (served from memory; the pages are
 * touched), false if it must go to the disk. */
export function readHit(pc: PageCacheState, sector: number, nSectors: number): boolean {
  const [a, b] = pageSpan(sector, nSectors);
  for (let p = a; p <= b; p++)
    if (!cached(pc, p)) {
      pc.readMisses++;
      return false;
    }
  for (let p = a; p <= b; p++) if (pc.clean.has(p)) touchClean(pc, p);
  pc.readHits++;
  return true;
}

/** A read from the disk completed: its pages are cached (clean unless already there). */
export function readFilled(pc: PageCacheState, sector: number, nSectors: number): void {
  const [a, b] = pageSpan(sector, nSectors);
  for (let p = a; p <= b; p++) {
    if (pc.busy.has(p)) continue;
    if (!pc.clean.has(p)) makeRoom(pc);
    touchClean(pc, p);
  }
}

/** A buffered write of [sector, sector + n) to `file`, sent by its file system in bios of
 * up to `bioPages` pages. Returns the pages newly dirtied. */
export function dirtyPages(
  pc: PageCacheState,
  file: number,
  sector: number,
  nSectors: number,
  bioPages: number,
  nowNs: number,
): number {
  const [a, b] = pageSpan(sector, nSectors);
  let added = 0;
  for (let p = a; p <= b; p++) {
    const s = pc.busy.get(p);
    if (s === DIRTY || s === REDIRTIED) continue;
    pc.dropped.delete(p);
    if (s === undefined) {
      if (pc.clean.has(p)) unlinkClean(pc, p);
      else makeRoom(pc);
    }
    pc.busy.set(p, s === WRITEBACK ? REDIRTIED : DIRTY);
    let f = pc.files.get(file);
    if (!f) {
      if (pc.files.size === 0) pc.listsPopulated = true;
      // 2.6.32's __mark_inode_dirty, I_SYNC (its pass still on): dirtied_when kept, on b_io
      const synced = pc.inSync.get(file);
      const cursor = pc.wbIndex.get(file) ?? 0; // the mapping's writeback_index, kept
      f = { sinceNs: synced ?? nowNs, pages: [], bioPages, cursor, list: 'dirty' };
      pc.files.set(file, f);
      if (synced !== undefined) {
        f.list = 'io';
        pc.io.unshift(file);
      }
    }
    if (pc.inSync.has(file)) pc.syncDirtied.add(file);
    f.bioPages = Math.max(f.bioPages, bioPages);
    f.pages.push(p);
    pc.owner.set(p, file);
    pc.dirty++;
    added++;
  }
  pc.pagesDirtied += added;
  if (pc.wb) pc.wb.dirtied += added; // folio_account_dirtied: WB_DIRTIED (6.18)
  return added;
}

/** A file's pages in [sector, sector + n) are deleted: dropped from the cache, dirty or not,
 * with no I/O (a page under writeback finishes its write first, then goes); `file`: deleted. */
export function dropPages(pc: PageCacheState, sector: number, nSectors: number, file?: number) {
  if (file !== undefined) pc.wbIndex.delete(file);
  const [a, b] = pageSpan(sector, nSectors);
  for (let p = a; p <= b; p++) {
    unlinkClean(pc, p);
    const s = pc.busy.get(p);
    if (s === undefined) continue;
    if (s === DIRTY || s === REDIRTIED) {
      unlistDirty(pc, p);
      pc.pagesDropped++;
    }
    if (s === WRITEBACK || s === REDIRTIED) {
      pc.busy.set(p, WRITEBACK);
      pc.dropped.add(p);
    } else pc.busy.delete(p);
  }
}

/** A dirty page is no longer its file's (it is written, dropped or pinned); a file with
 * none left leaves the dirty lists. */
export function unlistDirty(pc: PageCacheState, p: number): void {
  const file = pc.owner.get(p)!;
  const f = pc.files.get(file)!;
  f.pages.splice(f.pages.indexOf(p), 1);
  if (f.pages.length === 0) {
    pc.files.delete(file);
    offIoLists(pc, file, f);
    if (!pc.wb) pc.wbIndex.set(file, f.cursor); // 2.6.32: the inode keeps it, clean
  }
  pc.owner.delete(p);
  pc.dirty--;
}

/** The file leaves b_io or b_more_io (if on one). */
export function offIoLists(pc: PageCacheState, file: number, f: DirtyFile): void {
  if (f.list === 'dirty') return;
  const list = f.list === 'io' ? pc.io : pc.moreIo;
  const i = list.indexOf(file);
  if (i >= 0) list.splice(i, 1);
  f.list = 'dirty';
}

/** The dirty ones of `pages`, in that order, go under writeback by their file system's own
 * thread (kjournald's ordered data: journal.ts); returns them. */
export function takePages(pc: PageCacheState, pages: readonly number[]): number[] {
  const taken: number[] = [];
  for (const p of pages) {
    const s = pc.busy.get(p);
    if (s !== DIRTY) continue;
    unlistDirty(pc, p);
    pc.busy.set(p, WRITEBACK);
    pc.writeback++;
    taken.push(p);
  }
  return taken;
}

/** The page's buffer is dirty (buffer_dirty): dirty, or dirtied again under writeback (the
 * write that is out cleared it at submission). */
export function bufferDirty(pc: PageCacheState, p: number): boolean {
  const s = pc.busy.get(p);
  return s === DIRTY || s === REDIRTIED;
}

/** The page is being written (its write is out). */
export function underWriteback(pc: PageCacheState, p: number): boolean {
  const s = pc.busy.get(p);
  return s === WRITEBACK || s === REDIRTIED;
}

/** A dirty page is no longer dirty for writeback (jbd's do_get_write_access: a metadata
 * block joining a transaction is journal-dirty instead until it commits). */
export function undirtyPage(pc: PageCacheState, p: number): void {
  const s = pc.busy.get(p);
  if (s !== DIRTY && s !== REDIRTIED) return;
  unlistDirty(pc, p);
  if (s === REDIRTIED) pc.busy.set(p, WRITEBACK);
  else {
    pc.busy.delete(p);
    touchClean(pc, p);
  }
}

/** get_dirty_limits of 2.6.32 without a bdi: the background and dirty thresholds of
 * dirtyable memory (determine_dirtyable_memory: the free and reclaimable pages + 1, "never
 * 0"); dirty_ratio at least 5; background at most half of dirty. */
export function globalLimits(pc: PageCacheState): { background: number; dirty: number } {
  const mem = pc.capacity + 1;
  const dirty = Math.floor((Math.max(pc.spec.dirty_ratio, 5) * mem) / 100);
  let background = Math.floor((pc.spec.dirty_background_ratio * mem) / 100);
  if (background >= dirty) background = Math.floor(dirty / 2);
  return { background, dirty };
}
