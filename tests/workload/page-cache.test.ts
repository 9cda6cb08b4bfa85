// The page cache and its flusher (src/engine/workload/page-cache.ts, flusher.ts): each rule
// of 2.6.32's buffered I/O that Spindle models, by name.
import { describe, expect, it } from 'vitest';
import {
  MAX_WRITEBACK_PAGES,
  PAGE_CACHE_DEFAULTS,
  createPageCache,
  dirtyPages,
  dropPages,
  readFilled,
  readHit,
  takePages,
} from '../../src/engine/workload/page-cache';
import { chunkNextBio, newChunk, writebackDone } from '../../src/engine/workload/writeback';
import { backgroundThresh, dirtyThresh } from '../../src/engine/workload/page-cache-view';
import { sendChunk, writeChunk } from '../helpers/writeback';
import { loadScenario } from '../../src/engine/scenario/load';
import { runScenario } from '../../src/engine/run';
import type { TraceEvent, TraceSink } from '../../src/engine/events';
import { hostView } from '../../src/engine/inspect';
import { randWriteScenario } from '../helpers/rand-write';

/** a cache of `pages` 4 KiB pages */
const cache = (pages: number, over: object = {}) =>
  createPageCache({ ...PAGE_CACHE_DEFAULTS, memoryMiB: pages / 256, ...over });
const P = 8; // sectors per page

describe('page cache rules', () => {
  it('a buffered read of cached pages is served from memory; a miss goes to the disk and fills the cache', () => {
    const pc = cache(1024);
    expect(readHit(pc, 0, 4 * P)).toBe(false);
    readFilled(pc, 0, 4 * P);
    expect(readHit(pc, 0, 4 * P)).toBe(true);
    expect(readHit(pc, 2 * P, 4 * P)).toBe(false); // pages 4 and 5 are not cached
    expect([pc.readHits, pc.readMisses]).toEqual([1, 2]);
  });

  it('LRU: the least recently used clean page goes first; dirty pages are never evicted', () => {
    const pc = cache(256); // 1 MiB
    dirtyPages(pc, 1, 0, P, 1, 0); // page 0 dirty
    readFilled(pc, P, 255 * P); // pages 1..255: the cache is full
    readHit(pc, P, P); // page 1 used again
    readFilled(pc, 1000 * P, 2 * P); // two more pages: two evictions
    expect(readHit(pc, 0, P)).toBe(true); // dirty: kept
    expect(readHit(pc, P, P)).toBe(true); // recently used: kept
    expect(readHit(pc, 2 * P, P)).toBe(false); // the least recently used clean ones went
    expect(readHit(pc, 3 * P, P)).toBe(false);
    expect(pc.evicted).toBe(2);
  });

  it('a page dirtied again while dirty is written once', () => {
    const pc = cache(1024);
    expect(dirtyPages(pc, 1, 0, 2 * P, 1, 0)).toBe(2);
    expect(dirtyPages(pc, 1, 0, 2 * P, 1, 5)).toBe(0);
    expect(writeChunk(pc)).toEqual([
      { file: 1, first: 0, count: 1 },
      { file: 1, first: 1, count: 1 },
    ]);
    expect(pc.dirty).toBe(0);
  });

  it('writeback takes the oldest-dirtied file first, its pages in page order, contiguous pages in one bio up to its file system’s bio size', () => {
    const pc = cache(4096);
    dirtyPages(pc, 7, 50 * P, P, 1, 10); // file 7 first dirtied at 10 ns
    dirtyPages(pc, 3, 20 * P, P, 4, 20);
    dirtyPages(pc, 7, 40 * P, 2 * P, 1, 30);
    dirtyPages(pc, 3, 21 * P, 5 * P, 4, 40); // file 3: pages 20..25, bios of up to 4 pages
    expect(writeChunk(pc)).toEqual([
      { file: 7, first: 40, count: 1 },
      { file: 7, first: 41, count: 1 },
      { file: 7, first: 50, count: 1 },
      { file: 3, first: 20, count: 4 },
      { file: 3, first: 24, count: 2 },
    ]);
    expect([pc.dirty, pc.writeback]).toEqual([0, 9]);
  });

  it('kupdate writes only files dirtied before the expiry time', () => {
    const pc = cache(4096);
    dirtyPages(pc, 1, 0, P, 1, 100);
    expect(writeChunk(pc, { beforeNs: 99 })).toEqual([]);
    expect(writeChunk(pc, { beforeNs: 100 })).toHaveLength(1);
  });

  it('MAX_WRITEBACK_PAGES (1024) pages per writeback_inodes_wb call; the file it stopped in goes on from where it stopped (writeback_index)', () => {
    const pc = cache(8192);
    dirtyPages(pc, 1, 0, 1500 * P, 1, 0);
    dirtyPages(pc, 2, 5000 * P, P, 1, 1);
    const first = writeChunk(pc);
    expect(first.length).toBe(MAX_WRITEBACK_PAGES);
    expect(first[first.length - 1]!.first).toBe(1023);
    // the next call: file 2, left on b_io, then file 1 (redirty_tail: b_dirty, requeued)
    const again = writeChunk(pc);
    expect(again[0]).toEqual({ file: 2, first: 5000, count: 1 });
    expect(again[1]!.first).toBe(1024);
    expect(again.length).toBe(1 + 1500 - 1024);
  });

  it('a page dirtied under writeback stays dirty after the write, and a pass skips it while its write is out', () => {
    const pc = cache(1024);
    dirtyPages(pc, 1, 0, P, 1, 0);
    writeChunk(pc);
    expect(dirtyPages(pc, 1, 0, P, 1, 5)).toBe(1);
    expect(writeChunk(pc)).toEqual([]);
    writebackDone(pc, 0, 1);
    expect([pc.dirty, pc.writeback]).toEqual([1, 0]);
    expect(writeChunk(pc)).toEqual([{ file: 1, first: 0, count: 1 }]);
  });

  it('a pass’s pages go under writeback as their bio is sent: until then a page dirtied again costs nothing, and is written once', () => {
    const pc = cache(1024);
    dirtyPages(pc, 1, 0, 3 * P, 2, 0); // bios of up to 2 pages
    const c = newChunk(pc, MAX_WRITEBACK_PAGES, false, Infinity, 0);
    expect(chunkNextBio(pc, c, new Set(), 0)).toEqual({ file: 1, first: 0, count: 2 });
    expect([pc.dirty, pc.writeback]).toEqual([1, 2]); // page 2 still just dirty
    expect(dirtyPages(pc, 1, 2 * P, P, 2, 5)).toBe(0);
    expect(sendChunk(pc, c)).toEqual([{ file: 1, first: 2, count: 1 }]);
    expect(writeChunk(pc)).toEqual([]); // page 2 is not written twice
  });

  it('a page deleted between its look-up (the pagevec) and its bio is not written; the bio is cut round it', () => {
    const pc = cache(1024);
    dirtyPages(pc, 1, 0, 4 * P, 1, 0); // one page a bio: the thread may sleep after each
    const c = newChunk(pc, MAX_WRITEBACK_PAGES, false, Infinity, 0);
    expect(chunkNextBio(pc, c, new Set(), 0)).toEqual({ file: 1, first: 0, count: 1 });
    dropPages(pc, P, P); // page 1 deleted (truncate_inode_pages: no I/O)
    expect(sendChunk(pc, c)).toEqual([
      { file: 1, first: 2, count: 1 },
      { file: 1, first: 3, count: 1 },
    ]);
    expect([pc.dirty, pc.writeback, pc.pagesDropped]).toEqual([0, 3, 1]);
  });

  it('a page kjournald writes (ordered data) between its look-up and its bio is skipped by the pass', () => {
    const pc = cache(1024);
    dirtyPages(pc, 1, 0, 3 * P, 1, 0);
    const c = newChunk(pc, MAX_WRITEBACK_PAGES, false, Infinity, 0);
    chunkNextBio(pc, c, new Set(), 0);
    expect(takePages(pc, [1])).toEqual([1]);
    expect(sendChunk(pc, c)).toEqual([{ file: 1, first: 2, count: 1 }]);
    expect(pc.writeback).toBe(3);
  });

  it('deleting a file drops its dirty pages with no I/O (truncate_inode_pages)', () => {
    const pc = cache(1024);
    dirtyPages(pc, 1, 0, 3 * P, 1, 0);
    dropPages(pc, 0, 3 * P);
    expect(pc.dirty).toBe(0);
    expect(pc.pagesDropped).toBe(3);
    expect(writeChunk(pc)).toEqual([]);
    expect(readHit(pc, 0, P)).toBe(false);
  });

  it('the thresholds are vm.dirty_background_ratio and vm.dirty_ratio of memory', () => {
    const pc = cache(262144); // 1 GiB
    expect(backgroundThresh(pc)).toBe(26214);
    expect(dirtyThresh(pc)).toBe(52428);
  });
});

/** fio's rand-write (4 threads of 4 KiB buffered writes) with a page cache, on a 64 GiB span */
function randWrite(
  pageCache: object,
  extra: object = {},
  stopMs = 3000,
  iosched: object = { name: 'deadline' },
) {
  const s = randWriteScenario(pageCache, { extra, stopMs, iosched });
  const queued: TraceEvent[] = [];
  // bios queued (Q) that neither merged (M, F) nor got a request (G) yet: sleeping ones, by
  // the process that queued them
  const waiting = new Map<number, number>();
  const pidOf = new Map<number, number>();
  let mostWaiting = 0;
  const sink: TraceSink = {
    trace: (e) => {
      if (e.action === 'Q') {
        queued.push({ ...e });
        pidOf.set(e.bio!, e.pid);
        waiting.set(e.pid, (waiting.get(e.pid) ?? 0) + 1);
        mostWaiting = Math.max(mostWaiting, waiting.get(e.pid)!);
      } else if ((e.action === 'G' || e.action === 'M' || e.action === 'F') && pidOf.has(e.bio!)) {
        const pid = pidOf.get(e.bio!)!;
        pidOf.delete(e.bio!);
        waiting.set(pid, waiting.get(pid)! - 1);
      }
    },
    service: () => {},
    decision: () => {},
  };
  const r = runScenario(s, { sink });
  return { ...r, queued, mostWaiting };
}

describe('the page cache in a run', () => {
  it('buffered writes reach the disk only through writeback — the flusher’s, and on 2.6 the throttled writers’ own (balance-dirty.ts) — each file’s pages in page order', () => {
    const r = randWrite({ memoryMiB: 16 });
    const flusher = r.summary.processes.find((p) => p.name === 'flush-8:0')!;
    expect(r.queued.length).toBeGreaterThan(100);
    expect(r.queued.some((e) => e.pid === flusher.pid)).toBe(true);
    expect(r.queued.every((e) => e.write && !e.sync)).toBe(true);
    // the threads' writes are absorbed: they count as served by the cache
    for (const p of r.summary.processes.filter((x) => x.name.startsWith('w-')))
      expect(p.cached!.ops).toBeGreaterThan(0);
    // within a pass over one file the sectors only go up (each process's bios in turn)
    let ups = 0;
    let downs = 0;
    const last = new Map<number, number>();
    for (const e of r.queued) {
      const d = e.sector - (last.get(e.pid) ?? Infinity);
      if (d > 0 && d < 2 ** 24) ups++;
      else downs++;
      last.set(e.pid, e.sector);
    }
    expect(ups).toBeGreaterThan(20 * downs);
  });

  it('background writeback: past dirty_background_ratio the flusher starts at once, long before any page expires', () => {
    const r = randWrite({ memoryMiB: 16 });
    expect(r.queued[0]!.tNs).toBeLessThan(100e6);
  });

  it('kupdate: below the background threshold nothing is written until a file is dirty_expire_centisecs old, at a dirty_writeback_centisecs wake-up', () => {
    const r = randWrite({ memoryMiB: 1024 }, { durationMs: 1 }, 45000);
    expect(r.summary.pageCache!.pagesDirtied).toBeGreaterThan(100);
    expect(r.summary.pageCache!.pagesDirtied).toBeLessThan(26214);
    const first = r.queued[0]!.tNs;
    expect(first).toBeGreaterThanOrEqual(30e9);
    expect(first).toBeLessThanOrEqual(35e9);
    expect(first % 5e9).toBe(0);
    expect(r.summary.pageCache!.pagesWritten).toBe(r.summary.pageCache!.pagesDirtied);
  });

  it('writers wait above dirty_ratio: dirty pages and pages under writeback stay at the threshold, and the threads write only as fast as the flusher cleans', () => {
    const r = randWrite({ memoryMiB: 16 }, {}, 10000);
    const pc = r.simulation.state.workload.pageCache!;
    // 2.6: the threads check their limit every ratelimit_pages (128) pages they copy
    // (balance-dirty.ts), so they may pass it by that many
    expect(pc.dirty + pc.writeback).toBeLessThanOrEqual(dirtyThresh(pc) + 128);
    const s = r.summary.pageCache!;
    expect(s.pagesDirtied - s.pagesWritten).toBeLessThanOrEqual(dirtyThresh(pc) + 128);
  });

  it('reads of cached pages need no bio: a small file read over and over is read from the disk once', () => {
    const s = loadScenario(
      {
        name: 'pc',
        disk: { preset: 'sata-7200-500g' },
        workload: {
          pageCache: {},
          processes: [{ name: 'r', generator: { kind: 'fio', job: 'rand-read', fileMiB: 1 / 16 } }],
        },
        // 16 pages a thread: about 0.2 s of misses, then hits at memory speed
        stop: { timeMs: 300 },
      },
      'pc.json',
    );
    const r = runScenario(s);
    const pc = r.summary.pageCache!;
    expect(pc.readHits).toBeGreaterThan(10 * pc.readMisses);
    expect(pc.readMisses).toBeLessThanOrEqual(4 * 16); // each of the 4 threads' 64 KiB
    expect(r.summary.requests.queued).toBe(pc.readMisses);
  });

  it('Postmark’s deletes drop dirty pages: what is written back and what is dropped never exceed what was dirtied', () => {
    const s = loadScenario(
      {
        name: 'pc',
        disk: { preset: 'cheetah-15k4-146g', queueDepth: 4, scheduler: 'sptf' },
        iosched: { name: 'deadline' },
        workload: {
          pageCache: { memoryMiB: 8 },
          processes: [
            {
              name: 'postmark',
              generator: { kind: 'postmark', config: 'SS', fs: 'ext3' },
              span: { startSector: 0, sectors: 16777216 },
            },
          ],
        },
        stop: { timeMs: 3000 },
      },
      'pc.json',
    );
    const pc = runScenario(s).summary.pageCache!;
    expect(pc.pagesDropped).toBeGreaterThan(0);
    expect(pc.pagesWritten).toBeGreaterThan(0);
    expect(pc.pagesWritten + pc.pagesDropped).toBeLessThanOrEqual(pc.pagesDirtied);
  });

  it('the inspection panel shows the page cache: pages, dirty and under writeback, the thresholds, the flusher', () => {
    const r = randWrite({ memoryMiB: 16 }, {}, 1000);
    const view = hostView(r.simulation).pageCache as Record<string, unknown>;
    const pc = r.simulation.state.workload.pageCache!;
    expect(view).toMatchObject({
      dirty: pc.dirty,
      writeback: pc.writeback,
      backgroundThresh: 409,
      dirtyThresh: 819,
    });
    expect(['idle', 'writing', 'sleeping for a request']).toContain(view.flusher);
  });

  it('the flusher (and a writer writing back) sleeps for a request (2.6) or a tag (6.18) like any process: no more than its one bio waits at a time', () => {
    // a flusher that did not notice its bio sleeping (for a 6.18 tag) went on submitting its
    // whole pass: hundreds of bios waiting at once
    for (const iosched of [
      { name: 'deadline', queue: { nr_requests: 4 } },
      { name: 'mq-deadline', kernel: '6.18', queue: { nr_requests: 4 } },
    ]) {
      const r = randWrite({ memoryMiB: 16 }, {}, 2000, iosched);
      expect(r.queued.length).toBeGreaterThan(50);
      expect(r.mostWaiting).toBe(1);
    }
  });

  it('same scenario and seed, same run', () => {
    const a = randWrite({ memoryMiB: 16 }).summary;
    const b = randWrite({ memoryMiB: 16 }).summary;
    expect(b).toEqual(a);
  });

  it('a bad page-cache setting is an error naming the key', () => {
    expect(() => randWrite({ dirty_ratio: 0 })).toThrow(/workload\.pageCache\.dirty_ratio/);
    expect(() => randWrite({ swappiness: 60 })).toThrow(/workload\.pageCache/);
  });
});
