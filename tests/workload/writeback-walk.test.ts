// How 2.6.32 walks the page cache when it writes back (src/engine/workload/writeback.ts,
// wb-writeback.ts): write_cache_pages looks a file's dirty pages up as it goes (a pagevec at a
// time, from writeback_index, wrapping: range_cyclic), and one writeback_inodes_wb call's
// nr_to_write is shared by the files it visits on b_io. Each test runs the real flusher or
// balance_dirty_pages in a simulation.
import { describe, expect, it } from 'vitest';
import { buildModel } from '../../src/engine/model';
import { createSimulation, runToEnd, step } from '../../src/engine/simulation';
import { createHeap } from '../../src/engine/sim/heap';
import type { TraceEvent } from '../../src/engine/events';
import { startBackgroundWriteback } from '../../src/engine/workload/flusher';
import { newBdpCall } from '../../src/engine/workload/balance-dirty';
import { createPropLocal } from '../../src/engine/workload/bdi-stats';
import { generatorRelease } from '../../src/engine/workload/generators/runtime';
import { dirtyPages, dropPages } from '../../src/engine/workload/page-cache';
import { randWriteScenario } from '../helpers/rand-write';

const P = 8; // sectors per page
const S = 1e9;

/** fio rand-write's threads with `memoryMiB` of page cache, kept from writing (the test
 * dirties the pages); `nrRequests`: the request pool. The bios queued: page, time, pid. */
function quietSim(memoryMiB: number, stopMs: number, nrRequests?: number) {
  const iosched = {
    name: 'deadline',
    ...(nrRequests ? { queue: { nr_requests: nrRequests } } : {}),
  };
  const s = randWriteScenario({ memoryMiB }, { extra: { durationMs: 1 }, stopMs, iosched });
  const queued: Array<{ page: number; pages: number; t: number; pid: number }> = [];
  const sim = createSimulation(buildModel(s, s.seed), {
    trace: (e: TraceEvent) => {
      if (e.action === 'Q')
        queued.push({ page: e.sector / P, pages: e.nSectors / P, t: e.tNs, pid: e.pid });
    },
    service: () => {},
    decision: () => {},
  });
  const w = sim.state.workload;
  for (const i of w.instances) if (i.gen) i.gen.endNs = 0;
  const written = (page: number) => queued.find((q) => page >= q.page && page < q.page + q.pages);
  return { sim, pc: w.pageCache!, fl: w.flusher!, queued, written };
}

/** pages first, first + step, … (count of them) of `file`, dirtied at `t` */
function dirtyEvery(
  pc: ReturnType<typeof quietSim>['pc'],
  file: number,
  first: number,
  count: number,
  stepPages: number,
  t = 0,
) {
  for (let k = 0; k < count; k++) dirtyPages(pc, file, (first + k * stepPages) * P, P, 1, t);
}

/** Run the simulation until the flusher sleeps in get_request (no request free). */
function untilFlusherSleeps(sim: ReturnType<typeof quietSim>['sim']) {
  const fl = sim.state.workload.flusher!;
  while (!fl.sleeping && step(sim)) {
    /* its bios */
  }
  expect(fl.sleeping).toBe(true);
  return sim.state.now;
}

/** Run the simulation until the flusher's pass over `file` ends. */
function untilPassEnds(sim: ReturnType<typeof quietSim>['sim'], file: number) {
  const fl = sim.state.workload.flusher!;
  while (fl.chunk?.pass?.file === file && step(sim)) {
    /* its bios */
  }
}

/** Written by the kupdate round at 30 s (files dirtied at or before 0 s). */
function byKupdateAt30(q: { t: number } | undefined) {
  expect(q!.t).toBeGreaterThanOrEqual(30 * S);
  expect(q!.t).toBeLessThan(31 * S);
}

describe('write_cache_pages looks the pages up as it goes (2.6.32)', () => {
  it('pagevec_lookup_tag from the cursor: a page dirtied ahead of the flusher while it sleeps in get_request is written in the same pass; one dirtied behind it waits for the next (kupdate, 30 s on)', () => {
    // 16 MiB: background threshold 409 pages; file 1: 500 pages, every other one (a bio each)
    const { sim, pc, written } = quietSim(16, 40000);
    dirtyEvery(pc, 1, 0, 500, 2);
    startBackgroundWriteback(sim, 0);
    const t = untilFlusherSleeps(sim); // 128 requests out: its position is near page 256
    expect(written(600)).toBeUndefined();
    dirtyPages(pc, 1, 1001 * P, P, 1, t); // ahead of it
    dirtyPages(pc, 1, 1 * P, P, 1, t); // behind it
    runToEnd(sim);
    // the pass took page 1001 when it got there, long before the flusher's next wake-up (5 s)
    expect(written(1001)!.t).toBeLessThan(5 * S);
    // page 1 waits: the pass began at page 0 (no wrap), and then 1 page dirty < 409 ends the
    // work; kupdate writes it once 30 s old
    expect(written(1)!.t).toBeGreaterThan(30 * S);
  });

  it('range_cyclic: a pass from writeback_index W wraps to page 0 and ends before W — a page dirtied meanwhile below W joins it, one behind the flusher but at or above W waits', () => {
    const { sim, pc, written } = quietSim(16, 40000);
    dirtyEvery(pc, 1, 0, 500, 2);
    pc.files.get(1)!.cursor = 400; // where its last pass stopped
    startBackgroundWriteback(sim, 0);
    const t = untilFlusherSleeps(sim); // near page 400 + 256
    expect(written(0)).toBeUndefined();
    dirtyPages(pc, 1, 101 * P, P, 1, t); // below W: the wrap's sweep [0, W − 1] finds it
    dirtyPages(pc, 1, 501 * P, P, 1, t); // behind the flusher, above W
    runToEnd(sim);
    expect(written(101)!.t).toBeLessThan(5 * S);
    expect(written(0)!.t).toBeLessThan(5 * S); // the wrap wrote the file's first pages too
    expect(written(501)!.t).toBeGreaterThan(30 * S);
  });
});

describe('writeback_index lives with the inode (2.6.32)', () => {
  it('write_cache_pages: writeback_index (done_index) stays with a file while it is clean — dirtied again, it is swept from where its last pass stopped, wrapping to page 0; a deleted file’s new inode starts at 0', () => {
    const { sim, pc, queued } = quietSim(16, 40000);
    dirtyEvery(pc, 1, 0, 500, 2);
    startBackgroundWriteback(sim, 0);
    while (sim.state.now < 1 * S && step(sim)) {
      /* the pass writes pages 0…998 and the file is clean */
    }
    expect(pc.files.has(1)).toBe(false);
    dirtyPages(pc, 1, 2 * P, P, 1, sim.state.now);
    dirtyPages(pc, 1, 1001 * P, P, 1, sim.state.now);
    expect(pc.files.get(1)!.cursor).toBe(999);
    runToEnd(sim); // kupdate at 35 s
    const at = (page: number) => queued.findIndex((q) => q.page === page && q.t > 30 * S);
    expect(at(1001)).toBeGreaterThanOrEqual(0);
    expect(at(1001)).toBeLessThan(at(2));
    // deleted (postmark's unlink): the next file there is a new inode
    dropPages(pc, 0, 2000 * P, 1);
    dirtyPages(pc, 1, 5 * P, P, 1, sim.state.now);
    expect(pc.files.get(1)!.cursor).toBe(0);
  });
});

describe('a file dirtied while its pass is on (I_SYNC, 2.6.32)', () => {
  it('__mark_inode_dirty on an I_SYNC inode: a file its pass cleaned and a writer dirtied again before the pass ended keeps its dirtied_when (redirty_tail with b_dirty empty) — kupdate writes the new page at 30 s, not 30 s after the new dirtying', () => {
    const { sim, pc, fl, written } = quietSim(16, 40000);
    dirtyEvery(pc, 1, 0, 500, 2);
    startBackgroundWriteback(sim, 0);
    while (pc.files.has(1) && step(sim)) {
      /* until its last dirty page is under writeback */
    }
    // the pass is still on (its bios go out one by one; the last is not yet sent)
    expect(fl.chunk?.pass?.file).toBe(1);
    const t = sim.state.now;
    expect(t).toBeGreaterThan(0);
    dirtyPages(pc, 1, 1 * P, P, 1, t); // behind the pass: it waits for kupdate
    untilPassEnds(sim, 1);
    expect(pc.files.get(1)!.sinceNs).toBe(0);
    runToEnd(sim);
    byKupdateAt30(written(1));
  });

  it('I_DIRTY_PAGES set again under I_SYNC: a file whose pass also wrote the page dirtied during it stays on b_dirty (redirty_tail), clean, its dirtied_when kept — a page dirtied later is written by kupdate at 30 s, not 30 s after it', () => {
    const { sim, pc, written } = quietSim(16, 40000);
    dirtyEvery(pc, 1, 0, 500, 2);
    startBackgroundWriteback(sim, 0);
    const t = untilFlusherSleeps(sim);
    dirtyPages(pc, 1, 1001 * P, P, 1, t); // ahead of the pass: written by it
    untilPassEnds(sim, 1);
    expect(written(1001)).toBeDefined();
    // on b_dirty with no dirty page, dirtied at 0 s
    expect(pc.files.get(1)).toMatchObject({ sinceNs: 0, pages: [], list: 'dirty' });
    while (sim.state.now < 1 * S && step(sim)) {
      /* its writes complete */
    }
    dirtyPages(pc, 1, 3 * P, P, 1, sim.state.now); // already I_DIRTY: dirtied_when stays 0
    runToEnd(sim);
    byKupdateAt30(written(3));
    expect(pc.files.has(1)).toBe(false); // the kupdate pass found it clean
  });
});

describe('one writeback_inodes_wb call: nr_to_write shared by the files it visits (2.6.32)', () => {
  it('wb_writeback: a chunk of MAX_WRITEBACK_PAGES spans several small files; over_bground_thresh is checked between chunks, not between files', () => {
    // eight files of 100 pages (800 dirty, background threshold 409): one chunk writes all
    // eight, then the dirty pages are under the threshold (one file a pass would stop at 400)
    const { sim, pc } = quietSim(16, 10000);
    for (let f = 0; f < 8; f++) dirtyPages(pc, f, f * 100000 * P, 100 * P, 32, 0);
    startBackgroundWriteback(sim, 0);
    runToEnd(sim);
    expect(pc.pagesWritten).toBe(800);
    expect(pc.dirty).toBe(0);
  });

  it('wb_writeback: a chunk that walked b_io with nr_to_write left and no more_io ends the work — background writeback too, though still over dirty_background_ratio (a file dirtied meanwhile is on b_dirty, not b_io)', () => {
    const { sim, pc, written } = quietSim(16, 20000);
    dirtyEvery(pc, 1, 0, 600, 2); // 600 bios: the flusher sleeps for requests
    startBackgroundWriteback(sim, 0);
    const t = untilFlusherSleeps(sim); // its chunk: file 1 only (b_io when it began)
    dirtyPages(pc, 2, 100000 * P, 500 * P, 32, t);
    runToEnd(sim);
    expect(written(599 * 2)).toBeDefined();
    // 600 of 1,024 written, b_more_io empty: the work ends with 500 dirty (≥ 409); file 2
    // waits for kupdate (30 s) or for balance_dirty_pages to queue background writeback again
    expect(written(100000)).toBeUndefined();
    expect(pc.dirty).toBe(500);
  });

  it('writeback_single_inode: kupdate stops at nr_to_write = 0 mid-file and requeues the file (requeue_io, b_more_io, its dirtied time kept): the same round writes the rest once b_io is walked, past a file not yet expired', () => {
    // 64 MiB (background threshold 1,638 pages): file 1 1,500 pages and file 2 one, dirtied at
    // 0 s; file 3 one page dirtied at 20 s. The kupdate round at 30 s (files 30 s old): its
    // first chunk 1,024 pages of file 1; the next file 2, then file 1's 476 from b_more_io
    const { sim, pc, queued, written } = quietSim(64, 34000);
    dirtyPages(pc, 1, 0, 1500 * P, 32, 0);
    dirtyPages(pc, 2, 1e6 * P, P, 32, 0);
    dirtyPages(pc, 3, 2e6 * P, P, 32, 20 * S);
    runToEnd(sim);
    expect(queued[0]!.t).toBe(30 * S);
    expect(written(1499)!.t).toBeLessThan(31 * S);
    // file 2 before file 1's rest
    expect(queued.indexOf(written(1e6)!)).toBeLessThan(queued.indexOf(written(1024)!));
    expect(written(2e6)).toBeUndefined(); // not expired
    expect(pc.files.has(1)).toBe(false);
  });

  it('writeback_single_inode: background writeback stopping mid-file redirties it (redirty_tail) keeping its dirtied time when no file on b_dirty was dirtied after it (the later one is on b_io); the next chunk takes that one first', () => {
    // file 1 (1,500 pages at 0 s), file 2 (one page at 1 s): one chunk (1,024 of file 1),
    // then dirty 477 ≥ 409: the next chunk takes file 2 (left on b_io), then file 1
    const { sim, pc, queued } = quietSim(16, 20000);
    dirtyPages(pc, 1, 0, 1500 * P, 32, 0);
    dirtyPages(pc, 2, 1e6 * P, P, 32, 1 * S);
    startBackgroundWriteback(sim, 0);
    const fl = sim.state.workload.flusher!;
    while (step(sim) && queued.filter((q) => q.page < 1500).length < 32) {
      /* file 1's first chunk */
    }
    while (fl.chunk?.pass?.file === 1 && step(sim)) {
      /* its pass ends */
    }
    expect(pc.files.get(1)!.sinceNs).toBe(0);
    // the next chunk's queue_io: file 2 (left on b_io), then file 1 (from b_dirty)
    expect(pc.io).toEqual([2, 1]);
  });
});

describe('balance_dirty_pages: writeback_inodes_wbc with nr_to_write = write_chunk (2.6.32)', () => {
  it('a writer’s write_chunk is spent across files, on the pages it writes as it goes: pages dirtied while it sleeps in get_request in a file it has not reached yet join its chunk', () => {
    // 16 MiB, the disk's share 0 as at boot (bdi_thresh 0), 4 requests; files 1–3 100 pages
    // each (every other page: a bio each), file 4 400: 700 dirty, over (409 + 819) / 2
    const { sim, pc, queued } = quietSim(16, 60000, 4);
    pc.bdi.bdiCompletions = createPropLocal();
    for (let f = 1; f <= 3; f++) dirtyEvery(pc, f, f * 10000, 100, 2);
    dirtyEvery(pc, 4, 40000, 400, 2);
    const inst = sim.state.workload.instances[0]!;
    const g = inst.gen!;
    Object.assign(g, { blocked: true, throttled: true, armed: false });
    g.writer.bdp = newBdpCall(300);
    sim.state.heap = createHeap();
    generatorRelease(sim, 0, 0);
    while (g.sleeping === 0 && step(sim)) {
      /* its first bios, until one finds no request */
    }
    expect(g.sleeping).toBe(1);
    dirtyPages(pc, 3, 29998 * P, P, 1, sim.state.now); // file 3, below its dirty pages
    while (g.writer.bdp && step(sim)) {
      /* its call goes on as its bios get requests */
    }
    const mine = queued.filter((q) => q.pid === inst.pid);
    // 300 pages: files 1 and 2 whole, then file 3 from its first dirty page — the new one
    expect(mine.reduce((n, q) => n + q.pages, 0)).toBe(300);
    expect(mine[200]!.page).toBe(29998);
    expect(mine[299]!.page).toBe(30000 + 2 * 98);
  });
});
