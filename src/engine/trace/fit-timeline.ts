// The fitted device serves by processor sharing (disk/fitted.ts): with k requests in flight,
// each progresses at min(1, P/k) of full speed. Given a trace's D→C pairs, that rule can be
// run both ways exactly (replay-fit.ts):
//  - a request's work is the progress it made between its D and its C,
//      w = ∫_D^C min(1, P / k(t)) dt,  k(t) the trace's in-flight count (itself included);
//  - a request given some work completes when that much progress has accrued, counting the
//    *other* requests as the trace has them: up to its traced C, k(t) (which includes it);
//    after, k(t) + 1 — so its own traced C is only where it stops being one of the others.
// G(t) = ∫ min(1, P/k) and G⁺(t) = ∫ min(1, P/(k+1)) are kept at each event of the timeline.

/** One kernel request's D and C with what the model reads. */
export interface ServicePair {
  dNs: number;
  cNs: number;
  sector: number;
  nSectors: number;
  write: boolean;
  /** requests in flight on the device at its D, itself included */
  inFlight: number;
  /** it started where the previous dispatch (any request's) ended */
  sequential: boolean;
  /** sectors from the previous dispatch's end to its start (0 for the first) */
  distance: number;
}

/** The pairs' Ds and Cs in time order (at one instant completions first: a request
 * completed at t is no longer in flight), whatever the parallelism. */
export class TraceEvents {
  readonly ts: Float64Array;
  readonly step: Int8Array;

  constructor(pairs: readonly ServicePair[]) {
    const d = Float64Array.from(pairs, (p) => p.dNs).sort();
    const c = Float64Array.from(pairs, (p) => p.cNs).sort();
    this.ts = new Float64Array(d.length + c.length);
    this.step = new Int8Array(d.length + c.length);
    let i = 0;
    let j = 0;
    for (let k = 0; k < this.ts.length; k++) {
      if (j < c.length && (i >= d.length || c[j]! <= d[i]!)) {
        this.ts[k] = c[j++]!;
        this.step[k] = -1;
      } else {
        this.ts[k] = d[i++]!;
        this.step[k] = 1;
      }
    }
  }
}

export class WorkTimeline {
  private readonly ts: Float64Array;
  private readonly g: Float64Array;
  private readonly gPlus: Float64Array;
  /** the rate after each event (k after it) and the same with one more request */
  private readonly rate: Float64Array;
  private readonly ratePlus: Float64Array;

  constructor(events: TraceEvents, parallelism: number) {
    const { ts, step } = events;
    const n = ts.length;
    this.ts = ts;
    this.g = new Float64Array(n);
    this.gPlus = new Float64Array(n);
    this.rate = new Float64Array(n);
    this.ratePlus = new Float64Array(n);
    let k = 0;
    for (let i = 0; i < n; i++) {
      if (i > 0) {
        const dt = ts[i]! - ts[i - 1]!;
        this.g[i] = this.g[i - 1]! + dt * this.rate[i - 1]!;
        this.gPlus[i] = this.gPlus[i - 1]! + dt * this.ratePlus[i - 1]!;
      }
      k += step[i]!;
      this.rate[i] = k > 0 ? Math.min(1, parallelism / k) : 0;
      this.ratePlus[i] = Math.min(1, parallelism / (k + 1));
    }
  }

  /** the last event at or before t (0 when t is before them all) */
  private at(t: number): number {
    let lo = 0;
    let hi = this.ts.length - 1;
    while (lo < hi) {
      const m = (lo + hi + 1) >> 1;
      if (this.ts[m]! <= t) lo = m;
      else hi = m - 1;
    }
    return lo;
  }

  private value(t: number, plus: boolean): number {
    const i = this.at(t);
    const [g, r] = plus ? [this.gPlus, this.ratePlus] : [this.g, this.rate];
    return g[i]! + (t - this.ts[i]!) * r[i]!;
  }

  /** the first time at which the integral reaches v, searching the events from..to */
  private inverse(v: number, plus: boolean, from: number, to: number): number {
    const [g, r] = plus ? [this.gPlus, this.ratePlus] : [this.g, this.rate];
    let lo = from;
    let hi = to;
    while (lo < hi) {
      const m = (lo + hi + 1) >> 1;
      if (g[m]! <= v) lo = m;
      else hi = m - 1;
    }
    const dv = v - g[lo]!;
    // past the last event searched the rate is r[lo] > 0: the request itself is in flight
    // (or, with plus, counted as one more)
    return dv <= 0 ? this.ts[lo]! : this.ts[lo]! + dv / r[lo]!;
  }

  /** the request's work, ms: its progress between its D and its C */
  workMs(p: ServicePair): number {
    return (this.value(p.cNs, false) - this.value(p.dNs, false)) / 1e6;
  }

  /** its D2C, ms, had it needed `workMs` of work, the other requests as traced */
  d2cMs(p: ServicePair, workMs: number): number {
    const w = workMs * 1e6;
    const g0 = this.value(p.dNs, false);
    const own = this.value(p.cNs, false) - g0;
    const c =
      own >= w
        ? this.inverse(g0 + w, false, this.at(p.dNs), this.at(p.cNs))
        : this.inverse(
            this.value(p.cNs, true) + (w - own),
            true,
            this.at(p.cNs),
            this.ts.length - 1,
          );
    return Math.max(0, c - p.dNs) / 1e6;
  }
}
