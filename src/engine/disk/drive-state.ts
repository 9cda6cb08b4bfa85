// The drive's state: plain data (snapshots clone it), separate from what the drive does
// (drive.ts).
import type { DiskSimulation } from './sim-view';
import type { PhysAddr } from './geometry';
import type { ArmState } from './disk-scheduler';
import { createRangeState, makesRangeWrites, type RangeState } from './range';
import { createFittedState, type FittedState } from './fitted';
import { doubleFields } from '../sim/doubles';
import { createCylinderIndex, type CylinderIndex } from './queue-index';

/** A read segment of the drive's buffer (cache.ts): the LBNs [lo, hi) it holds. */
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
  /** where baseLbn is (kept so that following the stream needs no lookup of it) */
  base: PhysAddr;
  baseStartNs: number;
  limitLbn: number;
  /** the stream cannot be stopped before this: the read it serves has not yet
   * completed to the host (DiskSim, preseeking level 0) */
  holdUntilNs: number;
}

export interface DriveState {
  /** commands waiting for the mechanism (request slots), in arrival order: they join at
   * the end and leave through queue-index.ts dequeue */
  queue: number[];
  /** the same commands by cylinder, for SPTF (sptf-queue.ts); null for the other schedulers
   * (ASPTF included: it walks the queue, see BY_CYLINDER_FROM) */
  byCylinder: CylinderIndex | null;
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
  /** a finished read-ahead record kept for reuse */
  prefetchSpare: Prefetch | null;
  /** sectors of write-back data not yet on the media */
  writeBufferUsed: number;
  /** write-back's segments (cache.writeSegments of them): where each one's run of written
   * data ends (a write starting there joins it), −1 when the segment is clean */
  dirtyEnd: number[];
  /** each segment's writes not yet on the media (its destages carry the index in `sched`) */
  dirtyWrites: number[];
  /** segments holding data not yet on the media */
  dirtySegments: number;
  /** flush commands waiting for the dirty segments' destages (disk/flush-command.ts) */
  flushWaiting: number[];
  /** writes waiting for room in the write-back buffer ("buffer full") */
  /** writes refused with QUEUE FULL because the write-back buffer had no room */
  queueFullRefusals: number;
  /** time spent with the buffer full (a write refused, no room freed since), ns */
  bufferFullNs: number;
  /** when the current "buffer full" spell began, −1 if none */
  bufferFullSinceNs: number;
  /** positioning-time estimates made by the drive's scheduler (SPTF family, HRS, ECS): the
   * candidates it weighs, counting those SPTF prunes by their seek (disk-scheduler.ts) */
  positioningEstimates: number;
  /** choices of the next command the drive made (each may make several estimates) */
  decisions: number;
  /** range writes' bookkeeping; null when no process makes range writes */
  ranges: RangeState | null;
  /** SSD: when each channel is next free */
  ssdChannelFreeNs: number[];
  /** a device fitted to a trace: its requests in service, last command and draws; null on
   * any other drive */
  fitted: FittedState | null;
  /** the last command completed to the host was a write: DiskSim's "after write"
   * overheads apply to the next (disksim_diskctlr.c lastflags) */
  lastCompletedWrite: boolean;
  /** queueing 'driver': the host driver's queue (request slots, arrival order), and whether
   * the disk holds a command of the host's not yet completed */
  driverQueue: number[];
  awaitingCompletion: boolean;
  /** when the arm's angle was last known: the end of its last media transfer, ns */
  armKnownNs: number;
  /** that transfer was a write */
  lastMediaWrite: boolean;
}

export function createDriveState(sim: Pick<DiskSimulation, 'model'>): DriveState {
  const p = sim.model.disk.params;
  const readSegments = sim.model.disk.readSegments;
  return doubleFields<DriveState>(
    {
      queue: [],
      byCylinder: sim.model.diskScheduler === 'sptf' ? createCylinderIndex(p.cylinders) : null,
      tagsInUse: 0,
      mechBusy: false,
      arm: { cylinder: 0, head: 0, nextLbn: 0 },
      pickAt: -1,
      segments: Array.from({ length: readSegments }, () => ({ lo: 0, hi: 0, lastUse: -1 })),
      writeSegment: { lo: 0, hi: 0, lastUse: -1 },
      useClock: 0,
      prefetch: null,
      prefetchSpare: null,
      writeBufferUsed: 0,
      dirtyEnd: new Array<number>(p.cache.writeSegments).fill(-1),
      dirtyWrites: new Array<number>(p.cache.writeSegments).fill(0),
      dirtySegments: 0,
      flushWaiting: [],
      queueFullRefusals: 0,
      bufferFullNs: 0,
      bufferFullSinceNs: -1,
      positioningEstimates: 0,
      decisions: 0,
      ranges: sim.model.processes.some(makesRangeWrites) ? createRangeState(sim.model.seed) : null,
      ssdChannelFreeNs: p.ssd ? new Array<number>(p.ssd.channels).fill(0) : [],
      fitted: p.fitted ? createFittedState(sim.model.seed) : null,
      lastCompletedWrite: false,
      driverQueue: [],
      awaitingCompletion: false,
      armKnownNs: 0,
      lastMediaWrite: false,
    },
    'pickAt',
    'armKnownNs',
    'bufferFullNs',
    'bufferFullSinceNs',
  );
}

/**
 * The LBN a write may start at without DiskSim's minimum seek delay: the end of the last
 * write, if the arm has been writing up to `t` — a sequential stream (disk_check_hda waives
 * the delay only for an append initiated at the instant the last write ended); else −1.
 */
export function streamingWriteLbn(drive: DriveState, t: number): number {
  return drive.lastMediaWrite && drive.armKnownNs === t ? drive.writeSegment.hi : -1;
}
