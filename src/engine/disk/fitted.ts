// A device fitted to a trace (trace/replay-fit.ts fits it; DiskParams.fitted describes it):
// no mechanism; each request needs some work, from the fitted formula — direction, size,
// whether it starts where the device's last command ended and how far from there — times a
// ratio drawn from the trace's own spread of measured over modelled; the requests in service
// share the device by processor sharing: with k of them each progresses at
// min(1, parallelism / k) of full speed (P at once at full speed, more share P's worth).
import type { IoRequest } from '../request';
import { noteServiced } from '../metrics/collector';
import { pushEvent } from '../sim/heap';
import { EventKind, EventPriority } from '../sim/events';
import { createRng, nextFloat, type Rng } from '../sim/rng';
import type { DiskSimulation } from './sim-view';
import type { FittedDirection, FittedSpec } from './params';

/** FittedDirection.spread: the measured / modelled ratios of the trace's requests, sorted and
 * cut into this many equal shares, each share's mean — so a draw keeps the trace's mean (its
 * throughput) and its quantiles within a share. */
export const FITTED_SPREAD_BINS = 100;

export const SECTORS_PER_GIB = 2097152;

/** A direction's fit, or the other direction's when this one had too few requests. */
export function directionOf(spec: FittedSpec, write: boolean): FittedDirection {
  const d = write ? (spec.write ?? spec.read) : (spec.read ?? spec.write);
  if (d === null) throw new Error('a fitted device needs a read or a write fit');
  return d;
}

/** Where the previous command left the device: −1 before the first. */
export function isSequential(lastEnd: number, sector: number): boolean {
  return lastEnd >= 0 && sector === lastEnd;
}

export function distanceSectors(lastEnd: number, sector: number): number {
  return lastEnd < 0 ? 0 : Math.abs(sector - lastEnd);
}

/** The fitted formula, ms, before the spread: a + b·KiB + r·[random] + c·√(distance GiB). */
export function modelledMs(
  d: FittedDirection,
  nSectors: number,
  sequential: boolean,
  distance: number,
): number {
  return (
    d.baseMs +
    d.perKiBMs * (nSectors / 2) +
    (sequential ? 0 : d.randomMs) +
    d.perSqrtGiBMs * Math.sqrt(distance / SECTORS_PER_GIB)
  );
}

/** The spread's ratio at probability u ∈ [0, 1): share j stands at (j + ½) / m, linearly
 * between neighbours and flat in the outer half-shares, so the draws' mean is the shares'. */
export function spreadAt(spread: readonly number[], u: number): number {
  const m = spread.length;
  const x = Math.min(m - 1, Math.max(0, u * m - 0.5));
  const j = Math.min(m - 2, Math.floor(x));
  if (j < 0) return spread[0]!;
  return spread[j]! + (x - j) * (spread[j + 1]! - spread[j]!);
}

/** The spread of ascending values: the means of FITTED_SPREAD_BINS equal shares of them
 * (fractional at the edges when they do not divide evenly). */
export function spreadOf(sorted: ArrayLike<number>, bins = FITTED_SPREAD_BINS): number[] {
  const n = sorted.length;
  const prefix = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) prefix[i + 1] = prefix[i]! + sorted[i]!;
  const sumTo = (x: number): number => {
    const k = Math.min(n, Math.floor(x));
    return prefix[k]! + (k < n ? (x - k) * sorted[k]! : 0);
  };
  const share = n / bins;
  const out = Array.from(
    { length: bins },
    (_, j) => (sumTo((j + 1) * share) - sumTo(j * share)) / share,
  );
  // ascending, as the shares of sorted values are (but for the last bit of rounding)
  for (let j = 1; j < bins; j++) out[j] = Math.max(out[j]!, out[j - 1]!);
  return out;
}

/** The mean of a spread's draws. */
export function spreadMean(spread: readonly number[]): number {
  let m = 0;
  for (const v of spread) m += v;
  return m / spread.length;
}

/** The fitted device's part of the drive's state (plain data: snapshots clone it). */
export interface FittedState {
  /** requests in service (slots, in arrival order) and each one's work still to do, ns */
  active: number[];
  remainingNs: number[];
  /** when `remainingNs` was last brought up to date */
  updatedNs: number;
  /** the number of the pending FittedDone event; an older one is stale */
  generation: number;
  /** the sector after the last command's, −1 before the first */
  lastEnd: number;
  /** the spread's draws: a stream of its own, so the workload's draws are not moved */
  rng: Rng;
  /** flush commands served so far (the next traced flush time's index) */
  flushes: number;
}

export function createFittedState(seed: number): FittedState {
  return {
    active: [],
    remainingNs: [],
    updatedNs: 0,
    generation: 0,
    lastEnd: -1,
    rng: createRng(seed, 'drive:fitted'),
    flushes: 0,
  };
}

/** each of k requests in service progresses at this fraction of full speed */
function rateOf(parallelism: number, k: number): number {
  return Math.min(1, parallelism / k);
}

/** Bring every request's remaining work up to `now`. */
function advance(st: FittedState, parallelism: number, now: number): void {
  const k = st.active.length;
  if (k > 0) {
    const done = (now - st.updatedNs) * rateOf(parallelism, k);
    for (let i = 0; i < k; i++) st.remainingNs[i]! -= done;
  }
  st.updatedNs = now;
}

/** Schedule the next completion (the least remaining work at the present rate). */
function schedule(sim: DiskSimulation, st: FittedState, now: number): void {
  st.generation++;
  const k = st.active.length;
  if (k === 0) return;
  let least = Infinity;
  for (let i = 0; i < k; i++) least = Math.min(least, st.remainingNs[i]!);
  const t = now + Math.max(0, least) / rateOf(sim.model.disk.params.fitted!.parallelism, k);
  pushEvent(sim.state.heap, t, EventPriority.Complete, EventKind.FittedDone, st.generation);
}

/** A flush command's work, ms: the flush term's base times a draw from its spread (no
 * address, no size); 0 on a device fitted to a trace without flushes. */
export function flushWorkMs(spec: FittedSpec, u: number): number {
  const f = spec.flush;
  return f ? f.baseMs * spreadAt(f.spread, u) : 0;
}

export function fittedSubmit(sim: DiskSimulation, rq: IoRequest, now: number): void {
  const spec = sim.model.disk.params.fitted!;
  const st = sim.state.drive.fitted!;
  let work: number;
  if (rq.flushOp) {
    // a flush: the trace's own next flush time (trace-timed), else its fitted term; it
    // leaves the device's position where it was
    const traced = spec.flushServiceMs?.[st.flushes++];
    if (traced !== undefined) work = traced * 1e6;
    else work = spec.flush ? Math.max(0, flushWorkMs(spec, nextFloat(st.rng)) * 1e6) : 0;
  } else {
    const d = directionOf(spec, rq.write);
    const sequential = isSequential(st.lastEnd, rq.sector);
    const distance = distanceSectors(st.lastEnd, rq.sector);
    work = Math.max(
      0,
      modelledMs(d, rq.nSectors, sequential, distance) *
        spreadAt(d.spread, nextFloat(st.rng)) *
        1e6,
    );
    st.lastEnd = rq.sector + rq.nSectors;
  }
  advance(st, spec.parallelism, now);
  st.active.push(rq.slot);
  st.remainingNs.push(work);
  rq.eligibleNs = now;
  rq.startNs = now;
  rq.transferNs = work;
  rq.media = true;
  rq.overheadNs = 0;
  noteServiced(sim, rq);
  schedule(sim, st, now);
}

/** A work this close to done is done (the clock's rounding). */
const DONE_NS = 1e-3;

/**
 * The FittedDone event numbered `generation`: the requests whose work is done leave (their
 * slots returned, in arrival order, for the caller to complete); a stale event does nothing.
 */
export function fittedDone(sim: DiskSimulation, generation: number, now: number): number[] {
  const st = sim.state.drive.fitted!;
  if (generation !== st.generation) return [];
  advance(st, sim.model.disk.params.fitted!.parallelism, now);
  let least = Infinity;
  for (const r of st.remainingNs) least = Math.min(least, r);
  const out: number[] = [];
  for (let i = 0; i < st.active.length;) {
    if (st.remainingNs[i]! <= Math.max(least, DONE_NS)) {
      out.push(st.active[i]!);
      st.active.splice(i, 1);
      st.remainingNs.splice(i, 1);
    } else i++;
  }
  schedule(sim, st, now);
  return out;
}
