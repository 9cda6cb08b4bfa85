// The drive's write-back buffer (DISK-MODEL.md §1.5): a write taken into a segment is
// reported done and destaged later as a drive-internal job; a destage on the media frees
// its room. drive.ts decides when a write is buffered and when the mechanism destages.
import type { IoRequest } from '../request';
import { allocRequest, bioAt, freeRequest } from '../request';
import { pushEvent } from '../sim/heap';
import { EventKind, EventPriority } from '../sim/events';
import type { DiskSimulation } from './sim-view';
import { locate } from './mechanics';
import { flushAfterDestage } from './flush-command';

/**
 * The write-back segment a write goes into, or −1 if it must wait: its sectors must fit in
 * the buffer, and it needs a segment — the dirty one whose run it continues, else a clean
 * one (DiskSim: at most "Maximum number of write segments" dirty; a random 4 KiB write
 * takes a whole segment).
 */
export function writeBufferSegment(sim: DiskSimulation, rq: IoRequest): number {
  const drive = sim.state.drive;
  if (drive.writeBufferUsed + rq.nSectors > sim.model.disk.params.cache.writeBufferSectors)
    return -1;
  let clean = -1;
  for (let i = 0; i < drive.dirtyEnd.length; i++) {
    if (drive.dirtyEnd[i] === rq.sector) return i;
    if (clean < 0 && drive.dirtyWrites[i] === 0) clean = i;
  }
  return clean;
}

/**
 * Write-back: take the data into `segment`, report completion, queue its destage (one per
 * host write, carrying its sectors). Returns when the destage may start: all of its data
 * is in the buffer.
 */
export function bufferWrite(
  sim: DiskSimulation,
  rq: IoRequest,
  now: number,
  segment: number,
): number {
  const d = sim.model.disk;
  const drive = sim.state.drive;
  // All of the data in the buffer: the host hears "done", the drive destages later.
  const dataReady = Math.max(
    rq.dataReadyNs + rq.busNs - d.busWriteNsPerSector,
    now + d.dataPrepNs + rq.busNs,
  );
  drive.writeBufferUsed += rq.nSectors;
  if (drive.dirtyWrites[segment] === 0) drive.dirtySegments++;
  drive.dirtyWrites[segment]!++;
  drive.dirtyEnd[segment] = rq.sector + rq.nSectors;
  rq.cacheHit = true;
  rq.overheadNs = rq.eligibleNs - now + d.writeCompleteNs;
  pushEvent(
    sim.state.heap,
    dataReady + d.writeCompleteNs,
    EventPriority.Complete,
    EventKind.DriveComplete,
    0,
    rq.slot,
  );
  const st = sim.state;
  const destage = allocRequest(
    st.requests,
    st.nextRqId++,
    rq.proc,
    rq.pid,
    true,
    false,
    rq.sector,
    rq.nSectors,
    now,
    true,
  );
  noteOwners(sim, rq, destage);
  destage.dispatchedNs = now;
  destage.sched = segment;
  destage.eligibleNs = dataReady;
  destage.dataReadyNs = dataReady;
  locate(sim.model.disk, destage);
  drive.queue.push(destage.slot);
  return dataReady;
}

/**
 * Whose data a destage carries, for the media time it will take (metrics/collector.ts
 * noteServiced): the host write's owner's, or — a request that merged bios of several
 * processes (elv_rq_merge_ok does not ask whose a bio is; CFQ's async queues are shared) —
 * each one's sectors.
 */
function noteOwners(sim: DiskSimulation, rq: IoRequest, destage: IoRequest): void {
  const bios = sim.state.bios;
  let mixed = false;
  for (let i = 0; i < rq.bios.length && !mixed; i++)
    mixed = bioAt(bios, rq.bios[i]!).proc !== rq.proc;
  if (!mixed) return;
  const owners = destage.owners;
  for (const b of rq.bios) {
    const bio = bioAt(bios, b);
    let k = 0;
    while (k < owners.length && owners[k] !== bio.proc) k += 2;
    if (k < owners.length) owners[k + 1]! += bio.nSectors;
    else owners.push(bio.proc, bio.nSectors);
  }
}

/** A destage is on the media: its room is free, its segment clean once its last write is. */
export function destageDone(sim: DiskSimulation, rq: IoRequest, now: number): void {
  const drive = sim.state.drive;
  drive.writeBufferUsed -= rq.nSectors;
  if (--drive.dirtyWrites[rq.sched]! === 0) {
    drive.dirtyEnd[rq.sched] = -1;
    drive.dirtySegments--;
  }
  freeRequest(sim.state.requests, rq);
  flushAfterDestage(sim, now);
  // A "buffer full" spell ends.
  if (drive.bufferFullSinceNs < 0) return;
  drive.bufferFullNs += now - drive.bufferFullSinceNs;
  drive.bufferFullSinceNs = -1;
}
