// Trace replay, part 1: what a blkparse trace says the workload and the kernel did. One pass
// over the text through the parser's own feeder, teeing every event to the trace summary
// (blkparse's and btt's figures, exactly as `spindle parse` reports them) and to a collector
// that keeps, per device, the replayable Qs (pid, comm, time, sector, size, RWBS), the kernel's
// dispatch order (D), the completion times that closed replay needs (C), and the figures per
// bio and per request (replay-units.ts) that the simulated run's are set beside.
import type { ParsedEvent, SummaryLine } from './parse-line';
import { TraceFeeder, type FeedStats, type TraceSink } from './stream';
import { TraceSummary, type ParseReport } from './summary';
import { DeviceTable } from './device-table';
import { DeviceInFlight } from './device-in-flight';
import { DEFAULT_HOLD, TimeOrder } from './time-order';
import { UnitCounter, type UnitFigures } from './replay-units';
import { PlugNumbers } from './replay-plugs';
import { FlushCollector, rwbsFlags, type FlushFacts } from './replay-flush';

/** One Q of the trace as it will be replayed. */
export interface TracedQ {
  pid: number;
  comm: string;
  tNs: number;
  sector: number;
  nSectors: number;
  write: boolean;
  rwbs: string;
  /** the time this Q's sectors were all completed (−1: never in the trace) */
  doneNs: number;
  /** the time the first D covering its sectors was traced (−1: none seen) */
  dispatchedNs: number;
  /** the plug its task queued it into, one number per submission (replay-plugs.ts; −1: none) */
  plug: number;
  /** REQ_PREFLUSH and REQ_FUA (RWBS F…F): replayed through kernel 6.18's flush machinery */
  preflush: boolean;
  fua: boolean;
  /** when its process heard it was done: its data's C, or — in a flush sequence — the C with
   * no sectors that ended it (replay-flush.ts); −1 never */
  endNs: number;
}

/** One request as the kernel built it: allocated at G for its first bio (just after that
 * bio's Q), grown by merges (M, F), dispatched at D with its final extent, completed at C. */
export interface TracedRequest {
  pid: number;
  comm: string;
  /** G */
  tNs: number;
  sector: number;
  nSectors: number;
  write: boolean;
  rwbs: string;
  /** the first D (−1: never dispatched in the trace, e.g. merged into another request) */
  dispatchedNs: number;
  /** its C (−1: none traced) */
  doneNs: number;
  preflush: boolean;
  fua: boolean;
}

/** Why a Q is not replayed. */
export interface SkippedQs {
  /** no data and no preflush to replay (an empty flush that is not a write) */
  flush: number;
  /** discard / secure erase (`D`, `DE`): no media transfer to model */
  discard: number;
  /** any other Q without a size */
  zeroSize: number;
}

export interface DeviceTrace {
  dev: string;
  /** the arrivals replayed: the trace's Qs — or, in a trace without any Q on this device
   * (blktrace -a issue -a complete), its dispatches (D) */
  qs: TracedQ[];
  arrivals: 'Q' | 'D';
  skipped: SkippedQs;
  /** Qs kept that carried a preflush or FUA besides their data (replayed with them) */
  flushFuaWithData: number;
  /** the flush machinery as the trace shows it: flush commands' D→C, flagged Qs, FUA */
  flushes: FlushFacts;
  /** the kernel's dispatches with data (discards not included), in trace order */
  dispatches: Array<{ tNs: number; sector: number; nSectors: number; write: boolean }>;
  /** the kernel's dispatches of discards and of flushes without data (never replayed) */
  dispatchedOther: { discards: number; flushes: number };
  /** the kernel scheduler's own choices: its requests with data inserted (I), and its
   * dispatches of one at which it held two or more (inserted, not yet dispatched) */
  kernelHeld: { inserted: number; choices: number };
  /** completions with data, in trace order (throughput over time) */
  completions: Array<{ tNs: number; nSectors: number }>;
  /** the kernel's requests with data, in G order (trace-timed replay issues these) */
  requests: TracedRequest[];
  /** per bio and per request, counted as the simulated side is (replay-units.ts) over a
   * span in ms; perBio is null in a trace without Qs (its bios were not traced) */
  units(spanMs: number): { perBio: UnitFigures | null; perRequest: UnitFigures };
  /** the most requests in flight on the device at once, D to C (every request with
   * sectors, discards too; a requeued one (R) leaves until its next D); 0 without any C */
  mostInFlight: number;
}

class DeviceCollector {
  readonly out: DeviceTrace;
  /** requests allocated (G) and not yet dispatched; dispatched and not yet completed */
  private building: TracedRequest[] = [];
  /** requests inserted into the kernel's scheduler (I) and not yet dispatched */
  private held = new Set<TracedRequest>();
  private inFlight: TracedRequest[] = [];
  /** the Qs' completion (their doneNs, dispatchedNs) and the per-bio, per-request figures */
  private readonly units = new UnitCounter<TracedQ>();
  /** until a Q is seen: each D with data as an arrival (for a trace without Qs), and those
   * not yet completed by their start sector */
  private dArrivals: TracedQ[] | null = [];
  private dPending = new Map<number, TracedQ[]>();
  private readonly onDevice = new DeviceInFlight();
  private readonly plugs = new PlugNumbers(); // each process's plugs, numbered
  private readonly flush = new FlushCollector();

  constructor(dev: string) {
    this.out = {
      dev,
      qs: [],
      arrivals: 'Q',
      skipped: { flush: 0, discard: 0, zeroSize: 0 },
      flushFuaWithData: 0,
      flushes: this.flush.facts,
      dispatches: [],
      dispatchedOther: { discards: 0, flushes: 0 },
      kernelHeld: { inserted: 0, choices: 0 },
      completions: [],
      requests: [],
      units: (spanMs) => {
        const f = this.units.figures(spanMs);
        return { perBio: this.out.arrivals === 'Q' ? f.perBio : null, perRequest: f.perRequest };
      },
      mostInFlight: 0,
    };
  }

  event(e: ParsedEvent): void {
    if (e.pc !== undefined) return;
    if (e.action === 'P' || e.action === 'U' || e.action === 'UT')
      this.plugs.event(e.action, e.pid);
    switch (e.action) {
      case 'Q':
        this.dArrivals = null; // a trace with Qs: they are the arrivals
        this.dPending.clear();
        this.queued(e);
        return;
      case 'G':
        this.allocated(e);
        return;
      case 'M':
      case 'F':
        this.merged(e);
        return;
      case 'I':
        this.requestInserted(e);
        return;
      case 'D':
        this.flush.dispatched(e);
        if (mainLetter(e.rwbs) === 'D') this.out.dispatchedOther.discards++;
        else if (e.nSectors === 0 && e.rwbs.includes('F')) this.out.dispatchedOther.flushes++;
        if (e.nSectors > 0 && e.sector >= 0) {
          if (mainLetter(e.rwbs) !== 'D')
            this.out.dispatches.push({
              tNs: e.tNs,
              sector: e.sector,
              nSectors: e.nSectors,
              write: e.write,
            });
          if (hasData(e)) this.units.dispatched(e.tNs, e.sector, e.nSectors, e.write);
          this.onDevice.dispatched(e.write, e.sector);
          this.requestDispatched(e);
          if (this.dArrivals !== null) this.dispatchArrival(e);
        }
        return;
      case 'C':
        this.flush.completed(e);
        if (e.nSectors > 0 && e.sector >= 0) {
          this.out.completions.push({ tNs: e.tNs, nSectors: e.nSectors });
          if (hasData(e)) this.units.completed(e.tNs, e.sector, e.nSectors, e.write);
          this.onDevice.left(e.write, e.sector, true);
          this.requestCompleted(e);
          if (this.dArrivals !== null) this.dispatchCompleted(e);
        }
        return;
      case 'R':
        if (e.sector >= 0) this.units.requeued(e.sector, e.write);
        if (e.nSectors > 0 && e.sector >= 0) this.onDevice.left(e.write, e.sector, false);
        return;
      default:
        return;
    }
  }

  private queued(e: ParsedEvent): void {
    this.plugs.queued(e.pid, null);
    const main = mainLetter(e.rwbs);
    if (main === 'D') {
      this.out.skipped.discard++;
      return;
    }
    const flags = rwbsFlags(e.rwbs);
    if (e.nSectors === 0 || e.sector < 0) {
      if (flags.preflush && e.write) this.emptyFlush(e);
      else if (e.rwbs.includes('F')) this.out.skipped.flush++;
      else this.out.skipped.zeroSize++;
      return;
    }
    if (flags.preflush || flags.fua) this.out.flushFuaWithData++;
    const q: TracedQ = traced(e, -1);
    this.plugs.queued(e.pid, q);
    this.out.qs.push(q);
    this.units.queued(q);
    this.flush.queued(q, flags, true);
  }

  /** fsync's flush (blkdev_issue_flush: a write with PREFLUSH and no data): replayed as such,
   * at sector 0 (its bio's, which its end prints); no bio in the units (no sectors) */
  private emptyFlush(e: ParsedEvent): void {
    const q: TracedQ = { ...traced(e, -1), sector: 0, nSectors: 0 };
    this.plugs.queued(e.pid, q);
    this.out.qs.push(q);
    this.flush.queued(q, rwbsFlags(e.rwbs), false);
  }

  /** The device's trace is complete: without any Q, its dispatches are the arrivals. */
  finish(): void {
    if (this.out.qs.length === 0 && this.dArrivals !== null && this.dArrivals.length > 0) {
      this.out.qs = this.dArrivals;
      this.out.arrivals = 'D';
    }
    this.dArrivals = null;
    this.dPending.clear();
    this.out.mostInFlight = this.onDevice.mostInFlight();
    for (const q of this.out.qs) if (q.endNs < 0) q.endNs = q.doneNs;
    if (!this.plugs.perTask) for (const q of this.out.qs) q.plug = -1; // a queue plug's P and U
  }

  private dispatchArrival(e: ParsedEvent): void {
    if (mainLetter(e.rwbs) === 'D') return; // a discard: nothing to replay
    const q: TracedQ = traced(e, e.tNs);
    this.dArrivals!.push(q);
    const list = this.dPending.get(e.sector);
    if (list === undefined) this.dPending.set(e.sector, [q]);
    else list.push(q);
  }

  private dispatchCompleted(e: ParsedEvent): void {
    const list = this.dPending.get(e.sector);
    const i = list?.findIndex((q) => q.write === e.write) ?? -1;
    if (list === undefined || i < 0) return;
    list[i]!.doneNs = e.tNs;
    list.splice(i, 1);
    if (list.length === 0) this.dPending.delete(e.sector);
  }

  /** G: a request with data (not a discard) is allocated for a bio; an empty flush's too
   * (trace-timed replay issues it; it has no D of its own) */
  private allocated(e: ParsedEvent): void {
    if ((e.nSectors === 0 || e.sector < 0) && rwbsFlags(e.rwbs).preflush && e.write) {
      this.out.requests.push({ ...traced(e, -1), sector: 0, nSectors: 0 });
      return;
    }
    if (e.nSectors === 0 || e.sector < 0 || mainLetter(e.rwbs) === 'D') return;
    const rq: TracedRequest = traced(e, -1);
    this.out.requests.push(rq);
    this.building.push(rq);
  }

  /** M joins a bio at a request's end, F at its front (in the plug or the scheduler) */
  private merged(e: ParsedEvent): void {
    if (e.nSectors === 0 || e.sector < 0) return;
    const front = e.action === 'F';
    const end = e.sector + e.nSectors;
    const rq = this.building.find(
      (r) => r.write === e.write && (front ? r.sector === end : r.sector + r.nSectors === e.sector),
    );
    if (rq === undefined) return;
    if (front) rq.sector = e.sector;
    rq.nSectors += e.nSectors;
  }

  /** D: the request starting there leaves with the extent D prints (its first D counts) */
  private requestDispatched(e: ParsedEvent): void {
    const b = this.building;
    const i = b.findIndex((r) => r.write === e.write && r.sector === e.sector);
    if (i < 0) return;
    const rq = b[i]!;
    b.splice(i, 1);
    rq.nSectors = e.nSectors;
    rq.dispatchedNs = e.tNs;
    this.inFlight.push(rq);
    const held = this.held;
    if (!held.delete(rq)) return;
    if (held.size >= 1) this.out.kernelHeld.choices++;
    // a request merged into this one (attempt_merge, not traced) lies within its extent
    const end = e.sector + e.nSectors;
    for (const r of held)
      if (r.write === e.write && r.sector >= e.sector && r.sector + r.nSectors <= end)
        held.delete(r);
  }

  /** I: a request with data enters the kernel's scheduler */
  private requestInserted(e: ParsedEvent): void {
    if (e.nSectors === 0 || e.sector < 0) return;
    const rq = this.building.find((r) => r.write === e.write && r.sector === e.sector);
    if (rq === undefined || this.held.has(rq)) return;
    this.held.add(rq);
    this.out.kernelHeld.inserted++;
  }

  private requestCompleted(e: ParsedEvent): void {
    const f = this.inFlight;
    const i = f.findIndex((r) => r.write === e.write && r.sector === e.sector);
    if (i < 0) return;
    f[i]!.doneNs = e.tNs;
    f.splice(i, 1);
  }
}

/** A Q, a request (at G) or a dispatch-as-arrival (at D) from its event: not yet completed. */
function traced(e: ParsedEvent, dispatchedNs: number): TracedQ & TracedRequest {
  return {
    pid: e.pid,
    comm: e.comm ?? '',
    tNs: e.tNs,
    sector: e.sector,
    nSectors: e.nSectors,
    write: e.write,
    rwbs: e.rwbs,
    doneNs: -1,
    dispatchedNs,
    plug: -1,
    ...rwbsFlagsOf(e.rwbs),
    endNs: -1,
  };
}

function rwbsFlagsOf(rwbs: string): { preflush: boolean; fua: boolean } {
  const f = rwbsFlags(rwbs);
  return { preflush: f.preflush, fua: f.fua };
}

/** a read or write (not a discard) with sectors: what replay replays and counts */
function hasData(e: ParsedEvent): boolean {
  const main = mainLetter(e.rwbs);
  return main === 'R' || main === 'W';
}

/** RWBS's main letter (§6.3): after an optional leading F (preflush) */
function mainLetter(rwbs: string): string {
  const c = rwbs.charAt(0);
  return c === 'F' && rwbs.length > 1 ? rwbs.charAt(1) : c;
}

/** The kernel's op_is_sync: every read is sync; a write is when it carries REQ_SYNC ('S'). */
export function isSyncRwbs(rwbs: string, write: boolean): boolean {
  return !write || rwbs.includes('S');
}

export interface TraceReading {
  report: ParseReport;
  stats: FeedStats;
  fatal: string | null;
  devices: Map<string, DeviceTrace>;
  /** the scheduler named by the trace's message lines (`m N bfq…`), when any */
  messageScheduler: string | null;
}

/** The parser (feed()/end() like TraceParser) with the replay collector beside the summary. */
export class ReplayReader {
  /** the devices read in detail (device-table.ts): the summary's, the window's and ours */
  private readonly table = new DeviceTable();
  private readonly summary = new TraceSummary({}, this.table);
  private readonly feeder: TraceFeeder;
  /** each device's events in time order (the collector keeps the event objects: no copies) */
  private readonly order: TimeOrder;
  private readonly devs = new Map<string, DeviceCollector>();
  private messageScheduler: string | null = null;

  constructor() {
    const tee: TraceSink = {
      event: (e: ParsedEvent): void => {
        this.summary.event(e);
        if (e.action === 'm') {
          if (this.messageScheduler === null && e.message !== undefined)
            this.messageScheduler = schedulerOfMessage(e.message);
          return;
        }
        let d = this.devs.get(e.dev);
        if (d === undefined) {
          if (!this.table.admit(e.dev)) return; // counted by the summary only
          d = new DeviceCollector(e.dev);
          this.devs.set(e.dev, d);
        }
        d.event(e);
      },
      summary: (s: SummaryLine): void => this.summary.summary(s),
    };
    this.order = new TimeOrder(tee, false, DEFAULT_HOLD, this.table);
    this.feeder = new TraceFeeder(this.order);
  }

  feed(chunk: string): void {
    this.feeder.feed(chunk);
  }

  get fatal(): string | null {
    return this.feeder.stats.fatal;
  }

  end(): TraceReading {
    const stats = this.feeder.end();
    this.order.flush();
    const devices = new Map<string, DeviceTrace>();
    for (const [dev, d] of this.devs) {
      d.finish();
      devices.set(dev, d.out);
    }
    return {
      report: this.summary.report(stats, this.order.stats.reordered),
      stats,
      fatal: stats.fatal,
      devices,
      messageScheduler: this.messageScheduler,
    };
  }
}

/** BFQ prints its notes as `bfq…` messages, and CFQ (up to Linux 4.20) as `cfq…` ones
 * (`cfq18166S /user.slice activate rq`, `cfq schedule dispatch`); the other schedulers print
 * none. */
function schedulerOfMessage(text: string): string | null {
  const m = /^\s*(bfq|cfq)/.exec(text);
  return m ? m[1]! : null;
}

export function readTraceText(text: string): TraceReading {
  const r = new ReplayReader();
  r.feed(text);
  return r.end();
}
