// Replaying a run log at a time t: pure functions from (log, t) to what the views draw.
// Nothing here touches the DOM; the views get narrowed, read-only results (STYLE.md habit 11).
import type { DecisionRecord, ServiceRecord } from '../engine';
import type { RunLog } from '../worker/log';

/** One request's life as the log tells it, with the physical place of its first sector. */
export interface RequestLife {
  rq: number;
  proc: number;
  sector: number;
  nSectors: number;
  write: boolean;
  sync: boolean;
  cylinder: number;
  head: number;
  angle: number;
  /** when it first appears (G or I), is inserted, dispatched, completed; Infinity = not yet */
  bornNs: number;
  insertNs: number;
  dispatchNs: number;
  doneNs: number;
  /** a range write (issue #6): where it may land, from the drive decisions that weighed it */
  ranges?: ReadonlyArray<{ begin: number; end: number }>;
}

export type Phase = 'seek' | 'rotation' | 'transfer' | 'overhead' | 'idle';

/** The log, indexed once per load (Excalidraw's memoize-on-revision, with the log as key). */
export interface Replay {
  log: RunLog;
  requests: Map<number, RequestLife>;
  lives: RequestLife[];
  /** the distinct instants a step may stop at: events and service phase boundaries within
   * the played window [log.fromNs, log.endNs] (its start always one of them) */
  stops: number[];
  decisionTimes: number[];
  /** the rules that fired in the log, by layer, with how often (most frequent first) */
  rules: RuleCount[];
  services: ServiceRecord[];
}

export function indexLog(log: RunLog): Replay {
  const requests = new Map<number, RequestLife>();
  for (const e of log.events) {
    if (e.rq < 0) continue;
    let r = requests.get(e.rq);
    if (!r) {
      r = {
        rq: e.rq,
        proc: e.proc,
        sector: e.sector,
        nSectors: e.nSectors,
        write: e.write,
        sync: e.sync,
        cylinder: e.cylinder,
        head: e.head,
        angle: e.angle,
        bornNs: e.tNs,
        insertNs: Infinity,
        dispatchNs: Infinity,
        doneNs: Infinity,
      };
      requests.set(e.rq, r);
    }
    if (e.action === 'I' || e.action === 'D' || e.action === 'M' || e.action === 'F') {
      // A merge may grow the request; the dispatched extent is the final one.
      if (e.action !== 'M' && e.action !== 'F' && e.cylinder >= 0) {
        r.sector = e.sector;
        r.nSectors = e.nSectors;
        r.cylinder = e.cylinder;
        r.head = e.head;
        r.angle = e.angle;
      }
    }
    if (e.action === 'I' && r.insertNs === Infinity) r.insertNs = e.tNs;
    if (e.action === 'D' && r.dispatchNs === Infinity) r.dispatchNs = e.tNs;
    if (e.action === 'C') r.doneNs = e.tNs;
  }
  for (const d of log.decisions)
    for (const w of d.ranges ?? []) {
      const r = requests.get(w.rq);
      if (r && !r.ranges) r.ranges = w.ranges;
    }
  const from = log.fromNs;
  const stopSet = new Set<number>([from]);
  for (const e of log.events) stopSet.add(e.tNs);
  for (const s of log.services) {
    stopSet.add(s.startNs);
    stopSet.add(s.seekEndNs);
    stopSet.add(s.mediaStartNs);
    stopSet.add(s.mediaEndNs);
  }
  // Events before the window (of the requests alive at its start) are history, not stops.
  const stops = [...stopSet].filter((t) => t >= from && t <= log.endNs).sort((a, b) => a - b);
  const services = [...log.services].sort((a, b) => a.startNs - b.startNs);
  return {
    log,
    requests,
    lives: [...requests.values()],
    stops,
    decisionTimes: log.decisions.map((d) => d.tNs),
    rules: countRules(log.decisions),
    services,
  };
}

export interface RuleCount {
  rule: string;
  layer: DecisionRecord['layer'];
  count: number;
}

function countRules(decisions: readonly DecisionRecord[]): RuleCount[] {
  const byKey = new Map<string, RuleCount>();
  for (const d of decisions) {
    const key = `${d.layer} ${d.rule}`;
    const c = byKey.get(key);
    if (c) c.count++;
    else byKey.set(key, { rule: d.rule, layer: d.layer, count: 1 });
  }
  return [...byKey.values()].sort((a, b) => b.count - a.count || a.rule.localeCompare(b.rule));
}

/** The last index i with xs[i] ≤ t (−1 when none); xs ascending. */
export function lastAtOrBefore(xs: readonly number[], t: number): number {
  let lo = 0;
  let hi = xs.length - 1;
  let ans = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! <= t) {
      ans = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return ans;
}

export function nextAfter(xs: readonly number[], t: number): number | null {
  const i = lastAtOrBefore(xs, t);
  return i + 1 < xs.length ? xs[i + 1]! : null;
}

export function prevBefore(xs: readonly number[], t: number): number | null {
  let i = lastAtOrBefore(xs, t);
  while (i >= 0 && xs[i]! >= t) i--;
  return i >= 0 ? xs[i]! : null;
}

/** The platter's angle under the heads at t, fraction of a revolution (mechanics.ts). */
export function platterAngle(r: Replay, tNs: number): number {
  const g = r.log.geometry;
  const a = g.initialAngle + tNs / g.revolutionNs;
  return a - Math.floor(a);
}

/** A real arm accelerates then decelerates: smooth cubic ease in and out. */
export function easeInOut(u: number): number {
  const x = Math.min(1, Math.max(0, u));
  return x < 0.5 ? 4 * x * x * x : 1 - Math.pow(-2 * x + 2, 3) / 2;
}

export interface MechanismAt {
  /** the arm's position in cylinders (fractional during a seek) */
  cylinder: number;
  head: number;
  phase: Phase;
  service: ServiceRecord | null;
}

/** Where the arm is and what the mechanism is doing at t. */
export function mechanismAt(r: Replay, tNs: number): MechanismAt {
  const ss = r.services;
  // The last service that started at or before t.
  let lo = 0;
  let hi = ss.length - 1;
  let i = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (ss[mid]!.startNs <= tNs) {
      i = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (i < 0) return { cylinder: 0, head: 0, phase: 'idle', service: null };
  const s = ss[i]!;
  if (tNs < s.seekEndNs) {
    const u = (tNs - s.startNs) / Math.max(1, s.seekEndNs - s.startNs);
    const cylinder = s.fromCylinder + (s.toCylinder - s.fromCylinder) * easeInOut(u);
    return { cylinder, head: s.head, phase: 'seek', service: s };
  }
  const at = { cylinder: s.toCylinder, head: s.head, service: s };
  if (tNs < s.mediaStartNs) return { ...at, phase: 'rotation' };
  if (tNs < s.mediaEndNs) return { ...at, phase: 'transfer' };
  if (tNs < s.freeNs) return { ...at, phase: 'overhead' };
  return { ...at, phase: 'idle', service: null };
}

/** Requests in the system at t (born, not yet completed). */
export function pendingAt(r: Replay, tNs: number): RequestLife[] {
  return r.lives.filter((q) => q.bornNs <= tNs && tNs < q.doneNs);
}

/** The decisions made at or before t that `keep` accepts, newest first, at most `limit`. */
export function decisionsUpTo(
  r: Replay,
  tNs: number,
  limit: number,
  keep: (d: DecisionRecord) => boolean = () => true,
): DecisionRecord[] {
  const i = lastAtOrBefore(r.decisionTimes, tNs);
  const out: DecisionRecord[] = [];
  for (let j = i; j >= 0 && out.length < limit; j--) {
    const d = r.log.decisions[j]!;
    if (keep(d)) out.push(d);
  }
  return out;
}
