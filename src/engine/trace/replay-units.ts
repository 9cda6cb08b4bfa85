// Replay's one set of units (issue 15 item 4): the same figures counted per bio (as btt's Q2C
// and the processes see them) and per request (as the device sees them), by one counter fed
// the trace's events on the measured side and the simulated run's on the other — so the two
// sides differ only in what happened, never in how it was counted.
//
//  - a bio is a Q with data. It is done when a C has covered all its sectors (a split bio's
//    pieces complete separately); its Q2C runs to that C, its D2C is the D→C of the request
//    that completed it (for a bio in one request: its request's D→C).
//  - a request is a D with data, paired with the C of the same start sector and direction
//    (a requeue, R, drops the pairing: the D after it counts). Its Q2C runs from the
//    earliest Q still open among the bios it carries (its first bio's Q) to its C.
// Counts, IOPS and MB/s are over what completed, per second of the side's span.

export interface LatencyMs {
  n: number;
  mean: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export interface UnitFigures {
  /** bios (or requests) completed */
  count: number;
  /** null where there are none (a trace without Qs has no Q2C) */
  q2cMs: LatencyMs | null;
  d2cMs: LatencyMs | null;
  /** completions per second of the span, and their data's MB/s */
  iops: number;
  mbps: number;
}

/** What the counter needs of a bio; the trace reader's TracedQ is one (its times are set). */
export interface CountedBio {
  tNs: number;
  sector: number;
  nSectors: number;
  /** the first D covering any of its sectors (−1: none yet) */
  dispatchedNs: number;
  /** the C that covered its last sectors (−1: not yet) */
  doneNs: number;
}

/** Nearest-rank percentiles and the mean of values in ns, as ms; null for none. */
export function latencyOf(valuesNs: ArrayLike<number>): LatencyMs | null {
  const n = valuesNs.length;
  if (n === 0) return null;
  const s = Float64Array.from(valuesNs).sort();
  const at = (q: number): number => s[Math.max(0, Math.ceil(q * n - 1e-9) - 1)]! / 1e6;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += s[i]!;
  return {
    n,
    mean: sum / n / 1e6,
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    max: s[n - 1]! / 1e6,
  };
}

interface InFlight {
  dNs: number;
  /** the earliest open bio's Q among those it covers at D (−1: none open) */
  qNs: number;
}

export class UnitCounter<B extends CountedBio = CountedBio> {
  /** bios not yet wholly completed, sorted by start sector, with sectors still to complete */
  private open: Array<{ bio: B; left: number }> = [];
  /** requests dispatched and not completed, by direction and start sector */
  private readonly inFlight = new Map<number, InFlight>();
  private readonly bioQ2c: number[] = [];
  private readonly bioD2c: number[] = [];
  private bioSectors = 0;
  private readonly rqQ2c: number[] = [];
  private readonly rqD2c: number[] = [];
  private rqSectors = 0;

  queued(bio: B): void {
    const k = this.firstAtOrAfter(bio.sector);
    this.open.splice(k, 0, { bio, left: bio.nSectors });
  }

  dispatched(tNs: number, sector: number, nSectors: number, write: boolean): void {
    const key = keyOf(sector, write);
    const end = sector + nSectors;
    let qNs = -1;
    const open = this.open;
    for (let i = this.firstOverlapping(sector); i < open.length; i++) {
      const b = open[i]!.bio;
      if (b.sector >= end) break;
      if (b.sector + b.nSectors <= sector) continue;
      if (b.dispatchedNs < 0) b.dispatchedNs = tNs;
      if (qNs < 0 || b.tNs < qNs) qNs = b.tNs;
    }
    // a second D of a request still in flight (no R traced between): the first counts
    if (!this.inFlight.has(key)) this.inFlight.set(key, { dNs: tNs, qNs });
  }

  requeued(sector: number, write: boolean): void {
    this.inFlight.delete(keyOf(sector, write));
  }

  completed(tNs: number, sector: number, nSectors: number, write: boolean): void {
    const key = keyOf(sector, write);
    const rq = this.inFlight.get(key);
    if (rq !== undefined) {
      this.inFlight.delete(key);
      this.rqD2c.push(tNs - rq.dNs);
      if (rq.qNs >= 0) this.rqQ2c.push(tNs - rq.qNs);
      this.rqSectors += nSectors;
    }
    const end = sector + nSectors;
    const open = this.open;
    for (let i = this.firstOverlapping(sector); i < open.length;) {
      const o = open[i]!;
      if (o.bio.sector >= end) break;
      const overlap = Math.min(end, o.bio.sector + o.bio.nSectors) - Math.max(sector, o.bio.sector);
      if (overlap > 0) o.left -= overlap;
      if (o.left > 0) {
        i++;
        continue;
      }
      o.bio.doneNs = tNs;
      this.bioQ2c.push(tNs - o.bio.tNs);
      if (rq !== undefined) this.bioD2c.push(tNs - rq.dNs);
      this.bioSectors += o.bio.nSectors;
      open.splice(i, 1);
    }
  }

  /** The figures over a span of `spanMs` (the side's first Q to its last C). */
  figures(spanMs: number): { perBio: UnitFigures; perRequest: UnitFigures } {
    const per = (x: number): number => (spanMs > 0 ? x / (spanMs / 1000) : 0);
    const unit = (q2c: number[], d2c: number[], n: number, sectors: number): UnitFigures => ({
      count: n,
      q2cMs: latencyOf(q2c),
      d2cMs: latencyOf(d2c),
      iops: per(n),
      mbps: per((sectors * 512) / 1e6),
    });
    return {
      perBio: unit(this.bioQ2c, this.bioD2c, this.bioQ2c.length, this.bioSectors),
      perRequest: unit(this.rqQ2c, this.rqD2c, this.rqD2c.length, this.rqSectors),
    };
  }

  /** the first open bio that may overlap `sector`: those starting before it may reach in */
  private firstOverlapping(sector: number): number {
    const open = this.open;
    let k = this.firstAtOrAfter(sector);
    while (k > 0 && open[k - 1]!.bio.sector + open[k - 1]!.bio.nSectors > sector) k--;
    return k;
  }

  private firstAtOrAfter(sector: number): number {
    const open = this.open;
    let lo = 0;
    let hi = open.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (open[mid]!.bio.sector < sector) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** one number per direction and start sector (exact for sectors below 2^52) */
function keyOf(sector: number, write: boolean): number {
  return sector * 2 + (write ? 1 : 0);
}
