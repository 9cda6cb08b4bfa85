/**
 * Bounded time series with adaptive windows, for throughput and queue-depth
 * charts over runs of any length.
 *
 * Time from 0 is cut into fixed windows of `windowNs`. At most `maxPoints`
 * windows are stored: when a time falls beyond the last one, the window
 * width doubles and neighbouring pairs of windows merge (boundaries stay at
 * multiples of the width from 0, so nothing is lost or smeared), repeatedly
 * if needed. Memory is two or three fixed typed arrays, whatever the run length.
 *
 * - Counter series: `countAt(s, tNs, amount)` adds `amount` (events, bytes …)
 *   to the window holding tNs; a point's value is the window's sum. Times may
 *   come in any order, but must be ≥ 0.
 * - Level series: `setLevel(s, tNs, level)` says a piecewise-constant level
 *   (queue depth, busy flag …) changes at tNs; the level is 0 from time 0
 *   until the first call. Times must be non-decreasing (a decrease throws).
 *   A point's value is the time-weighted mean level over the window, and its
 *   `max` the highest level in effect at any instant of it.
 *
 * `seriesPoints(s, endNs)` reports windows in ms up to endNs (or the latest
 * time seen, if later); the last window is cut at endNs. It does not change
 * the series, and returns at most maxPoints points (merging pairs on the fly
 * if endNs lies beyond the stored windows).
 *
 * State is plain data for structuredClone; updates allocate nothing.
 */
import { doubleFields } from '../sim/doubles';

export interface CounterSeries {
  kind: 'counter';
  windowNs: number; // current window width, ns (doubles as the run grows)
  maxPoints: number; // windows kept at most
  used: number; // windows in use: highest touched index + 1
  lastNs: number; // latest time counted, ns
  values: Float64Array; // per-window sum of amounts; length maxPoints
}

export interface LevelSeries {
  kind: 'level';
  windowNs: number; // current window width, ns (doubles as the run grows)
  maxPoints: number; // windows kept at most
  used: number; // windows in use: index of the window holding lastNs + 1
  lastNs: number; // time of the latest level change, ns
  level: number; // level in effect since lastNs
  lastWindow: number; // floor(lastNs / windowNs), kept so an update divides once
  area: Float64Array; // per-window integral of the level over time, level·ns, up to lastNs
  max: Float64Array; // per-window highest level in effect (-Infinity if never)
}

export interface CounterPoint {
  startMs: number;
  endMs: number;
  value: number; // sum of amounts counted in [startMs, endMs)
}

export interface LevelPoint {
  startMs: number;
  endMs: number;
  value: number; // time-weighted mean level over [startMs, endMs)
  max: number; // highest level in effect during the window
}

function checkShape(windowNs: number, maxPoints: number): void {
  if (!(windowNs > 0 && windowNs < Infinity)) {
    throw new RangeError(`windowNs must be positive and finite: ${windowNs}`);
  }
  if (!(Number.isInteger(maxPoints) && maxPoints >= 2)) {
    throw new RangeError(`maxPoints must be an integer ≥ 2: ${maxPoints}`);
  }
}

const MAX_TIME = Number.MAX_VALUE;

// The throws live in their own functions: a hot update stays small enough for V8 to inline.
function checkTime(tNs: number): void {
  if (!(tNs >= 0 && tNs <= MAX_TIME)) throw new RangeError(`time out of range: ${tNs} ns`);
}

function badLevelTime(s: LevelSeries, tNs: number): never {
  checkTime(tNs);
  throw new RangeError(`setLevel time went backwards: ${tNs} < ${s.lastNs} ns`);
}

export function createCounterSeries(windowNs: number, maxPoints: number): CounterSeries {
  checkShape(windowNs, maxPoints);
  const s: CounterSeries = {
    kind: 'counter',
    windowNs,
    maxPoints,
    used: 0,
    lastNs: 0,
    values: new Float64Array(maxPoints),
  };
  return doubleFields(s, 'windowNs', 'lastNs');
}

export function createLevelSeries(windowNs: number, maxPoints: number): LevelSeries {
  checkShape(windowNs, maxPoints);
  const max = new Float64Array(maxPoints).fill(-Infinity);
  max[0] = 0; // the initial level, 0, is in effect at time 0
  const s: LevelSeries = {
    kind: 'level',
    windowNs,
    maxPoints,
    used: 1,
    lastNs: 0,
    level: 0,
    lastWindow: 0,
    area: new Float64Array(maxPoints),
    max,
  };
  return doubleFields(s, 'windowNs', 'lastNs');
}

/** Double the window width of a counter series, summing pairs of windows. */
function coarsenCounter(s: CounterSeries): void {
  const v = s.values;
  const used = s.used;
  const half = Math.ceil(used / 2);
  for (let j = 0; j < half; j++) {
    // why the guard: with an odd count the last window has no partner (and may sit at maxPoints - 1)
    v[j] = 2 * j + 1 < used ? v[2 * j]! + v[2 * j + 1]! : v[2 * j]!;
  }
  v.fill(0, half, used);
  s.used = half;
  s.windowNs *= 2;
}

/** Coarsen until tNs falls in a stored window; its index. */
function coarsenCounterFor(s: CounterSeries, tNs: number): number {
  let i = Math.floor(tNs / s.windowNs);
  while (i >= s.maxPoints) {
    coarsenCounter(s);
    i = Math.floor(tNs / s.windowNs);
  }
  return i;
}

/** Double the window width of a level series: areas add, maxima take the larger. */
function coarsenLevel(s: LevelSeries): void {
  const { area, max, used } = s;
  const half = Math.ceil(used / 2);
  for (let j = 0; j < half; j++) {
    if (2 * j + 1 < used) {
      area[j] = area[2 * j]! + area[2 * j + 1]!;
      max[j] = Math.max(max[2 * j]!, max[2 * j + 1]!);
    } else {
      area[j] = area[2 * j]!;
      max[j] = max[2 * j]!;
    }
  }
  area.fill(0, half, used);
  max.fill(-Infinity, half, used);
  s.used = half;
  s.windowNs *= 2;
  s.lastWindow = Math.floor(s.lastNs / s.windowNs);
}

/** Coarsen until tNs falls in a stored window; its index. */
function coarsenLevelFor(s: LevelSeries, tNs: number): number {
  while (Math.floor(tNs / s.windowNs) >= s.maxPoints) coarsenLevel(s);
  return Math.floor(tNs / s.windowNs);
}

/** Add `amount` (default 1) at time tNs ≥ 0. */
export function countAt(s: CounterSeries, tNs: number, amount = 1): void {
  if (!(tNs >= 0 && tNs <= MAX_TIME)) checkTime(tNs);
  let i = Math.floor(tNs / s.windowNs);
  if (i >= s.maxPoints) i = coarsenCounterFor(s, tNs);
  s.values[i]! += amount;
  if (i >= s.used) s.used = i + 1;
  if (tNs > s.lastNs) s.lastNs = tNs;
}

/**
 * countAt(a, tNs, amountA) then countAt(b, tNs, amountB), the window found once while the two
 * series have the same windows (two series always counted at the same times keep them: each
 * doubles at the same count).
 */
export function countAtBoth(
  a: CounterSeries,
  b: CounterSeries,
  tNs: number,
  amountA: number,
  amountB: number,
): void {
  if (!(tNs >= 0 && tNs <= MAX_TIME)) checkTime(tNs);
  let i = Math.floor(tNs / a.windowNs);
  if (i >= a.maxPoints || b.windowNs !== a.windowNs || b.maxPoints !== a.maxPoints) {
    // Each its own window (rare: kept out so V8 inlines countAtBoth into its caller). b's
    // count stays here: amountB passed to a call, even one rarely made, cost a HeapNumber
    // on every count.
    i = countAtApart(a, b, tNs, amountA);
  } else {
    a.values[i]! += amountA;
    if (i >= a.used) a.used = i + 1;
    if (tNs > a.lastNs) a.lastNs = tNs;
  }
  b.values[i]! += amountB;
  if (i >= b.used) b.used = i + 1;
  if (tNs > b.lastNs) b.lastNs = tNs;
}

/** countAtBoth when the two series' windows differ: count a, and find b's window. */
function countAtApart(a: CounterSeries, b: CounterSeries, tNs: number, amountA: number): number {
  countAt(a, tNs, amountA);
  const i = Math.floor(tNs / b.windowNs);
  return i >= b.maxPoints ? coarsenCounterFor(b, tNs) : i;
}

/** The level changes to `level` at tNs (tNs ≥ the previous change). */
export function setLevel(s: LevelSeries, tNs: number, level: number): void {
  if (tNs === s.lastNs) {
    // Another change at the same instant (a request queued and dispatched at once): no
    // time passed, so nothing to integrate, and the window is the last one.
    if (level > s.max[s.lastWindow]!) s.max[s.lastWindow] = level;
    s.level = level;
    return;
  }
  if (!(tNs >= s.lastNs && tNs <= MAX_TIME)) badLevelTime(s, tNs);
  let ib = Math.floor(tNs / s.windowNs);
  // rare: widening the windows, kept out so V8 inlines setLevel into its callers
  if (ib >= s.maxPoints) ib = coarsenLevelFor(s, tNs);
  const ia = s.lastWindow;
  const max = s.max;
  // Integrate the old level over [lastNs, tNs); window ia's max already holds it (set when
  // it began). The common case stays in one window.
  // The rare call takes a number made on its own branch: given tNs itself, V8 boxed tNs
  // (a HeapNumber) on every update, the branch taken or not.
  if (ia === ib) s.area[ia]! += s.level * (tNs - s.lastNs);
  else integrateAcross(s, ia, ib, tNs - ib * s.windowNs);
  if (level > max[ib]!) max[ib] = level;
  if (ib >= s.used) s.used = ib + 1;
  s.level = level;
  s.lastNs = tNs;
  s.lastWindow = ib;
}

/** The old level held from lastNs (window ia) into window ib > ia, up to `rest` ns into ib. */
function integrateAcross(s: LevelSeries, ia: number, ib: number, rest: number): void {
  const { area, max, windowNs: w } = s;
  const old = s.level;
  const a = s.lastNs;
  area[ia]! += old * ((ia + 1) * w - a);
  for (let j = ia + 1; j < ib; j++) {
    area[j]! += old * w;
    if (old > max[j]!) max[j] = old;
  }
  // why the guard: a change exactly on a boundary means the old level never held in window ib
  if (rest > 0) {
    area[ib]! += old * rest;
    if (old > max[ib]!) max[ib] = old;
  }
}

/** Layout of the reported points: base windows grouped `group` at a time. */
interface Layout {
  endNs: number; // where the last point is cut
  group: number; // base windows per point (a power of two)
  points: number; // number of points
  widthNs: number; // width of a point, ns
}

function layout(s: CounterSeries | LevelSeries, endNs: number): Layout {
  checkTime(endNs);
  const end = Math.max(endNs, s.lastNs);
  const base = Math.max(s.used, Math.ceil(end / s.windowNs));
  let group = 1;
  // why: endNs may lie beyond the stored windows; merge on the fly to stay within maxPoints
  while (Math.ceil(base / group) > s.maxPoints) group *= 2;
  return { endNs: end, group, points: Math.ceil(base / group), widthNs: s.windowNs * group };
}

/** [start, end) of point k in ns: the last point is cut at endNs unless that leaves it empty. */
function pointSpan(l: Layout, k: number): [number, number] {
  const start = k * l.widthNs;
  const full = start + l.widthNs;
  const end = Math.min(full, l.endNs);
  return [start, end > start ? end : full];
}

export function seriesPoints(s: CounterSeries, endNs: number): CounterPoint[];
export function seriesPoints(s: LevelSeries, endNs: number): LevelPoint[];
export function seriesPoints(
  s: CounterSeries | LevelSeries,
  endNs: number,
): CounterPoint[] | LevelPoint[];
/** The windows from 0 to endNs (or the latest time seen), in ms; see the file header. */
export function seriesPoints(
  s: CounterSeries | LevelSeries,
  endNs: number,
): CounterPoint[] | LevelPoint[] {
  return s.kind === 'counter' ? counterPoints(s, endNs) : levelPoints(s, endNs);
}

function counterPoints(s: CounterSeries, endNs: number): CounterPoint[] {
  const l = layout(s, endNs);
  const out: CounterPoint[] = [];
  if (s.used === 0 && l.endNs === 0) return out;
  for (let k = 0; k < l.points; k++) {
    const [start, end] = pointSpan(l, k);
    let value = 0;
    const last = Math.min((k + 1) * l.group, s.used);
    for (let j = k * l.group; j < last; j++) value += s.values[j]!;
    out.push({ startMs: start / 1e6, endMs: end / 1e6, value });
  }
  return out;
}

function levelPoints(s: LevelSeries, endNs: number): LevelPoint[] {
  const l = layout(s, endNs);
  const out: LevelPoint[] = [];
  for (let k = 0; k < l.points; k++) {
    const [start, end] = pointSpan(l, k);
    let area = 0;
    let max = -Infinity;
    const last = Math.min((k + 1) * l.group, s.used);
    for (let j = k * l.group; j < last; j++) {
      area += s.area[j]!;
      if (s.max[j]! > max) max = s.max[j]!;
    }
    // The current level still holds from lastNs to endNs: add its share of this point.
    const held = Math.min(end, l.endNs) - Math.max(start, s.lastNs);
    if (held > 0) {
      area += s.level * held;
      if (s.level > max) max = s.level;
    }
    out.push({ startMs: start / 1e6, endMs: end / 1e6, value: area / (end - start), max });
  }
  return out;
}
