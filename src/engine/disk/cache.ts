// The drive's buffer: read segments with read-ahead (DiskSim "buffer continuous read"),
// the separate write segment, and what counts as a hit (DISK-MODEL.md §1.5).
// Read-ahead is the read's own media transfer running on, so its progress at any time is
// computed from where that transfer started — nothing is simulated sector by sector.
import type { IoRequest } from '../request';
import { pushEvent } from '../sim/heap';
import { EventKind, EventPriority } from '../sim/events';
import { doubleFields } from '../sim/doubles';
import type { DiskSimulation } from './sim-view';
import type { DriveState, Prefetch } from './drive-state';
import { commandOverheadNs } from './overheads';
import { lbnBounds, lbnToPhys, zoneOfLbn, type Geometry } from './geometry';
import {
  addressOf,
  mediaTransfer,
  newTransferEnd,
  positionTo,
  transferOnTrack,
  type Positioning,
  type TransferEnd,
} from './mechanics';

/** A read-cache segment holding the contiguous LBNs [lo, hi). */
export type { CacheSegment, Prefetch } from './drive-state';

const pos: Positioning = { seekNs: 0, rotationNs: 0 };

/** The write segment keeps the latest written LBNs (a sequential write extends it). */
export function noteWritten(sim: DiskSimulation, rq: IoRequest): void {
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
export function startReadAhead(sim: DiskSimulation, rq: IoRequest): void {
  const drive = sim.state.drive;
  let lru = 0;
  for (let i = 1; i < drive.segments.length; i++) {
    if (drive.segments[i]!.lastUse < drive.segments[lru]!.lastUse) lru = i;
  }
  const seg = drive.segments[lru]!;
  const end = rq.sector + rq.nSectors;
  seg.lo = rq.sector;
  seg.hi = end;
  seg.lastUse = ++drive.useClock;
  const limit = readAheadLimit(sim, seg.lo, end, sim.model.disk.readAheadSectors);
  if (limit > end) {
    const pf = beginPrefetch(
      drive,
      lru,
      rq.sector,
      rq.startNs + rq.seekNs + rq.rotationNs,
      limit,
      0,
    );
    addressOf(rq, pf.base);
  }
}

/**
 * Where read-ahead after data ending at `end` (its segment starting at `segLo`) stops:
 * `count` sectors on, or sooner where the drive's "Buffer continuous read" says
 * (disksim_diskcache.c disk_buffer_get_max_readahead; track and cylinder ends, where the
 * background read would need a switch, disksim_diskctlr.c). DEC's scheme ("next-track")
 * is not held to the count: disk_buffer_get_max_readahead returns before applying it, and
 * a read-ahead longer than the segment keeps only its last blocks (the segment wraps).
 */
export function readAheadLimit(
  sim: DiskSimulation,
  segLo: number,
  end: number,
  count: number,
): number {
  const d = sim.model.disk;
  const limit = Math.min(end + count, d.geometry.totalLbns);
  if (d.readAheadStop === 'segment' || end <= 0 || end >= d.geometry.totalLbns) return limit;
  // rare: apart, so that this stays small enough for V8 to inline after a read miss
  return readAheadStopEarly(d.geometry, d.readAheadStop, segLo, end, limit);
}

/** readAheadLimit's schemes that stop at a track or cylinder end (`limit`: at the count). */
function readAheadStopEarly(
  g: Geometry,
  stop: 'track' | 'cylinder' | 'next-track',
  segLo: number,
  end: number,
  limit: number,
): number {
  if (stop === 'next-track') {
    const [first, last] = lbnBounds(g, end);
    // a segment that began on an earlier track is a stream: a track's worth further
    const more = segLo < first ? zoneOfLbn(g, segLo).sectorsPerTrack : 0;
    return Math.min(last + 1 + more, g.totalLbns);
  }
  return Math.min(limit, lbnBounds(g, end - 1, stop === 'cylinder')[1] + 1);
}

/**
 * Start read-ahead, reusing the drive's record (a read miss must not allocate). The caller
 * fills in the record's `base` (the address of baseLbn).
 */
function beginPrefetch(
  drive: DriveState,
  segment: number,
  baseLbn: number,
  baseStartNs: number,
  limitLbn: number,
  holdUntilNs: number,
): Prefetch {
  const pf =
    drive.prefetchSpare ??
    doubleFields(
      {
        segment: 0,
        baseLbn: 0,
        base: { zone: 0, cylinder: 0, head: 0, sector: 0 },
        baseStartNs: 0,
        limitLbn: 0,
        holdUntilNs: 0,
      },
      'baseStartNs',
      'holdUntilNs',
    );
  drive.prefetchSpare = null;
  pf.segment = segment;
  pf.baseLbn = baseLbn;
  pf.baseStartNs = baseStartNs;
  pf.limitLbn = limitLbn;
  pf.holdUntilNs = holdUntilNs;
  drive.prefetch = pf;
  return pf;
}

const progress = newTransferEnd();

/** How far the read-ahead has got by time t (fills `progress`). */
function prefetchProgress(sim: DiskSimulation, pf: Prefetch, t: number): TransferEnd {
  const d = sim.model.disk;
  const n = pf.limitLbn - pf.baseLbn;
  if (transferOnTrack(d, pf.base, pf.baseLbn, n, pf.baseStartNs, progress, t, 0)) return progress;
  return mediaTransfer(d, pf.baseLbn, n, pf.baseStartNs, false, progress, t, null, 0, pf.base);
}

/** When the arm's angle was last known: the end of the last whole sector read ahead by
 * `now` (DiskSim records the angle as each sector is done, not between), else the end of
 * the last transfer. */
export function armKnownNs(sim: DiskSimulation, now: number): number {
  const pf = sim.state.drive.prefetch;
  return pf !== null ? prefetchProgress(sim, pf, now).knownNs : sim.state.drive.armKnownNs;
}

/**
 * The mechanism is needed elsewhere: keep what was read, note where the arm is.
 * Returns the read-ahead's end (a scratch object: read it at once), whose armBusyUntilNs is
 * when the arm is free (a track switch under way completes first). An object, not that
 * number: a number returned from a call V8 does not inline is a new HeapNumber each time.
 */
export function stopPrefetch(sim: DiskSimulation, t: number): TransferEnd {
  const drive = sim.state.drive;
  const pf = drive.prefetch!;
  const got = prefetchProgress(sim, pf, t);
  const seg = drive.segments[pf.segment]!;
  seg.hi = Math.max(seg.hi, pf.baseLbn + got.sectors);
  const segmentSectors = sim.model.disk.segmentSectors;
  if (seg.hi - seg.lo > segmentSectors) seg.lo = seg.hi - segmentSectors;
  drive.arm.cylinder = got.cylinder;
  drive.arm.head = got.head;
  drive.arm.nextLbn = seg.hi;
  drive.armKnownNs = got.knownNs;
  drive.prefetchSpare = pf;
  drive.prefetch = null;
  return got;
}

/** The read-ahead has reached its limit by `now`: DiskSim releases the mechanism there
 * and the segment is clean (disksim_diskctlr.c disk_check_hda, disk_initiate_seek). */
export function prefetchFinished(sim: DiskSimulation, pf: Prefetch, now: number): boolean {
  if (pf.holdUntilNs > now) return false;
  // Cheap test first: a stream of n sectors cannot have ended before n − 1 sector times
  // (the margin is far above the sums' rounding), and the next read mostly comes sooner.
  const n = pf.limitLbn - pf.baseLbn;
  if (n > 1 && now < pf.baseStartNs + (n - 1) * sim.model.disk.minSectorNs * (1 - 1e-6))
    return false;
  return pf.baseLbn + prefetchProgress(sim, pf, now).sectors >= pf.limitLbn;
}

/**
 * A read served from the buffer: a whole hit (its first and last sectors are there, or
 * in the write segment), or a partial hit — its first sector buffered, the rest not yet —
 * which sends what is there at once and the rest as the media brings it: on the segment
 * being read ahead, as the stream reaches it; on a clean segment, by reading on from the
 * segment's end (partialHitReadOn). True if served so. DiskSim counts a read as a hit only
 * if its first sector is already buffered.
 */
export function tryCacheRead(sim: DiskSimulation, rq: IoRequest, now: number): boolean {
  const drive = sim.state.drive;
  const d = sim.model.disk;
  const lo = rq.sector;
  const hi = rq.sector + rq.nSectors;
  // A read-ahead that has run to its end no longer streams: what it read is a clean
  // segment, and a read wanting more must move the mechanism again. (`!== null`, not a
  // truth test: V8 tests an object's truth against every falsy kind of value)
  if (drive.prefetch !== null && prefetchFinished(sim, drive.prefetch, now)) stopPrefetch(sim, now);
  let dataAt = -1;
  let segment = -1;
  let partial = -1;
  let firstMissing = -1; // a partial hit: its first sector not yet buffered
  const pf = drive.prefetch;
  for (let i = 0; i < drive.segments.length && dataAt < 0; i++) {
    const seg = drive.segments[i]!;
    if (pf !== null && pf.segment === i) {
      // Cheap test first: most reads are nowhere near the stream.
      if (lo < seg.lo || lo >= pf.limitLbn) continue;
      const got = Math.max(seg.hi, pf.baseLbn + prefetchProgress(sim, pf, now).sectors);
      // the segment holds the last segmentSectors read (disk_buffer_segment_wrap)
      if (lo >= got || lo < got - d.segmentSectors) continue;
      segment = i;
      if (hi <= got) dataAt = now;
      else {
        if (hi > pf.limitLbn) pf.limitLbn = Math.min(hi, d.geometry.totalLbns);
        dataAt = streamedBy(sim, pf, hi);
        firstMissing = got;
      }
    } else if (lo >= seg.lo && hi <= seg.hi) {
      segment = i;
      dataAt = now;
    } else if (lo >= seg.lo && lo < seg.hi && partial < 0) {
      partial = i; // a whole hit elsewhere is better (disk_buffer_select_read_segment)
    }
  }
  const ws = drive.writeSegment;
  // `=== true`, not a truth test: once a second simulation is built, V8 knows the field
  // only as some value, and tests its truth against every falsy kind (on every miss)
  if (dataAt < 0 && d.separateWriteSegment === true && lo >= ws.lo && hi <= ws.hi) dataAt = now;
  if (dataAt < 0 && partial >= 0) {
    dataAt = partialHitReadOn(sim, partial, hi, now);
    if (dataAt >= 0) {
      segment = partial;
      firstMissing = drive.segments[partial]!.hi;
    }
  }
  if (dataAt < 0) return false;

  const bus = rq.nSectors * d.busReadNsPerSector;
  const hitNs = commandOverheadNs(sim, 'read-hit');
  const cmdDone = now + hitNs + d.dataPrepNs;
  let busEnd = Math.max(cmdDone + bus, dataAt + d.busReadNsPerSector);
  if (firstMissing >= 0) {
    // The drive reconnects once the first missing sector is buffered and sends the rest at
    // the bus's pace: a bus slower than the media binds from there (DiskSim's
    // disk_reconnection_or_transfer_complete after the disconnect)
    const firstAt = streamedBy(sim, drive.prefetch!, firstMissing + 1);
    busEnd = Math.max(busEnd, firstAt + (hi - firstMissing) * d.busReadNsPerSector);
  }
  const complete = busEnd + d.readCompleteNs;
  rq.cacheHit = true;
  rq.eligibleNs = cmdDone;
  rq.busNs = bus;
  rq.overheadNs = hitNs + d.dataPrepNs + d.readCompleteNs + (busEnd - cmdDone - bus);
  pushEvent(sim.state.heap, complete, EventPriority.Complete, EventKind.DriveComplete, 0, rq.slot);
  if (segment >= 0) {
    drive.segments[segment]!.lastUse = ++drive.useClock;
    keepReadingAhead(sim, segment, hi, now, complete);
  }
  return true;
}

/** When the stream has buffered every sector before `end`. */
function streamedBy(sim: DiskSimulation, pf: Prefetch, end: number): number {
  const d = sim.model.disk;
  const n = end - pf.baseLbn;
  if (transferOnTrack(d, pf.base, pf.baseLbn, n, pf.baseStartNs, progress, Infinity, 0))
    return progress.endNs;
  return mediaTransfer(
    d,
    pf.baseLbn,
    n,
    pf.baseStartNs,
    false,
    progress,
    Infinity,
    null,
    0,
    pf.base,
  ).endNs;
}

/**
 * A partial hit on a clean segment (DiskSim's BUFFER_PARTIAL): the mechanism, once the
 * command is processed ("Read miss over.", disk_read_arrive's overhead_done), goes from
 * where the arm is to the segment's end and reads on from there (disk_check_hda_pending:
 * the access starts at seg->endblkno), to the read's last sector and its read-ahead
 * beyond. Returns when the read's last sector is buffered, or −1 when the mechanism is
 * not free for it (busy, commands waiting, or a read-ahead that cannot be stopped yet) —
 * then the read is served as a miss.
 */
function partialHitReadOn(sim: DiskSimulation, segment: number, hi: number, now: number): number {
  const drive = sim.state.drive;
  const d = sim.model.disk;
  if (drive.mechBusy || drive.queue.length > 0) return -1;
  if (drive.prefetch !== null && drive.prefetch.holdUntilNs > now) return -1;
  const armFree = drive.prefetch !== null ? stopPrefetch(sim, now).armBusyUntilNs : now;
  const seg = drive.segments[segment]!;
  const startAt = Math.max(now + commandOverheadNs(sim, 'read-miss'), armFree);
  positionTo(d, startAt, drive.arm.cylinder, drive.arm.head, seg.hi, false, 0, 0, pos);
  const limit = Math.max(hi, readAheadLimit(sim, seg.lo, hi, d.readAheadSectors));
  // held until the read completes; keepReadingAhead raises the hold to its completion
  const pf = beginPrefetch(
    drive,
    segment,
    seg.hi,
    startAt + pos.seekNs + pos.rotationNs,
    limit,
    now,
  );
  lbnToPhys(d.geometry, seg.hi, pf.base);
  return streamedBy(sim, pf, hi);
}

/**
 * A hit keeps the read-ahead going to `hi` + the read-ahead size: the running stream is
 * extended (and holds the mechanism until this read completes), or an idle drive
 * restarts it ("Read-ahead on idle hit").
 */
function keepReadingAhead(
  sim: DiskSimulation,
  segment: number,
  hi: number,
  now: number,
  complete: number,
): void {
  const drive = sim.state.drive;
  const d = sim.model.disk;
  const want = readAheadLimit(sim, drive.segments[segment]!.lo, hi, d.readAheadSectors);
  const pf = drive.prefetch;
  if (pf !== null && pf.segment === segment) {
    pf.limitLbn = Math.max(pf.limitLbn, want);
    pf.holdUntilNs = Math.max(pf.holdUntilNs, complete);
    return;
  }
  const seg = drive.segments[segment]!;
  if (drive.mechBusy || pf !== null || drive.queue.length > 0 || seg.hi >= want) return;
  // Restart from the segment's end once the command is processed, from where the arm is.
  const startAt = now + commandOverheadNs(sim, 'read-miss');
  positionTo(d, startAt, drive.arm.cylinder, drive.arm.head, seg.hi, false, 0, 0, pos);
  const restarted = beginPrefetch(
    drive,
    segment,
    seg.hi,
    startAt + pos.seekNs + pos.rotationNs,
    want,
    complete,
  );
  lbnToPhys(d.geometry, seg.hi, restarted.base);
}

/** A write into the segment being read ahead stops the read-ahead where it is. */
export function writeStopsReadAhead(sim: DiskSimulation, rq: IoRequest, now: number): void {
  const pf = sim.state.drive.prefetch;
  if (!pf) return;
  const seg = sim.state.drive.segments[pf.segment]!;
  // A read still streaming from the segment keeps the stream to its end.
  if (pf.holdUntilNs > now) return;
  if (rq.sector < pf.limitLbn && rq.sector + rq.nSectors > seg.lo) {
    pf.limitLbn = pf.baseLbn + prefetchProgress(sim, pf, now).sectors;
  }
}
