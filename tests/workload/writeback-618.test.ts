// Kernel 6.18's flusher passes over the dirty files (src/engine/workload/wb-writeback-618.ts,
// writeback.ts endPass): fs/fs-writeback.c's wb_writeback, writeback_sb_inodes,
// writeback_chunk_size and requeue_inode. The work loop is driven bio by bio here, each bio
// completing as it is sent (an instant disk), the clock moving `stepNs` a bio; the last test
// runs the real flusher in a simulation.
import { describe, expect, it } from 'vitest';
import { buildModel } from '../../src/engine/model';
import { createSimulation, runToEnd, runUntil, step } from '../../src/engine/simulation';
import type { TraceEvent } from '../../src/engine/events';
import { flusherDone, kickFlusher, wbWakeupDelayed } from '../../src/engine/workload/flusher';
import {
  PAGE_CACHE_DEFAULTS,
  createPageCache,
  dirtyPages,
  type PageCacheState,
} from '../../src/engine/workload/page-cache';
import {
  nextBio618,
  writebackChunkSize,
  type Flusher618,
} from '../../src/engine/workload/wb-writeback-618';
import { domainDirtyLimits } from '../../src/engine/workload/wb-state';
import {
  chunkNextBio,
  filePass,
  writebackDone,
  type WbChunk,
} from '../../src/engine/workload/writeback';
import { randWriteScenario } from '../helpers/rand-write';

const S = 1e9;
const MS = 1e6;
const HZ = 250;
const PERIOD = 5 * S; // dirty_writeback_centisecs 500
const P = 8; // sectors per page

function setup(memoryMiB: number, bw?: number) {
  const pc = createPageCache({ ...PAGE_CACHE_DEFAULTS, memoryMiB }, false);
  if (bw !== undefined) pc.wb!.avgWriteBandwidth = pc.wb!.writeBandwidth = bw;
  const fl: Flusher618 = { chunk: null, work618: null, lastOldFlushNs: 0 };
  return { pc, fl };
}

/** `pages` contiguous pages of `file` from page `first`, dirtied at `t`, in bios of 32 */
function dirty(pc: PageCacheState, file: number, first: number, pages: number, t: number) {
  dirtyPages(pc, file, first * P, pages * P, 32, t);
}

/** The flusher's work from `t0` until it sleeps: the passes (file, pages written). The bandwidth
 * estimate is not due meanwhile (its clock restarted at t0). */
function drive(pc: PageCacheState, fl: Flusher618, t0: number, stepNs = 0) {
  let now = t0;
  pc.wb!.bwTimeStampJ = Math.floor((t0 * HZ) / S);
  const passes: Array<{ file: number; chunk: WbChunk; t: number }> = [];
  for (;;) {
    const b = nextBio618(pc, fl, now, HZ, PERIOD);
    if (!b) break;
    if (fl.chunk !== passes.at(-1)?.chunk)
      passes.push({ file: fl.work618!.file, chunk: fl.chunk!, t: now });
    writebackDone(pc, b.first, b.count);
    now += stepNs;
  }
  return {
    passes: passes.map((p) => ({ file: p.file, pages: p.chunk.budget - p.chunk.left, t: p.t })),
    endNs: now,
  };
}

describe('kernel 6.18 writeback: writeback_sb_inodes gives each file its own chunk', () => {
  it('writeback_chunk_size: min(avg_write_bandwidth / 2, dirty_limit / DIRTY_SCOPE) + MIN_WRITEBACK_PAGES, rounded down to a multiple of 1024 — never under 1024, larger as the measured bandwidth grows', () => {
    // 1 GiB: thresh 52,416 pages (the ratio per PAGE_SIZE), an eighth 6,552
    expect(writebackChunkSize(setup(1024, 200).pc, Infinity)).toBe(1024); // 100 + 1024
    expect(writebackChunkSize(setup(1024, 4000).pc, Infinity)).toBe(2048); // 2000 + 1024
    expect(writebackChunkSize(setup(1024, 4400).pc, Infinity)).toBe(3072); // 2200 + 1024
    expect(writebackChunkSize(setup(1024, 25600).pc, Infinity)).toBe(7168); // 6552 + 1024
    // and at most the work's nr_pages (+ 1024)
    expect(writebackChunkSize(setup(1024, 25600).pc, 300)).toBe(1024);
    // a background pass over a 30,000-page file writes 3,072 pages at 4,400 pages/s measured
    const { pc, fl } = setup(1024, 4400);
    dirty(pc, 1, 0, 30000, 0);
    fl.lastOldFlushNs = 1 * S;
    const { passes } = drive(pc, fl, 1 * S);
    expect(passes[0]).toEqual({ file: 1, pages: 3072, t: 1 * S });
  });

  it('requeue_inode: a file that spent its chunk with pages left goes to b_more_io (requeue_io), keeping its dirtied time — the next queue_io puts it before a file dirtied meanwhile', () => {
    const { pc, fl } = setup(64); // chunk 1024; bg_thresh 1,636
    dirty(pc, 1, 0, 3000, 0);
    fl.lastOldFlushNs = 3 * S;
    // one pass, as far as its chunk: file 1 is on b_more_io, dirtied at 0 still
    const first = nextBio618(pc, fl, 3 * S, HZ, PERIOD)!;
    writebackDone(pc, first.first, first.count);
    dirty(pc, 3, 100000, 100, 3 * S); // dirtied during the pass: b_dirty
    while (fl.chunk!.left > 0) {
      const b = nextBio618(pc, fl, 3 * S, HZ, PERIOD)!;
      writebackDone(pc, b.first, b.count);
    }
    // the pass ends (requeue_inode); b_io is empty, so the next call's queue_io takes
    // b_more_io first, then b_dirty's expired files: file 1 again, before file 3 (redirty_tail
    // would have put it behind file 3 on b_dirty, dirtied now)
    nextBio618(pc, fl, 3 * S, HZ, PERIOD);
    expect(fl.work618!.file).toBe(1);
    expect(pc.io).toEqual([1, 3]);
    expect(pc.files.get(1)!.sinceNs).toBe(0);
  });

  it('requeue_inode: a file whose pass ended with its chunk not spent but pages left (all still under writeback, dirtied again) is redirtied (redirty_tail), not requeued', () => {
    const { pc, fl } = setup(64);
    dirty(pc, 1, 0, 2000, 0);
    fl.lastOldFlushNs = 3 * S;
    // its pages go under writeback and are dirtied again before they complete
    const b = nextBio618(pc, fl, 3 * S, HZ, PERIOD)!;
    dirty(pc, 2, 50000, 10, 2 * S);
    dirty(pc, 1, b.first, b.count, 3 * S); // REDIRTIED: no pass can write them now
    while (fl.chunk!.left > 0 && fl.chunk!.pass) nextBio618(pc, fl, 3 * S, HZ, PERIOD);
    // after its 1,024-page chunk the file went to b_more_io; its next pass finds 976 dirty
    // pages: written, the 32 under writeback left with the chunk not spent → b_dirty's tail
    drive(pc, fl, 3 * S);
    expect(pc.files.get(1)!.list).toBe('dirty');
    expect([...pc.files.keys()]).toEqual([1]);
    expect(pc.files.get(1)!.pages).toHaveLength(32);
  });
});

describe('kernel 6.18: the rules of requeue_inode, writeback_iter and wb_writeback read in a newer tree', () => {
  it('requeue_inode: a file that spent its chunk but was dirtied after the call’s dirtied_before (kupdate: now − dirty_expire_centisecs; inode_dirtied_after) goes back to b_dirty (redirty_tail), not to b_more_io', () => {
    const { pc, fl } = setup(1024, 200); // chunk 1,024; under the background threshold
    dirty(pc, 1, 0, 3000, 0);
    dirty(pc, 2, 100000, 3000, 29 * S);
    // file 2 was left on b_more_io by a background work (requeue_io keeps its dirtied time)
    pc.files.get(2)!.list = 'more';
    pc.moreIo.push(2);
    // kupdate at 30.2 s: dirtied_before 0.2 s; queue_io puts b_more_io (file 2) first
    fl.lastOldFlushNs = 25 * S;
    const { passes } = drive(pc, fl, 30.2 * S);
    expect(passes[0]).toEqual({ file: 2, pages: 1024, t: 30.2 * S });
    // file 2 (dirtied at 29 s, after 0.2 s) waits on b_dirty with the rest of its pages
    // (requeue_io would have kept it on b_more_io and the work written all 3,000); file 1,
    // expired, is written in full
    expect(pc.files.get(2)!.list).toBe('dirty');
    expect(pc.files.get(2)!.pages).toHaveLength(3000 - 1024);
    expect(pc.files.get(2)!.sinceNs).toBe(29 * S);
    expect(pc.files.has(1)).toBe(false);
  });

  it('writeback_iter: a pass does not wrap to page 0 (since 4.20) — one that reaches the file’s end with its chunk left sets writeback_index to 0, and the pages before where it began wait for the next pass', () => {
    const { pc, fl } = setup(1024, 200);
    dirty(pc, 1, 0, 100, 0);
    dirty(pc, 1, 2000, 100, 0);
    pc.files.get(1)!.cursor = 1000; // writeback_index: an earlier pass stopped at page 1000
    fl.lastOldFlushNs = 25 * S;
    const { passes } = drive(pc, fl, 30.2 * S);
    // first pass: pages 2000–2099 to the end, then redirty_tail (chunk not spent); the next
    // call's queue_io takes it again: pages 0–99 from writeback_index 0
    expect(passes.map((p) => p.pages)).toEqual([100, 100]);
    expect(pc.files.has(1)).toBe(false);
  });

  it('wb_writeback: a call without progress ends the work only once the work has called queue_io (“queued”) — a kupdate work that begins with b_io holding a file it cannot write goes on to queue_io and writes the expired files', () => {
    const { pc, fl } = setup(1024, 200);
    // file 1: its 32 pages under writeback and dirtied again (a pass can write none), left on
    // b_io by an earlier work
    dirty(pc, 1, 0, 32, 0);
    const c = filePass(pc, 1, 1024, 0);
    expect(chunkNextBio(pc, c, new Set(), 0)!.count).toBe(32);
    expect(chunkNextBio(pc, c, new Set(), 0)).toBeNull();
    dirty(pc, 1, 0, 32, 1 * S);
    pc.files.get(1)!.list = 'io';
    pc.io = [1];
    dirty(pc, 2, 1000, 64, 0); // expired by 31 s, on b_dirty
    fl.lastOldFlushNs = 26 * S;
    const { passes } = drive(pc, fl, 31 * S);
    // the first call (over b_io's file 1) writes nothing; not yet queued: on to queue_io
    expect(passes).toEqual([{ file: 2, pages: 64, t: 31 * S }]);
    expect(pc.files.has(2)).toBe(false);
    expect(pc.files.get(1)!.pages).toHaveLength(32);
  });
});

describe('kernel 6.18 wb_writeback: when a work stops', () => {
  it('HZ/10 per writeback_sb_inodes call: background writeback checks wb_over_bg_thresh only between calls, so a call that takes less than 100 ms writes every file on b_io past the threshold', () => {
    const { pc, fl } = setup(64); // bg_thresh 1,636
    for (let f = 0; f < 20; f++) dirty(pc, f, f * 10000, 200, 0); // 4,000 pages
    fl.lastOldFlushNs = 1 * S;
    drive(pc, fl, 1 * S, 0); // the clock stands still: one call walks all of b_io
    expect(pc.dirty).toBe(0);
  });

  it('wb_over_bg_thresh: background writeback stops once the dirty pages are at or under dirty_background_ratio, checked every HZ/10 of writing', () => {
    const { pc, fl } = setup(64);
    const bg = domainDirtyLimits(pc).bgThresh;
    expect(bg).toBe(1636);
    for (let f = 0; f < 20; f++) dirty(pc, f, f * 10000, 200, 0);
    fl.lastOldFlushNs = 1 * S;
    // 10 ms a bio (32 pages; 7 bios a file): a call returns after the file that takes it past
    // 100 ms, its second (400 pages, 140 ms); the work ends at the first check under bg_thresh
    const { passes } = drive(pc, fl, 1 * S, 10 * MS);
    expect(pc.dirty).toBeLessThanOrEqual(bg);
    expect(pc.dirty).toBeGreaterThan(bg - 400);
    expect(passes.length).toBeLessThan(20);
  });

  it('kupdate (wb_check_old_data_flush): only files dirtied dirty_expire_centisecs ago, dirtied_before recomputed for every call — a file that expires while the work runs joins it', () => {
    const { pc, fl } = setup(1024, 200); // under the background threshold throughout
    dirty(pc, 1, 0, 5000, 0);
    dirty(pc, 2, 100000, 64, 0.5 * S);
    dirty(pc, 3, 200000, 64, 20 * S);
    // the first wake-up with the period passed: kupdate at 30.2 s, then nothing (under bg)
    fl.lastOldFlushNs = 25 * S;
    const { passes } = drive(pc, fl, 30.2 * S, 10 * MS);
    const files = passes.map((p) => p.file);
    expect(files).toContain(1);
    // file 2 expired at 30.5 s, during the work (5,000 pages, 32 a bio, 10 ms each)
    expect(files).toContain(2);
    expect(passes.find((p) => p.file === 2)!.t).toBeGreaterThanOrEqual(30.5 * S);
    expect(files).not.toContain(3);
    expect(pc.files.has(3)).toBe(true);
    expect(pc.files.has(1) || pc.files.has(2)).toBe(false);
  });
});

describe('the kernel 6.18 flusher in a simulation', () => {
  it('its first pass over a file is writeback_chunk_size pages: 7,168 with 1 GiB before the bandwidth is measured (INIT_BW 100 MB/s), where the old flusher took 1,024', () => {
    const s = randWriteScenario(
      { memoryMiB: 1024 },
      { extra: { durationMs: 1 }, stopMs: 60000, iosched: { name: 'mq-deadline', kernel: '6.18' } },
    );
    const queued: Array<{ page: number; pages: number }> = [];
    const sim = createSimulation(buildModel(s, s.seed), {
      trace: (e: TraceEvent) => {
        if (e.action === 'Q') queued.push({ page: e.sector / P, pages: e.nSectors / P });
      },
      service: () => {},
      decision: () => {},
    });
    const w = sim.state.workload;
    for (const i of w.instances) if (i.gen) i.gen.endNs = 0;
    const pc = w.pageCache!;
    // file 1: 30,000 contiguous pages, over bg_thresh (26,214); then a small file 2
    dirtyPages(pc, 1, 0, 30000 * P, 32, 0);
    dirtyPages(pc, 2, 10 ** 6 * P, 64 * P, 32, 0);
    kickFlusher(sim, 0);
    runToEnd(sim);
    const file1 = queued.filter((q) => q.page < 30000);
    const before2 = queued.findIndex((q) => q.page >= 10 ** 6);
    expect(before2).toBeGreaterThan(0);
    const pages = queued.slice(0, before2).reduce((n, q) => n + q.pages, 0);
    expect(pages).toBe(7168);
    expect(file1.reduce((n, q) => n + q.pages, 0)).toBe(30000);
  });
});

describe('kernel 6.18: how the flusher re-arms (wb_workfn, wb_wakeup_delayed)', () => {
  it('wb_wakeup_delayed: the flusher re-arms after its work only while the disk has dirty files (wb_has_dirty_io); idle, it is woken dirty_writeback_centisecs after a file is dirtied (__mark_inode_dirty), not on a fixed 5 s grid', () => {
    const s = randWriteScenario(
      { memoryMiB: 1024 },
      { extra: { durationMs: 1 }, stopMs: 60000, iosched: { name: 'mq-deadline', kernel: '6.18' } },
    );
    const queued: number[] = [];
    const sim = createSimulation(buildModel(s, s.seed), {
      trace: (e: TraceEvent) => {
        if (e.action === 'Q') queued.push(e.tNs);
      },
      service: () => {},
      decision: () => {},
    });
    const w = sim.state.workload;
    for (const i of w.instances) if (i.gen) i.gen.endNs = 0;
    // nothing dirty until 2.3 s: the flusher sleeps; then one file, 64 pages (as a write() does)
    runUntil(sim, 2.3e9);
    expect(w.flusher!.armed).toBe(false);
    dirtyPages(w.pageCache!, 1, 0, 64 * P, 32, 2.3e9);
    wbWakeupDelayed(sim, 2.3e9);
    expect(w.flusher!.armedAtNs).toBe(7.3e9);
    runToEnd(sim);
    // wakes every 5 s from 7.3 s while the file is dirty; kupdate writes it once it is
    // dirty_expire_centisecs old: at 32.3 s (on a grid from 5 s: at 35 s)
    expect(queued.length).toBeGreaterThan(0);
    expect(Math.min(...queued)).toBe(32.3e9);
    // clean again: no wake-up is armed
    expect(w.pageCache!.files.size).toBe(0);
    expect(w.flusher!.armed).toBe(false);
  });
});

describe('kernel 6.18: what does not wake the flusher', () => {
  it('__folio_end_writeback wakes no flusher (wb_inode_writeback_end queues only the bandwidth update): a completion with the dirty pages over bg_thresh leaves it asleep until its delayed wake or a writer’s balance_dirty_pages call', () => {
    const s = randWriteScenario(
      { memoryMiB: 16 }, // bg_thresh 409
      { extra: { durationMs: 1 }, iosched: { name: 'mq-deadline', kernel: '6.18' } },
    );
    const sim = createSimulation(buildModel(s, s.seed));
    const w = sim.state.workload;
    const pc = w.pageCache!;
    dirtyPages(pc, 1, 0, 8 * P, 8, 0);
    wbWakeupDelayed(sim, 0); // the first dirty file: its delayed wake at 5 s
    // its 8 pages under writeback (a pass), then 500 more dirty: over bg_thresh
    const c = filePass(pc, 1, 1024, 0);
    expect(chunkNextBio(pc, c, new Set(), 0)!.count).toBe(8);
    dirtyPages(pc, 2, 100000 * P, 500 * P, 32, 0.5e9);
    const bio = { sector: 0, nSectors: 8 * P } as Parameters<typeof flusherDone>[1];
    flusherDone(sim, bio);
    expect(pc.writeback).toBe(0);
    expect(w.flusher!.armedAtNs).toBe(5e9);
  });
});

describe('kernel 6.18: do_writepages and the bandwidth estimate', () => {
  it('do_writepages: wb_update_bandwidth runs once writepages has returned — the last pass of a work that took over BANDWIDTH_INTERVAL updates the estimate at its end (not only the next pass’s start)', () => {
    const { pc, fl } = setup(64);
    dirty(pc, 1, 0, 700, 0);
    fl.lastOldFlushNs = 25 * S;
    // kupdate at 30.2 s: one pass, 22 bios 10 ms apart, then the work ends (nothing left)
    const { passes, endNs } = drive(pc, fl, 30.2e9, 10 * MS);
    expect(passes).toEqual([{ file: 1, pages: 700, t: 30.2e9 }]);
    // updated when the pass was over (at 30.42 s: 55 jiffies > BANDWIDTH_INTERVAL, 50)
    expect(pc.wb!.bwTimeStampJ).toBe(Math.floor((endNs * HZ) / S));
    expect(pc.wb!.bwTimeStampJ).toBeGreaterThan(Math.floor((30.2e9 * HZ) / S));
  });
});

describe('kernel 6.18: __mark_inode_dirty during the flusher’s own pass', () => {
  it('__mark_inode_dirty: a page of the file the flusher is writing (all its pages sent), dirtied again, queues no delayed wake-up — the inode is still I_DIRTY_PAGES under I_SYNC; the wake-up comes from wb_workfn’s end', () => {
    const s = randWriteScenario(
      { memoryMiB: 1024 },
      { extra: { durationMs: 1 }, stopMs: 60000, iosched: { name: 'mq-deadline', kernel: '6.18' } },
    );
    const sim = createSimulation(buildModel(s, s.seed));
    const w = sim.state.workload;
    for (const i of w.instances) if (i.gen) i.gen.endNs = 0;
    const pc = w.pageCache!;
    const fl = w.flusher!;
    dirtyPages(pc, 1, 0, 8 * P, 8, 0);
    wbWakeupDelayed(sim, 0);
    // at 30 s the kupdate work writes file 1: its one bio sent, the pass not yet over
    while (!(fl.chunk?.pass && pc.files.size === 0) && step(sim));
    expect(sim.state.now).toBe(30e9);
    expect(fl.running618).toBe(true);
    expect(fl.chunk?.pass?.file).toBe(1);
    expect(pc.files.size).toBe(0);
    dirtyPages(pc, 1, 0, 8 * P, 8, 30e9); // dirtied again under writeback
    wbWakeupDelayed(sim, 30e9);
    expect(fl.delayedNs).toBe(-1);
  });
});
