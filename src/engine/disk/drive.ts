// The drive: its tagged command queue, controller overheads, read cache with
// read-ahead, write-back buffer, and the mechanism that serves one command at a time.
// The host sees only submit (D) and completion (C). DISK-MODEL.md §1.2, §1.5, §1.6.
import type { IoRequest } from '../request';
import { requestAt } from '../request';
import { pushEvent } from '../sim/heap';
import { EventKind, EventPriority } from '../sim/events';
import type { DiskSimulation } from './sim-view';
import {
  addressOf,
  mediaTransfer,
  newTransferEnd,
  locate,
  positionFor,
  type Positioning,
  type WriteData,
} from './mechanics';
import type { PhysAddr } from './geometry';
import { noteWritten, startReadAhead, stopPrefetch, tryCacheRead } from './cache';
import { reportDiskDecision } from './drive-report';
import type { DiskPick } from './disk-scheduler';
import { drivePickNext } from './drive-pick-next';
import { sptfChoice, sptfFirstPass, usedPositioning, type SptfChoice } from './sptf-queue';
import { noteDestaged, noteServiced } from '../metrics/collector';
import { releaseToUsed } from './range';
import { pickWithRanges } from './range-pick';
import { dequeue, dequeueSlot } from './queue-index';
import { destageDone } from './write-back';
import { readMissOverheadNs } from './overheads';
import { driverEnqueue, driverSend } from './driver-queue';
import { doubleFields } from '../sim/doubles';
import { acceptCommandRare } from './accept-command-rare';
import { schedulePick } from './schedule-pick';
import { transferWholeOnTrack } from './transfer-whole';

export { createDriveState, type DriveState } from './drive-state';
import { streamingWriteLbn } from './drive-state';

export function driveHasFreeTag(sim: DiskSimulation): boolean {
  return sim.state.drive.tagsInUse < sim.model.queueDepth;
}

/**
 * The host hands a command to the drive (blktrace D). False: the drive refused it with
 * QUEUE FULL (a write-back drive whose buffer has no room) and the host must requeue it.
 */
export function driveSubmit(sim: DiskSimulation, rq: IoRequest, now: number): boolean {
  if (sim.model.disk.driverQueueing && rq.serviceNs < 0) {
    driverEnqueue(sim, rq, now, acceptCommand);
    return true;
  }
  return acceptCommand(sim, rq, now, true);
}

/**
 * The drive takes a command: from the host (counting a tag), or from the host driver's
 * queue (queueing 'driver', tag counted when the driver took it). False: QUEUE FULL.
 */
export function acceptCommand(
  sim: DiskSimulation,
  rq: IoRequest,
  now: number,
  tag: boolean,
): boolean {
  const d = sim.model.disk;
  // rare: flushes, writes, trace-timed service and SSD or fitted devices are taken apart
  // (accept-command-rare.ts), so that the read path's inlining budget goes to locating the
  // read and scheduling its pick (V8 inlines those here, not the rare paths' calls)
  if (rq.flushOp || rq.write || rq.serviceNs >= 0 || d.notMechanical)
    return acceptCommandRare(sim, rq, now, tag);
  const drive = sim.state.drive;
  if (tag) {
    drive.tagsInUse++;
    rq.dispatchedNs = now;
  }
  if (tryCacheRead(sim, rq, now)) return true;
  const cmd = readMissOverheadNs(sim);
  rq.eligibleNs = now + cmd;
  rq.overheadNs = cmd + d.readCompleteNs;
  locate(d, rq);
  drive.queue.push(rq.slot);
  schedulePick(sim, rq.eligibleNs);
  return true;
}

/** The host has taken the completion: the tag is free again. */
export function driveRelease(sim: DiskSimulation, rq: IoRequest, now: number): void {
  const drive = sim.state.drive;
  drive.tagsInUse--;
  drive.lastCompletedWrite = rq.write;
  if (drive.awaitingCompletion) {
    // queueing 'driver': the driver sends its next command as this one completes — before
    // the host hears of it, so a closed loop's replacement is not yet there (DiskSim; at
    // depth 2 SPTF has a single choice, DISK-MODEL.md §6 row 15)
    drive.awaitingCompletion = false;
    driverSend(sim, now, acceptCommand);
  }
}

/** The DrivePick event (handlers.ts registers this itself: one call fewer per pick). */
export function onDrivePick(sim: DiskSimulation, _a: number, _rq: number, now: number): void {
  if (sim.state.drive.pickAt === now) sim.state.drive.pickAt = -1;
  pickAndStart(sim, now);
}

const candidates: IoRequest[] = [];
const candidateSlots: number[] = [];
const pickOut: DiskPick = { index: 0, rule: 'only-candidate', estimatesNs: [] };

/** The mechanism is free at `now`: choose the next command and start it. */
function pickAndStart(sim: DiskSimulation, now: number): void {
  const drive = sim.state.drive;
  if (drive.mechBusy) return;
  // `!== null`, not a truth test: V8 tests an object's truth against every falsy kind
  if (drive.prefetch !== null && drive.prefetch.holdUntilNs > now) {
    schedulePick(sim, drive.prefetch.holdUntilNs);
    return;
  }
  if (drive.queue.length === 0) return; // nothing waits: the walks below would find nothing
  // split: this gate is small enough for V8 to inline where the mechanism frees with
  // nothing waiting (a QD1 read's completion); the choice itself is a call
  pickFromQueue(sim, now);
}

/** pickAndStart with commands waiting. */
function pickFromQueue(sim: DiskSimulation, now: number): void {
  const st = sim.state;
  const drive = st.drive;
  // Host commands first; destages join when nothing else is ready or the buffer is full.
  const includeDestage = drive.bufferFullSinceNs >= 0;
  const m = sim.model;
  const sptf = m.diskScheduler === 'sptf' || m.diskScheduler === 'asptf';
  // SPTF: gather and pick in one walk. Not called for another scheduler, so V8 does not
  // inline the walk there, and this path fits its inlining budget.
  const first = sptf ? sptfFirstPass(sim, now, includeDestage) : -1;
  if (first >= 0) {
    const chosen = requestAt(st.requests, first);
    dequeueSlot(drive, chosen);
    startService(sim, chosen, now, sptfChoice);
    return;
  }
  // One command waiting, eligible, nothing to estimate or record (FCFS at depth 1): the
  // passes below would choose it alone (`lone`); taken here without gathering candidates
  if (drive.queue.length === 1 && !sptf && drive.ranges === null && sim.sink === null) {
    const only = requestAt(st.requests, drive.queue[0]!);
    if (only.eligibleNs <= now) {
      drive.decisions++;
      dequeue(drive, 0, only);
      startService(sim, only, now, null);
      return;
    }
  }
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
  drive.decisions++;
  // A lone candidate with nothing to estimate or record is the choice (as pickNext says).
  // rare here: the rest is chooseCandidate's, kept out so V8 inlines this path
  const lone = n === 1 && drive.ranges === null && sim.sink === null && !sptf;
  const index = lone ? 0 : chooseCandidate(sim, n, now);
  const chosen = candidates[index]!;
  dequeue(drive, candidateSlots[index]!, chosen);
  startService(sim, chosen, now, null);
}

/** Which of the `n` candidates the drive serves next: the range writes' placement when any
 * wait, else the drive's scheduler (pickNext), counting its estimates and telling a sink. */
function chooseCandidate(sim: DiskSimulation, n: number, now: number): number {
  const drive = sim.state.drive;
  if (drive.ranges !== null && drive.ranges.waiting > 0)
    return pickWithRanges(sim, candidates, n, now);
  const m = sim.model;
  const estimates = m.diskScheduler === 'sptf' || m.diskScheduler === 'asptf';
  if (!(n > 1 || estimates || sim.sink)) return 0;
  const pick = drivePickNext(sim, candidates, n, now, pickOut, sim.sink !== null);
  if (estimates) drive.positioningEstimates += n;
  // rare: a sink's record (drive-report.ts), kept out of the common path's bytecode
  if (sim.sink !== null) reportDiskDecision(sim.sink, now, pick, candidates, n, drive.arm);
  return pick.index;
}

const pos: Positioning = doubleFields({ seekNs: 0, rotationNs: 0 }, 'seekNs', 'rotationNs');
const xfer = newTransferEnd();
const writeData: WriteData = { firstNs: 0, perSectorNs: 0 };
const firstSector: PhysAddr = { zone: 0, cylinder: 0, head: 0, sector: 0 };

/** Start `rq` on the mechanism; `known`: the SPTF walk that chose it, whose positioning is
 * used if it was worked out from the same instant and arm (sptf-queue.ts usedPositioning). */
function startService(
  sim: DiskSimulation,
  rq: IoRequest,
  now: number,
  known: SptfChoice | null,
): void {
  const st = sim.state;
  const drive = st.drive;
  const d = sim.model.disk;
  // The mechanism starts now, or when a read-ahead under way lets the arm go. -Infinity,
  // not now, when there is none: a merge of the number `now` and a computed one would be
  // boxed (a HeapNumber) on every start; this way `start` is one computed number.
  const armFree = drive.prefetch !== null ? stopPrefetch(sim, now).armBusyUntilNs : -Infinity;
  const start = Math.max(now, armFree);
  const arm = drive.arm;
  const fromCyl = arm.cylinder;
  rq.startNs = start;
  // only a write's positioning depends on it (minSeekNs); for a read the lookup is left
  // out, which keeps startService within V8's inlining budget for endOnTrack
  const lastWriteEnd = rq.write ? streamingWriteLbn(drive, start) : -1;
  if (known === null || !usedPositioning(known, rq, arm, start, lastWriteEnd, pos))
    positionFor(d, start, arm, rq, lastWriteEnd, pos);

  const mediaStart = start + pos.seekNs + pos.rotationNs;
  let data: WriteData | null = null;
  if (rq.write && !rq.internal) {
    writeData.firstNs = rq.dataReadyNs;
    writeData.perSectorNs = d.busWriteNsPerSector;
    data = writeData;
  }
  // A read reconnects to the bus once its watermark's worth is buffered (DiskSim).
  const watermark = rq.write
    ? 0
    : Math.max(
        1,
        Math.floor(Math.min(d.segmentSectors || rq.nSectors, rq.nSectors) * d.readWatermark),
      );
  const at = addressOf(rq, firstSector);
  if (
    data !== null ||
    !transferWholeOnTrack(d, at, rq.sector, rq.nSectors, mediaStart, xfer, watermark)
  )
    mediaTransfer(
      d,
      rq.sector,
      rq.nSectors,
      mediaStart,
      rq.write,
      xfer,
      Infinity,
      data,
      watermark,
      at,
    );
  rq.seekNs = pos.seekNs;
  rq.rotationNs = pos.rotationNs;
  rq.transferNs = xfer.endNs - mediaStart;
  drive.armKnownNs = xfer.endNs;
  drive.lastMediaWrite = rq.write;
  rq.media = true;
  arm.cylinder = xfer.cylinder;
  arm.head = xfer.head;
  arm.nextLbn = rq.sector + rq.nSectors;
  drive.mechBusy = true;

  let freeAt = xfer.endNs;
  let alsoComplete = 0;
  if (!rq.write) {
    // Then the bus runs alongside the media, paced by the slower of the two.
    const markNs = xfer.markNs >= 0 ? xfer.markNs : xfer.endNs;
    const busStart = markNs + d.reselectNs + d.dataPrepNs;
    const bus = rq.nSectors * d.busReadNsPerSector;
    const busEnd = Math.max(busStart + bus, xfer.endNs + d.busReadNsPerSector);
    rq.busNs = bus;
    rq.overheadNs += busEnd - xfer.endNs;
    const complete = busEnd + d.readCompleteNs;
    // With read-ahead the mechanism streams on and cannot be stopped before the host
    // has the completion (DiskSim preseeking level 0); without it, it is free at once.
    if (drive.segments.length > 0 && d.readAheadSectors > 0) {
      // One event does both, in the order two would: the mechanism frees, then completes.
      freeAt = complete;
      alsoComplete = 1;
    } else {
      pushEvent(st.heap, complete, EventPriority.Complete, EventKind.DriveComplete, 0, rq.slot);
    }
  } else if (!rq.internal) {
    const reselect = rq.extraDisconnect ? d.extraDisc!.completeReselectNs : d.reselectNs;
    const c = xfer.endNs + reselect + d.writeCompleteNs;
    pushEvent(st.heap, c, EventPriority.Complete, EventKind.DriveComplete, 0, rq.slot);
  }
  pushEvent(
    st.heap,
    freeAt,
    EventPriority.MechanismFree,
    EventKind.MechanismFree,
    alsoComplete,
    rq.slot,
  );
  if (sim.sink !== null) {
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

export function onMechanismFree(sim: DiskSimulation, slot: number, now: number): void {
  const st = sim.state;
  const drive = st.drive;
  const rq = requestAt(st.requests, slot);
  drive.mechBusy = false;
  noteServiced(sim, rq);
  if (rq.write) noteWritten(sim, rq);
  if (drive.ranges !== null && rq.write) releaseToUsed(drive.ranges, rq.slot);
  if (rq.internal) {
    noteDestaged(sim, rq);
    destageDone(sim, rq, now);
    driverSend(sim, now, acceptCommand); // a write the full buffer refused may fit now
  } else if (!rq.write && drive.segments.length > 0) {
    startReadAhead(sim, rq);
  }
  pickAndStart(sim, now);
}
