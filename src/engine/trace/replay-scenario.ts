// Trace replay, the scenario half: the traced device's Qs as a Spindle scenario (one process
// per pid, fixed request lists for open or closed replay), and the traced scheduler mapped to
// the nearest Spindle one. replay.ts runs it and compares; the modes are described there.
import { getPreset } from '../disk/presets';
import type { Kernel } from '../iosched/queue-settings';
import { ReplayError } from './replay-errors';
import {
  chooseKernel,
  chooseNrRequests,
  mapScheduler,
  type KernelChoice,
  type NrRequestsChoice,
  type SchedulerMapping,
} from './replay-mapping';

export { ReplayError } from './replay-errors';
export * from './replay-mapping';
import { loadScenario } from '../scenario/load';
import type { Scenario } from '../scenario/types';
import {
  isSyncRwbs,
  type DeviceTrace,
  type TraceReading,
  type TracedRequest,
} from './replay-source';
import { mapSector, packAddresses, type AddressMap } from './replay-addresses';
import { chooseDisk, diskSectors, type DiskChoice } from './replay-device';
import type { DeviceFit } from './replay-fit';

export type { DiskChoice } from './replay-device';
import { closedLoopTiming, samePlug } from './replay-loop';
import type { TraceMeta } from './replay-mapping';
import { chooseQueueDepth, type DepthChoice } from './replay-depth';
import { traceFlushCaps, type FlushCaps } from './replay-flush';

export { traceFlushCaps, type FlushCaps } from './replay-flush';

export type ReplayMode = 'open' | 'closed' | 'trace-timed';

export interface ReplayOptions {
  /** "maj,min"; default: the only device with Qs */
  device?: string;
  /** a Spindle I/O scheduler; default: mapped from the traced one */
  scheduler?: string;
  /** "traced" (the default): the device fitted to this trace (replay-fit.ts); or a preset */
  disk?: string;
  mode?: ReplayMode;
  queueDepth?: number;
  /** kernel 6.18's nr_requests (the tag pool); default: meta.json's, else the kernel's */
  nrRequests?: number;
  /** the simulated block layer's kernel; default: 6.18 for a blk-mq scheduler's trace */
  kernel?: Kernel;
  meta?: TraceMeta;
  /** the width of the throughput-over-time windows; default: the span / 40, rounded */
  windowMs?: number;
}

export interface ReplayProcess {
  pid: number;
  comm: string;
  /** the simulated process's name */
  name: string;
  requests: number;
  reads: number;
  writes: number;
  /** the process's sync flag in the simulation (null: reads sync, writes async) */
  sync: boolean | null;
  /** closed mode: its requests issued after its own completions (dependent) or on the clock
   * (independent), and the sums of their think times and gaps, ms; null in the other modes */
  loop: { dependent: number; independent: number; thinkMs: number; gapMs: number } | null;
}

export type { DepthChoice } from './replay-depth';

/** the tag set assumed for a drive of unknown depth (the SCSI presets') */
const UNKNOWN_DRIVE_TAGS = 64;

export function chooseDevice(reading: TraceReading, device: string | undefined): DeviceTrace {
  const withQs = [...reading.devices.values()].filter((d) => d.qs.length > 0);
  if (device !== undefined) {
    const d = reading.devices.get(device);
    if (d === undefined)
      throw new ReplayError(
        `--device ${device}: not in the trace (devices: ${reading.report.devices.join(' ')})`,
      );
    if (d.qs.length === 0)
      throw new ReplayError(`--device ${device}: no Q (or D) with data to replay`);
    return d;
  }
  if (withQs.length === 0)
    throw new ReplayError('the trace has no Q (or D) event with data to replay');
  if (withQs.length > 1)
    throw new ReplayError(
      `the trace has Qs on ${withQs.length} devices (${withQs.map((d) => d.dev).join(' ')}): pick one with --device MAJ,MIN`,
    );
  return withQs[0]!;
}

/** a Spindle process name (letters, digits, _ . + -; ≤ 32) from a comm and pid */
function processName(comm: string, pid: number): string {
  const suffix = `-${pid}`;
  const base = (comm === '' ? 'pid' : comm).replace(/[^A-Za-z0-9_.+-]/g, '_');
  return base.slice(0, 32 - suffix.length) + suffix;
}

/** One request of a replayed process's fixed list (the scenario's `requests` entries). */
interface ReplayRequest {
  sector: number;
  sizeKiB: number;
  [key: string]: unknown;
}

interface BuiltWorkload {
  processes: Array<{
    spec: { name: string; sync: boolean | null; requests: ReplayRequest[] };
    info: ReplayProcess;
  }>;
  syncMismatched: number;
  /** trace-timed mode: requests with no traced C, left to the disk model */
  untimed: number;
  /** what became the workload's requests: the trace's Qs, or (trace-timed) its requests */
  units: 'Qs' | 'requests';
  /** how many were replayed */
  replayed: number;
  /** issued after a completion of their own process (closed mode), and on the clock */
  dependent: number;
  independent: number;
  /** Qs issued into the plug of their process's previous Q (`plugged` on that entry) */
  inPlug: number;
  /** empty flushes left out: the simulated kernel has no flush machinery */
  emptyFlushes: number;
}

/**
 * Trace-timed mode replays the kernel's requests, not its Qs: each request as the kernel
 * built it (its bios merged, in the plug or the scheduler, to the extent D printed), issued
 * when it was allocated (G), served in its traced D2C. So the simulated scheduler chooses
 * among the requests the kernel's chose among, and the dispatch agreement compares choices
 * — not the 2.6 block layer's merging and plugging against a modern kernel's per-task plug.
 * Requests never dispatched in the trace (merged into another) are not replayed.
 */
function buildTimedWorkload(dev: DeviceTrace, flushes: boolean): BuiltWorkload {
  const flags = flushes ? flushFlags : noFlushFlags;
  let emptyFlushes = 0;
  const t0 = firstQNs(dev);
  const byPid = new Map<number, TracedRequest[]>();
  let replayed = 0;
  let untimed = 0;
  for (const rq of dev.requests) {
    // an empty flush has no D of its own (the flush machinery's FN serves it); without that
    // machinery (the 2.6 kernels) it is not replayed
    const empty = rq.nSectors === 0 && rq.preflush;
    if (empty && !flushes) emptyFlushes++;
    if (rq.dispatchedNs < 0 && !(empty && flushes)) continue;
    let list = byPid.get(rq.pid);
    if (list === undefined) byPid.set(rq.pid, (list = []));
    list.push(rq);
    replayed++;
  }
  const processes: BuiltWorkload['processes'] = [];
  for (const [pid, rqs] of byPid) {
    rqs.sort((a, b) => a.tNs - b.tNs);
    const comm = rqs.find((r) => r.comm !== '')?.comm ?? '';
    const writes = rqs.filter((r) => r.write).length;
    const requests = rqs.map((r) => {
      const timed = r.dispatchedNs >= 0 && r.doneNs >= r.dispatchedNs;
      if (!timed && r.nSectors > 0) untimed++;
      return {
        sector: r.sector,
        sizeKiB: r.nSectors / 2,
        op: r.write ? 'write' : 'read',
        atMs: (r.tNs - t0) / 1e6,
        serviceMs: timed ? (r.doneNs - r.dispatchedNs) / 1e6 : null,
        sync: isSyncRwbs(r.rwbs, r.write),
        ...flags(r),
      };
    });
    const name = processName(comm, pid);
    processes.push({
      spec: { name, sync: null, requests },
      info: {
        pid,
        comm,
        name,
        requests: rqs.length,
        reads: rqs.length - writes,
        writes,
        sync: null,
        loop: null,
      },
    });
  }
  if (replayed === 0)
    throw new ReplayError(
      "trace-timed mode replays the kernel's requests (G, then D and C), and this trace has no dispatched G: use --mode open or closed",
    );
  return {
    processes,
    syncMismatched: 0,
    untimed,
    units: 'requests',
    replayed,
    dependent: 0,
    independent: replayed,
    inPlug: 0,
    emptyFlushes,
  };
}

/** A Q's or request's REQ_PREFLUSH and REQ_FUA, as a fixed-list entry takes them. */
function flushFlags(q: { preflush: boolean; fua: boolean }): { preflush?: true; fua?: true } {
  return { ...(q.preflush ? { preflush: true } : {}), ...(q.fua ? { fua: true } : {}) };
}
const noFlushFlags = (): object => ({});

/**
 * The device's replayable Qs (trace-timed: its requests) as one process per pid. `flushes`:
 * the simulated kernel has the flush machinery (6.18): PREFLUSH and FUA go with their
 * requests and empty flushes are replayed; else they are plain writes and empty flushes are
 * left out (counted in `emptyFlushes`).
 */
export function buildWorkload(dev: DeviceTrace, mode: ReplayMode, flushes = true): BuiltWorkload {
  if (mode === 'trace-timed') return buildTimedWorkload(dev, flushes);
  const flags = flushes ? flushFlags : noFlushFlags;
  const t0 = firstQNs(dev);
  const byPid = new Map<number, DeviceTrace['qs']>();
  let emptyFlushes = 0;
  for (const q of dev.qs) {
    if (!flushes && q.nSectors === 0) {
      emptyFlushes++;
      continue;
    }
    let list = byPid.get(q.pid);
    if (list === undefined) byPid.set(q.pid, (list = []));
    list.push(q);
  }
  let syncMismatched = 0;
  let dependent = 0;
  let inPlug = 0;
  const processes: BuiltWorkload['processes'] = [];
  for (const [pid, qs] of byPid) {
    // a pid's Qs can come from several CPUs: issue them in time order (the sort is stable)
    qs.sort((a, b) => a.tNs - b.tNs);
    const comm = qs.find((q) => q.comm !== '')?.comm ?? '';
    const writes = qs.filter((q) => q.write);
    const syncWrites = writes.filter((q) => isSyncRwbs(q.rwbs, true)).length;
    // One flag per process: writes sync when most of them carried 'S' (reads are always sync).
    const sync: boolean | null = writes.length > 0 && syncWrites * 2 > writes.length ? true : null;
    for (const q of qs) {
      const simSync = q.write ? sync === true : true;
      if (simSync !== isSyncRwbs(q.rwbs, q.write)) syncMismatched++;
    }
    const loop = mode === 'closed' ? closedLoopTiming(qs, t0) : null;
    if (loop) {
      dependent += loop.dependent;
      inPlug += loop.inPlug;
    }
    const requests = qs.map((q, i) => {
      const base = {
        sector: q.sector,
        sizeKiB: q.nSectors / 2,
        op: q.write ? 'write' : 'read',
        ...flags(q),
      };
      if (loop) return { ...base, ...loop.entries[i] };
      // open mode: each Q at its time, those of one traced plug still one submission
      const plugged = i + 1 < qs.length && samePlug(q, qs[i + 1]!);
      if (plugged) inPlug++;
      return { ...base, atMs: (q.tNs - t0) / 1e6, ...(plugged ? { plugged } : {}) };
    });
    const name = processName(comm, pid);
    processes.push({
      spec: { name, sync, requests },
      info: {
        pid,
        comm,
        name,
        requests: qs.length,
        reads: qs.length - writes.length,
        writes: writes.length,
        sync,
        loop: loop
          ? {
              dependent: loop.dependent,
              independent: loop.independent,
              thinkMs: loop.thinkMs,
              gapMs: loop.gapMs,
            }
          : null,
      },
    });
  }
  return {
    processes,
    syncMismatched,
    untimed: 0,
    units: 'Qs',
    replayed: dev.qs.length - emptyFlushes,
    dependent,
    independent: dev.qs.length - emptyFlushes - dependent,
    inPlug,
    emptyFlushes,
  };
}

export function firstQNs(dev: DeviceTrace): number {
  let t = Infinity;
  for (const q of dev.qs) if (q.tNs < t) t = q.tNs;
  return t;
}

export function buildScenario(
  reading: TraceReading,
  opts: ReplayOptions,
): {
  scenario: Scenario;
  dev: DeviceTrace;
  mapping: SchedulerMapping;
  workload: BuiltWorkload;
  disk: DiskChoice;
  queueDepth: DepthChoice;
  addresses: AddressMap;
  kernel: KernelChoice;
  nrRequests: NrRequestsChoice | null;
  /** the device fitted to the trace (null when a preset was chosen) and cautions about it */
  fit: DeviceFit | null;
  cautions: string[];
  flushCaps: FlushCaps;
} {
  const dev = chooseDevice(reading, opts.device);
  const mode = opts.mode ?? 'open';
  const mapping = mapScheduler(reading, opts.meta, opts.scheduler);
  const kernel = chooseKernel(mapping, opts.kernel);
  const workload = buildWorkload(dev, mode, kernel.value === '6.18');
  const device = chooseDisk(dev, opts.disk, opts.meta?.rotational, highestSector(workload));
  const disk = device.disk;
  const addresses = fitAddresses(workload, diskSectors(device));
  const presetDepth = getPreset(disk.preset)?.maxQueueDepth ?? null;
  const queueDepth = chooseQueueDepth(opts.queueDepth, reading, dev, {
    depth: presetDepth,
    name: disk.preset,
  });
  const queue: Record<string, number> = {};
  const msk = opts.meta?.maxSectorsKb;
  if (msk !== undefined && msk >= 4 && msk <= 32768) queue.max_sectors_kb = msk;
  // the host's tag set is as deep as the drive accepts, whatever queue depth it is set to
  const nrRequests = chooseNrRequests(
    opts.meta,
    mapping,
    kernel.value,
    presetDepth ?? UNKNOWN_DRIVE_TAGS,
    opts.nrRequests,
  );
  if (nrRequests !== null) queue.nr_requests = Math.min(8192, Math.max(4, nrRequests.value));
  const flushCaps = traceFlushCaps(dev, opts.meta);
  // the fitted device's cache is the traced one's; a preset keeps its own
  if (device.fit !== null) {
    if (flushCaps.writeCache !== null) queue.write_cache = flushCaps.writeCache ? 1 : 0;
    if (flushCaps.fua !== null) queue.fua = flushCaps.fua ? 1 : 0;
  }
  if (mode === 'trace-timed') {
    // the requests arrive merged as the kernel merged them: no merging at all (nomerges 2,
    // not even the one-hit cache), and they go to the scheduler at once
    queue.nomerges = 2;
    queue.unplug_thresh = 1;
  }
  // trace-timed: the kernel's flush commands served in their traced D2C, in order, as its
  // requests are
  const diskJson: Record<string, unknown> = { ...device.json };
  if (mode === 'trace-timed' && device.fit !== null && dev.flushes.pairs.length > 0)
    diskJson.fitted = {
      ...(device.json.fitted as object),
      flushServiceMs: dev.flushes.pairs.map((p) => Math.max(0, p.cNs - p.dNs) / 1e6),
    };
  const json = {
    name: 'replay',
    title: `replay of ${dev.dev} (${mode})`,
    disk: { preset: disk.preset, queueDepth: queueDepth.value, ...diskJson },
    iosched: { name: mapping.simulated, kernel: kernel.value, queue },
    workload: { processes: workload.processes.map((p) => p.spec) },
  };
  const isDrive = ['fcfs', 'sstf', 'clook', 'sptf', 'asptf'].includes(mapping.simulated);
  if (isDrive) {
    json.iosched.name = 'none';
    (json.disk as Record<string, unknown>).scheduler = mapping.simulated;
  }
  const scenario = loadScenario(json, 'replay');
  return {
    scenario,
    dev,
    mapping,
    workload,
    disk,
    queueDepth,
    addresses,
    kernel,
    nrRequests,
    fit: device.fit,
    cautions: device.cautions,
    flushCaps,
  };
}

/** The end of the workload's furthest request, in the trace's sectors. */
function highestSector(workload: BuiltWorkload): number {
  let end = 0;
  for (const p of workload.processes)
    for (const r of p.spec.requests) end = Math.max(end, r.sector + r.sizeKiB * 2);
  return end;
}

/** The workload's sectors packed onto the disk when the trace addresses more than it holds
 * (replay-addresses.ts). */
function fitAddresses(workload: BuiltWorkload, diskSectors: number): AddressMap {
  const requests = workload.processes.flatMap((x) => x.spec.requests);
  const map = packAddresses(
    requests.map((r) => ({ sector: r.sector, nSectors: r.sizeKiB * 2 })),
    diskSectors,
  );
  if (typeof map === 'string') throw new Error(map);
  if (map.packed) for (const r of requests) r.sector = mapSector(map, r.sector);
  return map;
}
