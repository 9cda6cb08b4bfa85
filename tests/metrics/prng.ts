/** A tiny fixed-seed PRNG (mulberry32) for the metrics tests: same seed, same numbers. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Nearest-rank quantile of an ascending array: the element of rank ceil(q·n), q·n snapped to integers. */
export function exactNearestRank(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (q === 0) return sorted[0]!;
  const x = q * n;
  const r = Math.round(x);
  const rank = Math.abs(x - r) <= 1e-9 * Math.max(1, x) ? r : Math.ceil(x);
  return sorted[Math.min(n, Math.max(1, rank)) - 1]!;
}
