// The cheap disk's placement of a range write (the paper's "a cheap disk may simply write
// to the first or a random choice"): no positioning estimates at all.
import { alignUp, nextFreeStart, type RangeState, type RangeWrite } from './range';
import { nextInt } from '../sim/rng';

/** The number of aligned starts in a range for an n-sector write. */
function startsIn(r: { begin: number; end: number }, n: number, align: number): number {
  const a = alignUp(r.begin, align);
  return r.end - n < a ? 0 : Math.floor((r.end - n - a) / align) + 1;
}

/**
 * The cheap disk: the first free start of the first range that has one, or ("random") a
 * start drawn uniformly over all the ranges' starts, moving on to the next free one.
 * −1 when every start is taken.
 */
export function placeCheap(st: RangeState, rw: RangeWrite, n: number, random: boolean): number {
  const rs = rw.ranges;
  let from = 0;
  let at = alignUp(rs[0]?.begin ?? 0, rw.align);
  if (random) {
    let total = 0;
    for (const r of rs) total += startsIn(r, n, rw.align);
    if (total === 0) return -1;
    let k = nextInt(st.rng, total);
    for (from = 0; from < rs.length; from++) {
      const c = startsIn(rs[from]!, n, rw.align);
      if (k < c) break;
      k -= c;
    }
    at = alignUp(rs[from]!.begin, rw.align) + k * rw.align;
  }
  // from `at` in range `from`, then the following ranges, then back round to `at`
  for (let i = 0; i <= rs.length; i++) {
    const r = rs[(from + i) % rs.length]!;
    const lo = i === 0 ? at : r.begin;
    const hi = i === rs.length ? at - rw.align : r.end - n;
    const s = nextFreeStart(st, lo, n, rw.align, hi);
    if (s >= 0) return s;
  }
  return -1;
}
