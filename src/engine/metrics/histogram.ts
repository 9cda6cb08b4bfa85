/**
 * Latency histogram: a log-linear (HDR-style) histogram over non-negative
 * nanosecond values, with exact count, sum, min and max, and the exact
 * samples kept while a run is small.
 *
 * Buckets. Every power-of-two range [2^e, 2^(e+1)) ns is split into 1024
 * equal sub-buckets, for 2^-20 ns (about 1 fs) up to 2^60 ns (about 36
 * years), so the range 1 ns .. 1e15 ns is covered with room on both sides.
 * A bucket [L, L + W) has W / L ≤ 1/1024. A quantile is reported as the
 * bucket's midpoint clamped to [min, max]; the rank's true value lies in the
 * same bucket, so the reported value is within W/2 ≤ value/2048 of it:
 * every quantile is within 0.05 % relative error (inside the 0.1 % target).
 * Values below 2^-20 ns, and exact zeros, are counted in a zero bucket whose
 * value is 0 (clamped to min). Negative, NaN and ≥ 2^60 ns values throw.
 *
 * Quantile definition: nearest rank. For n samples and 0 < q ≤ 1 the
 * q-quantile is the sample of rank ceil(q·n) (1-based) in sorted order;
 * q = 0 gives the exact min and q = 1 the exact max. q·n within 1e-9 of an
 * integer is taken as that integer, so 0.07 × 100 is rank 7, not 8.
 *
 * Small runs. While count ≤ 4096 the samples themselves are kept as well and
 * quantiles are exact (same nearest-rank definition); beyond that the samples
 * are dropped and quantiles come from the buckets.
 *
 * State is plain data (typed arrays, arrays, numbers) so it survives
 * structuredClone. Octaves are allocated on first use (8 KiB each), so a
 * histogram costs memory only for the powers of two it has seen, at most
 * 80 × 8 KiB; recordValue allocates nothing per sample.
 */
import { doubleFields } from '../sim/doubles';

/** Largest sample count for which the exact samples are kept. */
export const EXACT_SAMPLE_LIMIT = 4096;

/** Values at or above this (2^60 ns, about 36.5 years) are rejected. */
export const MAX_TRACKABLE_NS = 2 ** 60;

const SUB_BUCKETS = 1024; // sub-buckets per power of two
const SCALE = 2 ** 20; // ns × SCALE ≥ 1 for every non-zero bucket
const OCTAVES = 80; // powers of two from 2^-20 ns to 2^60 ns
const FIRST_SAMPLES = 64; // initial capacity of the exact-sample array

/** SUB_SCALE[e] = 2^(10 - e): maps a scaled value of octave e into [1024, 2048). */
const SUB_SCALE = new Float64Array(OCTAVES);
/** BUCKET_NS[e] = 2^(e - 30): width in ns of one sub-bucket of octave e. */
const BUCKET_NS = new Float64Array(OCTAVES);
for (let e = 0; e < OCTAVES; e++) {
  SUB_SCALE[e] = 2 ** (10 - e);
  BUCKET_NS[e] = 2 ** (e - 30);
}

export interface Histogram {
  count: number; // samples recorded, zeros included
  sumNs: number; // sum of all samples, ns
  minNs: number; // smallest sample, ns (Number.MAX_VALUE while empty)
  maxNs: number; // largest sample, ns (0 while empty)
  zeroCount: number; // samples below 2^-20 ns, exact zeros included
  /** octaves[e]: 1024 sub-bucket counts for [2^(e-20), 2^(e-19)) ns, or null before first use. */
  octaves: Array<Float64Array | null>;
  /** The first `count` samples in arrival order while count ≤ 4096; null afterwards. */
  samples: Float64Array | null;
}

export interface LatencySummaryMs {
  count: number; // samples
  mean: number; // ms
  p50: number; // ms
  p95: number; // ms
  p99: number; // ms
  max: number; // ms
}

export interface CdfPoint {
  ms: number; // a latency, ms
  fraction: number; // share of samples ≤ ms, in (0, 1]
}

export function createHistogram(): Histogram {
  const octaves: Array<Float64Array | null> = [];
  for (let e = 0; e < OCTAVES; e++) octaves.push(null);
  const h: Histogram = {
    count: 0,
    sumNs: 0,
    minNs: Number.MAX_VALUE,
    maxNs: 0,
    zeroCount: 0,
    octaves,
    samples: new Float64Array(FIRST_SAMPLES),
  };
  return doubleFields(h, 'sumNs', 'maxNs');
}

/** floor(log2(x)) for 1 ≤ x < 2^96, without Math.log2's rounding at powers of two. */
function octaveOf(x: number): number {
  if (x < 4294967296) return 31 - Math.clz32(x);
  if (x < 18446744073709551616) return 63 - Math.clz32(x / 4294967296);
  return octaveOfHuge(x); // rare (values over 4.9 hours): kept out so octaveOf stays small
}

/** octaveOf for 2^64 ≤ x < 2^96. */
function octaveOfHuge(x: number): number {
  return 95 - Math.clz32(x / 18446744073709551616);
}

/** Record one value in ns (0 ≤ ns < 2^60). Allocation-free except on rare growth steps. */
export function recordValue(h: Histogram, ns: number): void {
  // Why `!(… && …)`: this form also rejects NaN.
  if (!(ns >= 0 && ns < MAX_TRACKABLE_NS)) badValue(ns);
  const n = h.count;
  h.count = n + 1;
  h.sumNs += ns;
  if (ns < h.minNs) h.minNs = ns;
  if (ns > h.maxNs) h.maxNs = ns;

  // rare: the first 4,096 samples only, kept out so V8 inlines recordValue into its callers
  if (h.samples !== null) keepSample(h, n, ns);

  const scaled = ns * SCALE; // exact: scaling by a power of two
  if (scaled < 1) {
    h.zeroCount++;
    return;
  }
  const e = octaveOf(scaled);
  const sub = ((scaled * SUB_SCALE[e]!) | 0) - SUB_BUCKETS;
  const counts = h.octaves[e] ?? newOctave(h, e);
  counts[sub]! += 1;
}

/** Out of range (its own function: recordValue stays small enough for V8 to inline). */
function badValue(ns: number): never {
  throw new RangeError(`histogram value out of range: ${ns} ns`);
}

/** First sample in octave e: allocate its 1024 counts (at most 80 times per histogram). */
function newOctave(h: Histogram, e: number): Float64Array {
  const counts = new Float64Array(SUB_BUCKETS);
  h.octaves[e] = counts;
  return counts;
}

/** Keep the n-th sample while the run is small. */
function keepSample(h: Histogram, n: number, ns: number): void {
  const s = h.samples!;
  if (n < s.length) s[n] = ns;
  else keepSampleSlow(h, s, n, ns);
}

/** The sample array is full: double it, or drop it past the exact limit. */
function keepSampleSlow(h: Histogram, s: Float64Array, n: number, ns: number): void {
  if (n >= EXACT_SAMPLE_LIMIT) {
    h.samples = null; // why: beyond the limit the buckets are the record
    return;
  }
  const grown = new Float64Array(Math.min(s.length * 2, EXACT_SAMPLE_LIMIT));
  grown.set(s);
  grown[n] = ns;
  h.samples = grown;
}

/** Add every sample of `from` into `into` (`from` is unchanged). */
export function mergeHistograms(into: Histogram, from: Histogram): void {
  const nInto = into.count;
  const nFrom = from.count;
  const fromSamples = from.samples;
  if (nFrom === 0) return;

  // Exact samples survive only if the union is still small; then both sides have them.
  if (nInto + nFrom <= EXACT_SAMPLE_LIMIT && into.samples !== null && fromSamples !== null) {
    let s = into.samples;
    if (s.length < nInto + nFrom) {
      let size = s.length;
      while (size < nInto + nFrom) size *= 2;
      const grown = new Float64Array(Math.min(size, EXACT_SAMPLE_LIMIT));
      grown.set(s.subarray(0, nInto));
      s = into.samples = grown;
    }
    s.set(fromSamples.subarray(0, nFrom), nInto);
  } else {
    into.samples = null;
  }

  for (let e = 0; e < OCTAVES; e++) {
    const src = from.octaves[e];
    if (src === null || src === undefined) continue;
    const dst = into.octaves[e] ?? newOctave(into, e);
    for (let i = 0; i < SUB_BUCKETS; i++) dst[i]! += src[i]!;
  }
  into.count = nInto + nFrom;
  into.sumNs += from.sumNs;
  into.zeroCount += from.zeroCount;
  if (from.minNs < into.minNs) into.minNs = from.minNs;
  if (from.maxNs > into.maxNs) into.maxNs = from.maxNs;
}

/** 1-based nearest rank of quantile q among n samples (q in (0, 1]). */
function nearestRank(q: number, n: number): number {
  const x = q * n;
  const r = Math.round(x);
  const rank = Math.abs(x - r) <= 1e-9 * Math.max(1, x) ? r : Math.ceil(x);
  return Math.min(n, Math.max(1, rank));
}

function checkQuantile(q: number): void {
  if (!(q >= 0 && q <= 1)) throw new RangeError(`quantile must be in [0, 1]: ${q}`);
}

/** The kept samples, sorted ascending (a copy), or null once they were dropped. */
function sortedSamples(h: Histogram): Float64Array | null {
  return h.samples === null ? null : h.samples.slice(0, h.count).sort();
}

function clamp(v: number, lo: number, hi: number): number {
  return v < lo ? lo : v > hi ? hi : v;
}

/** Value in ns of the sample of 1-based rank `rank`, from the buckets (midpoint, clamped). */
function bucketValueAtRank(h: Histogram, rank: number): number {
  let seen = h.zeroCount;
  if (seen >= rank) return h.minNs; // why: zero bucket's value is 0, clamped to min
  for (let e = 0; e < OCTAVES; e++) {
    const counts = h.octaves[e];
    if (counts === null || counts === undefined) continue;
    for (let i = 0; i < SUB_BUCKETS; i++) {
      seen += counts[i]!;
      if (seen >= rank) {
        const mid = (SUB_BUCKETS + i + 0.5) * BUCKET_NS[e]!;
        return clamp(mid, h.minNs, h.maxNs);
      }
    }
  }
  return h.maxNs; // unreachable while counts and count agree
}

function valueAt(h: Histogram, q: number, sorted: Float64Array | null): number {
  if (h.count === 0) return 0;
  if (q === 0) return h.minNs;
  if (q === 1) return h.maxNs;
  const rank = nearestRank(q, h.count);
  return sorted !== null ? sorted[rank - 1]! : bucketValueAtRank(h, rank);
}

/**
 * The q-quantile in ns (nearest rank; see the file header). Exact while
 * count ≤ 4096, else within 0.05 % relative. 0 for an empty histogram.
 */
export function valueAtQuantile(h: Histogram, q: number): number {
  checkQuantile(q);
  return valueAt(h, q, q === 0 || q === 1 ? null : sortedSamples(h));
}

/** Count, mean, p50, p95, p99 and max in milliseconds; all zero when empty. */
export function summarizeMs(h: Histogram): LatencySummaryMs {
  if (h.count === 0) return { count: 0, mean: 0, p50: 0, p95: 0, p99: 0, max: 0 };
  const sorted = sortedSamples(h);
  return {
    count: h.count,
    mean: h.sumNs / h.count / 1e6,
    p50: valueAt(h, 0.5, sorted) / 1e6,
    p95: valueAt(h, 0.95, sorted) / 1e6,
    p99: valueAt(h, 0.99, sorted) / 1e6,
    max: h.maxNs / 1e6,
  };
}

/** Every step of the empirical CDF: (value ns, cumulative count), ascending. */
function cdfSteps(h: Histogram): { ns: number[]; cum: number[] } {
  const ns: number[] = [];
  const cum: number[] = [];
  const sorted = sortedSamples(h);
  if (sorted !== null) {
    // One step per distinct sample value, at its last occurrence.
    for (let i = 0; i < sorted.length; i++) {
      if (i + 1 < sorted.length && sorted[i + 1] === sorted[i]) continue;
      ns.push(sorted[i]!);
      cum.push(i + 1);
    }
    return { ns, cum };
  }
  // One step per non-empty bucket, at its midpoint clamped to [min, max].
  let seen = h.zeroCount;
  if (seen > 0) {
    ns.push(h.minNs);
    cum.push(seen);
  }
  for (let e = 0; e < OCTAVES; e++) {
    const counts = h.octaves[e];
    if (counts === null || counts === undefined) continue;
    for (let i = 0; i < SUB_BUCKETS; i++) {
      if (counts[i] === 0) continue;
      seen += counts[i]!;
      ns.push(clamp((SUB_BUCKETS + i + 0.5) * BUCKET_NS[e]!, h.minNs, h.maxNs));
      cum.push(seen);
    }
  }
  ns[ns.length - 1] = h.maxNs; // why: the CDF reaches 1 exactly at the max
  return { ns, cum };
}

/**
 * Points of the empirical CDF for plotting: `fraction` of samples are ≤ `ms`,
 * ascending in both, the last point being (max, 1). At most `maxPoints`
 * (≥ 2) points: every step when there are few enough, otherwise the first
 * step (the min) and the steps where the fraction first reaches
 * k/(maxPoints − 1), k = 1 … maxPoints − 1. Empty histogram: [].
 */
export function cdfPoints(h: Histogram, maxPoints: number): CdfPoint[] {
  if (!(Number.isInteger(maxPoints) && maxPoints >= 2)) {
    throw new RangeError(`cdfPoints needs maxPoints ≥ 2: ${maxPoints}`);
  }
  if (h.count === 0) return [];
  const { ns, cum } = cdfSteps(h);
  const n = h.count;
  const points: CdfPoint[] = [];
  if (ns.length <= maxPoints) {
    for (let i = 0; i < ns.length; i++) points.push({ ms: ns[i]! / 1e6, fraction: cum[i]! / n });
    return points;
  }
  points.push({ ms: ns[0]! / 1e6, fraction: cum[0]! / n });
  let j = 0; // index of the last step emitted
  for (let k = 1; k < maxPoints; k++) {
    const level = k / (maxPoints - 1);
    let i = j;
    while (i < ns.length - 1 && cum[i]! / n < level) i++;
    if (i > j) {
      points.push({ ms: ns[i]! / 1e6, fraction: cum[i]! / n });
      j = i;
    }
  }
  return points;
}
