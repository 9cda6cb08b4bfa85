// The device fitted to a trace ("traced", the default device of every replay; ARCHITECTURE.md
// "Fitted device"). The device (disk/fitted.ts) serves by processor sharing with parallelism
// P: with k requests in flight each progresses at min(1, P/k) of full speed — P at once at
// full speed, more share. Each request needs, per direction,
//
//   work = (a + b·KiB + r·[random] + c·√(distance in GiB)) · ratio
//
// where "random" is a request not starting where the previous dispatch ended, distance how
// far from there it starts, and the ratio is drawn from the trace's own spread of measured
// over modelled work. From the trace's D→C pairs each request's work is exact for a given P
// (fit-timeline.ts: its progress between D and C with the in-flight count as traced); a, b,
// r, c are fitted to it by least absolute relative deviations with non-negative coefficients
// (fit-stats.ts). P is the grid value whose fit, run back through the trace's timeline,
// predicts the pairs' own D2C with the least mean relative error; ties (within TIE) go to the
// larger — a trace that never ran below some depth cannot tell the smaller ones apart.
//
// Judged on held-back data: fitted on the first half of the pairs (dispatch order), the
// second half's D2C predicted with the other requests in flight as the trace has them. The
// figures are the errors of the predicted median and p95 D2C (the distribution, as a
// simulator is judged: Ruemmler & Wilkes's demerit compares distributions, Wang et al.'s CART
// models report the mean and p90), and beside them the per-request figures (each request's
// median prediction against its own D2C).
import { SECTORS_PER_GIB, modelledMs, spreadAt, spreadOf } from '../disk/fitted';
import type { FittedDirection, FittedSpec } from '../disk/params';
import { createRng, nextInt } from '../sim/rng';
import { nonNegativeRelativeL1, quantileSorted, sortedCopy } from './fit-stats';
import { TraceEvents, WorkTimeline, type ServicePair } from './fit-timeline';

export type { ServicePair } from './fit-timeline';
import type { DeviceTrace } from './replay-source';

export interface DirectionFit extends FittedDirection {
  /** D→C pairs of this direction it was fitted on */
  samples: number;
  /** which terms the fit kept (a term whose coefficient would be negative is left out) */
  terms: string[];
}

export interface HeldBack {
  how: string;
  /** held-back pairs predicted */
  n: number;
  /** |predicted − measured| / measured of the held-back half's median D2C (0.05 = 5 %) */
  medianRelErr: number;
  /** the same for its p95 D2C */
  p95RelErr: number;
  /** each request's own prediction (the spread's median) against its D2C: the median and
   * p95 of those relative errors — how much of one request's time the model explains */
  perRequest: { medianRelErr: number; p95RelErr: number };
}

/** The flush command's term: fitted to the trace's flush D→C pairs (D FN, C FN). */
export interface FlushFit {
  /** flush D→C pairs it was fitted on */
  samples: number;
  /** the mean work of a flush, ms (the term's base; the spread's draws keep this mean) */
  baseMs: number;
  /** the traced flushes' median D2C, ms */
  tracedD2cMedianMs: number;
}

export interface DeviceFit {
  model: string;
  /** D→C pairs it was fitted on */
  samples: number;
  parallelism: number;
  /** how well the trace tells the parallelism (its in-flight range and the tie rule) */
  parallelismNote: string;
  read: DirectionFit | null;
  write: DirectionFit | null;
  /** null: the trace has fewer than MIN_DIRECTION_PAIRS flush commands (a flush then costs
   * nothing beyond sharing the device) */
  flush: FlushFit | null;
  heldBack: HeldBack;
  tracedD2cMedianMs: number;
  /** the fit as a scenario's disk.fitted (preset "traced") takes it */
  device: FittedSpec;
}

/** Fewer pairs than this: no fit (each half needs a few of each kind to say anything). */
export const MIN_FIT_PAIRS = 16;
/** A direction with fewer pairs is served by the other direction's fit. */
export const MIN_DIRECTION_PAIRS = 8;
/** Parallelisms whose error is within this fraction of the best are a tie: the larger wins. */
export const TIE = 0.01;
/** At most this many pairs are fitted and predicted (every k-th, evenly; the in-flight
 * counts always come from all of them): the fit's cost stays bounded on a long trace. */
export const MAX_FIT_PAIRS = 20000;

const TERMS = ['base', 'per KiB', 'random', 'per √GiB'] as const;

/** The device's D→C pairs in dispatch order, each with its in-flight count and distance.
 * Requests never completed in the trace, or completed at their D's instant, are left out. */
export function servicePairs(dev: DeviceTrace): ServicePair[] {
  const src = dev.arrivals === 'D' ? dev.qs : dev.requests;
  const done = src.filter((r) => r.dispatchedNs >= 0 && r.doneNs > r.dispatchedNs);
  done.sort((a, b) => a.dispatchedNs - b.dispatchedNs || a.doneNs - b.doneNs);
  const completions = Float64Array.from(done, (r) => r.doneNs).sort();
  const out: ServicePair[] = [];
  let c = 0;
  let lastEnd = -1;
  for (let i = 0; i < done.length; i++) {
    const r = done[i]!;
    while (c < completions.length && completions[c]! <= r.dispatchedNs) c++;
    out.push({
      dNs: r.dispatchedNs,
      cNs: r.doneNs,
      sector: r.sector,
      nSectors: r.nSectors,
      write: r.write,
      inFlight: Math.max(1, i + 1 - c),
      sequential: lastEnd >= 0 && r.sector === lastEnd,
      distance: lastEnd < 0 ? 0 : Math.abs(r.sector - lastEnd),
    });
    lastEnd = r.sector + r.nSectors;
  }
  return out;
}

/** The flush commands' D→C pairs: no sectors, no position (their in-flight count is left at
 * 1: the parallelism grid reads the data requests'). */
export function flushServicePairs(dev: DeviceTrace): ServicePair[] {
  return dev.flushes.pairs
    .filter((p) => p.cNs > p.dNs)
    .map((p) => ({
      dNs: p.dNs,
      cNs: p.cNs,
      sector: -1,
      nSectors: 0,
      write: false,
      inFlight: 1,
      sequential: false,
      distance: 0,
    }));
}

/** The flush term: each flush's work as the timeline has it; its mean the base, the spread
 * the ratios to it (as a direction's, with no other terms). */
function fitFlush(flushes: readonly ServicePair[], tl: WorkTimeline): FittedDirection | null {
  if (flushes.length < MIN_DIRECTION_PAIRS) return null;
  const works = flushes.map((p) => tl.workMs(p));
  const baseMs = works.reduce((a, b) => a + b, 0) / works.length;
  if (!(baseMs > 0)) return null;
  const spread = spreadOf(sortedCopy(works.map((w) => w / baseMs)));
  return { baseMs, perKiBMs: 0, randomMs: 0, perSqrtGiBMs: 0, spread };
}

/** Every k-th item, so that at most `max` are kept (all when there are fewer). */
export function evenly<T>(xs: readonly T[], max: number): T[] {
  if (xs.length <= max) return [...xs];
  const out: T[] = [];
  for (let i = 0; i < max; i++) out.push(xs[Math.floor((i * xs.length) / max)]!);
  return out;
}

function modelled(d: FittedDirection, p: ServicePair): number {
  return modelledMs(d, p.nSectors, p.sequential, p.distance);
}

/** One direction's coefficients fitted to its pairs' work, and the spread of what is left. */
function fitDirection(pairs: readonly ServicePair[], works: readonly number[]): DirectionFit {
  const n = pairs.length;
  const columns = [0, 1, 2, 3].map(() => new Float64Array(n));
  pairs.forEach((p, i) => {
    columns[0]![i] = 1;
    columns[1]![i] = p.nSectors / 2;
    columns[2]![i] = p.sequential ? 0 : 1;
    columns[3]![i] = Math.sqrt(p.distance / SECTORS_PER_GIB);
  });
  const f = nonNegativeRelativeL1({ columns, y: Float64Array.from(works) });
  const [baseMs, perKiBMs, randomMs, perSqrtGiBMs] = f.beta as [number, number, number, number];
  const dir: FittedDirection = { baseMs, perKiBMs, randomMs, perSqrtGiBMs, spread: [] };
  dir.spread = spreadOf(sortedCopy(pairs.map((p, i) => works[i]! / modelled(dir, p))));
  return { ...dir, samples: n, terms: TERMS.filter((_, k) => f.beta[k]! > 0) };
}

function directionOf(read: DirectionFit | null, write: DirectionFit | null, w: boolean) {
  return (w ? (write ?? read) : (read ?? write))!;
}

function stripped(d: DirectionFit | null): FittedDirection | null {
  if (d === null) return null;
  const { baseMs, perKiBMs, randomMs, perSqrtGiBMs, spread } = d;
  return { baseMs, perKiBMs, randomMs, perSqrtGiBMs, spread };
}

interface Fitted {
  spec: FittedSpec;
  read: DirectionFit | null;
  write: DirectionFit | null;
  samples: number;
  note: string;
}

/** The parallelisms tried: every small one, then about 25 % apart, up to the trace's most
 * in flight (a P beyond it acts exactly as it does). */
export function parallelismGrid(maxInFlight: number): number[] {
  const grid: number[] = [];
  for (let p = 1; p <= maxInFlight; p = p < 6 ? p + 1 : Math.max(p + 1, Math.round(p * 1.25)))
    grid.push(p);
  if (grid[grid.length - 1] !== maxInFlight) grid.push(maxInFlight);
  return grid;
}

/** The fit on these pairs (at least MIN_FIT_PAIRS of them, in dispatch order); the flush
 * commands share the device's timeline and get their own term. */
export function fitPairs(
  all: readonly ServicePair[],
  rotational: boolean,
  flushes: readonly ServicePair[] = [],
): Fitted {
  const events = new TraceEvents([...all, ...flushes]);
  const sample = evenly(all, MAX_FIT_PAIRS);
  let minK = Infinity;
  let maxK = 1;
  for (const p of all) {
    minK = Math.min(minK, p.inFlight);
    maxK = Math.max(maxK, p.inFlight);
  }
  const byDir = [false, true].map((w) => sample.filter((p) => p.write === w));
  const tried = parallelismGrid(maxK).map((P) => {
    const tl = new WorkTimeline(events, P);
    const [read, write] = byDir.map((ps) =>
      ps.length < MIN_DIRECTION_PAIRS
        ? null
        : fitDirection(
            ps,
            ps.map((p) => tl.workMs(p)),
          ),
    ) as [DirectionFit | null, DirectionFit | null];
    // the fit run back through the trace's timeline: each pair's D2C with the median ratio
    let loss = 0;
    for (const p of sample) {
      const d = directionOf(read, write, p.write);
      const d2c = (p.cNs - p.dNs) / 1e6;
      loss += Math.abs(tl.d2cMs(p, modelled(d, p) * spreadAt(d.spread, 0.5)) - d2c) / d2c;
    }
    return { P, read, write, loss: loss / sample.length };
  });
  const best = Math.min(...tried.map((t) => t.loss));
  // (an exact fit's loss is rounding: a tie needs a floor as well as a fraction)
  const tied = (loss: number): boolean => loss <= best * (1 + TIE) + 1e-9;
  const chosen = tried.filter((t) => tied(t.loss)).pop()!;
  const flush = fitFlush(flushes, new WorkTimeline(events, chosen.P));
  const tiedBelow = tried.filter((t) => t.P < chosen.P && tied(t.loss));
  const note =
    `the trace had ${minK === maxK ? `${maxK}` : `${minK} to ${maxK}`} requests in flight at its dispatches; ` +
    `parallelism ${chosen.P} fitted best` +
    (tiedBelow.length > 0
      ? ` (${tiedBelow.map((t) => t.P).join(', ')} within ${TIE * 100} %: a tie goes to the larger, as a trace that never ran below some depth cannot tell the smaller ones apart)`
      : '') +
    (chosen.P === maxK && maxK > 1
      ? `; it never had more than ${maxK} in flight, so a larger parallelism cannot be told apart`
      : '');
  return {
    spec: {
      parallelism: chosen.P,
      rotational,
      read: stripped(chosen.read),
      write: stripped(chosen.write),
      ...(flush !== null ? { flush } : {}),
    },
    read: chosen.read,
    write: chosen.write,
    samples: sample.length,
    note,
  };
}

/** Fit on the first half (dispatch order), predict the second half's D2C. */
export function heldBackError(
  pairs: readonly ServicePair[],
  rotational: boolean,
  flushes: readonly ServicePair[] = [],
): HeldBack {
  const half = Math.floor(pairs.length / 2);
  const cut = half > 0 ? pairs[half - 1]!.dNs : -Infinity;
  const { spec } = fitPairs(
    pairs.slice(0, half),
    rotational,
    flushes.filter((f) => f.dNs <= cut),
  );
  const tl = new WorkTimeline(new TraceEvents([...pairs, ...flushes]), spec.parallelism);
  const rest = evenly(pairs.slice(half), MAX_FIT_PAIRS);
  // each request's draw: the spread's n equal shares, one each, in a seeded random order
  // (stratified, so the predicted distribution does not hang on a few lucky draws)
  const rng = createRng(1, 'fit:held-back');
  const u = Array.from(rest.keys(), (i) => (i + 0.5) / rest.length);
  for (let i = u.length - 1; i > 0; i--) {
    const j = nextInt(rng, i + 1);
    [u[i], u[j]] = [u[j]!, u[i]!];
  }
  const dir = (p: ServicePair): FittedDirection =>
    (p.write ? (spec.write ?? spec.read) : (spec.read ?? spec.write))!;
  const measured = rest.map((p) => (p.cNs - p.dNs) / 1e6);
  const drawn = sortedCopy(
    rest.map((p, i) => tl.d2cMs(p, modelled(dir(p), p) * spreadAt(dir(p).spread, u[i]!))),
  );
  const each = sortedCopy(
    rest.map((p, i) => {
      const d2c = tl.d2cMs(p, modelled(dir(p), p) * spreadAt(dir(p).spread, 0.5));
      return Math.abs(d2c - measured[i]!) / measured[i]!;
    }),
  );
  const m = sortedCopy(measured);
  const rel = (q: number): number =>
    Math.abs(quantileSorted(drawn, q) - quantileSorted(m, q)) / quantileSorted(m, q);
  return {
    how: `fitted on the first ${half} D→C pairs (dispatch order), the other ${pairs.length - half}${rest.length < pairs.length - half ? ` (${rest.length} of them, evenly)` : ''} predicted with the other requests in flight as traced; relative error of the predicted median and p95 D2C (each request's work drawn from the fitted spread, its equal shares one each in a seeded order), and per request (each one's median prediction against its own D2C)`,
    n: rest.length,
    medianRelErr: rel(0.5),
    p95RelErr: rel(0.95),
    perRequest: { medianRelErr: quantileSorted(each, 0.5), p95RelErr: quantileSorted(each, 0.95) },
  };
}

/** The fitted device of a trace's device, or null when it has fewer than MIN_FIT_PAIRS
 * D→C pairs. `rotational`: what the traced queue said (meta.json), true when unknown. */
export function fitDevice(dev: DeviceTrace, rotational: boolean): DeviceFit | null {
  const pairs = servicePairs(dev);
  if (pairs.length < MIN_FIT_PAIRS) return null;
  const flushes = flushServicePairs(dev);
  const heldBack = heldBackError(pairs, rotational, flushes);
  const f = fitPairs(pairs, rotational, flushes);
  const d2c = sortedCopy(pairs.map((p) => (p.cNs - p.dNs) / 1e6));
  const flush = f.spec.flush
    ? {
        samples: flushes.length,
        baseMs: f.spec.flush.baseMs,
        tracedD2cMedianMs: quantileSorted(
          sortedCopy(flushes.map((p) => (p.cNs - p.dNs) / 1e6)),
          0.5,
        ),
      }
    : null;
  return {
    model:
      `processor sharing with parallelism ${f.spec.parallelism} (k in flight each progress at min(1, ${f.spec.parallelism}/k) of full speed); ` +
      `each request's work, per direction, a + b·KiB + r·[not sequential] + c·√(distance GiB) times a ratio drawn from the trace's spread; ` +
      `fitted to each request's traced work by least absolute relative deviations` +
      (flush
        ? `; a flush command's work its own term, the traced flushes' mean work (${flush.samples} D→C pairs) times a ratio drawn from their spread`
        : ''),
    samples: f.samples,
    parallelism: f.spec.parallelism,
    parallelismNote: f.note,
    read: f.read,
    write: f.write,
    flush,
    heldBack,
    tracedD2cMedianMs: quantileSorted(d2c, 0.5),
    device: f.spec,
  };
}
