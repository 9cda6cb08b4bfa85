// Tests for src/engine/metrics/timeseries.ts: counter totals across window
// doubling, time-weighted level means, bounded memory and snapshotting.
import { describe, it, expect } from 'vitest';
import {
  countAt,
  countAtBoth,
  createCounterSeries,
  createLevelSeries,
  seriesPoints,
  setLevel,
  type LevelPoint,
} from '../../src/engine/metrics';
import { mulberry32 } from './prng';

const MS = 1e6; // ns per ms

describe('counter series', () => {
  it('sums events per window and reports ms bounds, the last cut at endNs', () => {
    const s = createCounterSeries(10 * MS, 8);
    countAt(s, 0);
    countAt(s, 9.999 * MS, 2);
    countAt(s, 10 * MS); // a boundary belongs to the later window
    countAt(s, 35 * MS, 4);
    expect(seriesPoints(s, 42 * MS)).toEqual([
      { startMs: 0, endMs: 10, value: 3 },
      { startMs: 10, endMs: 20, value: 1 },
      { startMs: 20, endMs: 30, value: 0 },
      { startMs: 30, endMs: 40, value: 4 },
      { startMs: 40, endMs: 42, value: 0 },
    ]);
  });

  it('doubles the window and conserves totals, per window and overall', () => {
    const rand = mulberry32(5);
    const s = createCounterSeries(1 * MS, 8);
    const events: Array<[number, number]> = [];
    for (let i = 0; i < 1000; i++) {
      const t = rand() * 100 * MS;
      const amount = 1 + Math.floor(rand() * 5);
      events.push([t, amount]);
      countAt(s, t, amount); // any order is fine for counters
    }
    expect(s.windowNs).toBe(16 * MS); // 100 ms over at most 8 windows: 1 → 2 → 4 → 8 → 16 ms
    expect(s.used).toBeLessThanOrEqual(8);
    const points = seriesPoints(s, 100 * MS);
    expect(points.map((p) => p.startMs)).toEqual([0, 16, 32, 48, 64, 80, 96]);
    expect(points[6]!.endMs).toBe(100);
    for (const p of points) {
      const expected = events
        .filter(([t]) => t >= p.startMs * MS && t < p.startMs * MS + 16 * MS)
        .reduce((a, [, n]) => a + n, 0);
      expect(p.value).toBe(expected);
    }
    const total = events.reduce((a, [, n]) => a + n, 0);
    expect(points.reduce((a, p) => a + p.value, 0)).toBe(total);
  });

  it('stays within maxPoints after 1e6 records, totals exact', () => {
    const s = createCounterSeries(1000, 64);
    let t = 0;
    let total = 0;
    const rand = mulberry32(3);
    for (let i = 0; i < 1_000_000; i++) {
      t += rand() * 2e4; // ~10 s of simulated time in all
      countAt(s, t, 4096);
      total += 4096;
    }
    expect(s.values.length).toBe(64);
    expect(s.used).toBeLessThanOrEqual(64);
    const points = seriesPoints(s, t);
    expect(points.length).toBeLessThanOrEqual(64);
    expect(points.reduce((a, p) => a + p.value, 0)).toBe(total);
    expect(points[points.length - 1]!.endMs).toBe(t / MS);
  });

  it('merges on the fly, without changing the series, when endNs lies beyond it', () => {
    const s = createCounterSeries(1, 4);
    for (let t = 0; t < 4; t++) countAt(s, t, t + 1);
    const before = structuredClone(s);
    expect(seriesPoints(s, 100)).toEqual([
      { startMs: 0, endMs: 32e-6, value: 10 },
      { startMs: 32e-6, endMs: 64e-6, value: 0 },
      { startMs: 64e-6, endMs: 96e-6, value: 0 },
      { startMs: 96e-6, endMs: 100e-6, value: 0 },
    ]);
    expect(s).toEqual(before);
  });

  it('reports nothing for an empty series at time 0, and rejects bad input', () => {
    expect(seriesPoints(createCounterSeries(10, 4), 0)).toEqual([]);
    expect(seriesPoints(createCounterSeries(10, 4), 15)).toHaveLength(2);
    const s = createCounterSeries(10, 4);
    expect(() => countAt(s, -1)).toThrow(RangeError);
    expect(() => countAt(s, NaN)).toThrow(RangeError);
    expect(() => countAt(s, Infinity)).toThrow(RangeError);
    expect(() => createCounterSeries(0, 4)).toThrow(RangeError);
    expect(() => createCounterSeries(10, 1)).toThrow(RangeError);
  });
});

describe('level series', () => {
  it('gives the time-weighted mean and max of a hand example, also after doubling', () => {
    const s = createLevelSeries(10, 4); // 10 ns windows
    setLevel(s, 0, 2);
    setLevel(s, 5, 4);
    setLevel(s, 15, 0);
    setLevel(s, 25, 1);
    const approx = (points: LevelPoint[]) =>
      points.map((p) => [p.startMs * MS, p.endMs * MS, p.value, p.max].map((x) => +x.toFixed(9)));
    expect(approx(seriesPoints(s, 40))).toEqual([
      [0, 10, 3, 4], // 2 for 5 ns, 4 for 5 ns
      [10, 20, 2, 4], // 4 for 5, 0 for 5
      [20, 30, 0.5, 1], // 0 for 5, 1 for 5
      [30, 40, 1, 1], // 1 still holds
    ]);
    setLevel(s, 45, 3); // beyond 4 windows: the width doubles to 20 ns
    expect(s.windowNs).toBe(20);
    expect(approx(seriesPoints(s, 50))).toEqual([
      [0, 20, 2.5, 4],
      [20, 40, 0.75, 1],
      [40, 50, 2, 3], // 1 for 5 ns, 3 for 5 ns, cut at 50
    ]);
  });

  it('starts at level 0 and counts a momentary peak in the max', () => {
    const s = createLevelSeries(100, 4);
    setLevel(s, 50, 2);
    setLevel(s, 150, 7);
    setLevel(s, 150, 1); // 7 for no time: in the max, not in the mean
    const [a, b] = seriesPoints(s, 200);
    expect(a).toEqual({ startMs: 0, endMs: 100e-6, value: 1, max: 2 });
    expect(b!.value).toBeCloseTo(1.5, 12);
    expect(b!.max).toBe(7);
  });

  it('a change exactly on a boundary does not leak the old level into the next window', () => {
    const s = createLevelSeries(10, 8);
    setLevel(s, 0, 9);
    setLevel(s, 20, 1);
    const points = seriesPoints(s, 30);
    expect(points.map((p) => p.max)).toEqual([9, 9, 1]);
    expect(points.map((p) => p.value)).toEqual([9, 9, 1]);
  });

  it('conserves the time integral across doubling and stays bounded for 1e6 changes', () => {
    const rand = mulberry32(8);
    const s = createLevelSeries(1000, 50);
    let t = 0;
    let level = 0;
    let integral = 0;
    let peak = 0;
    for (let i = 0; i < 1_000_000; i++) {
      const dt = rand() * 1e4;
      integral += level * dt;
      t += dt;
      level = Math.floor(rand() * 32);
      peak = Math.max(peak, level);
      setLevel(s, t, level);
    }
    const end = t + 5e6;
    integral += level * 5e6;
    expect(s.area.length).toBe(50);
    expect(s.used).toBeLessThanOrEqual(50);
    const points = seriesPoints(s, end);
    expect(points.length).toBeLessThanOrEqual(50);
    const fromPoints = points.reduce((a, p) => a + p.value * (p.endMs - p.startMs) * MS, 0);
    expect(Math.abs(fromPoints - integral) / integral).toBeLessThan(1e-9);
    expect(Math.max(...points.map((p) => p.max))).toBe(peak);
    for (const p of points) expect(p.value).toBeLessThanOrEqual(p.max);
  });

  it('a change a hair before a boundary lands in the window the divide says', () => {
    // a time within rounding of the next boundary goes where Math.floor(t / w) puts it (a
    // guard for any shortcut around setLevel's divide: comparing t with (last + 1)·w
    // without a margin picks the wrong window here)
    const rand = mulberry32(19);
    for (const w of [10e6, 3.7, 1e-3, 40e6, 0.1]) {
      const s = createLevelSeries(w, 64);
      let t = 0;
      for (let i = 0; i < 20_000; i++) {
        const k = Math.floor(t / s.windowNs) + 1 + Math.floor(rand() * 2);
        const boundary = k * s.windowNs;
        // just below the boundary by 1 ulp to 2^-36 of it, on it, or anywhere in between
        const hair = [2 ** -53, 2 ** -52, 2 ** -50, 2 ** -41, 2 ** -40, 2 ** -39, 2 ** -36, 0];
        const next =
          rand() < 0.8 ? boundary * (1 - hair[Math.floor(rand() * hair.length)]!) : t + rand() * w;
        if (next < t) continue;
        t = next;
        setLevel(s, t, Math.floor(rand() * 8));
        expect(s.lastWindow).toBe(Math.floor(t / s.windowNs));
      }
    }
  });

  it('rejects a change that goes back in time', () => {
    const s = createLevelSeries(10, 4);
    setLevel(s, 20, 1);
    expect(() => setLevel(s, 19, 2)).toThrow(RangeError);
    expect(() => setLevel(s, NaN, 2)).toThrow(RangeError);
    expect(s.level).toBe(1);
  });
});

describe('series snapshots', () => {
  it('a structuredClone continues identically', () => {
    const rand = mulberry32(21);
    const c = createCounterSeries(500, 16);
    const l = createLevelSeries(500, 16);
    let t = 0;
    const step = () => {
      t += rand() * 300;
      return [t, Math.floor(rand() * 10)] as const;
    };
    for (let i = 0; i < 100; i++) {
      const [at, n] = step();
      countAt(c, at, n);
      setLevel(l, at, n);
    }
    const c2 = structuredClone(c);
    const l2 = structuredClone(l);
    for (let i = 0; i < 5000; i++) {
      const [at, n] = step(); // runs well past 16 windows: several doublings
      countAt(c, at, n);
      countAt(c2, at, n);
      setLevel(l, at, n);
      setLevel(l2, at, n);
    }
    expect(c.windowNs).toBeGreaterThan(500);
    expect(c2).toEqual(c);
    expect(l2).toEqual(l);
    expect(seriesPoints(c2, t)).toEqual(seriesPoints(c, t));
    expect(seriesPoints(l2, t + 1000)).toEqual(seriesPoints(l, t + 1000));
  });
});

describe('countAtBoth', () => {
  it('counts as two countAt calls, through doublings and on unlike series', () => {
    const rnd = mulberry32(19);
    const a = createCounterSeries(1000, 16);
    const b = createCounterSeries(1000, 16);
    const a2 = createCounterSeries(1000, 16);
    const b2 = createCounterSeries(1000, 16);
    const odd = createCounterSeries(700, 16); // other windows: the fallback path
    const odd2 = createCounterSeries(700, 16);
    let t = 0;
    for (let i = 0; i < 3000; i++) {
      t += rnd() < 0.2 ? 0 : rnd() * 900 + 0.25;
      const x = rnd() * 1e6;
      countAtBoth(a, b, t, 1, x);
      countAt(a2, t, 1);
      countAt(b2, t, x);
      countAtBoth(a, odd, t, 0, x);
      countAt(a2, t, 0);
      countAt(odd2, t, x);
    }
    expect(a.windowNs).toBeGreaterThan(1000);
    expect(a).toEqual(a2);
    expect(b).toEqual(b2);
    expect(odd).toEqual(odd2);
    expect(() => countAtBoth(a, b, -1, 1, 1)).toThrow(RangeError);
  });
});
