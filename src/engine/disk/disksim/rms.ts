// DiskSim's demerit figure, as its `rms` program computes it (src/rms.c) from the response-
// time distributions a run prints (disksim_stat.c, statdefs "Start 0 step 1 grow 1",
// 1750 buckets, values in µs): the root-mean-square horizontal distance between the two
// CDFs, each a polyline through its bucket edges, sampled every 0.0001 of probability.
// Bucketing and the printed 6-decimal cumulative fractions are reproduced, so the figure
// is DiskSim's to its last printed digit, not merely "an RMS distance".

/** The statdefs buckets of "Physical access time" and "Trace access time". */
const BUCKETS = 1750;
const SCALE = 1000; // ms → µs

/** Bucket starts in µs: start 0, then each grows by step 1 + 1% (stat_initialize). */
export function bucketStarts(buckets = BUCKETS): number[] {
  const starts: number[] = [];
  let v = 0;
  for (let i = 0; i < buckets; i++) {
    starts.push(v);
    v += 1 + Math.trunc((Math.abs(v) * 1) / 100);
  }
  return starts;
}

const STARTS = bucketStarts();

/** A printed distribution: x in ms, cumulative fraction y as printed ("%f"). */
export interface Cdf {
  x: number[];
  y: number[];
}

/**
 * (int)(value · 1000) as DiskSim computes it: built 32-bit, on the x87, the product is
 * held exact (64-bit mantissa) before truncation, so 1.571 (a double a hair below) gives
 * 1570 where double arithmetic would round the product up to 1571. Near a whole number
 * the exact product's side is decided with integers.
 */
export function truncScaled(value: number, scale = SCALE): number {
  const p = value * scale;
  const k = Math.round(p);
  if (Math.abs(p - k) > 1e-6 * Math.max(1, Math.abs(p))) return Math.trunc(p);
  // value = mant · 2^exp exactly; compare mant · scale with k · 2^−exp.
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(value));
  const bits = view.getBigUint64(0);
  const expBits = Number((bits >> 52n) & 0x7ffn);
  const frac = bits & ((1n << 52n) - 1n);
  const mant = expBits === 0 ? frac : frac | (1n << 52n);
  const exp = (expBits === 0 ? 1 : expBits) - 1075;
  const lhs = mant * BigInt(scale);
  const kAbs = BigInt(Math.abs(k));
  const cmp = exp >= 0 ? lhs * (1n << BigInt(exp)) - kAbs : lhs - kAbs * (1n << BigInt(-exp));
  const sign = value < 0 ? -1 : 1;
  // |exact| ≥ |k| → truncation gives k; below → one step towards zero.
  if (cmp >= 0n) return k;
  return sign * (Math.abs(k) - 1);
}

/** Bucket a value (ms) as stat_update does: bucket k+1 holds starts[k] ≤ µs < starts[k+1]. */
function bucketOf(valueMs: number): number {
  const v = truncScaled(valueMs);
  if (v < 0) return 0;
  let bottom = 0;
  let top = BUCKETS - 2;
  if (v >= STARTS[top]!) return top + 1;
  while (top !== bottom) {
    const i = bottom + Math.floor((top - bottom) / 2);
    if (v < STARTS[i + 1]!) top = i;
    else bottom = i + 1;
  }
  return top + 1;
}

/** The distribution DiskSim would print for these values, up to the first row at 1.0
 * (where rms.c's get_line stops reading). */
export function disksimCdf(valuesMs: readonly number[]): Cdf {
  const counts = new Array<number>(BUCKETS).fill(0);
  for (const v of valuesMs) counts[bucketOf(v)]!++;
  const x: number[] = [];
  const y: number[] = [];
  let dist = 0;
  for (let i = 0; i < BUCKETS; i++) {
    dist += counts[i]! / valuesMs.length;
    x.push(STARTS[i]! / SCALE);
    const printed = Number(dist.toFixed(6));
    y.push(printed);
    if (printed >= 1) break;
  }
  return { x, y };
}

/** rms.c compute_rms: the two CDFs' x at p = 0.0001, 0.0002, … ≤ 1 (p accumulated in
 * floating point, as there), interpolated within a bucket; RMS of the differences. */
export function rmsOfCdfs(a: Cdf, b: Cdf): number {
  const INCR = 0.0001;
  let i1 = 0;
  let i2 = 0;
  let count = 0;
  let squares = 0;
  for (let p = INCR; p <= 1.0; p += INCR) {
    while (a.y[i1]! < p) i1++;
    while (b.y[i2]! < p) i2++;
    const xa = at(a, i1, p);
    const xb = at(b, i2, p);
    squares += (xa - xb) * (xa - xb);
    count++;
  }
  return Math.sqrt(squares / count);
}

function at(c: Cdf, i: number, p: number): number {
  if (i >= c.y.length) throw new RangeError('distribution ends below 1.0');
  const frac = (p - c.y[i - 1]!) / (c.y[i]! - c.y[i - 1]!);
  return c.x[i - 1]! + frac * (c.x[i]! - c.x[i - 1]!);
}

/** DiskSim's demerit between two sets of response times, ms. */
export function disksimRms(simulatedMs: readonly number[], measuredMs: readonly number[]): number {
  return rmsOfCdfs(disksimCdf(simulatedMs), disksimCdf(measuredMs));
}
