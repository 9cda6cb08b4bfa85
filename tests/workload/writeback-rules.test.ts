// 2.6.32's writeback rules checked against the kernel's source (mm/page-writeback.c,
// fs/fs-writeback.c): who starts background writeback and when it stops, what a pass
// leaves behind (writeback_single_inode's requeue_io / redirty_tail), dirtyable memory.
import { describe, expect, it } from 'vitest';
import { buildModel } from '../../src/engine/model';
import { createSimulation, runToEnd } from '../../src/engine/simulation';
import { runScenario } from '../../src/engine/run';
import type { TraceEvent } from '../../src/engine/events';
import {
  balanceDirtyPages,
  dirtyLimits,
  newBdpCall,
} from '../../src/engine/workload/balance-dirty';
import { createPropLocal } from '../../src/engine/workload/bdi-stats';
import { onWriteback, startBackgroundWriteback } from '../../src/engine/workload/flusher';
import {
  PAGE_CACHE_DEFAULTS,
  createPageCache,
  dirtyPages,
  globalLimits,
} from '../../src/engine/workload/page-cache';
import { chunkNextBio, filePass, newChunk, startPass } from '../../src/engine/workload/writeback';
import { sendChunk, writeChunk } from '../helpers/writeback';
import { randWriteScenario } from '../helpers/rand-write';

const S = 1e9;

/** one fio rand-write thread on 16 MiB of page cache (background threshold 409 pages,
 * ratelimit_pages 128) writing for `durationMs` (2 µs a page: 500 pages a millisecond) */
function briefWriter(durationMs: number, stopMs: number) {
  const s = randWriteScenario({ memoryMiB: 16 }, { extra: { durationMs }, stopMs, threads: 1 });
  const queued: TraceEvent[] = [];
  const sink = {
    trace: (e: TraceEvent) => {
      if (e.action === 'Q') queued.push({ ...e });
    },
    service: () => {},
    decision: () => {},
  };
  return { ...runScenario(s, { sink }), queued };
}

describe('who starts background writeback (2.6.32)', () => {
  it('bdi_start_writeback only from balance_dirty_pages: 450 pages dirtied (over the background threshold of 409, under the next ratelimit check at 512) wait for kupdate — the flusher’s dirty_writeback_centisecs wake-ups do not start background writeback', () => {
    const r = briefWriter(0.9, 40000);
    const pc = r.summary.pageCache!;
    expect(pc.pagesDirtied).toBe(450);
    expect(pc.pagesDirtied).toBeGreaterThan(409);
    // wb_do_writeback with no work item: wb_check_old_data_flush only, and nothing is 30 s
    // old before the 30 s wake-up
    expect(r.queued[0]!.tNs).toBe(30 * S);
    expect(pc.pagesWritten).toBe(450);
  });

  it('over_bground_thresh: background writeback goes on while the dirty pages are at or above dirty_background_ratio (>=), so with exactly the threshold dirty it writes one chunk (MAX_WRITEBACK_PAGES across the files)', () => {
    const s = randWriteScenario({ memoryMiB: 16 }, { extra: { durationMs: 1 }, stopMs: 20000 });
    const sim = createSimulation(buildModel(s, s.seed));
    const w = sim.state.workload;
    // no writer: the threads start after the run ends
    for (const i of w.instances) if (i.gen) i.gen.endNs = 0;
    const pc = w.pageCache!;
    const { background } = globalLimits(pc);
    // one page a file, each file dirtied a second after the last (none expires in 20 s)
    for (let f = 0; f < background; f++) dirtyPages(pc, f, f * 1000 * 8, 8, 1, 0);
    expect(pc.dirty).toBe(background);
    startBackgroundWriteback(sim, 0);
    runToEnd(sim);
    // one chunk: 1,024 pages across as many files as it takes — all 409 (one page each);
    // then dirty < background: the work is done
    expect(pc.pagesWritten).toBe(background);
    expect(pc.dirty).toBe(0);
  });

  it('the flusher busy with a kupdate round misses the wake-up (wake_up_process on a running task); the work item waits for its next wake-up', () => {
    const s = randWriteScenario({ memoryMiB: 16 }, { extra: { durationMs: 1 } });
    const sim = createSimulation(buildModel(s, s.seed));
    const fl = sim.state.workload.flusher!;
    fl.kupdate = true;
    const seq = fl.armSeq;
    startBackgroundWriteback(sim, 0);
    expect(fl.bgQueued).toBe(true);
    expect(fl.armSeq).toBe(seq); // not woken
    fl.kupdate = false;
    startBackgroundWriteback(sim, 0);
    expect(fl.armSeq).toBe(seq + 1); // asleep out its period: woken now
    expect(fl.armedAtNs).toBe(0);
  });
});

describe('a file another thread is writing back (I_SYNC, 2.6.32)', () => {
  it('wb_writeback: a background pass that finds its only file under a writer’s writeback (requeue_io, more_io) waits for it (inode_wait_for_writeback) and goes on as soon as the writer is done with it, not a period later', () => {
    const s = randWriteScenario({ memoryMiB: 16 }, { extra: { durationMs: 1 } });
    const sim = createSimulation(buildModel(s, s.seed));
    const w = sim.state.workload;
    const pc = w.pageCache!;
    const fl = w.flusher!;
    dirtyPages(pc, 7, 0, 600 * 8, 32, 0); // over the background threshold (409)
    // thread 0 in balance_dirty_pages, about to write 192 pages of file 7 itself
    const writer = w.instances[0]!.gen!.writer;
    writer.bdp = newBdpCall(192);
    writer.bdp.chunk = newChunk(pc, 192, false, Infinity, 0);
    writer.bdp.chunk.pass = startPass(pc, 7); // file 7 under its I_SYNC
    writer.bdp.phase = 'write';
    startBackgroundWriteback(sim, 0);
    onWriteback(sim, fl.armSeq, 0);
    expect(fl.waitFile).toBe(7);
    expect(fl.armed).toBe(false);
    expect(balanceDirtyPages(sim, writer, 0, null, 1e6)).toBe('done');
    expect(fl.waitFile).toBe(-1);
    expect(fl.armed && fl.armedAtNs).toBe(1e6);
  });
});

describe('what a writeback pass leaves behind (writeback_single_inode, 2.6.32)', () => {
  /** file 1 (1,500 pages, dirtied at 0 s) and file 2 (1 page, dirtied at 10 s) */
  function twoFiles() {
    const pc = createPageCache({ ...PAGE_CACHE_DEFAULTS, memoryMiB: 64 });
    dirtyPages(pc, 1, 0, 1500 * 8, 1, 0);
    dirtyPages(pc, 2, 1e6, 8, 1, 10 * S);
    return pc;
  }

  it('redirty_tail: a background pass that leaves pages dirty puts the file behind one dirtied meanwhile, dirtied now — kupdate leaves it dirty_expire_centisecs more', () => {
    const pc = createPageCache({ ...PAGE_CACHE_DEFAULTS, memoryMiB: 64 });
    dirtyPages(pc, 1, 0, 1500 * 8, 1, 0);
    const c = newChunk(pc, 1024, false, Infinity, 20 * S); // queue_io: file 1 to b_io
    chunkNextBio(pc, c, new Set(), 20 * S);
    dirtyPages(pc, 2, 1e6, 8, 1, 21 * S); // file 2 on b_dirty
    sendChunk(pc, c, 22 * S);
    expect([...pc.files.keys()]).toEqual([2, 1]);
    expect(pc.files.get(1)!.sinceNs).toBe(22 * S);
    // a kupdate round at 51 s (files dirtied 21 s or before): file 2 only
    expect(writeChunk(pc, { beforeNs: 21 * S, nowNs: 51 * S })).toHaveLength(1);
    expect(writeChunk(pc, { beforeNs: 21 * S, nowNs: 51 * S })).toEqual([]);
  });

  it('redirty_tail keeps the dirtied time when no file on b_dirty was dirtied after it (the later one is on b_io)', () => {
    const pc = twoFiles();
    writeChunk(pc, { nowNs: 20 * S }); // b_io: 1, 2; file 1's first 1,024, then nr_to_write 0
    expect(pc.files.get(1)!.sinceNs).toBe(0);
    expect([pc.io, pc.files.get(1)!.list]).toEqual([[2], 'dirty']);
  });

  it('requeue_io: a kupdate pass that used up nr_to_write keeps the file’s dirtied time, on b_more_io', () => {
    const pc = twoFiles();
    writeChunk(pc, { beforeNs: 15 * S, nowNs: 20 * S });
    expect(pc.files.get(1)!.sinceNs).toBe(0);
    expect([pc.moreIo, pc.io]).toEqual([[1], [2]]);
  });

  it('redirty_tail: a kupdate pass with nr_to_write left that still leaves dirty pages (dirtied again while their write was out) redirties the file', () => {
    const pc = twoFiles();
    // its first 1,024 pages out (kupdate: requeue_io); 10 of them dirtied again under
    // writeback; file 3 dirtied at 21 s
    writeChunk(pc, { beforeNs: 15 * S, nowNs: 20 * S });
    dirtyPages(pc, 1, 0, 10 * 8, 1, 21 * S);
    dirtyPages(pc, 3, 2e6, 8, 1, 21 * S);
    // the next call: file 2 (left on b_io), then file 1 (b_more_io, once b_io is empty):
    // its other 476 (nr_to_write left); its 10 still under writeback stay dirty
    expect(writeChunk(pc, { beforeNs: 15 * S, nowNs: 22 * S })).toHaveLength(1);
    expect(writeChunk(pc, { beforeNs: 15 * S, nowNs: 22 * S })).toHaveLength(476);
    expect([...pc.files.keys()]).toEqual([3, 1]);
    expect(pc.files.get(1)!.sinceNs).toBe(22 * S);
    expect(pc.files.get(1)!.pages).toHaveLength(10);
  });

  it('kernel 6.18 (requeue_inode): any pass that spent its nr_to_write requeues the file on b_more_io, keeping its dirtied time — not only kupdate’s (unless dirtied after the call’s dirtied_before: see writeback-618.test.ts)', () => {
    const pc = createPageCache({ ...PAGE_CACHE_DEFAULTS, memoryMiB: 64 }, false);
    dirtyPages(pc, 1, 0, 1500 * 8, 1, 0);
    dirtyPages(pc, 2, 1e6, 8, 1, 10 * S);
    sendChunk(pc, filePass(pc, 1, 1024, 20 * S), 20 * S);
    expect(pc.files.get(1)!.sinceNs).toBe(0);
    expect(pc.moreIo).toEqual([1]);
  });
});

describe('get_dirty_limits (2.6.32)', () => {
  it('determine_dirtyable_memory is the free and reclaimable pages + 1: with 1 GiB dirty_ratio 20% is 52,429 pages, not 52,428', () => {
    const pc = createPageCache({ ...PAGE_CACHE_DEFAULTS, memoryMiB: 1024 });
    expect(globalLimits(pc)).toEqual({ background: 26214, dirty: 52429 });
    expect(dirtyLimits(pc, createPropLocal()).dirty).toBe(52429);
  });
});
