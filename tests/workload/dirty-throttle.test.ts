// Kernel 6.18's IO-less balance_dirty_pages (src/engine/workload/dirty-throttle.ts,
// wb-state.ts): a writer past the freerun ceiling pauses for pages × HZ / task_ratelimit, the
// rate the disk's measured writeback allows. Each rule by its kernel name.
import { describe, expect, it } from 'vitest';
import { buildModel } from '../../src/engine/model';
import { createSimulation, runUntil, type Simulation } from '../../src/engine/simulation';
import { loadScenario } from '../../src/engine/scenario/load';
import { hostView } from '../../src/engine/inspect';
import { newBdpCall } from '../../src/engine/workload/balance-dirty';
import { onWriteback, wbWakeupDelayed } from '../../src/engine/workload/flusher';
import {
  balanceDirtyPagesIoLess,
  createDirtyTask,
  dirtiedDue,
  dirtyPollInterval,
  posRatioPolynom,
  wbCalcThresh,
  wbPositionRatio,
} from '../../src/engine/workload/dirty-throttle';
import {
  INIT_BW,
  domainDirtyLimits,
  freerunCeiling,
  setpointOf,
  updateBandwidth,
} from '../../src/engine/workload/wb-state';
import { randWriteScenario } from '../helpers/rand-write';

const MS = 1e6;
const HZ = 250;
const ONE = 1024; // pos_ratio 1.0 (RATELIMIT_CALC_SHIFT 10)

/** fio rand-write on kernel 6.18 with 16 MiB of page cache: thresh 819 pages, bg_thresh 409,
 * freerun 614, setpoint 716 (not run: the rules are called on its state). */
function sim618(memoryMiB = 16): Simulation {
  const s = randWriteScenario(
    { memoryMiB },
    { iosched: { name: 'mq-deadline', kernel: '6.18' }, threads: 1 },
  );
  return createSimulation(buildModel(s, s.seed));
}

/** One balance_dirty_pages call of a task with `pages` dirtied, with the dirty pages at
 * `dirty`, at jiffy `nowJ`: what it returns and the task afterwards. */
function call(sim: Simulation, dirty: number, pages: number, nowJ = 0, task = createDirtyTask()) {
  const pc = sim.state.workload.pageCache!;
  pc.dirty = dirty;
  const c = newBdpCall(pages);
  const out = balanceDirtyPagesIoLess(sim, c, task, (nowJ * 1e9) / HZ);
  return { out, task, c, pauseJ: typeof out === 'number' ? (out * HZ) / 1e9 - nowJ : 0 };
}

describe('IO-less balance_dirty_pages (kernel 6.18)', () => {
  it('domain_dirty_limits: thresh and bg_thresh of the dirtyable memory (pages + 1), the ratios per PAGE_SIZE; freerun ceiling (thresh + bg_thresh) / 2, setpoint (freerun + limit) / 2', () => {
    const pc = sim618().state.workload.pageCache!;
    const lim = domainDirtyLimits(pc);
    // 20% → 819/4096 of 4,097 pages; 10% → 409/4096
    expect(lim).toEqual({ thresh: 819, bgThresh: 409 });
    expect(freerunCeiling(lim)).toBe(614);
    expect(setpointOf(lim)).toBe(716);
    // writeback_set_ratelimit: thresh / 32, at least 16
    expect(pc.wb!.ratelimitPages).toBe(25);
  });

  it('freerun (dirty_freerun_ceiling): at or below (thresh + bg_thresh) / 2 a writer is not paused, and calls in again after dirty_poll_interval pages; one page more and it pauses', () => {
    const sim = sim618();
    const free = call(sim, 614, 1000);
    expect(free.out).toBe('done');
    // √(819 − 614) rounded down to a power of 2: 2^(ilog2(205) >> 1) = 8
    expect(free.task.nrDirtiedPause).toBe(dirtyPollInterval(614, 819));
    expect(free.task.nrDirtiedPause).toBe(8);
    expect(free.task.nrDirtied).toBe(0);
    const over = call(sim, 615, 1000);
    expect(typeof over.out).toBe('number');
    expect(over.pauseJ).toBeGreaterThan(0);
  });

  it('balance_dirty_pages_ratelimited: a new task calls in after nr_dirtied_pause (32) pages; after 8 while the disk is over its limit (dirty_exceeded); or once the CPU’s bdp_ratelimits reach ratelimit_pages', () => {
    // 64 MiB: ratelimit_pages 3,276 / 32 = 102
    const wb = sim618(64).state.workload.pageCache!.wb!;
    expect(wb.ratelimitPages).toBe(102);
    const t = createDirtyTask();
    expect(dirtiedDue(wb, t, 31)).toBe(false);
    expect(dirtiedDue(wb, t, 1)).toBe(true);
    const u = createDirtyTask();
    wb.dirtyExceeded = true;
    expect(dirtiedDue(wb, u, 7)).toBe(false);
    expect(dirtiedDue(wb, u, 1)).toBe(true);
    wb.dirtyExceeded = false;
    // a task allowed 1000 pages is called in when the CPU has dirtied ratelimit_pages (102)
    const v = { ...createDirtyTask(), nrDirtiedPause: 1000 };
    wb.bdpRatelimits = 0;
    expect(dirtiedDue(wb, v, 101)).toBe(false);
    expect(dirtiedDue(wb, v, 1)).toBe(true);
    expect(wb.bdpRatelimits).toBe(0);
  });

  it('pos_ratio_polynom: 1 + ((setpoint − dirty) / (limit − setpoint))³ — 1 at the setpoint, over 1 below it (2 at freerun), under 1 above it, 0 at the limit', () => {
    const [freerun, setpoint, limit] = [614, 716, 819];
    expect(posRatioPolynom(setpoint, setpoint, limit)).toBe(ONE);
    expect(posRatioPolynom(setpoint, 680, limit)).toBeGreaterThan(ONE);
    expect(posRatioPolynom(setpoint, 760, limit)).toBeLessThan(ONE);
    // cubic: half-way to the limit (x = −1/2) it is 1 − 1/8
    expect(posRatioPolynom(1000, 1500, 2000)).toBe(ONE - ONE / 8);
    // (the kernel's shifts round down: 1 + 1/8 comes out a 1024th under)
    expect(posRatioPolynom(1000, 500, 2000)).toBe(ONE + ONE / 8 - 1);
    expect(posRatioPolynom(setpoint, freerun, limit)).toBeGreaterThan(1.95 * ONE); // 1 + (102 / 103)³
    expect(posRatioPolynom(1000, 3000, 2000)).toBe(0); // clamped
  });

  it('wb_position_ratio with one disk: the cubic times the disk’s line (1 at its setpoint, falling by 1 over 8 × write_bw pages) — about 1 at the setpoint, 0 at the limit; a slower disk is throttled harder above it', () => {
    const lim = { thresh: 819, bgThresh: 409 };
    // a disk whose writeback has completed before: its share of thresh is whole (819)
    const wbPos = (dirty: number, bw: number) => wbPositionRatio(lim, dirty, bw, 819);
    const at = wbPos(716, INIT_BW);
    expect(Math.abs(at - ONE)).toBeLessThanOrEqual(1);
    expect(wbPos(650, INIT_BW)).toBeGreaterThan(ONE);
    expect(wbPos(780, INIT_BW)).toBeLessThan(ONE);
    expect(wbPos(819, INIT_BW)).toBe(0);
    expect(wbPos(900, INIT_BW)).toBe(0);
    // 8 × 50 pages/s = a span of 400 pages: at 780 the line is (1116 − 780) / 400
    const slow = wbPos(780, 50);
    expect(slow).toBe(Math.floor((posRatioPolynom(716, 780, 819) * (1116 - 780)) / 401));
    expect(slow).toBeLessThan(wbPos(780, INIT_BW));
  });

  it('__wb_calc_thresh: the disk’s share of thresh is all of it once any of its writeback has completed, before that (thresh − dirty) / 8 (an idle device’s) — its line then scaled down as much, a writer at the setpoint is throttled harder', () => {
    const lim = { thresh: 819, bgThresh: 409 };
    expect(wbCalcThresh(lim, 716, 1)).toBe(819);
    expect(wbCalcThresh(lim, 716, 0)).toBe(12); // (819 − 716) / 8
    expect(wbCalcThresh(lim, 900, 0)).toBe(0); // over thresh: no bump
    // wb_setpoint = 716 × 12 / 819 = 10 and span = (807 + 8 × 25,600) × 12 / 819 = 3,011
    // (x = 12 × 65,536 / 819 = 960): at the setpoint the line is (3,021 − 716) / 3,011
    expect(wbPositionRatio(lim, 716, INIT_BW, 12)).toBe(Math.floor((ONE * (3021 - 716)) / 3011));
    expect(wbPositionRatio(lim, 716, INIT_BW, 12)).toBe(783);
    // on a disk measured at 1,000 pages/s the span is 129 pages: a quarter (1,024 / 4)
    expect(wbPositionRatio(lim, 716, 1000, 12)).toBe(256);
    // a call at the setpoint before any completion: task_ratelimit 1,000 × 256 / 1,024 = 250,
    // 50 pages take 50 jiffies, held to max_pause (23); once the disk has written, 12
    const sim = sim618();
    const wb = sim.state.workload.pageCache!.wb!;
    Object.assign(wb, { dirtyRatelimit: 1000, avgWriteBandwidth: 1000, writeBandwidth: 1000 });
    expect(call(sim, 716, 50).pauseJ).toBe(23);
    Object.assign(wb, { written: 1, writtenStamp: 1 });
    expect(call(sim, 716, 50).pauseJ).toBe(12);
  });

  it('the pause: pages dirtied × HZ / task_ratelimit (dirty_ratelimit × pos_ratio), less the think time since the last pause; under min_pause no sleep (the debt carried on), over max_pause max_pause; at the limit max_pause again and again', () => {
    const sim = sim618();
    const wb = sim.state.workload.pageCache!.wb!;
    // 1,000 pages a second measured and allowed; the dirty pages at the setpoint (716)
    // (and its writeback has completed before: wb_thresh = thresh)
    Object.assign(wb, { dirtyRatelimit: 1000, avgWriteBandwidth: 1000, writeBandwidth: 1000 });
    Object.assign(wb, { written: 1, writtenStamp: 1 });
    const lim = domainDirtyLimits(sim.state.workload.pageCache!);
    const task = Math.floor((1000 * wbPositionRatio(lim, 716, 1000, 819)) / ONE);
    expect(task).toBe(999);
    // wb_max_pause: 716 / (1 + 1000 / 32) + 1 = 23 jiffies; wb_min_pause: 32 pages a call
    // take 8 jiffies at 1,000 pages/s, the shortest pause worth it 1 + 8 / 2 = 5
    const p50 = call(sim, 716, 50);
    expect(p50.pauseJ).toBe(Math.floor((HZ * 50) / task)); // 12
    expect(p50.pauseJ).toBe(12);
    expect(p50.task.nrDirtiedPause).toBe(32);
    expect(p50.task.dirtyPausedWhenJ).toBe(12);
    expect(p50.c.phase).toBe('paused'); // it goes on after the pause
    // think time: 5 jiffies since its last pause ended are paid for
    wb.bwTimeStampJ = 100; // (no bandwidth update due in between)
    const again = call(sim, 716, 50, 100, { ...createDirtyTask(), dirtyPausedWhenJ: 95 });
    expect(again.pauseJ).toBe(12 - 5);
    // min_pause: 10 pages take 2 jiffies — no sleep, the 2 jiffies are owed
    const short = call(sim, 716, 10);
    expect(short.out).toBe('done');
    expect(short.task.dirtyPausedWhenJ).toBe(2);
    // max_pause
    expect(call(sim, 716, 1000).pauseJ).toBe(23);
    // at the limit task_ratelimit is 0: max_pause (819 / 32 + 1 = 26), and it looks again
    const hard = call(sim, 819, 10);
    expect(hard.pauseJ).toBe(26);
    expect(hard.c.phase).toBe('check');
  });

  it('balance_dirty_pages past the freerun ceiling starts the flusher even under bg_thresh (wb_start_background_writeback if !writeback_in_progress): asleep for its period, it wakes now and finds nothing to write (no file on its lists here: it sleeps until one is dirtied, wb_wakeup_delayed)', () => {
    const sim = sim618();
    const pc = sim.state.workload.pageCache!;
    const fl = sim.state.workload.flusher!;
    // the writeback lists populated at 0 (__mark_inode_dirty): asleep until its period, 5 s
    pc.listsPopulated = true;
    wbWakeupDelayed(sim, 0);
    const period = fl.armedAtNs;
    expect(period).toBe(5000 * MS);
    // 400 dirty, under bg_thresh (409); with 300 under writeback 700, over freerun (614)
    pc.writeback = 300;
    const nowJ = HZ; // 1 s
    call(sim, 400, 50, nowJ);
    expect(fl.armed).toBe(true);
    expect(fl.armedAtNs).toBe(1000 * MS);
    // it wakes, has nothing to write (no kupdate yet; the dirty pages here are counters, no
    // file is on its lists) and sleeps with no wake-up armed (wb_has_dirty_io false)
    onWriteback(sim, fl.armSeq, 1000 * MS);
    expect(fl.armed).toBe(false);
    // under freerun (with those under writeback: 400 + 200), it is left asleep
    const sim2 = sim618();
    const fl2 = sim2.state.workload.flusher!;
    sim2.state.workload.pageCache!.listsPopulated = true;
    wbWakeupDelayed(sim2, 0);
    sim2.state.workload.pageCache!.writeback = 200;
    call(sim2, 400, 50, nowJ);
    expect(fl2.armedAtNs).toBe(period);
  });

  it('wb_update_dirty_ratelimit: dirty_ratelimit steps towards the balanced rate (task_ratelimit × write_bw / dirty_rate) only when the dirty pages’ position agrees, by at most an eighth of the gap', () => {
    const sim = sim618();
    const wb = sim.state.workload.pageCache!.wb!;
    const lim = domainDirtyLimits(sim.state.workload.pageCache!);
    const set = (dirtied: number) =>
      Object.assign(wb, {
        dirtyRatelimit: 1000,
        balancedDirtyRatelimit: 100,
        avgWriteBandwidth: 500,
        writeBandwidth: 500,
        dirtied,
        dirtiedStamp: 0,
        bwTimeStampJ: 0,
      });
    // dirtying at 2,000 pages/s (400 in 200 ms) against a disk writing 500: balanced ≈ 250
    set(400);
    updateBandwidth(wb, 50, HZ, { dirty: 780, posRatio: ONE / 2, limits: lim });
    expect(wb.balancedDirtyRatelimit).toBe(Math.floor((501 * 500) / 2001));
    expect(wb.dirtyRatelimit).toBeLessThan(1000);
    expect(wb.dirtyRatelimit).toBeGreaterThanOrEqual(1000 - (1000 - 501) / 8);
    // the same rates with the dirty pages below the setpoint: the rate stays
    set(400);
    updateBandwidth(wb, 50, HZ, { dirty: 650, posRatio: (3 * ONE) / 2, limits: lim });
    expect(wb.dirtyRatelimit).toBe(1000);
  });

  it('steady writers on a slow disk: dirty_ratelimit falls from 100 MB/s (INIT_BW) to the disk’s write bandwidth over the writers (write_bw / N), they dirty as fast as the disk writes, the dirty pages stay near the setpoint — paused a little at a time, never held at the limit', () => {
    // sequential writers, 64 MiB of cache, the HP C2247A (about 2.5 MB/s): thresh 3,276,
    // freerun 2,456, setpoint 2,866; measured over 40–60 s
    for (const count of [1, 4]) {
      const s = loadScenario(
        {
          name: 'dd',
          disk: { preset: 'hp-c2247a', queueDepth: 1 },
          iosched: { name: 'mq-deadline', kernel: '6.18' },
          workload: {
            pageCache: { memoryMiB: 64 },
            processes: [
              {
                name: 'dd',
                count,
                generator: { kind: 'fio', job: 'seq-write' },
                span: { startSector: 0, sectors: 2_000_000 },
              },
            ],
          },
          stop: { timeMs: 60000 },
        },
        'dd.json',
      );
      const sim = createSimulation(buildModel(s, s.seed));
      const pc = sim.state.workload.pageCache!;
      const wb = pc.wb!;
      const lim = domainDirtyLimits(pc);
      runUntil(sim, 40000 * MS);
      const [dirtied0, written0] = [pc.pagesDirtied, pc.pagesWritten];
      const totals: number[] = [];
      const pauses: number[] = [];
      for (let t = 40100; t <= 60000; t += 100) {
        runUntil(sim, t * MS);
        totals.push(pc.dirty + pc.writeback);
        pauses.push(wb.lastPauseJ);
      }
      const written = (pc.pagesWritten - written0) / 20; // pages a second
      const dirtied = (pc.pagesDirtied - dirtied0) / 20;
      expect(written).toBeLessThan(INIT_BW / 20);
      // the estimates: the disk's bandwidth, and each writer's allowed rate, its share
      expect(wb.avgWriteBandwidth / written).toBeGreaterThan(0.9);
      expect(wb.avgWriteBandwidth / written).toBeLessThan(1.1);
      expect(wb.dirtyRatelimit / (written / count)).toBeGreaterThan(0.9);
      expect(wb.dirtyRatelimit / (written / count)).toBeLessThan(1.2);
      // the writers dirty at the disk's rate
      expect(dirtied / written).toBeGreaterThan(0.95);
      expect(dirtied / written).toBeLessThan(1.05);
      // the dirty pages: past freerun, never at the limit (held there, they stayed at it),
      // on average within half the way from the setpoint to the limit
      const setpoint = setpointOf(lim);
      for (const d of totals) {
        expect(d).toBeGreaterThan(freerunCeiling(lim));
        expect(d).toBeLessThan(lim.thresh);
      }
      const mean = totals.reduce((a, b) => a + b, 0) / totals.length;
      expect(Math.abs(mean - setpoint)).toBeLessThan((lim.thresh - setpoint) / 2);
      // paused, at most MAX_PAUSE (HZ / 5) at a time
      expect(Math.min(...pauses)).toBeGreaterThan(0);
      expect(Math.max(...pauses)).toBeLessThanOrEqual(HZ / 5);
    }
  });

  it('the inspection panel shows dirty_ratelimit, pos_ratio and the last pause (6.18), beside the thresholds the kernel uses', () => {
    const sim = sim618();
    runUntil(sim, 3000 * MS);
    const view = hostView(sim).pageCache as Record<string, unknown>;
    const wb = sim.state.workload.pageCache!.wb!;
    expect(view).toMatchObject({
      backgroundThresh: 409,
      dirtyThresh: 819,
      freerun: 614,
      setpoint: 716,
      dirtyRatelimitKBps: wb.dirtyRatelimit * 4,
      writeBandwidthKBps: wb.avgWriteBandwidth * 4,
      lastPauseMs: (wb.lastPauseJ * 1000) / HZ,
    });
    expect(view).toHaveProperty('posRatio');
  });
});
