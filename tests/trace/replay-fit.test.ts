// The device fitted to a trace (src/engine/trace/replay-fit.ts, fit-timeline.ts,
// fit-stats.ts): the work each request needed under processor sharing, the least absolute
// relative deviations fit, the choice of parallelism, the held-back error, a known device
// fitted back (from DeviceTrace data and from blkparse text of a simulated run), and the
// replay's default device and its caution (replay-device.ts, replay-caution.ts).
import { describe, expect, it } from 'vitest';
import '../../src/engine/iosched/registry';
import { FITTED_SPREAD_BINS, SECTORS_PER_GIB, modelledMs } from '../../src/engine/disk/fitted';
import type { FittedDirection, FittedSpec } from '../../src/engine/disk/params';
import { runScenario } from '../../src/engine/run';
import { loadScenario } from '../../src/engine/scenario/load';
import { createRng, nextFloat, nextInt, type Rng } from '../../src/engine/sim/rng';
import { blkparseSink } from '../../src/engine/trace/blkparse-writer';
import { nonNegativeRelativeL1, relativeL1 } from '../../src/engine/trace/fit-stats';
import { TraceEvents, WorkTimeline } from '../../src/engine/trace/fit-timeline';
import { d2cCaution } from '../../src/engine/trace/replay-caution';
import {
  fitDevice,
  heldBackError,
  parallelismGrid,
  servicePairs,
  type ServicePair,
} from '../../src/engine/trace/replay-fit';
import {
  readTraceText,
  type DeviceTrace,
  type TracedQ,
} from '../../src/engine/trace/replay-source';
import { replayTrace, ReplayError } from '../../src/engine/trace/replay';

/** A trace without Qs: its dispatches (D) with their completions (C) are the pairs. */
function deviceTrace(
  rqs: Array<{ d: number; c: number; sector: number; n: number; write: boolean }>,
): DeviceTrace {
  const qs: TracedQ[] = rqs.map((r) => ({
    pid: 1,
    comm: 'x',
    tNs: r.d,
    sector: r.sector,
    nSectors: r.n,
    write: r.write,
    rwbs: r.write ? 'W' : 'R',
    doneNs: r.c,
    dispatchedNs: r.d,
    plug: -1,
    preflush: false,
    fua: false,
    endNs: r.c,
  }));
  return {
    dev: '8,0',
    qs,
    arrivals: 'D',
    skipped: { flush: 0, discard: 0, zeroSize: 0 },
    flushFuaWithData: 0,
    flushes: { pairs: [], flaggedQs: 0, fuaDispatched: false, fuaWithData: 0 },
    dispatches: [],
    dispatchedOther: { discards: 0, flushes: 0 },
    kernelHeld: { inserted: 0, choices: 0 },
    completions: [],
    requests: [],
    mostInFlight: 0,
    units: () => {
      throw new Error('not needed by the fit');
    },
  };
}

function pair(dMs: number, cMs: number): ServicePair {
  return {
    dNs: dMs * 1e6,
    cNs: cMs * 1e6,
    sector: 0,
    nSectors: 8,
    write: false,
    inFlight: 1,
    sequential: false,
    distance: 0,
  };
}

interface Known {
  parallelism: number;
  read: Omit<FittedDirection, 'spread'>;
  write: Omit<FittedDirection, 'spread'>;
}

/**
 * Requests served by a known processor-sharing device (an implementation of its own, not
 * disk/fitted.ts): Poisson dispatches, 30 % writes, sizes 4–128 KiB, a third sequential,
 * the rest anywhere in 512 GiB; each request's work from the formula times a ratio
 * uniform in [1 − noise, 1 + noise].
 */
function knownDevice(k: Known, n: number, meanGapMs: number, noise: number, rng: Rng) {
  const sizes = [8, 16, 64, 256];
  const rqs: Array<{ d: number; c: number; sector: number; n: number; write: boolean }> = [];
  const work: number[] = [];
  let t = 0;
  let lastEnd = -1;
  for (let i = 0; i < n; i++) {
    t += -meanGapMs * Math.log(1 - nextFloat(rng)) * 1e6;
    const write = nextFloat(rng) < 0.3;
    const size = sizes[nextInt(rng, sizes.length)]!;
    const seq = lastEnd >= 0 && nextFloat(rng) < 1 / 3;
    const sector = seq ? lastEnd : nextInt(rng, 512 * SECTORS_PER_GIB);
    const d = { ...(write ? k.write : k.read), spread: [] };
    const ms = modelledMs(d, size, seq, lastEnd < 0 ? 0 : Math.abs(sector - lastEnd));
    work.push(ms * 1e6 * (1 + noise * (2 * nextFloat(rng) - 1)));
    rqs.push({ d: t, c: 0, sector, n: size, write });
    lastEnd = sector + size;
  }
  // processor sharing, event by event
  const left = [...work];
  let active: number[] = [];
  let now = 0;
  let next = 0;
  while (next < n || active.length > 0) {
    const rate = active.length > 0 ? Math.min(1, k.parallelism / active.length) : 0;
    let first = -1;
    let tDone = Infinity;
    for (const a of active) {
      const tf = now + left[a]! / rate;
      if (tf < tDone) [tDone, first] = [tf, a];
    }
    const tNext = next < n ? rqs[next]!.d : Infinity;
    const tEv = Math.min(tDone, tNext);
    for (const a of active) left[a]! -= (tEv - now) * rate;
    now = tEv;
    if (tDone <= tNext) {
      rqs[first]!.c = now;
      active = active.filter((a) => a !== first);
    } else active.push(next++);
  }
  return rqs;
}

const KNOWN: Known = {
  parallelism: 4,
  read: { baseMs: 0.1, perKiBMs: 0.005, randomMs: 0.2, perSqrtGiBMs: 0.02 },
  write: { baseMs: 0.05, perKiBMs: 0.01, randomMs: 0.1, perSqrtGiBMs: 0 },
};

describe('work under processor sharing (fit-timeline.ts): w = ∫ min(1, P/k(t)) dt, and back', () => {
  // A from 0 to 3 ms, B from 1 to 2 ms: k = 1, 2, 1
  const a = pair(0, 3);
  const b = pair(1, 2);
  const tl = new WorkTimeline(new TraceEvents([a, b]), 1);

  it("each request's work is its progress at min(1, P/k) between its D and its C", () => {
    expect(tl.workMs(a)).toBeCloseTo(1 + 0.5 + 1, 12);
    expect(tl.workMs(b)).toBeCloseTo(0.5, 12);
    const p2 = new WorkTimeline(new TraceEvents([a, b]), 2);
    expect(p2.workMs(a)).toBeCloseTo(3, 12);
  });

  it('a given work completes with the other requests as traced (itself one more after its C)', () => {
    expect(tl.d2cMs(a, 2.5)).toBeCloseTo(3, 12);
    expect(tl.d2cMs(b, 0.5)).toBeCloseTo(1, 12);
    expect(tl.d2cMs(a, 1)).toBeCloseTo(1, 12); // alone until B arrives at 1 ms
    // B with 1 ms of work: 0.5 by its traced C at 2 ms, then shares with A (k + 1 = 2) for 1 ms
    expect(tl.d2cMs(b, 1)).toBeCloseTo(2, 12);
    // past every event it runs alone: 0.5 ms more after A's C at 3 ms
    expect(tl.d2cMs(b, 1.5)).toBeCloseTo(2.5, 12);
  });
});

describe('least absolute relative deviations, coefficients ≥ 0 (fit-stats.ts)', () => {
  const x1 = Float64Array.from({ length: 50 }, (_, i) => i % 7);
  const x2 = Float64Array.from({ length: 50 }, (_, i) => (i * 3) % 5);
  const ones = new Float64Array(50).fill(1);

  it('recovers an exact linear model', () => {
    const y = Float64Array.from(x1, (v, i) => 2 + 0.5 * v + 3 * x2[i]!);
    const f = nonNegativeRelativeL1({ columns: [ones, x1, x2], y });
    expect(f.beta[0]).toBeCloseTo(2, 5);
    expect(f.beta[1]).toBeCloseTo(0.5, 5);
    expect(f.beta[2]).toBeCloseTo(3, 5);
    expect(f.loss).toBeLessThan(1e-5);
  });

  it('leaves out a term whose coefficient would be negative', () => {
    const y = Float64Array.from(x1, (v) => 5 - 0.1 * v);
    expect(relativeL1({ columns: [ones, x1], y }, [0, 1])!.beta[1]).toBeLessThan(0);
    const f = nonNegativeRelativeL1({ columns: [ones, x1], y });
    expect(f.beta[1]).toBe(0);
    expect(f.beta[0]).toBeGreaterThan(4.4);
  });

  it('is robust to a few wild values (the median, not the mean)', () => {
    const y = Float64Array.from({ length: 50 }, (_, i) => (i < 5 ? 1000 : 2));
    expect(nonNegativeRelativeL1({ columns: [ones], y }).beta[0]).toBeCloseTo(2, 6);
  });
});

describe('a known device fitted back (DeviceTrace pairs)', () => {
  it('noise-free: the parallelism exactly, each coefficient within 1 %', () => {
    const rqs = knownDevice(KNOWN, 3000, 0.2, 0, createRng(3, 'known'));
    const fit = fitDevice(deviceTrace(rqs), true)!;
    expect(fit.parallelism).toBe(KNOWN.parallelism);
    for (const dir of ['read', 'write'] as const) {
      const got = fit[dir]!;
      for (const key of ['baseMs', 'perKiBMs', 'randomMs', 'perSqrtGiBMs'] as const) {
        const want = KNOWN[dir][key];
        if (want === 0) expect(got[key]).toBeLessThan(1e-4);
        else expect(Math.abs(got[key] / want - 1)).toBeLessThan(0.01);
      }
      // nothing left over: every ratio 1
      expect(got.spread[0]).toBeGreaterThan(0.99);
      expect(got.spread[FITTED_SPREAD_BINS - 1]).toBeLessThan(1.01);
    }
    expect(fit.heldBack.medianRelErr).toBeLessThan(0.01);
    expect(fit.heldBack.perRequest.medianRelErr).toBeLessThan(0.01);
  });

  it('±30 % noise: the parallelism, the median work within 5 %, held-back median D2C within 5 %', () => {
    const rqs = knownDevice(KNOWN, 6000, 0.2, 0.3, createRng(4, 'known'));
    const fit = fitDevice(deviceTrace(rqs), true)!;
    expect(fit.parallelism).toBe(KNOWN.parallelism);
    // a random 64 KiB read 1 GiB away: the fit's median work against the true one
    const want = modelledMs({ ...KNOWN.read, spread: [] }, 128, false, SECTORS_PER_GIB);
    const got =
      (modelledMs(fit.read!, 128, false, SECTORS_PER_GIB) *
        (fit.read!.spread[49]! + fit.read!.spread[50]!)) /
      2;
    expect(Math.abs(got / want - 1)).toBeLessThan(0.05);
    expect(fit.heldBack.medianRelErr).toBeLessThan(0.05);
    expect(fit.heldBack.p95RelErr).toBeLessThan(0.1);
  });
});

describe('the parallelism: the grid value fitting best, a tie to the larger', () => {
  it('the grid: every P to 6, then about 25 % apart, ending at the most in flight', () => {
    expect(parallelismGrid(1)).toEqual([1]);
    expect(parallelismGrid(20)).toEqual([1, 2, 3, 4, 5, 6, 8, 10, 13, 16, 20]);
  });

  it('a trace always 8 deep cannot tell P ≤ 8 apart: the larger, 8, and the note says why', () => {
    // 8 requests at a time, each 1 ms of work shared by 2 servers: all done 4 ms later
    const rqs: Array<{ d: number; c: number; sector: number; n: number; write: boolean }> = [];
    for (let round = 0; round < 10; round++)
      for (let j = 0; j < 8; j++)
        rqs.push({
          d: round * 4e6,
          c: (round + 1) * 4e6,
          sector: (round * 8 + j) * 1000,
          n: 8,
          write: false,
        });
    const fit = fitDevice(deviceTrace(rqs), true)!;
    expect(fit.parallelism).toBe(8);
    expect(fit.parallelismNote).toMatch(/8 requests in flight/);
    expect(fit.parallelismNote).toMatch(/a tie goes to the larger/);
    expect(fit.parallelismNote).toMatch(/never had more than 8 in flight/);
  });
});

describe("held-back error: fit on the first half, predict the second half's D2C", () => {
  it('a device 1.5× slower in the second half: median and p95 D2C off by 1/3', () => {
    // lone requests (never two in flight), 1 ms each, then 1.5 ms each
    const pairs: ServicePair[] = [];
    for (let i = 0; i < 40; i++) pairs.push(pair(i * 10, i * 10 + (i < 20 ? 1 : 1.5)));
    const h = heldBackError(pairs, true);
    expect(h.n).toBe(20);
    expect(h.medianRelErr).toBeCloseTo(1 / 3, 6);
    expect(h.p95RelErr).toBeCloseTo(1 / 3, 6);
    expect(h.perRequest.medianRelErr).toBeCloseTo(1 / 3, 6);
    expect(h.how).toMatch(/first 20 D→C pairs/);
  });

  it('a device the same in both halves: no error', () => {
    const pairs: ServicePair[] = [];
    for (let i = 0; i < 40; i++) pairs.push(pair(i * 10, i * 10 + 1));
    const h = heldBackError(pairs, true);
    expect(h.medianRelErr).toBeLessThan(1e-6);
    expect(h.perRequest.p95RelErr).toBeLessThan(1e-6);
  });
});

describe('the D→C pairs: in flight at each D, sequential, distance (servicePairs)', () => {
  it('counts the requests in flight device-wide, itself included; distance from the last end', () => {
    const p = servicePairs(
      deviceTrace([
        { d: 0, c: 5, sector: 100, n: 8, write: false },
        { d: 1, c: 2, sector: 108, n: 8, write: true },
        { d: 2, c: 3, sector: 50, n: 8, write: false },
        { d: 2, c: 2, sector: 0, n: 8, write: false }, // completed at its D: left out
      ]),
    );
    expect(p.map((x) => x.inFlight)).toEqual([1, 2, 2]);
    expect(p.map((x) => x.sequential)).toEqual([false, true, false]);
    expect(p.map((x) => x.distance)).toEqual([0, 0, 116 - 50]);
  });
});

/** A run on a known fitted device, written as blkparse text (the engine's export). */
function simulatedTrace(fitted: FittedSpec): string {
  const rng = createRng(9, 'procs');
  const processes = Array.from({ length: 6 }, (_, p) => {
    let t = 0;
    let end = 0;
    return {
      name: `p${p}`,
      requests: Array.from({ length: 250 }, () => {
        // a third follow on at once from where this process's last ended: sequential
        const follow = nextFloat(rng) < 1 / 3;
        t += follow ? 0.001 : -3 * Math.log(1 - nextFloat(rng));
        const sector = follow ? end : nextInt(rng, (100 * SECTORS_PER_GIB) / 8) * 8;
        const sizeKiB = [4, 8, 64][nextInt(rng, 3)]!;
        end = sector + sizeKiB * 2;
        return { sector, sizeKiB, op: nextFloat(rng) < 0.3 ? 'write' : 'read', atMs: t };
      }),
    };
  });
  const s = loadScenario(
    {
      name: 'known',
      disk: { preset: 'traced', queueDepth: 32, fitted },
      iosched: { name: 'none' },
      workload: { processes },
    },
    'test',
  );
  const lines: string[] = [];
  runScenario(s, { sink: blkparseSink((l) => lines.push(l)) });
  return lines.join('\n');
}

describe('a known device fitted back from blkparse text, and the replay on it', () => {
  const ones = new Array<number>(FITTED_SPREAD_BINS).fill(1);
  const known: FittedSpec = {
    parallelism: 3,
    rotational: false,
    read: { baseMs: 0.2, perKiBMs: 0.01, randomMs: 0.3, perSqrtGiBMs: 0.02, spread: ones },
    write: { baseMs: 0.1, perKiBMs: 0.02, randomMs: 0.1, perSqrtGiBMs: 0, spread: ones },
  };
  const reading = readTraceText(simulatedTrace(known));

  it("the replay's default device is the one fitted to the trace, its parameters within 1 %", () => {
    const r = replayTrace(reading, { mode: 'open', meta: { scheduler: 'none' } });
    expect(r.disk.preset).toBe('traced');
    expect(r.disk.source).toMatch(/fitted to this trace's 1500 D→C pairs/);
    const f = r.fit!;
    expect(f.parallelism).toBe(3);
    expect(f.read!.baseMs / 0.2).toBeCloseTo(1, 2);
    expect(f.read!.perKiBMs / 0.01).toBeCloseTo(1, 2);
    expect(f.read!.randomMs / 0.3).toBeCloseTo(1, 2);
    expect(f.read!.perSqrtGiBMs / 0.02).toBeCloseTo(1, 2);
    expect(f.write!.perKiBMs / 0.02).toBeCloseTo(1, 2);
    expect(f.heldBack.medianRelErr).toBeLessThan(0.01);
    expect(r.summary.disk).toBe('traced');
    // the same device replayed: the simulated median D2C is the traced one, no caution
    expect(r.simulated.perRequest.d2cMs!.p50 / r.measured.perRequest.d2cMs!.p50).toBeCloseTo(1, 1);
    expect(r.caution).toEqual([]);
  });

  it('a preset instead: no fit, and the caution when its median D2C is over 2× off', () => {
    const r = replayTrace(reading, {
      mode: 'open',
      disk: 'sata-7200-500g',
      meta: { scheduler: 'none' },
    });
    expect(r.disk).toEqual({ preset: 'sata-7200-500g', source: '--disk' });
    expect(r.fit).toBeNull();
    expect(r.caution).toHaveLength(1);
    expect(r.caution[0]).toMatch(
      /^the simulated device's median D2C \([\d.]+ ms\) differs from the traced one \([\d.]+ ms\) by more than 2×$/,
    );
  });

  it('too few D→C pairs: the old default preset, with a caution; --disk traced refuses', () => {
    const text = simulatedTrace(known).split('\n').slice(0, 60).join('\n');
    const few = readTraceText(text);
    const r = replayTrace(few, { mode: 'open', meta: { rotational: 0, scheduler: 'none' } });
    expect(r.fit).toBeNull();
    expect(r.disk.preset).toBe('ssd');
    expect(r.caution[0]).toMatch(
      /no device could be fitted .*too few to fit a device \(16 needed\)/,
    );
    expect(() => replayTrace(few, { disk: 'traced', meta: { scheduler: 'none' } })).toThrow(
      ReplayError,
    );
  });
});

describe('the caution: simulated and traced per-request median D2C more than 2× apart', () => {
  it('fires above 2× either way, not at or below', () => {
    expect(d2cCaution(2, 1)).toEqual([]);
    expect(d2cCaution(0.5, 1)).toEqual([]);
    expect(d2cCaution(1.3, 1)).toEqual([]);
    expect(d2cCaution(2.01, 1)).toEqual([
      "the simulated device's median D2C (2.01 ms) differs from the traced one (1 ms) by more than 2×",
    ]);
    expect(d2cCaution(0.0123, 0.0247)).toHaveLength(1);
    expect(d2cCaution(0, 1)).toEqual([]); // nothing simulated: nothing to compare
  });
});
