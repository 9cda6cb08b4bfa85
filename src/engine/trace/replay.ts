// Trace replay (issue 4 items 4–5): a blkparse trace's Qs become a Spindle workload — one
// process per traced pid, named after its [comm], each with a fixed request list — run on a
// simulated disk under the Spindle scheduler nearest the traced one, and compared with what
// the kernel measured: Q2C and D2C distributions, throughput (and over time), and how far
// the simulated scheduler's choices agree with the kernel's (replay-agreement.ts).
//
// Modes (LINUX-SCHEDULERS.md §10 "Replay"):
//  - open:   every request is issued at its traced Q time (atMs = Q − the device's first Q);
//  - closed: a process's first request at its traced time; each later one dependent —
//            issued `thinkTimeMs` after the completion of the process's own request that
//            last completed between the previous Q and this one in the trace — or, when none
//            did, independent: issued `gapMs` after the previous Q (replay-loop.ts). Each
//            process keeps its own outstanding count; bursts stay bursts.
//  In both, the Qs a process queued into one plug (P … U, replay-plugs.ts) are issued as one
//  submission: kernel 6.18 flushes the plug after the last of them, as the kernel's task did.
//  - trace-timed: issued at the traced Q times, and the device completes each request after
//            its traced D2C (the first D covering the Q's sectors to its last C), each with its
//            own sync flag from RWBS: the disk model is out of the way, so what differs is the
//            scheduler's choices, and the agreement compares those.
import { runScenario } from '../run';
import { queueSettings } from '../iosched/queue-settings';
import type { RunSummary } from '../summary';
import type { TraceEvent, TraceSink as SimSink } from '../events';
import { computeAgreement, type Agreement, type KernelRequest } from './replay-agreement';
import { SimulatedOrderRecorder } from './replay-sim-order';
import { unmapSector, type AddressMap } from './replay-addresses';
import type { DeviceTrace, TraceReading } from './replay-source';
import {
  buildScenario,
  firstQNs,
  type DepthChoice,
  type KernelChoice,
  type DiskChoice,
  type NrRequestsChoice,
  type ReplayMode,
  type ReplayOptions,
  type ReplayProcess,
  type SchedulerMapping,
} from './replay-scenario';
import type { BttRow } from './btt';
import { UnitCounter, type UnitFigures } from './replay-units';
import type { DeviceFit } from './replay-fit';
import { d2cCaution, unreadableCaution, untimedCaution } from './replay-caution';

export type { DeviceFit, DirectionFit, HeldBack } from './replay-fit';

export * from './replay-scenario';
export type { LatencyMs, UnitFigures } from './replay-units';

export interface ThroughputWindow {
  /** the window's start, ms from the device's first Q */
  tMs: number;
  /** completions (requests with data) per second */
  iops: number;
  mbps: number;
}

export interface ReplayReport {
  device: string;
  devices: string[];
  mode: ReplayMode;
  disk: DiskChoice;
  /** the simulated block layer's kernel, and why */
  kernel: KernelChoice;
  /** kernel 6.18: nr_requests, the tag pool's size, and why; null on the 2.6 kernels */
  nrRequests: NrRequestsChoice | null;
  /** a trace from a larger disk: how its addresses were packed onto this one */
  addresses: Omit<AddressMap, 'regions'> & { regions: number };
  queueDepth: DepthChoice;
  schedulerMapping: SchedulerMapping;
  requests: {
    /** every Q event of the device */
    tracedQ: number;
    /** what was replayed: the trace's Qs (open, closed) or the kernel's requests (trace-timed) */
    units: 'Qs' | 'requests';
    /** the arrivals: the trace's Qs, or its dispatches (D) in a trace without Qs */
    arrivals: 'Q' | 'D';
    replayed: number;
    /** of those, empty flushes (fsync's Q FWS: no data, so in no per-bio figure), replayed
     * through kernel 6.18's flush machinery (the 2.6 kernels skip them: skipped.flush) */
    emptyFlushes: number;
    skipped: { flush: number; discard: number; zeroSize: number; total: number };
    /** replayed Qs that also carried a preflush/FUA (replayed with them: kernel 6.18's flush
     * machinery sequences them; the 2.6 kernels replay them as plain writes) */
    flushFuaWithData: number;
    reads: number;
    writes: number;
    kib: number;
    /** replayed requests whose sync flag differs from their process's (open and closed
     * modes give each process one flag; trace-timed mode gives each request its own) */
    syncMismatched: number;
    /** trace-timed mode: Qs with no traced D and C, served by the disk model instead */
    untimed: number;
    /** closed mode: issued after a completion of their own process (replay-loop.ts) */
    dependent: number;
    /** issued on the clock: after the previous request of their process (closed mode), at
     * their traced time (open and trace-timed modes: all of them) */
    independent: number;
    /** open and closed modes: Qs queued into the plug their process's previous Q opened or
     * joined (traced between one P and its U), issued as one submission with it (kernel
     * 6.18 flushes the plug after the last; the 2.6 block layer has its queue plug instead) */
    inPlug: number;
  };
  processes: ReplayProcess[];
  /** the trace's figures and the simulated run's, counted alike (replay-units.ts): per bio
   * (every Q: Q → the C of its last sectors, its request's D → C, bios/s) and per request
   * (every D: its first bio's Q → C, D → C, requests/s), over each side's span (its first Q
   * to its last C). In trace-timed mode the replayed bios are the kernel's requests. */
  measured: {
    /** btt's rows for the device, seconds, as `spindle parse` prints them; null where btt
     * printed none (btt leaves out split bios and requests it cannot pair) */
    btt: { q2c: BttRow | null; d2c: BttRow | null };
    /** null in a trace without Qs (blktrace -a issue -a complete): its bios were not traced */
    perBio: UnitFigures | null;
    perRequest: UnitFigures;
    spanMs: number;
  };
  simulated: {
    iosched: string;
    disk: string;
    perBio: UnitFigures;
    perRequest: UnitFigures;
    spanMs: number;
  };
  throughputOverTime: {
    windowMs: number;
    measured: ThroughputWindow[];
    simulated: ThroughputWindow[];
  };
  /** the simulated scheduler's choices against the kernel's, with arrival order beside */
  agreement: Agreement;
  /** the device fitted to the trace (the default device); null when a preset was chosen */
  fit: DeviceFit | null;
  /** kernel 6.18's flush machinery (iosched/blk-flush.ts): the traced device's write cache and
   * FUA and whence (meta.json, else the trace), the Qs that carried PREFLUSH or FUA, and the
   * flush commands (D FN) each side dispatched */
  flushes: {
    writeCache: boolean | null;
    fua: boolean | null;
    source: string;
    flaggedQs: number;
    commands: { measured: number; simulated: number };
  };
  /** what the user should know before trusting the figures (replay-caution.ts) */
  caution: string[];
  /** the simulated run's full summary (as `spindle run --json`) */
  summary: RunSummary;
}

/** a round window width giving about 40 windows over the span */
function windowFor(spanMs: number): number {
  const raw = Math.max(spanMs / 40, 0.001);
  const p = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}

function series(
  points: ReadonlyArray<{ tNs: number; nSectors: number }>,
  windowMs: number,
  windows: number,
): ThroughputWindow[] {
  const count = new Array<number>(windows).fill(0);
  const sectors = new Array<number>(windows).fill(0);
  for (const p of points) {
    const k = Math.min(windows - 1, Math.max(0, Math.floor(p.tNs / 1e6 / windowMs)));
    count[k]!++;
    sectors[k]! += p.nSectors;
  }
  const secs = windowMs / 1000;
  return count.map((c, k) => ({
    tMs: k * windowMs,
    iops: c / secs,
    mbps: (sectors[k]! * 512) / 1e6 / secs,
  }));
}

/** btt prints a row only where it has values */
function printed(row: BttRow): BttRow | null {
  return row.n > 0 ? row : null;
}

export function replayTrace(reading: TraceReading, opts: ReplayOptions = {}): ReplayReport {
  const mode = opts.mode ?? 'open';
  const {
    scenario,
    dev,
    mapping,
    workload,
    disk,
    queueDepth,
    addresses,
    kernel,
    nrRequests,
    fit,
    cautions,
    flushCaps,
  } = buildScenario(reading, opts);
  // the run's requests in the trace's addresses, to compare with the kernel's
  const order = new SimulatedOrderRecorder(
    queueSettings(scenario.iosched.queue, scenario.iosched.kernel).taskPlug,
    (s) => unmapSector(addresses, s),
  );
  const simCompletions: Array<{ tNs: number; nSectors: number }> = [];
  // the simulated side's bios and requests, counted as the trace's are (in the disk's
  // addresses: the pairing needs only its own side's sectors)
  const simUnits = new UnitCounter();
  let simFlushes = 0;
  const sink: SimSink = {
    trace(e: TraceEvent): void {
      order.event(e);
      if (e.flushOp && e.action === 'D') simFlushes++;
      if (e.nSectors <= 0) return;
      if (e.action === 'Q')
        simUnits.queued({
          tNs: e.tNs,
          sector: e.sector,
          nSectors: e.nSectors,
          dispatchedNs: -1,
          doneNs: -1,
        });
      else if (e.action === 'D') {
        simUnits.dispatched(e.tNs, e.sector, e.nSectors, e.write);
      } else if (e.action === 'R') {
        // the drive refused it (no free tag): it is dispatched again later, count that one
        simUnits.requeued(e.sector, e.write);
      } else if (e.action === 'C') {
        simUnits.completed(e.tNs, e.sector, e.nSectors, e.write);
        simCompletions.push({ tNs: e.tNs, nSectors: e.nSectors });
      }
    },
    service(): void {},
    decision(): void {},
  };
  const { summary } = runScenario(scenario, { sink });

  const t0 = firstQNs(dev);
  const lastC = dev.completions.reduce((m, c) => Math.max(m, c.tNs), t0);
  const measuredSpanMs = (lastC - t0) / 1e6;
  let sectors = 0;
  let reads = 0;
  for (const q of dev.qs) {
    sectors += q.nSectors;
    if (!q.write) reads++;
  }
  const bttAll = reading.report.perDevice[dev.dev]!.btt;
  // empty flushes are replayed by kernel 6.18's flush machinery, skipped on the 2.6 kernels
  const sk = { ...dev.skipped, flush: dev.skipped.flush + workload.emptyFlushes };

  const spanMs = Math.max(measuredSpanMs, summary.simulatedTimeMs);
  const windowMs = opts.windowMs ?? windowFor(spanMs);
  const windows = Math.max(1, Math.ceil(spanMs / windowMs) || 1);
  const measuredPoints = dev.completions.map((c) => ({ tNs: c.tNs - t0, nSectors: c.nSectors }));

  const measured = dev.units(measuredSpanMs);
  const simulated = simUnits.figures(summary.simulatedTimeMs);
  return {
    device: dev.dev,
    devices: reading.report.devices,
    mode,
    disk,
    kernel,
    nrRequests,
    addresses: { ...addresses, regions: addresses.regions.length },
    queueDepth,
    schedulerMapping: mapping,
    requests: {
      tracedQ: dev.qs.length - workload.emptyFlushes + sk.flush + sk.discard + sk.zeroSize,
      units: workload.units,
      arrivals: dev.arrivals,
      replayed: workload.replayed,
      emptyFlushes: workload.replayed - replayedWithData(workload),
      skipped: { ...sk, total: sk.flush + sk.discard + sk.zeroSize },
      flushFuaWithData: dev.flushFuaWithData,
      reads,
      writes: dev.qs.length - workload.emptyFlushes - reads,
      kib: sectors / 2,
      syncMismatched: mode === 'trace-timed' ? 0 : workload.syncMismatched,
      untimed: workload.untimed,
      dependent: workload.dependent,
      independent: workload.independent,
      inPlug: workload.inPlug,
    },
    processes: workload.processes.map((p) => p.info),
    measured: {
      btt: { q2c: printed(bttAll.q2c), d2c: printed(bttAll.d2c) },
      ...measured,
      spanMs: measuredSpanMs,
    },
    simulated: {
      iosched: summary.iosched,
      disk: summary.disk,
      ...simulated,
      spanMs: summary.simulatedTimeMs,
    },
    throughputOverTime: {
      windowMs,
      measured: series(measuredPoints, windowMs, windows),
      simulated: series(simCompletions, windowMs, windows),
    },
    agreement: computeAgreement(kernelRequests(dev), order.finish(), mode, dev.kernelHeld),
    fit,
    flushes: {
      ...flushCaps,
      flaggedQs: dev.flushes.flaggedQs,
      commands: { measured: dev.flushes.pairs.length, simulated: simFlushes },
    },
    caution: [
      ...unreadableCaution(reading.report),
      ...cautions,
      ...untimedCaution(workload.untimed, replayedWithData(workload), disk.preset),
      ...d2cCaution(simulated.perRequest.d2cMs?.p50 ?? 0, measured.perRequest.d2cMs?.p50 ?? 0),
    ],
    summary,
  };
}

/** Replayed entries with sectors (an empty flush has none). */
function replayedWithData(w: {
  processes: Array<{ spec: { requests: Array<{ sizeKiB: number }> } }>;
}): number {
  let n = 0;
  for (const p of w.processes) for (const r of p.spec.requests) if (r.sizeKiB > 0) n++;
  return n;
}

/** The kernel's side of the agreement: its requests with data from their G (in a trace
 * without G, each dispatch arrives at its D), and its discard and flush dispatches. */
function kernelRequests(dev: DeviceTrace): KernelRequest[] {
  const out: KernelRequest[] = [];
  for (const r of dev.requests)
    if (r.dispatchedNs >= 0)
      out.push({
        sector: r.sector,
        nSectors: r.nSectors,
        write: r.write,
        kind: 'data',
        arrivalNs: r.tNs,
        dispatchNs: r.dispatchedNs,
      });
  if (out.length === 0)
    for (const d of dev.dispatches)
      out.push({ ...d, kind: 'data', arrivalNs: d.tNs, dispatchNs: d.tNs });
  const other = (kind: 'discard' | 'flush', n: number): void => {
    for (let k = 0; k < n; k++)
      out.push({ sector: -1, nSectors: 0, write: true, kind, arrivalNs: 0, dispatchNs: 0 });
  };
  other('discard', dev.dispatchedOther.discards);
  other('flush', dev.dispatchedOther.flushes);
  return out;
}
