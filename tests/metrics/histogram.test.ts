// Tests for src/engine/metrics/histogram.ts: exact small-run percentiles, the
// 0.1 % bound in bucket mode, zeros, merging, CDF points and snapshotting.
import { describe, it, expect } from 'vitest';
import {
  EXACT_SAMPLE_LIMIT,
  cdfPoints,
  createHistogram,
  mergeHistograms,
  recordValue,
  summarizeMs,
  valueAtQuantile,
  type Histogram,
} from '../../src/engine/metrics';
import { exactNearestRank, mulberry32 } from './prng';

function histogramOf(values: readonly number[]): Histogram {
  const h = createHistogram();
  for (const v of values) recordValue(h, v);
  return h;
}

/** n values log-uniform in [lo, hi) ns from a fixed seed. */
function logUniform(seed: number, n: number, lo: number, hi: number): number[] {
  const rand = mulberry32(seed);
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(lo * Math.pow(hi / lo, rand()));
  return out;
}

const QUANTILES = [0.001, 0.01, 0.1, 0.25, 0.333, 0.5, 0.75, 0.9, 0.95, 0.99, 0.999, 0.9999];

describe('histogram: small runs are exact (nearest rank)', () => {
  it('gives the nearest-rank percentiles of 1..100 ms, recorded shuffled', () => {
    const rand = mulberry32(7);
    const values = Array.from({ length: 100 }, (_, i) => (i + 1) * 1e6);
    for (let i = values.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [values[i], values[j]] = [values[j]!, values[i]!];
    }
    const h = histogramOf(values);
    expect(summarizeMs(h)).toEqual({ count: 100, mean: 50.5, p50: 50, p95: 95, p99: 99, max: 100 });
    expect(valueAtQuantile(h, 0)).toBe(1e6);
    expect(valueAtQuantile(h, 1)).toBe(100e6);
    expect(valueAtQuantile(h, 0.07)).toBe(7e6); // 0.07 × 100 = 7.000000000000001: still rank 7
    expect(valueAtQuantile(h, 0.011)).toBe(2e6); // rank ceil(1.1) = 2
    expect(valueAtQuantile(h, 0.001)).toBe(1e6);
  });

  it('takes a sample, not an interpolation, at the median of an even set', () => {
    const h = histogramOf([4, 1, 3, 2]);
    expect(valueAtQuantile(h, 0.5)).toBe(2);
    expect(valueAtQuantile(h, 0.51)).toBe(3);
    expect(valueAtQuantile(h, 0.75)).toBe(3);
    expect(valueAtQuantile(h, 0.76)).toBe(4);
  });

  it('is exact for values no bucket could separate, up to the sample limit', () => {
    const values = Array.from({ length: EXACT_SAMPLE_LIMIT }, (_, i) => 1e9 + i * 1e-3);
    const h = histogramOf(values);
    expect(h.samples).not.toBeNull();
    expect(valueAtQuantile(h, 0.5)).toBe(values[2047]);
    expect(valueAtQuantile(h, 0.25)).toBe(values[1023]);
    recordValue(h, 2e9); // sample 4097: the exact samples are dropped
    expect(h.samples).toBeNull();
    expect(h.count).toBe(EXACT_SAMPLE_LIMIT + 1);
  });
});

describe('histogram: bucket mode stays within 0.1 %', () => {
  it('matches sorted exact quantiles of 200k log-uniform values (1 µs .. 1000 s)', () => {
    const values = logUniform(42, 200_000, 1e3, 1e12);
    const h = histogramOf(values);
    expect(h.samples).toBeNull();
    const sorted = Float64Array.from(values).sort();
    let worst = 0;
    const qs = [...QUANTILES, ...Array.from({ length: 999 }, (_, k) => (k + 1) / 1000)];
    for (const q of qs) {
      const exact = exactNearestRank(sorted, q);
      const got = valueAtQuantile(h, q);
      worst = Math.max(worst, Math.abs(got - exact) / exact);
    }
    expect(worst).toBeLessThanOrEqual(1 / 2048); // the documented bound (0.05 %)
    expect(worst).toBeGreaterThan(0); // the buckets really are approximate here
    expect(valueAtQuantile(h, 0)).toBe(sorted[0]);
    expect(valueAtQuantile(h, 1)).toBe(sorted[sorted.length - 1]);
    const sum = values.reduce((a, b) => a + b, 0);
    expect(summarizeMs(h).mean).toBeCloseTo(sum / values.length / 1e6, 9);
  });

  it('places exact powers of two (octave edges, incl. 2^32 and 2^64 scaled) correctly', () => {
    const values: number[] = [];
    for (let copy = 0; copy < 60; copy++) {
      for (let e = -20; e < 60; e++) values.push(2 ** e, 2 ** e * (1 + 1023 / 1024), 2 ** e * 1.5);
    }
    const h = histogramOf(values);
    expect(h.samples).toBeNull();
    const sorted = Float64Array.from(values).sort();
    for (let k = 1; k <= 240; k++) {
      const q = k / 240;
      const exact = exactNearestRank(sorted, q);
      expect(Math.abs(valueAtQuantile(h, q) - exact) / exact).toBeLessThanOrEqual(1 / 2048);
    }
  });

  it('separates 1000 ns from 1001 ns in bucket mode', () => {
    const h = histogramOf([...Array(3000).fill(1000), ...Array(3000).fill(1001)]);
    expect(h.samples).toBeNull();
    expect(Math.abs(valueAtQuantile(h, 0.5) - 1000)).toBeLessThanOrEqual(0.5);
    expect(Math.abs(valueAtQuantile(h, 0.51) - 1001)).toBeLessThanOrEqual(0.5);
    expect(summarizeMs(h).mean).toBeCloseTo(0.0010005, 12);
  });
});

describe('histogram: empty, zeros and bad input', () => {
  it('reports zeros when empty', () => {
    const h = createHistogram();
    expect(summarizeMs(h)).toEqual({ count: 0, mean: 0, p50: 0, p95: 0, p99: 0, max: 0 });
    expect(valueAtQuantile(h, 0.5)).toBe(0);
    expect(valueAtQuantile(h, 0)).toBe(0);
    expect(valueAtQuantile(h, 1)).toBe(0);
    expect(cdfPoints(h, 10)).toEqual([]);
  });

  it('counts zeros in the zero bucket, exactly and in bucket mode', () => {
    const small = histogramOf([0, 0, 0, 0, 0, 5e6, 5e6, 5e6, 5e6, 5e6]);
    expect(summarizeMs(small)).toEqual({ count: 10, mean: 2.5, p50: 0, p95: 5, p99: 5, max: 5 });

    const large = histogramOf([...Array(3000).fill(0), ...Array(3000).fill(1e6)]);
    expect(large.zeroCount).toBe(3000);
    expect(valueAtQuantile(large, 0.5)).toBe(0);
    expect(Math.abs(valueAtQuantile(large, 0.51) - 1e6)).toBeLessThanOrEqual(1e6 / 2048);
    expect(valueAtQuantile(large, 0)).toBe(0);
  });

  it('treats values below 2^-20 ns as zeros but keeps the exact min', () => {
    const h = histogramOf(Array(5000).fill(1e-7));
    expect(h.zeroCount).toBe(5000);
    expect(valueAtQuantile(h, 0.5)).toBe(1e-7); // zero bucket's 0, clamped to min
    const edge = histogramOf([2 ** -20, 0.99 * 2 ** -20, 2 ** -21]);
    expect(edge.zeroCount).toBe(2); // 2^-20 ns itself is the first real bucket
    expect(edge.octaves[0]![0]).toBe(1);
  });

  it('rejects negative, NaN, infinite and huge values, and bad quantiles', () => {
    const h = createHistogram();
    expect(() => recordValue(h, -1)).toThrow(RangeError);
    expect(() => recordValue(h, NaN)).toThrow(RangeError);
    expect(() => recordValue(h, Infinity)).toThrow(RangeError);
    expect(() => recordValue(h, 2 ** 60)).toThrow(RangeError);
    expect(h.count).toBe(0);
    recordValue(h, 1e15); // the required top of the range
    expect(valueAtQuantile(h, 0.5)).toBe(1e15);
    expect(() => valueAtQuantile(h, 1.5)).toThrow(RangeError);
    expect(() => valueAtQuantile(h, -0.1)).toThrow(RangeError);
    expect(() => valueAtQuantile(h, NaN)).toThrow(RangeError);
  });
});

describe('histogram: merge', () => {
  it('merging two small histograms equals recording both (exact)', () => {
    const a = [5, 1, 9, 3].map((v) => v * 1e6);
    const b = [2, 8, 7].map((v) => v * 1e6);
    const merged = histogramOf(a);
    mergeHistograms(merged, histogramOf(b));
    expect(merged).toEqual(histogramOf([...a, ...b]));
    expect(summarizeMs(merged)).toEqual({ count: 7, mean: 5, p50: 5, p95: 9, p99: 9, max: 9 });
  });

  it('merging large histograms gives the same buckets, count, min, max', () => {
    const a = logUniform(1, 30_000, 1e4, 1e9);
    const b = logUniform(2, 20_000, 1e2, 1e7);
    const merged = histogramOf(a);
    const from = histogramOf(b);
    const fromBefore = structuredClone(from);
    mergeHistograms(merged, from);
    const direct = histogramOf([...a, ...b]);
    expect(merged.octaves).toEqual(direct.octaves);
    expect(merged.count).toBe(50_000);
    expect(merged.minNs).toBe(direct.minNs);
    expect(merged.maxNs).toBe(direct.maxNs);
    expect(merged.sumNs).toBeCloseTo(direct.sumNs, -3);
    for (const q of QUANTILES) expect(valueAtQuantile(merged, q)).toBe(valueAtQuantile(direct, q));
    expect(from).toEqual(fromBefore);
  });

  it('drops exact samples when a merge crosses the limit, and handles empties', () => {
    const a = histogramOf(logUniform(3, 3000, 1, 1e6));
    const b = histogramOf(logUniform(4, 3000, 1, 1e6));
    mergeHistograms(a, b);
    expect(a.samples).toBeNull();
    expect(a.count).toBe(6000);

    const e = createHistogram();
    mergeHistograms(e, histogramOf([3e6, 1e6]));
    expect(summarizeMs(e)).toEqual({ count: 2, mean: 2, p50: 1, p95: 3, p99: 3, max: 3 });
    const before = structuredClone(e);
    mergeHistograms(e, createHistogram());
    expect(e).toEqual(before);
  });
});

describe('histogram: cdfPoints', () => {
  it('lists every step of a small set', () => {
    const h = histogramOf([2e6, 1e6, 3e6, 2e6]);
    expect(cdfPoints(h, 10)).toEqual([
      { ms: 1, fraction: 0.25 },
      { ms: 2, fraction: 0.75 },
      { ms: 3, fraction: 1 },
    ]);
  });

  it('thins many steps to at most maxPoints, keeping min and (max, 1)', () => {
    const h = histogramOf(Array.from({ length: 1000 }, (_, i) => (i + 1) * 1e6));
    const points = cdfPoints(h, 11);
    expect(points).toHaveLength(11);
    expect(points[0]).toEqual({ ms: 1, fraction: 0.001 });
    expect(points[5]).toEqual({ ms: 500, fraction: 0.5 });
    expect(points[10]).toEqual({ ms: 1000, fraction: 1 });
  });

  it('is monotone and ends at (max, 1) in bucket mode', () => {
    const values = logUniform(9, 50_000, 1e3, 1e9);
    const h = histogramOf(values);
    const points = cdfPoints(h, 200);
    expect(points.length).toBeLessThanOrEqual(200);
    expect(points.length).toBeGreaterThan(150);
    for (let i = 1; i < points.length; i++) {
      expect(points[i]!.ms).toBeGreaterThan(points[i - 1]!.ms);
      expect(points[i]!.fraction).toBeGreaterThan(points[i - 1]!.fraction);
    }
    expect(points[points.length - 1]).toEqual({ ms: h.maxNs / 1e6, fraction: 1 });
    // Each point's fraction is the true share of samples at or below it, to bucket precision.
    const sorted = Float64Array.from(values).sort();
    const mid = points[Math.floor(points.length / 2)]!;
    const below = sorted.filter((v) => v <= mid.ms * 1e6 * (1 + 1 / 2048)).length / values.length;
    expect(Math.abs(below - mid.fraction)).toBeLessThan(0.002);
    expect(() => cdfPoints(h, 1)).toThrow(RangeError);
  });
});

describe('histogram: snapshots', () => {
  it('a structuredClone continues identically, across sample growth and the limit', () => {
    const values = logUniform(11, 12_000, 1e3, 1e8);
    const h = histogramOf(values.slice(0, 100)); // mid-growth of the sample array
    const copy = structuredClone(h);
    expect(copy).toEqual(h);
    for (const v of values.slice(100)) {
      recordValue(h, v);
      recordValue(copy, v);
    }
    expect(copy).toEqual(h);
    expect(copy.samples).toBeNull();
    expect(summarizeMs(copy)).toEqual(summarizeMs(h));
    expect(cdfPoints(copy, 50)).toEqual(cdfPoints(h, 50));
    expect(copy.octaves).not.toBe(h.octaves); // really a separate copy
  });
});
