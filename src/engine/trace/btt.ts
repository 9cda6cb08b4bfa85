// btt's latency figures (LINUX-SCHEDULERS.md §6.7), computed as btt 2.09 computes them, so
// that they agree with `btt -i dump` on the same trace:
//  - only fs events with a size count (Q/G/S/I/M/D/C with 0 bytes — empty flushes — are
//    ignored, as btt's trace_* functions return early on them); pass-through and messages too;
//  - a Q is kept "in flight" keyed by its start sector; a second Q starting at the sector of
//    one still in flight is dropped (btt's rb-tree insert fails), and counts nowhere;
//  - G, S, I, M find the in-flight Q whose range holds their start sector (Q2G, S2G, G2I
//    from that Q's last G, Q2M); a D visits every in-flight Q lying wholly inside its range
//    (I2D if the Q saw an I, else M2D if it was merged; Q2D), a C does the same (Q2C, D2C
//    from the Q's last D) and retires them. So split bios (a 1 MiB Q, 256-sector pieces)
//    get a Q2G per piece and no Q2C at all, exactly as btt reports;
//  - Q2Q is the gap between successive counted Qs (all devices together for "All Devices");
//  - #Q/#D: #Q is raised to #D when smaller, and the ratio is then 1.0.
// Remapping devices (md 9, device-mapper 253/254) keep no Q2Q/Q2C here, as btt moves them to
// its separate "_dm" rows.
import { InFlightQs } from './in-flight';
import type { ParsedEvent } from './parse-line';

export interface BttRow {
  min: number;
  avg: number;
  max: number;
  n: number;
}

export interface BttFigures {
  q2q: BttRow;
  q2g: BttRow;
  s2g: BttRow;
  g2i: BttRow;
  q2m: BttRow;
  i2d: BttRow;
  m2d: BttRow;
  d2c: BttRow;
  q2c: BttRow;
  /** Q→D per bio (btt's q2d latency file), not a row of btt's table */
  q2d: BttRow;
  /** btt's "Ratio" column: #Q / #D (1.0 when #Q < #D) */
  mergeRatio: number;
  merge: {
    q: number;
    d: number;
    blkMin: number;
    blkAvg: number;
    blkMax: number;
    blkTotal: number;
  };
  /** Qs still in flight at the end (never completed as a whole, e.g. split bios) */
  unmatchedQ: number;
  /** in-flight Qs dropped to keep memory bounded */
  evictedQ: number;
}

class Row {
  n = 0;
  total = 0;
  min = 0;
  max = 0;
  add(ns: number): void {
    if (this.n++ === 0) {
      this.min = this.max = this.total = ns;
      return;
    }
    if (ns < this.min) this.min = ns;
    if (ns > this.max) this.max = ns;
    this.total += ns;
  }
  merge(o: Row): void {
    if (o.n === 0) return;
    if (this.n === 0) {
      this.min = o.min;
      this.max = o.max;
    } else {
      if (o.min < this.min) this.min = o.min;
      if (o.max > this.max) this.max = o.max;
    }
    this.n += o.n;
    this.total += o.total;
  }
  out(): BttRow {
    if (this.n === 0) return { min: 0, avg: 0, max: 0, n: 0 };
    return { min: this.min / 1e9, avg: this.total / 1e9 / this.n, max: this.max / 1e9, n: this.n };
  }
}

/** State shared by every device: btt's global last-Q time for the All Devices Q2Q. */
export class BttGlobal {
  lastQ = -1;
  readonly q2q = new Row();
}

export class BttDevice {
  readonly q2q = new Row();
  readonly q2g = new Row();
  readonly s2g = new Row();
  readonly g2i = new Row();
  readonly q2m = new Row();
  readonly i2d = new Row();
  readonly m2d = new Row();
  readonly d2c = new Row();
  readonly q2c = new Row();
  readonly q2d = new Row();
  readonly blks = new Row();
  nQs = 0;
  nDs = 0;
  private lastQ = -1;
  /** in-flight Qs in order of start sector */
  private readonly qs = new InFlightQs();
  private readonly remapper: boolean;

  constructor(dev: string) {
    const major = Number(dev.slice(0, dev.indexOf(',')));
    this.remapper = major === 9 || major === 253 || major === 254;
  }

  get inFlight(): number {
    return this.qs.size;
  }

  /** in-flight Qs dropped to keep memory bounded */
  get evicted(): number {
    return this.qs.evicted;
  }

  event(e: ParsedEvent, g: BttGlobal): void {
    const n = e.nSectors;
    if (n === 0 || e.sector < 0) return;
    const t = e.tNs;
    const qs = this.qs;
    switch (e.action) {
      case 'Q': {
        if (!qs.insert(e.sector, e.sector + n, t)) return;
        this.nQs++;
        if (this.remapper) return;
        if (g.lastQ >= 0) g.q2q.add(Math.abs(t - g.lastQ));
        g.lastQ = t;
        if (this.lastQ >= 0) this.q2q.add(Math.abs(t - this.lastQ));
        this.lastQ = t;
        return;
      }
      case 'G': {
        const q = qs.holding(e.sector);
        if (q >= 0) {
          qs.gT[q] = t;
          this.q2g.add(t - qs.t[q]!);
          if (qs.sT[q]! >= 0) this.s2g.add(t - qs.sT[q]!);
        }
        return;
      }
      case 'S': {
        const q = qs.holding(e.sector);
        if (q >= 0) qs.sT[q] = t;
        return;
      }
      case 'I': {
        const q = qs.holding(e.sector);
        if (q >= 0) {
          qs.iT[q] = t;
          if (qs.gT[q]! >= 0) this.g2i.add(t - qs.gT[q]!);
        }
        return;
      }
      case 'M':
      case 'F': {
        const q = qs.holding(e.sector);
        if (q >= 0) {
          qs.mT[q] = t;
          this.q2m.add(t - qs.t[q]!);
        }
        return;
      }
      case 'D': {
        this.nDs++;
        // every in-flight Q lying wholly inside the dispatched range
        const end = e.sector + n;
        for (let k = qs.firstAtOrAfter(e.sector); k < qs.size && qs.starts[k]! < end; k++) {
          const q = qs.order[k]!;
          if (qs.end[q]! > end) continue;
          if (qs.iT[q]! >= 0) this.i2d.add(t - qs.iT[q]!);
          else if (qs.mT[q]! >= 0) this.m2d.add(t - qs.mT[q]!);
          qs.dT[q] = t;
          this.q2d.add(t - qs.t[q]!);
        }
        return;
      }
      case 'C': {
        this.blks.add(n);
        // every in-flight Q lying wholly inside the completed range is done: the others
        // among them move down over the gap
        const end = e.sector + n;
        const from = qs.firstAtOrAfter(e.sector);
        let to = from;
        let kept = from;
        for (; to < qs.size && qs.starts[to]! < end; to++) {
          const q = qs.order[to]!;
          if (qs.end[q]! > end) {
            qs.starts[kept] = qs.starts[to]!;
            qs.order[kept++] = q;
            continue;
          }
          if (!this.remapper) this.q2c.add(t - qs.t[q]!);
          if (qs.dT[q]! >= 0) this.d2c.add(t - qs.dT[q]!);
          qs.release(q);
        }
        qs.closeGap(kept, to);
        return;
      }
      default:
        return;
    }
  }
}

/** btt's "All Devices" rows over `devs` (Q2Q from the global sequence when given). */
export function mergeRows(devs: readonly BttDevice[], g: BttGlobal | null): BttFigures {
  const rows = {
    q2q: new Row(),
    q2g: new Row(),
    s2g: new Row(),
    g2i: new Row(),
    q2m: new Row(),
    i2d: new Row(),
    m2d: new Row(),
    d2c: new Row(),
    q2c: new Row(),
    q2d: new Row(),
    blks: new Row(),
  };
  let q = 0;
  let d = 0;
  let unmatched = 0;
  let evicted = 0;
  for (const dev of devs) {
    for (const k of Object.keys(rows) as (keyof typeof rows)[]) rows[k].merge(dev[k]);
    // btt raises #Q to #D per device before summing
    q += Math.max(dev.nQs, dev.nDs);
    d += dev.nDs;
    unmatched += dev.inFlight;
    evicted += dev.evicted;
  }
  const q2q = g !== null ? g.q2q : rows.q2q;
  return {
    q2q: q2q.out(),
    q2g: rows.q2g.out(),
    s2g: rows.s2g.out(),
    g2i: rows.g2i.out(),
    q2m: rows.q2m.out(),
    i2d: rows.i2d.out(),
    m2d: rows.m2d.out(),
    d2c: rows.d2c.out(),
    q2c: rows.q2c.out(),
    q2d: rows.q2d.out(),
    mergeRatio: d === 0 ? 0 : q < d ? 1 : q / d,
    merge: {
      q,
      d,
      blkMin: rows.blks.n ? rows.blks.min : 0,
      blkAvg: d ? rows.blks.total / d : 0,
      blkMax: rows.blks.n ? rows.blks.max : 0,
      blkTotal: rows.blks.total,
    },
    unmatchedQ: unmatched,
    evictedQ: evicted,
  };
}
