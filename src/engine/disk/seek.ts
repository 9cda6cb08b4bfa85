// Seek curves (DISK-MODEL.md §1.3): time to move the arm d cylinders, in ms.
import type { SeekCurve } from './params';

/** Seek time in ms for a move of `d` cylinders on a disk of `cylinders` cylinders. */
export function seekMs(curve: SeekCurve, d: number, cylinders: number): number {
  if (d <= 0) return 0;
  switch (curve.type) {
    case 'constant':
      return curve.ms;
    case 'linear':
      return curve.baseMs + curve.perCylinderMs * d;
    case 'curve': {
      // Lee's curve: a·√(d−1) + b·(d−1) + c through (1, min), mean, (max stroke, max).
      const { singleMs: min, averageMs: avg, fullMs: max } = curve;
      const n = cylinders;
      const a = (-10 * min + 15 * avg - 5 * max) / (3 * Math.sqrt(n));
      const b = (7 * min - 15 * avg + 8 * max) / (3 * n);
      return a * Math.sqrt(d - 1) + b * (d - 1) + min;
    }
    case 'hpl':
      return hpl(curve.v, d);
    case 'hplplus10': {
      const t = curve.firstTen[d - 1];
      return d <= 10 && t !== undefined ? t : hpl(curve.v, d);
    }
    case 'extracted':
      return interpolate(curve.points, d);
  }
}

function hpl(v: readonly number[], d: number): number {
  // read by index, not destructured: destructuring walks an iterator, which costs in the
  // unoptimised code that builds a short run's seek table at start-up (issue 19)
  const v6 = v[5]!;
  if (d === 1 && v6 !== -1) return v6;
  return d < v[0]! ? v[1]! + v[2]! * Math.sqrt(d) : v[3]! + v[4]! * d;
}

function interpolate(points: ReadonlyArray<readonly [number, number]>, d: number): number {
  // Points are sorted by distance; before the first point, scale down to (0, 0).
  let lo: readonly [number, number] = [0, 0];
  for (const p of points) {
    if (p[0] === d) return p[1];
    if (p[0] > d) return lo[1] + ((p[1] - lo[1]) * (d - lo[0])) / (p[0] - lo[0]);
    lo = p;
  }
  // Past the last point: extend the last segment's slope.
  const n = points.length;
  if (n < 2) return lo[1];
  const [x0, y0] = points[n - 2]!;
  const [x1, y1] = points[n - 1]!;
  return y1 + ((y1 - y0) * (d - x1)) / (x1 - x0);
}

/** Seek times for every distance 0…cylinders−1, in ns, so the hot path is one array read. */
export function seekTableNs(curve: SeekCurve, cylinders: number): Float64Array {
  const table = new Float64Array(cylinders);
  for (let d = 1; d < cylinders; d++) table[d] = seekMs(curve, d, cylinders) * 1e6;
  return table;
}

/**
 * A floor under every seek of at least d cylinders, by d: the least of the table from d
 * outward (a curve need not rise with distance: the C2247A's 6-cylinder seek is slower than
 * its 7), so no move of d or more cylinders takes less — seekTimeNs only adds to the table's
 * value (a head switch raises it, write settle adds to it, the minimum write seek raises it).
 * SPTF's walk outward from the arm stops where this floor exceeds its best (sptf-queue.ts).
 * A negative write settle would break that; the floor is then −∞ (no pruning).
 */
export function seekFloorTableNs(seekNs: Float64Array, writeSettleNs: number): Float64Array {
  const floor = new Float64Array(seekNs.length);
  if (!(writeSettleNs >= 0)) return floor.fill(-Infinity);
  let least = Infinity;
  for (let d = seekNs.length - 1; d >= 0; d--) {
    const s = seekNs[d]!;
    if (s < least || s !== s) least = s === s ? s : -Infinity; // NaN (never valid): no floor
    floor[d] = least;
  }
  return floor;
}
