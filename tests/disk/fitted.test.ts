// The device fitted to a trace (src/engine/disk/fitted.ts, preset "traced"): its work formula,
// its spread of ratios, processor sharing among the requests in flight, and how a scenario
// describes it.
import { describe, expect, it } from 'vitest';
import {
  FITTED_SPREAD_BINS,
  modelledMs,
  SECTORS_PER_GIB,
  spreadAt,
  spreadMean,
  spreadOf,
} from '../../src/engine/disk/fitted';
import type { FittedDirection, FittedSpec } from '../../src/engine/disk/params';
import { isNonRotational } from '../../src/engine/disk/params';
import { getPreset, presetNames } from '../../src/engine/disk/presets';
import { runScenario } from '../../src/engine/run';
import { loadScenario, ScenarioError } from '../../src/engine/scenario/load';
import type { TraceEvent, TraceSink } from '../../src/engine/events';

const ONES = new Array<number>(FITTED_SPREAD_BINS).fill(1);

function direction(d: Partial<FittedDirection>): FittedDirection {
  return { baseMs: 1, perKiBMs: 0, randomMs: 0, perSqrtGiBMs: 0, spread: ONES, ...d };
}

function spec(s: Partial<FittedSpec>): FittedSpec {
  return { parallelism: 1, rotational: false, read: direction({}), write: null, ...s };
}

interface Req {
  sector: number;
  sizeKiB?: number;
  atMs: number;
  op?: 'read' | 'write';
}

/** Each request from its own process (so none merge or wait for another), on the fitted
 * device; the D2C of each, ms, in the order given. */
function d2cs(fitted: FittedSpec, reqs: Req[], seed = 1): number[] {
  const s = loadScenario(
    {
      name: 'fitted',
      seed,
      disk: { preset: 'traced', queueDepth: 32, fitted },
      iosched: { name: 'none' },
      workload: {
        processes: reqs.map((r, i) => ({
          name: `p${i}`,
          requests: [
            { sector: r.sector, sizeKiB: r.sizeKiB ?? 4, op: r.op ?? 'read', atMs: r.atMs },
          ],
        })),
      },
    },
    'test',
  );
  const d = new Map<number, number>();
  const byProc = new Map<number, number>();
  const sink: TraceSink = {
    trace(e: TraceEvent): void {
      if (e.action === 'D') d.set(e.rq, e.tNs);
      if (e.action === 'C') byProc.set(e.proc, (e.tNs - d.get(e.rq)!) / 1e6);
    },
    service(): void {},
    decision(): void {},
  };
  runScenario(s, { sink });
  return reqs.map((_, i) => byProc.get(i)!);
}

describe('the fitted work formula (disk/fitted.ts modelledMs)', () => {
  it('work = a + b·KiB + r·[not sequential] + c·√(distance in GiB)', () => {
    const d = direction({ baseMs: 0.1, perKiBMs: 0.01, randomMs: 0.5, perSqrtGiBMs: 2 });
    expect(modelledMs(d, 8, true, 0)).toBeCloseTo(0.1 + 0.04, 12);
    expect(modelledMs(d, 8, false, 4 * SECTORS_PER_GIB)).toBeCloseTo(0.1 + 0.04 + 0.5 + 4, 12);
    expect(modelledMs(d, 256, false, SECTORS_PER_GIB / 4)).toBeCloseTo(0.1 + 1.28 + 0.5 + 1, 12);
  });
});

describe('the spread (spreadOf, spreadAt): equal shares of the ratios, each its mean', () => {
  it('shares are the means of equal slices, fractional at the edges', () => {
    // 3 values into 2 shares: 1.5 values each
    expect(spreadOf([1, 2, 4], 2)).toEqual([(1 + 0.5 * 2) / 1.5, (0.5 * 2 + 4) / 1.5]);
    expect(spreadOf([5], 4)).toEqual([5, 5, 5, 5]);
  });

  it('a draw at u is share j at (j + ½)/m, linear between, flat in the outer half-shares', () => {
    const s = [1, 2, 4, 8];
    expect(spreadAt(s, 0)).toBe(1);
    expect(spreadAt(s, 0.1)).toBe(1);
    expect(spreadAt(s, 0.125)).toBe(1);
    expect(spreadAt(s, 0.25)).toBeCloseTo(1.5, 12);
    expect(spreadAt(s, 0.375)).toBeCloseTo(2, 12);
    expect(spreadAt(s, 0.999)).toBe(8);
  });

  it("the draws' mean is the ratios' mean (the device keeps the trace's throughput)", () => {
    const ratios = Float64Array.from({ length: 997 }, (_, i) => 0.2 + (i % 37) ** 2 / 50).sort();
    const s = spreadOf(ratios);
    const mean = ratios.reduce((a, b) => a + b, 0) / ratios.length;
    expect(spreadMean(s)).toBeCloseTo(mean, 10);
    const n = 200000;
    let drawn = 0;
    for (let i = 0; i < n; i++) drawn += spreadAt(s, (i + 0.5) / n);
    expect(drawn / n).toBeCloseTo(mean, 6);
  });
});

describe('processor sharing: k requests in flight each progress at min(1, P/k)', () => {
  it('three 1 ms requests at once on parallelism 2 each run at 2/3: all done at 1.5 ms', () => {
    const r = d2cs(spec({ parallelism: 2 }), [
      { sector: 0, atMs: 0 },
      { sector: 1e6, atMs: 0 },
      { sector: 2e6, atMs: 0 },
    ]);
    for (const x of r) expect(x).toBeCloseTo(1.5, 9);
  });

  it('parallelism 1: a request alone runs at full speed, shares once another arrives', () => {
    // A at 0 (1 ms of work): alone 0.5 ms, then shares with B at ½ → done at 1.5 ms;
    // B then has 0.5 ms left, alone → done at 2.0 ms (D2C 1.5 ms)
    const r = d2cs(spec({}), [
      { sector: 0, atMs: 0 },
      { sector: 1e6, atMs: 0.5 },
    ]);
    expect(r[0]).toBeCloseTo(1.5, 9);
    expect(r[1]).toBeCloseTo(1.5, 9);
  });

  it('up to P requests run at full speed', () => {
    const r = d2cs(
      spec({ parallelism: 4 }),
      [0, 1, 2, 3].map((i) => ({ sector: i * 1e6, atMs: i * 0.1 })),
    );
    for (const x of r) expect(x).toBeCloseTo(1, 9);
  });
});

describe('sequential and distance: from where the previous command ended', () => {
  it("a request starting at the last one's end pays no random term; another pays it and its distance", () => {
    const f = spec({
      parallelism: 8,
      read: direction({ baseMs: 1, randomMs: 0.5, perSqrtGiBMs: 1, perKiBMs: 0.01 }),
    });
    // 4 KiB = 8 sectors: the second starts at 8 (sequential), the third 1 GiB further
    const r = d2cs(f, [
      { sector: 0, atMs: 0 },
      { sector: 8, atMs: 10 },
      { sector: 16 + SECTORS_PER_GIB, atMs: 20 },
    ]);
    // the first has no previous command: not sequential, distance 0
    expect(r[0]).toBeCloseTo(1 + 0.04 + 0.5, 9);
    expect(r[1]).toBeCloseTo(1 + 0.04, 9);
    expect(r[2]).toBeCloseTo(1 + 0.04 + 0.5 + 1, 9);
  });

  it('a direction without a fit is served by the other', () => {
    const f = spec({ read: null, write: direction({ baseMs: 2 }) });
    expect(d2cs(f, [{ sector: 0, atMs: 0 }])[0]).toBeCloseTo(2, 9);
  });
});

describe('the spread in the simulation: each request draws its ratio from its own stream', () => {
  it('ratios from the spread, the same for the same seed, other for another seed', () => {
    const spread = Array.from({ length: FITTED_SPREAD_BINS }, (_, j) => 0.5 + j / 50);
    const f = spec({ parallelism: 64, read: direction({ spread }) });
    const reqs = Array.from({ length: 40 }, (_, i) => ({ sector: i * 1e5, atMs: i * 10 }));
    const a = d2cs(f, reqs, 7);
    expect(d2cs(f, reqs, 7)).toEqual(a);
    expect(d2cs(f, reqs, 8)).not.toEqual(a);
    for (const x of a) {
      expect(x).toBeGreaterThanOrEqual(spread[0]! - 1e-9);
      expect(x).toBeLessThanOrEqual(spread[FITTED_SPREAD_BINS - 1]! + 1e-9);
    }
  });
});

describe('the scenario: disk.preset "traced" with disk.fitted', () => {
  const base = {
    name: 'x',
    workload: {
      processes: [{ name: 'p', requests: [{ sector: 0, sizeKiB: 4, op: 'read', atMs: 0 }] }],
    },
  };
  const problems = (disk: Record<string, unknown>): string => {
    try {
      loadScenario({ ...base, disk }, 'f.json');
      return '';
    } catch (e) {
      return (e as ScenarioError).message;
    }
  };

  it('"traced" is found by name but not listed among the presets (it needs a fit)', () => {
    expect(getPreset('traced')?.fitted).toBeNull();
    expect(presetNames()).not.toContain('traced');
    expect(problems({ preset: 'traced' })).toMatch(/disk\.fitted: missing/);
  });

  it('a fit loads; its spread must be 100 ascending ratios; one direction at least', () => {
    expect(problems({ preset: 'traced', fitted: spec({}) })).toBe('');
    expect(
      problems({ preset: 'traced', fitted: spec({ read: direction({ spread: [1, 2] }) }) }),
    ).toMatch(/disk\.fitted\.read\.spread: must be a list of 100 ascending ratios/);
    expect(
      problems({
        preset: 'traced',
        fitted: spec({ read: direction({ spread: [...ONES.slice(1), 0.5] }) }),
      }),
    ).toMatch(/spread/);
    expect(problems({ preset: 'traced', fitted: spec({ read: null }) })).toMatch(
      /needs a read or a write fit/,
    );
    expect(problems({ preset: 'traced', fitted: { ...spec({}), extra: 1 } })).toMatch(
      /disk\.fitted\.extra/,
    );
  });

  it("the traced queue's rotational flag is what the schedulers see (QUEUE_FLAG_NONROT)", () => {
    const p = getPreset('traced')!;
    expect(isNonRotational({ ...p, fitted: spec({ rotational: false }) })).toBe(true);
    expect(isNonRotational({ ...p, fitted: spec({ rotational: true }) })).toBe(false);
    expect(isNonRotational(getPreset('ssd')!)).toBe(true);
    expect(isNonRotational(getPreset('hp-c2247a')!)).toBe(false);
  });
});
