// 2.6.32's balance_dirty_pages (src/engine/workload/balance-dirty.ts, bdi-stats.ts): a writer
// over its dirty limit writes pages back itself. Each rule by name.
import { describe, expect, it } from 'vitest';
import { buildModel } from '../../src/engine/model';
import {
  createSimulation,
  restore,
  runToEnd,
  snapshot,
  step,
  type Simulation,
} from '../../src/engine/simulation';
import { summarize } from '../../src/engine/summary';
import type { TraceEvent } from '../../src/engine/events';
import { hostView } from '../../src/engine/inspect';
import {
  balanceDirtyPages,
  dirtyLimits,
  newBdpCall,
  ratelimitDue,
  type BdpCall,
} from '../../src/engine/workload/balance-dirty';
import { createPropLocal, propInc, ratelimitPages } from '../../src/engine/workload/bdi-stats';
import {
  createPageCache,
  dirtyPages,
  PAGE_CACHE_DEFAULTS,
} from '../../src/engine/workload/page-cache';
import { newChunk, startPass, writebackDone } from '../../src/engine/workload/writeback';
import { writeChunk } from '../helpers/writeback';
import { randWriteScenario } from '../helpers/rand-write';
import { createHeap } from '../../src/engine/sim/heap';
import { generatorRelease } from '../../src/engine/workload/generators/runtime';
import { postmarkScenario } from '../helpers/postmark-journal';

const P = 8; // sectors per page
const MS = 1e6;

/** fio rand-write, four threads (four files; `threads`), 16 MiB of page cache: dirty_ratio
 * 819 pages, dirty_background_ratio 409, ratelimit_pages 128 (one counter for all threads,
 * as on one CPU), write_chunk 192. `boot`: the disk has completed no writeback yet (its share
 * 0, bdi_thresh 0 until some completes), as at boot — runs otherwise start with its share
 * whole (bdi-stats.ts). */
function writerSim(
  iosched: object = { name: 'deadline' },
  stopMs = 2000,
  threads = 4,
  boot = true,
) {
  const s = randWriteScenario({ memoryMiB: 16 }, { stopMs, iosched, threads });
  const queued: Array<TraceEvent & { ops: number; call: BdpCall | null }> = [];
  const sleeps: TraceEvent[] = [];
  const box: { sim?: Simulation } = {};
  const sim = createSimulation(buildModel(s, s.seed), {
    trace: (e) => {
      if (e.action === 'S') sleeps.push({ ...e });
      if (e.action !== 'Q') return;
      // the pages all threads had copied when this bio was queued, and its thread's call
      const all = box.sim!.state.workload.instances;
      const ops = all.reduce((n, i) => n + (i.gen?.cachedOps ?? 0), 0);
      queued.push({ ...e, ops, call: all[e.proc]!.gen?.writer.bdp ?? null });
    },
    service: () => {},
    decision: () => {},
  });
  box.sim = sim;
  if (boot) sim.state.workload.pageCache!.bdi.bdiCompletions = createPropLocal();
  const fl = sim.state.workload.flusher!.inst;
  const writers = new Set(
    sim.state.workload.instances.filter((_, i) => i !== fl).map((i) => i.pid),
  );
  return { sim, s, queued, sleeps, writers, writerPid: sim.state.workload.instances[0]!.pid };
}

function flusherPid(sim: Simulation): number {
  const w = sim.state.workload;
  return w.instances[w.flusher!.inst]!.pid;
}

/** Pages each balance_dirty_pages call queued, in the order the calls began. */
function pagesPerCall(queued: ReturnType<typeof writerSim>['queued'], writers: Set<number>) {
  const calls = new Map<BdpCall, number>();
  for (const e of queued)
    if (writers.has(e.pid)) calls.set(e.call!, (calls.get(e.call!) ?? 0) + e.nSectors / P);
  return [...calls.values()];
}

describe('balance_dirty_pages in a run (2.6.32)', () => {
  it('ratelimit (balance_dirty_pages_ratelimited_nr): the threads check their limits only every ratelimit_pages (128) pages copied — the first writeback by a thread comes at a multiple of 128, not as soon as the pages pass (background + dirty) / 2 = 614', () => {
    const { sim, queued, writers } = writerSim();
    runToEnd(sim);
    const first = queued.find((e) => writers.has(e.pid))!;
    expect(first).toBeDefined();
    expect(first.ops % 128).toBe(0);
    expect(first.ops).toBeGreaterThan(614);
    expect(first.ops).toBeLessThanOrEqual(614 + 128);
  });

  it('background kick: only balance_dirty_pages wakes the flusher — at the first check past dirty_background_ratio (512 pages copied), not when the 410th page is dirtied', () => {
    for (const boot of [true, false]) {
      const { sim, queued } = writerSim(undefined, 2000, 4, boot);
      runToEnd(sim);
      const first = queued.find((e) => e.pid === flusherPid(sim))!;
      expect(first.ops).toBe(512);
    }
  });

  it('over its limit a thread writes up to write_chunk (192) pages itself, async writes under its own pid', () => {
    const { sim, s, queued, writers } = writerSim();
    runToEnd(sim);
    const own = queued.filter((e) => writers.has(e.pid));
    expect(own.length).toBeGreaterThan(100);
    expect(own.every((e) => e.write && !e.sync)).toBe(true);
    // every bio a thread queued was queued inside one of its balance_dirty_pages calls
    expect(own.every((e) => e.call !== null)).toBe(true);
    // nr_to_write = write_chunk bounds a call; it also ends when b_io is walked (the other
    // files requeued to b_more_io, under other threads' I_SYNC: writeback.ts)
    const counts = pagesPerCall(queued, writers);
    expect(Math.max(...counts)).toBeLessThanOrEqual(192);
    const pc = summarize(sim, s).pageCache!;
    expect(pc.pagesWrittenByWriters).toBeGreaterThan(0);
    expect(pc.pagesWrittenByWriters).toBeLessThan(pc.pagesWritten);
  });

  it('I_SYNC: a thread does not write back a file the flusher is writing — one thread with one file never writes, the flusher has it', () => {
    const { sim, queued, writers } = writerSim(undefined, 2000, 1);
    runToEnd(sim);
    expect(queued.length).toBeGreaterThan(100);
    expect(queued.some((e) => writers.has(e.pid))).toBe(false);
    expect(sim.state.workload.pageCache!.bdi.dirtyExceeded).toBe(true); // it was throttled
  });

  it('kernel 6.18: balance_dirty_pages is IO-less — the threads submit nothing, the flusher writes every page (on 2.6.32 the same run has threads writing)', () => {
    const old = writerSim({ name: 'mq-deadline', kernel: '6.18' });
    runToEnd(old.sim);
    const flusher = flusherPid(old.sim);
    expect(old.queued.length).toBeGreaterThan(100);
    expect(old.queued.every((e) => e.pid === flusher)).toBe(true);
    expect(old.sim.state.workload.pageCache!.pagesWrittenByWriters).toBe(0);
    const now = writerSim({ name: 'deadline', kernel: '2.6.32' });
    runToEnd(now.sim);
    expect(now.queued.some((e) => now.writers.has(e.pid))).toBe(true);
  });

  it('the inspection panel counts the pages writers wrote back and whether the disk is over its limit', () => {
    const { sim } = writerSim(undefined, 2000);
    runToEnd(sim);
    const view = hostView(sim).pageCache as Record<string, unknown>;
    const pc = sim.state.workload.pageCache!;
    expect(view).toMatchObject({
      pagesWritten: pc.pagesWritten,
      pagesWrittenByWriters: pc.pagesWrittenByWriters,
      dirtyExceeded: pc.bdi.dirtyExceeded,
    });
    expect(pc.pagesWrittenByWriters).toBeGreaterThan(0);
  });

  it('same scenario and seed, same run', () => {
    const a = writerSim(undefined, 1500);
    const b = writerSim(undefined, 1500);
    runToEnd(a.sim);
    runToEnd(b.sim);
    expect(a.sim.state.workload.pageCache!.pagesWrittenByWriters).toBeGreaterThan(0);
    expect(summarize(b.sim, b.s)).toEqual(summarize(a.sim, a.s));
  });

  it('a snapshot taken while a thread is in balance_dirty_pages restores to the same run', () => {
    const { sim, s } = writerSim(undefined, 1500);
    const inCall = () => sim.state.workload.instances.some((i) => i.gen?.writer.bdp);
    while (!inCall() && step(sim)) {
      /* to the first call that sleeps or naps */
    }
    expect(inCall()).toBe(true);
    const snap = snapshot(sim);
    runToEnd(sim);
    const end = summarize(sim, s);
    restore(sim, snap);
    runToEnd(sim);
    expect(summarize(sim, s)).toEqual(end);
  });

  it('a thread’s bio sleeps for a request like any process’s: the thread sleeps with it and goes on submitting when woken', () => {
    const { sim, queued, sleeps, writers } = writerSim({
      name: 'deadline',
      queue: { nr_requests: 4 },
    });
    runToEnd(sim);
    // S: a thread slept in get_request, one bio at a time (its next is queued after the
    // wake-up, not at once)
    const slept = sleeps.filter((e) => writers.has(e.pid));
    expect(slept.length).toBeGreaterThan(10);
    for (const e of slept) {
      const next = queued.find((q) => q.pid === e.pid && q.bio! > e.bio!);
      if (next) expect(next.tNs).toBeGreaterThan(e.tNs);
    }
    // a call still writes its pages (one 4 KiB bio each), over many sleeps with 4 requests
    expect(Math.max(...pagesPerCall(queued, writers))).toBeGreaterThan(50);
  });
});

/** A fresh run's state, not started: its writer (instance 0) and page cache. */
function fresh(iosched: object = { name: 'deadline' }) {
  const { sim, queued, writerPid } = writerSim(iosched);
  const pc = sim.state.workload.pageCache!;
  const w = sim.state.workload.instances[0]!.gen!.writer;
  return { sim, pc, w, queued, writerPid };
}

describe('balance_dirty_pages rules', () => {
  it('writeback_set_ratelimit: memory / 32 pages (one CPU), at least 16, at most 4 MiB', () => {
    expect(ratelimitPages(4096)).toBe(128);
    expect(ratelimitPages(262144)).toBe(1024);
    expect(ratelimitPages(256)).toBe(16);
  });

  it('ratelimit: no check before ratelimit_pages are copied; then write_chunk = sync_writeback_pages (1.5 × at least ratelimit_pages); 8 pages once dirty_exceeded', () => {
    const pc = createPageCache({ ...PAGE_CACHE_DEFAULTS, memoryMiB: 16 });
    expect(ratelimitDue(pc, 100)).toBe(0);
    expect(ratelimitDue(pc, 27)).toBe(0);
    expect(ratelimitDue(pc, 1)).toBe(192);
    expect(ratelimitDue(pc, 200)).toBe(300); // a step of 200 pages: 200 + 100
    pc.bdi.dirtyExceeded = true;
    expect(ratelimitDue(pc, 7)).toBe(0);
    expect(ratelimitDue(pc, 1)).toBe(192);
  });

  it('get_dirty_limits: bdi_thresh is dirty_thresh × the disk’s share of completed writeback, less an eighth × the writer’s share of the pages dirtied (task_dirty_limit)', () => {
    const pc = createPageCache({ ...PAGE_CACHE_DEFAULTS, memoryMiB: 16 }); // period/2 = 1024
    const heavy = createPropLocal();
    const light = createPropLocal();
    // a run starts with the disk's share whole: its limit is dirty_ratio's
    expect(dirtyLimits(pc, heavy)).toEqual({ background: 409, dirty: 819, bdiThresh: 819 });
    pc.bdi.bdiCompletions = createPropLocal(); // at boot: no writeback completed yet
    expect(dirtyLimits(pc, heavy).bdiThresh).toBe(0);
    // 1536 pages completed: halved once at 1024 → 1024 / (1024 + 512)
    propInc(pc.bdi.completions, pc.bdi.bdiCompletions, 1536);
    propInc(pc.bdi.dirties, heavy, 1000);
    expect(dirtyLimits(pc, light).bdiThresh).toBe(546); // 819 × 2/3
    expect(dirtyLimits(pc, heavy).bdiThresh).toBe(546 - 33); // less 68 × 1000 / 2024
  });

  it('over the limit: the writer takes write_chunk pages of the oldest-dirtied file and submits them under its own pid; having written write_chunk it returns', () => {
    const { sim, pc, w, queued, writerPid } = fresh();
    dirtyPages(pc, 1, 0, 700 * P, 32, 0); // 700 pages, bios of up to 32: over 614
    w.bdp = newBdpCall(192);
    expect(balanceDirtyPages(sim, w, 0, null, 0)).toBe('done');
    expect(queued.map((e) => [e.pid, e.sector / P, e.nSectors / P])).toEqual(
      [0, 32, 64, 96, 128, 160].map((first) => [writerPid, first, 32]),
    );
    expect([pc.dirty, pc.writeback]).toEqual([508, 192]);
    expect(pc.bdi.dirtyExceeded).toBe(true);
    expect(w.bdp).toBeNull();
  });

  it('breaks as soon as under the limit: within bdi_thresh, or below (background + dirty) / 2, it returns at once and writes nothing', () => {
    const a = fresh();
    dirtyPages(a.pc, 1, 0, 600 * P, 32, 0); // over bdi_thresh (0 before any writeback completes), under 614
    a.w.bdp = newBdpCall(192);
    expect(balanceDirtyPages(a.sim, a.w, 0, null, 0)).toBe('done');
    const b = fresh();
    propInc(b.pc.bdi.completions, b.pc.bdi.bdiCompletions, 4096); // the disk's share: 1
    dirtyPages(b.pc, 1, 0, 700 * P, 32, 0); // over 614, within bdi_thresh
    expect(dirtyLimits(b.pc, b.w.dirties).bdiThresh).toBeGreaterThanOrEqual(700);
    b.w.bdp = newBdpCall(192);
    expect(balanceDirtyPages(b.sim, b.w, 0, null, 0)).toBe('done');
    expect([...a.queued, ...b.queued]).toEqual([]);
    expect(a.pc.bdi.dirtyExceeded || b.pc.bdi.dirtyExceeded).toBe(false);
  });

  it('a call held off while the thread is held (its ReiserFS journal commit) starts when the thread is released', () => {
    const { sim, pc, w, queued, writerPid } = fresh();
    dirtyPages(pc, 1, 0, 700 * P, 32, 0);
    const g = sim.state.workload.instances[0]!.gen!;
    Object.assign(g, { blocked: true, throttled: true, armed: false });
    w.bdp = newBdpCall(192);
    sim.state.heap = createHeap(); // nothing else on the clock (its first step neither)
    generatorRelease(sim, 0, 5 * MS);
    expect(queued).toEqual([]);
    while (step(sim) && queued.length === 0) {
      /* its Issue event */
    }
    expect(queued.map((e) => [e.pid, e.tNs])).toEqual(
      Array.from({ length: 6 }, () => [writerPid, 5 * MS]),
    );
    expect(w.bdp).toBeNull();
  });

  it('I_SYNC: the writer skips a file another thread is writing back and takes the next', () => {
    const { sim, pc, w, queued } = fresh();
    dirtyPages(pc, 1, 0, 400 * P, 32, 0); // the oldest file
    dirtyPages(pc, 2, 1000 * P, 300 * P, 32, 0);
    const other = sim.state.workload.instances[1]!.gen!.writer;
    // the other thread is writing file 1 (its writeback_inodes_wbc: file 1 under I_SYNC)
    const chunk = newChunk(pc, 192, false, Infinity, 0);
    chunk.pass = startPass(pc, 1);
    other.bdp = { ...newBdpCall(192), chunk };
    w.bdp = newBdpCall(192);
    expect(balanceDirtyPages(sim, w, 0, null, 0)).toBe('done');
    expect(queued.map((e) => e.sector / P)).toEqual([1000, 1032, 1064, 1096, 1128, 1160]);
  });

  it('pause: over the limit with nothing it may write, it naps io_schedule_timeout(pause), pause doubling from 1 jiffy to HZ/10; it returns on the first wake-up under the limit', () => {
    for (const [hz, naps] of [
      [250, [1, 2, 4, 8, 16, 25, 25]],
      [1000, [1, 2, 4, 8, 16, 32, 64, 100, 100]],
    ] as const) {
      const { sim, pc, w, queued } = fresh({ name: 'deadline', hz });
      dirtyPages(pc, 1, 0, 700 * P, 32, 0);
      writeChunk(pc); // all 700 under writeback: nothing left to write
      w.bdp = newBdpCall(192);
      let now = 0;
      const got: number[] = [];
      for (const _ of naps) {
        const until = balanceDirtyPages(sim, w, 0, null, now) as number;
        got.push(Math.round(((until - now) * hz) / 1e9));
        now = until;
      }
      expect(got).toEqual(naps);
      expect(queued).toEqual([]);
      writebackDone(pc, 0, 200); // under (background + dirty) / 2 now
      expect(balanceDirtyPages(sim, w, 0, null, now)).toBe('done');
    }
  });
});

describe('balance_dirty_pages beside a journal', () => {
  it('ReiserFS: a thread writes pages back itself (Postmark LL, 16 MiB, as at boot) never inside its own journal commit, and its pages count as written', () => {
    // LL: large files, so that dirty pages alone pass the thread's limit
    const s = postmarkScenario('reiserfs', {
      pageCache: { memoryMiB: 16 },
      stopMs: 6000,
      config: 'LL',
    });
    const box: { sim?: Simulation } = {};
    let inCommit = 0;
    let own = 0;
    const sim = createSimulation(buildModel(s), {
      trace: (e) => {
        if (e.action !== 'Q' || e.proc !== 0) return;
        const st = box.sim!.state.workload;
        const g = st.instances[0]!.gen!;
        if (!g.writer.bdp) return; // its own I/O, not writeback
        own++;
        if (st.reiserfs!.journals[0]!.writer.journal >= 0) inCommit++;
      },
      service: () => {},
      decision: () => {},
    });
    box.sim = sim;
    // as at boot (bdi_thresh 0 until writeback completes), so that the thread writes back
    sim.state.workload.pageCache!.bdi.bdiCompletions = createPropLocal();
    runToEnd(sim);
    const pc = sim.state.workload.pageCache!;
    expect(own).toBeGreaterThan(0);
    expect(inCommit).toBe(0);
    expect(pc.pagesWrittenByWriters).toBeGreaterThan(0);
    expect(pc.pagesWrittenByWriters).toBeLessThanOrEqual(pc.pagesWritten);
    expect(pc.writeback).toBeGreaterThanOrEqual(0);
  });
});
