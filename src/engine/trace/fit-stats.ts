// The statistics the fitted device needs (replay-fit.ts): a linear model with non-negative
// coefficients fitted by least absolute *relative* deviations — Σ |x·β − y| / y, the mean
// relative error the fit is judged by, robust to the few very slow requests a trace has —
// and quantiles. Deterministic: no sampling, fixed iteration rules.

/** Columns of a design matrix (column 0 the intercept's ones) and the positive responses. */
export interface Design {
  columns: Float64Array[];
  y: Float64Array;
}

export interface L1Fit {
  /** one coefficient per column, ≥ 0; 0 for a column left out */
  beta: number[];
  /** the mean relative error |x·β − y| / y over the rows */
  loss: number;
}

const MAX_ITERATIONS = 60;
/** a residual is never taken as smaller than this fraction of its y (IRLS's weights stay finite) */
const FLOOR = 1e-6;

/**
 * β over the given columns minimising Σ |x·β − y| / y, by iteratively reweighted least
 * squares (weights 1 / (y·|residual|), starting from relative least squares, 1 / y²); the
 * best iterate is kept. Null when the columns are collinear.
 */
export function relativeL1(d: Design, use: readonly number[]): L1Fit | null {
  const { columns, y } = d;
  const n = y.length;
  const p = use.length;
  const w = new Float64Array(n);
  for (let i = 0; i < n; i++) w[i] = 1 / (y[i]! * y[i]!);
  let best: L1Fit | null = null;
  let stale = 0;
  for (let it = 0; it < MAX_ITERATIONS && stale < 3; it++) {
    const A = new Float64Array(p * p);
    const b = new Float64Array(p);
    for (let a = 0; a < p; a++) {
      const xa = columns[use[a]!]!;
      let s = 0;
      for (let i = 0; i < n; i++) s += w[i]! * xa[i]! * y[i]!;
      b[a] = s;
      for (let c = a; c < p; c++) {
        const xc = columns[use[c]!]!;
        let t = 0;
        for (let i = 0; i < n; i++) t += w[i]! * xa[i]! * xc[i]!;
        A[a * p + c] = t;
        A[c * p + a] = t;
      }
    }
    const beta = solve(A, b, p);
    if (beta === null) return best;
    let loss = 0;
    for (let i = 0; i < n; i++) {
      let pred = 0;
      for (let a = 0; a < p; a++) pred += beta[a]! * columns[use[a]!]![i]!;
      const r = Math.abs(pred - y[i]!);
      loss += r / y[i]!;
      w[i] = 1 / (y[i]! * Math.max(r, FLOOR * y[i]!));
    }
    loss /= n;
    // an improvement under a millionth is none: three of those in a row end the search
    if (best === null || loss < best.loss * (1 - 1e-6)) stale = 0;
    else stale++;
    if (best === null || loss < best.loss) {
      const full = new Array<number>(columns.length).fill(0);
      use.forEach((c, a) => (full[c] = beta[a]!));
      best = { beta: full, loss };
    }
    if (loss < 1e-12) break; // exact
  }
  return best;
}

/**
 * The best fit whose coefficients are all ≥ 0 (a request never gets faster for being larger
 * or further away): subsets of the non-intercept columns that vary, largest first; a subset
 * of a feasible fit's columns is skipped (it cannot fit better), and among the feasible fits
 * the lowest loss wins, the larger subset on a tie. The intercept alone is always feasible
 * (its fit is a weighted median of positive values).
 */
export function nonNegativeRelativeL1(d: Design): L1Fit {
  const varying: number[] = [];
  for (let c = 1; c < d.columns.length; c++) if (varies(d.columns[c]!)) varying.push(c);
  let best: L1Fit | null = null;
  const feasible: number[] = [];
  const masks = [...Array(1 << varying.length).keys()].sort((a, b) => bits(b) - bits(a) || a - b);
  for (const m of masks) {
    if (feasible.some((f) => (f & m) === m)) continue;
    const use = [0, ...varying.filter((_, j) => (m >> j) & 1)];
    const f = relativeL1(d, use);
    if (f === null || f.beta.some((v) => v < 0)) continue;
    feasible.push(m);
    if (best === null || f.loss < best.loss * (1 - 1e-9)) best = f;
  }
  if (best === null) throw new Error('no feasible fit (the responses must be positive)');
  return best;
}

function varies(x: Float64Array): boolean {
  for (let i = 1; i < x.length; i++) if (x[i] !== x[0]) return true;
  return false;
}

function bits(m: number): number {
  let k = 0;
  for (; m > 0; m >>= 1) k += m & 1;
  return k;
}

/** Gaussian elimination with partial pivoting; null when singular. A is p×p row-major. */
function solve(A: Float64Array, b: Float64Array, p: number): number[] | null {
  const M = Float64Array.from(A);
  const v = Float64Array.from(b);
  let scale = 0;
  for (let i = 0; i < p; i++) scale = Math.max(scale, Math.abs(M[i * p + i]!));
  for (let c = 0; c < p; c++) {
    let piv = c;
    for (let r = c + 1; r < p; r++)
      if (Math.abs(M[r * p + c]!) > Math.abs(M[piv * p + c]!)) piv = r;
    if (!(Math.abs(M[piv * p + c]!) > 1e-12 * scale)) return null;
    if (piv !== c) {
      for (let k = 0; k < p; k++) [M[c * p + k], M[piv * p + k]] = [M[piv * p + k]!, M[c * p + k]!];
      [v[c], v[piv]] = [v[piv]!, v[c]!];
    }
    for (let r = c + 1; r < p; r++) {
      const f = M[r * p + c]! / M[c * p + c]!;
      if (f === 0) continue;
      for (let k = c; k < p; k++) M[r * p + k]! -= f * M[c * p + k]!;
      v[r]! -= f * v[c]!;
    }
  }
  const x = new Array<number>(p).fill(0);
  for (let r = p - 1; r >= 0; r--) {
    let s = v[r]!;
    for (let k = r + 1; k < p; k++) s -= M[r * p + k]! * x[k]!;
    x[r] = s / M[r * p + r]!;
  }
  return x;
}

/** The q-quantile of ascending values, linearly interpolated between order statistics. */
export function quantileSorted(s: ArrayLike<number>, q: number): number {
  const n = s.length;
  if (n === 0) return NaN;
  const h = (n - 1) * Math.min(1, Math.max(0, q));
  const lo = Math.floor(h);
  const hi = Math.min(n - 1, lo + 1);
  return s[lo]! + (h - lo) * (s[hi]! - s[lo]!);
}

export function sortedCopy(values: ArrayLike<number>): Float64Array {
  return Float64Array.from(values as ArrayLike<number>).sort();
}
