// The drive: its tagged command queue, controller overheads, read cache with
// read-ahead, write-back buffer, and the mechanism that serves one command at a time.
// The host sees only submit (D) and completion (C). DISK-MODEL.md §1.2, §1.5, §1.6.
import type { IoRequest } from '../request';
import { allocRequest, freeRequest, requestAt } from '../request';
import { pushEvent } from '../sim/heap';
import { EventKind, EventPriority } from '../sim/events';
import type { Simulation } from '../sim/simulation';
import type { CompiledDisk } from './compile';
import { mediaTransfer, positionTo, type Positioning, type TransferEnd, type WriteData } from './mechanics';
import { pickNext, type ArmState, type DiskPick } from './disk-scheduler';
import { noteServiced } from '../metrics/collector';

/** A read-cache segment holding the contiguous LBNs [lo, hi). */
export interface CacheSegment {
  lo: number;
  hi: number;
  lastUse: number;
}

/**
 * Read-ahead in progress: the mechanism keeps transferring past a read miss while idle.
 * It is that read's transfer running on, so progress is computed from the read's start.
 */
export interface Prefetch {
  segment: number;
  baseLbn: number;
  baseStartNs: number;
  limitLbn: number;
  /** the stream cannot be stopped before this: the read it serves has not yet
   * completed to the host (DiskSim, preseeking level 0) */
  holdUntilNs: number;
}

export interface DriveState {
  /** commands waiting for the mechanism (request slots), in arrival order */
  queue: number[];
  /** host commands accepted and not yet completed */
  tagsInUse: number;
  mechBusy: boolean;
  /** where the arm is once the mechanism is free */
  arm: ArmState;
  /** time of a pending DrivePick event, −1 if none */
  pickAt: number;
  /** read segments */
  segments: CacheSegment[];
  /** the separate write segment: the latest written LBNs, readable as hits */
  writeSegment: CacheSegment;
  useClock: number;
  prefetch: Prefetch | null;
  /** sectors of write-back data not yet on the media */
  writeBufferUsed: number;
  /** writes waiting for room in the write-back buffer ("buffer full") */
  bufferWaiters: number[];
  /** positioning-time estimates made by the drive's scheduler (SPTF family) */
  positioningEstimates: number;
  /** SSD: when each channel is next free */
  ssdChannelFreeNs: number[];
}

export function createDriveState(sim: Pick<Simulation, 'model'>): DriveState {
  const p = sim.model.disk.params;
  const readSegments = sim.model.disk.readSegments;
  return {
    queue: [],
    tagsInUse: 0,
    mechBusy: false,
    arm: { cylinder: 0, head: 0, nextLbn: 0 },
    pickAt: -1,
    segments: Array.from({ length: readSegments }, () => ({ lo: 0, hi: 0, lastUse: -1 })),
    writeSegment: { lo: 0, hi: 0, lastUse: -1 },
    useClock: 0,
    prefetch: null,
    writeBufferUsed: 0,
    bufferWaiters: [],
    positioningEstimates: 0,
    ssdChannelFreeNs: p.ssd ? new Array<number>(p.ssd.channels).fill(0) : [],
  };
}

export function driveHasFreeTag(sim: Simulation): boolean {
  return sim.state.drive.tagsInUse < sim.model.queueDepth;
}

/** The host hands a command to the drive (blktrace D). */
export function driveSubmit(sim: Simulation, rq: IoRequest, now: number): void {
  const drive = sim.state.drive;
  const d = sim.model.disk;
  drive.tagsInUse++;
  rq.dispatchedNs = now;
  if (d.params.ssd) return ssdSubmit(sim, rq, now);
  if (!rq.write) {
    if (tryCacheRead(sim, rq, now)) return;
    rq.eligibleNs = now + d.readMissNs;
    rq.overheadNs = d.readMissNs + d.readCompleteNs;
    drive.queue.push(rq.slot);
    schedulePick(sim, rq.eligibleNs);
    return;
  }
  writeStopsReadAhead(sim, rq, now);
  // The mechanism may start after the command overhead; the data crosses the bus meanwhile.
  rq.eligibleNs = now + d.writeCmdNs;
  rq.busNs = rq.nSectors * d.busWriteNsPerSector;
  // Sector i's data is in the buffer at dataReadyNs + i·(bus time per sector).
  rq.dataReadyNs = rq.eligibleNs + d.dataPrepNs + d.busWriteNsPerSector;
  if (sim.model.writePolicy === 'write-back') {
    if (drive.bufferWaiters.length === 0 && fitsWriteBuffer(sim, rq)) bufferWrite(sim, rq, now);
    else drive.bufferWaiters.push(rq.slot);
    return;
  }
  rq.overheadNs = d.writeCmdNs + d.reselectNs + d.writeCompleteNs;
  drive.queue.push(rq.slot);
  schedulePick(sim, rq.eligibleNs);
}

/** The host has taken the completion: the tag is free again. */
export function driveRelease(sim: Simulation): void {
  sim.state.drive.tagsInUse--;
}

function fitsWriteBuffer(sim: Simulation, rq: IoRequest): boolean {
  const size = sim.model.disk.params.cache.writeBufferSectors;
  return sim.state.drive.writeBufferUsed + rq.nSectors <= size;
}

/** Write-back: take the data into the buffer, report completion, destage later. */
function bufferWrite(sim: Simulation, rq: IoRequest, now: number): void {
  const d = sim.model.disk;
  const drive = sim.state.drive;
  // All of the data in the buffer: the host hears "done", the drive destages later.
  const dataReady = Math.max(rq.dataReadyNs + rq.busNs - d.busWriteNsPerSector, now + d.dataPrepNs + rq.busNs);
  drive.writeBufferUsed += rq.nSectors;
  rq.cacheHit = true;
  rq.overheadNs = d.writeCmdNs + d.writeCompleteNs;
  pushEvent(sim.state.heap, dataReady + d.writeCompleteNs, EventPriority.Complete, EventKind.DriveComplete, 0, rq.slot);
  const st = sim.state;
  const destage = allocRequest(st.requests, st.nextRqId++, rq.proc, rq.pid, true, false, rq.sector, rq.nSectors, now, true);
  destage.dispatchedNs = now;
  destage.eligibleNs = dataReady;
  destage.dataReadyNs = dataReady;
  drive.queue.push(destage.slot);
  schedulePick(sim, dataReady);
}

function admitBufferWaiters(sim: Simulation, now: number): void {
  const drive = sim.state.drive;
  while (drive.bufferWaiters.length > 0) {
    const rq = requestAt(sim.state.requests, drive.bufferWaiters[0]!);
    if (!fitsWriteBuffer(sim, rq)) break;
    drive.bufferWaiters.shift();
    bufferWrite(sim, rq, now);
  }
}

/** Ask the idle mechanism to look for work at time t (after same-instant arrivals). */
function schedulePick(sim: Simulation, t: number): void {
  const drive = sim.state.drive;
  if (drive.mechBusy) return; // it picks when it becomes free
  if (drive.pickAt >= 0 && drive.pickAt <= t) return;
  drive.pickAt = t;
  pushEvent(sim.state.heap, t, EventPriority.Pick, EventKind.DrivePick);
}

export function onDrivePick(sim: Simulation, now: number): void {
  if (sim.state.drive.pickAt === now) sim.state.drive.pickAt = -1;
  pickAndStart(sim, now);
}

const candidates: IoRequest[] = [];
const candidateSlots: number[] = [];
const pickOut: DiskPick = { index: 0, rule: 'only-candidate', estimatesNs: [] };

/** The mechanism is free at `now`: choose the next command and start it. */
function pickAndStart(sim: Simulation, now: number): void {
  const st = sim.state;
  const drive = st.drive;
  if (drive.mechBusy) return;
  if (drive.prefetch && drive.prefetch.holdUntilNs > now) {
    schedulePick(sim, drive.prefetch.holdUntilNs);
    return;
  }
  // Host commands first; destages join when nothing else is ready or the buffer is full.
  const includeDestage = drive.bufferWaiters.length > 0;
  let n = 0;
  let nextEligible = Infinity;
  for (let pass = 0; pass < 2 && n === 0; pass++) {
    for (let i = 0; i < drive.queue.length; i++) {
      const rq = requestAt(st.requests, drive.queue[i]!);
      if (rq.eligibleNs > now) {
        if (rq.eligibleNs < nextEligible) nextEligible = rq.eligibleNs;
        continue;
      }
      if (pass === 0 && rq.internal && !includeDestage) continue;
      candidates[n] = rq;
      candidateSlots[n] = i;
      n++;
    }
  }
  if (n === 0) {
    if (nextEligible < Infinity) schedulePick(sim, nextEligible);
    return;
  }
  const m = sim.model;
  const pick = pickNext(m.disk, m.diskScheduler, candidates, n, drive.arm, drive.writeSegment.hi, now, m.agingWeight, pickOut, sim.sink !== null);
  if (m.diskScheduler === 'sptf' || m.diskScheduler === 'asptf') drive.positioningEstimates += n;
  const chosen = candidates[pick.index]!;
  if (sim.sink) {
    sim.sink.decision({
      tNs: now,
      layer: 'disk',
      rule: pick.rule,
      chosen: chosen.id,
      candidates: candidates.slice(0, n).map((c, i) => ({ rq: c.id, estimateNs: pick.estimatesNs[i] ?? null })),
    });
  }
  removeAt(drive.queue, candidateSlots[pick.index]!);
  startService(sim, chosen, now);
}

/** Remove one entry keeping the order (splice would allocate the removed part). */
function removeAt(a: number[], i: number): void {
  for (let j = i + 1; j < a.length; j++) a[j - 1] = a[j]!;
  a.pop();
}

const pos: Positioning = { seekNs: 0, rotationNs: 0 };
const xfer: TransferEnd = { endNs: 0, cylinder: 0, head: 0, sectors: 0, armBusyUntilNs: 0 };
const mark: TransferEnd = { endNs: 0, cylinder: 0, head: 0, sectors: 0, armBusyUntilNs: 0 };
const writeData: WriteData = { firstNs: 0, perSectorNs: 0 };

/** A write that does not append to the previous write waits DiskSim's minimum seek delay. */
export function minSeekNs(d: CompiledDisk, rq: IoRequest, lastWriteEnd: number): number {
  return rq.write && rq.sector !== lastWriteEnd ? d.minWriteSeekNs : 0;
}

function startService(sim: Simulation, rq: IoRequest, now: number): void {
  const st = sim.state;
  const drive = st.drive;
  const d = sim.model.disk;
  let start = now;
  if (drive.prefetch) start = Math.max(now, stopPrefetch(sim, now));
  const arm = drive.arm;
  const fromCyl = arm.cylinder;
  rq.startNs = start;
  const minSeek = minSeekNs(d, rq, drive.writeSegment.hi);
  positionTo(d, start, arm.cylinder, arm.head, rq.sector, rq.write, rq.write ? rq.dataReadyNs : 0, minSeek, pos);
  const mediaStart = start + pos.seekNs + pos.rotationNs;
  let data: WriteData | null = null;
  if (rq.write && !rq.internal) {
    writeData.firstNs = rq.dataReadyNs;
    writeData.perSectorNs = d.busWriteNsPerSector;
    data = writeData;
  }
  mediaTransfer(d, rq.sector, rq.nSectors, mediaStart, rq.write, xfer, Infinity, data);
  rq.seekNs = pos.seekNs;
  rq.rotationNs = pos.rotationNs;
  rq.transferNs = xfer.endNs - mediaStart;
  rq.media = true;
  arm.cylinder = xfer.cylinder;
  arm.head = xfer.head;
  arm.nextLbn = rq.sector + rq.nSectors;
  drive.mechBusy = true;

  let freeAt = xfer.endNs;
  if (!rq.write) {
    // The drive reconnects to send data once the watermark's worth is buffered, then
    // the bus runs alongside the media, paced by the slower of the two.
    const watermark = Math.max(1, Math.floor(Math.min(d.params.cache.segmentSectors || rq.nSectors, rq.nSectors) * d.params.bus.readWatermark));
    const markNs = watermark >= rq.nSectors ? xfer.endNs : mediaTransfer(d, rq.sector, watermark, mediaStart, false, mark).endNs;
    const busStart = markNs + d.reselectNs + d.dataPrepNs;
    const bus = rq.nSectors * d.busReadNsPerSector;
    const busEnd = Math.max(busStart + bus, xfer.endNs + d.busReadNsPerSector);
    rq.busNs = bus;
    rq.overheadNs += busEnd - xfer.endNs;
    const complete = busEnd + d.readCompleteNs;
    // With read-ahead the mechanism streams on and cannot be stopped before the host
    // has the completion (DiskSim preseeking level 0); without it, it is free at once.
    if (drive.segments.length > 0 && d.params.cache.readAheadSectors > 0) freeAt = complete;
    pushEvent(st.heap, complete, EventPriority.Complete, EventKind.DriveComplete, 0, rq.slot);
  } else if (!rq.internal) {
    const c = xfer.endNs + d.reselectNs + d.writeCompleteNs;
    pushEvent(st.heap, c, EventPriority.Complete, EventKind.DriveComplete, 0, rq.slot);
  }
  pushEvent(st.heap, freeAt, EventPriority.MechanismFree, EventKind.MechanismFree, 0, rq.slot);
  if (sim.sink) {
    sim.sink.service({
      rq: rq.id,
      startNs: start,
      seekEndNs: start + pos.seekNs,
      mediaStartNs: mediaStart,
      mediaEndNs: xfer.endNs,
      freeNs: freeAt,
      fromCylinder: fromCyl,
      toCylinder: xfer.cylinder,
      head: xfer.head,
    });
  }
}

export function onMechanismFree(sim: Simulation, slot: number, now: number): void {
  const st = sim.state;
  const drive = st.drive;
  const rq = requestAt(st.requests, slot);
  drive.mechBusy = false;
  noteServiced(sim, rq);
  if (rq.write) noteWritten(sim, rq);
  if (rq.internal) {
    drive.writeBufferUsed -= rq.nSectors;
    freeRequest(st.requests, rq);
    admitBufferWaiters(sim, now);
  } else if (!rq.write && drive.segments.length > 0) {
    startReadAhead(sim, rq);
  }
  pickAndStart(sim, now);
}

// ── read cache ────────────────────────────────────────────────────────────

/** The write segment keeps the latest written LBNs (a sequential write extends it). */
function noteWritten(sim: Simulation, rq: IoRequest): void {
  const d = sim.model.disk;
  if (!d.params.cache.separateWriteSegment || d.params.cache.segments === 0) return;
  const ws = sim.state.drive.writeSegment;
  const end = rq.sector + rq.nSectors;
  if (rq.sector === ws.hi && ws.hi > ws.lo) ws.hi = end;
  else {
    ws.lo = rq.sector;
    ws.hi = end;
  }
  if (ws.hi - ws.lo > d.params.cache.segmentSectors) ws.lo = ws.hi - d.params.cache.segmentSectors;
}

/** After a read miss: its data fills a segment and read-ahead runs on. */
function startReadAhead(sim: Simulation, rq: IoRequest): void {
  const drive = sim.state.drive;
  const p = sim.model.disk.params;
  let lru = 0;
  for (let i = 1; i < drive.segments.length; i++) {
    if (drive.segments[i]!.lastUse < drive.segments[lru]!.lastUse) lru = i;
  }
  const seg = drive.segments[lru]!;
  const end = rq.sector + rq.nSectors;
  seg.lo = rq.sector;
  seg.hi = end;
  seg.lastUse = ++drive.useClock;
  const limit = Math.min(end + p.cache.readAheadSectors, sim.model.disk.geometry.totalLbns);
  if (limit > end) {
    drive.prefetch = {
      segment: lru,
      baseLbn: rq.sector,
      baseStartNs: rq.startNs + rq.seekNs + rq.rotationNs,
      limitLbn: limit,
      holdUntilNs: 0,
    };
  }
}

const progress: TransferEnd = { endNs: 0, cylinder: 0, head: 0, sectors: 0, armBusyUntilNs: 0 };

/** How far the read-ahead has got by time t (fills `progress`). */
function prefetchProgress(sim: Simulation, pf: Prefetch, t: number): TransferEnd {
  return mediaTransfer(sim.model.disk, pf.baseLbn, pf.limitLbn - pf.baseLbn, pf.baseStartNs, false, progress, t);
}

/**
 * The mechanism is needed elsewhere: keep what was read, note where the arm is.
 * Returns when the arm is free (a track switch under way completes first).
 */
function stopPrefetch(sim: Simulation, t: number): number {
  const drive = sim.state.drive;
  const pf = drive.prefetch!;
  const got = prefetchProgress(sim, pf, t);
  const seg = drive.segments[pf.segment]!;
  seg.hi = Math.max(seg.hi, pf.baseLbn + got.sectors);
  if (seg.hi - seg.lo > sim.model.disk.params.cache.segmentSectors) {
    seg.lo = seg.hi - sim.model.disk.params.cache.segmentSectors;
  }
  drive.arm.cylinder = got.cylinder;
  drive.arm.head = got.head;
  drive.arm.nextLbn = seg.hi;
  drive.prefetch = null;
  return got.armBusyUntilNs;
}

/**
 * A read served from the buffer: a whole hit (its first and last sectors are there, or
 * in the write segment), or a partial hit on the segment being read ahead, which sends
 * what is there at once and the rest as the stream brings it. True if served so.
 * DiskSim counts a read as a hit only if its first sector is already buffered.
 */
function tryCacheRead(sim: Simulation, rq: IoRequest, now: number): boolean {
  const drive = sim.state.drive;
  const d = sim.model.disk;
  const cache = d.params.cache;
  const lo = rq.sector;
  const hi = rq.sector + rq.nSectors;
  let dataAt = -1;
  let segment = -1;
  const pf = drive.prefetch;
  for (let i = 0; i < drive.segments.length && dataAt < 0; i++) {
    const seg = drive.segments[i]!;
    if (pf && pf.segment === i) {
      const got = Math.max(seg.hi, pf.baseLbn + prefetchProgress(sim, pf, now).sectors);
      if (lo < seg.lo || lo >= got) continue;
      segment = i;
      if (hi <= got) dataAt = now;
      else {
        if (hi > pf.limitLbn) pf.limitLbn = Math.min(hi, d.geometry.totalLbns);
        dataAt = mediaTransfer(d, pf.baseLbn, hi - pf.baseLbn, pf.baseStartNs, false, progress).endNs;
      }
    } else if (lo >= seg.lo && hi <= seg.hi) {
      segment = i;
      dataAt = now;
    }
  }
  const ws = drive.writeSegment;
  if (dataAt < 0 && cache.separateWriteSegment && lo >= ws.lo && hi <= ws.hi) dataAt = now;
  if (dataAt < 0) return false;

  const bus = rq.nSectors * d.busReadNsPerSector;
  const cmdDone = now + d.readHitNs + d.dataPrepNs;
  const busEnd = Math.max(cmdDone + bus, dataAt + d.busReadNsPerSector);
  const complete = busEnd + d.readCompleteNs;
  rq.cacheHit = true;
  rq.eligibleNs = cmdDone;
  rq.busNs = bus;
  rq.overheadNs = d.readHitNs + d.dataPrepNs + d.readCompleteNs + (busEnd - cmdDone - bus);
  pushEvent(sim.state.heap, complete, EventPriority.Complete, EventKind.DriveComplete, 0, rq.slot);
  if (segment >= 0) {
    drive.segments[segment]!.lastUse = ++drive.useClock;
    keepReadingAhead(sim, segment, hi, now, complete);
  }
  return true;
}

/**
 * A hit keeps the read-ahead going to `hi` + the read-ahead size: the running stream is
 * extended (and holds the mechanism until this read completes), or an idle drive
 * restarts it ("Read-ahead on idle hit").
 */
function keepReadingAhead(sim: Simulation, segment: number, hi: number, now: number, complete: number): void {
  const drive = sim.state.drive;
  const d = sim.model.disk;
  const want = Math.min(hi + d.params.cache.readAheadSectors, d.geometry.totalLbns);
  const pf = drive.prefetch;
  if (pf && pf.segment === segment) {
    pf.limitLbn = Math.max(pf.limitLbn, want);
    pf.holdUntilNs = Math.max(pf.holdUntilNs, complete);
    return;
  }
  const seg = drive.segments[segment]!;
  if (drive.mechBusy || pf || drive.queue.length > 0 || seg.hi >= want) return;
  // Restart from the segment's end once the command is processed, from where the arm is.
  const startAt = now + d.readMissNs;
  positionTo(d, startAt, drive.arm.cylinder, drive.arm.head, seg.hi, false, 0, 0, pos);
  drive.prefetch = {
    segment,
    baseLbn: seg.hi,
    baseStartNs: startAt + pos.seekNs + pos.rotationNs,
    limitLbn: want,
    holdUntilNs: complete,
  };
}

/** A write into the segment being read ahead stops the read-ahead where it is. */
function writeStopsReadAhead(sim: Simulation, rq: IoRequest, now: number): void {
  const pf = sim.state.drive.prefetch;
  if (!pf) return;
  const seg = sim.state.drive.segments[pf.segment]!;
  // A read still streaming from the segment keeps the stream to its end.
  if (pf.holdUntilNs > now) return;
  if (rq.sector < pf.limitLbn && rq.sector + rq.nSectors > seg.lo) {
    pf.limitLbn = pf.baseLbn + prefetchProgress(sim, pf, now).sectors;
  }
}

// ── SSD ───────────────────────────────────────────────────────────────────

function ssdSubmit(sim: Simulation, rq: IoRequest, now: number): void {
  const d = sim.model.disk;
  const ssd = d.params.ssd!;
  const drive = sim.state.drive;
  const cmd = rq.write ? d.writeCmdNs : d.readMissNs;
  let ch = 0;
  for (let i = 1; i < drive.ssdChannelFreeNs.length; i++) {
    if (drive.ssdChannelFreeNs[i]! < drive.ssdChannelFreeNs[ch]!) ch = i;
  }
  const start = Math.max(now + cmd, drive.ssdChannelFreeNs[ch]!);
  const latency = (rq.write ? ssd.writeLatencyMs : ssd.readLatencyMs) * 1e6;
  const mbps = rq.write ? ssd.writeMBps : ssd.readMBps;
  const transfer = latency + (rq.nSectors * 512 * 1e3) / mbps; // bytes / (MB/s) → ns
  drive.ssdChannelFreeNs[ch] = start + transfer;
  rq.eligibleNs = now + cmd;
  rq.startNs = start;
  rq.transferNs = transfer;
  rq.media = true;
  rq.overheadNs = cmd + (rq.write ? d.writeCompleteNs : d.readCompleteNs);
  const done = start + transfer + (rq.write ? d.writeCompleteNs : d.readCompleteNs);
  pushEvent(sim.state.heap, done, EventPriority.Complete, EventKind.DriveComplete, 0, rq.slot);
  noteServiced(sim, rq);
}
