// One I/O request's life, from the process that queued it (Q) to its completion (C), and
// the bios it carries.
// Times are ns; −1 means "not yet". Plain data: lives in the simulation state.

export interface IoRequest {
  /** unique over the run, as blktrace numbers requests */
  id: number;
  /** where it lives in the RequestTable while in flight (events and queues hold this) */
  slot: number;
  /** the issuing process instance (index into the workload's instances) and its pid */
  proc: number;
  pid: number;
  write: boolean;
  sync: boolean;
  /** first sector (LBN) and length in 512-byte sectors */
  sector: number;
  nSectors: number;
  /** a drive-internal job (write-back destage), never seen by the host */
  internal: boolean;
  /** the bios it carries (bio slots), in sector order; empty for drive-internal jobs */
  bios: number[];
  /** a write-back destage whose host write carried bios of several processes (a merged
   * request): [process, sectors, process, sectors, …]; empty when its data is all `proc`'s */
  owners: number[];
  /** CFQ I/O priority of the request (the best of its bios): class 1 RT, 2 BE, 3 IDLE */
  ioprioClass: number;
  ioprioLevel: number;
  /** the scheduler's FIFO deadline, ns (the kernel's rq_fifo_time), −1 if none */
  fifoNs: number;
  /** may still take bios (cleared when a merge would break max_sectors, or once started) */
  mergeable: boolean;
  /** a number the scheduler attaches (CFQ: its queue's id), −1 if none; on a drive-internal
   * write-back destage, the buffer segment it belongs to */
  sched: number;
  /** the request-pool class it was counted in: 1 sync (or read), 0 async (or write) */
  poolClass: number;
  /** the end sector it is filed under in the back-merge hash, −1 if not there */
  hashEnd: number;
  /** a trace-timed device completes it this long after D (the longest of its bios'), ns;
   * −1 = the disk model serves it */
  serviceNs: number;

  /** blktrace milestones */
  queuedNs: number; // Q of its first bio (a merged-away request's earlier time survives)
  dispatchedNs: number; // D: handed to the drive
  completedNs: number; // C

  /** where its first sector is, computed once when the drive accepts it: zone, cylinder,
   * head and its place on the track (a PhysAddr's fields) */
  zone: number;
  cylinder: number;
  head: number;
  trackSector: number;
  /** the angle at which its first sector starts, fraction of a revolution */
  angle: number;

  /** inside the drive */
  eligibleNs: number; // command processed; the mechanism may start it
  dataReadyNs: number; // a write's first sector of data is in the drive's buffer
  startNs: number; // the mechanism started positioning for it
  seekNs: number;
  rotationNs: number;
  transferNs: number; // media transfer, including switches inside it
  busNs: number;
  overheadNs: number; // controller overheads charged to it
  /** a write that disconnected an extra time (DiskParams overheads.extraWriteDisconnect) */
  extraDisconnect: boolean;
  cacheHit: boolean;
  /** it touched the media (a read miss or a write that reached the platter) */
  media: boolean;

  /** kernel 6.18's flush machinery (iosched/blk-flush.ts): a flush command (REQ_OP_FLUSH,
   * no data; the queue's one flush_rq) */
  flushOp: boolean;
  /** REQ_FUA still set for the driver: the device does FUA itself (QUEUE_FLAG_FUA) */
  fua: boolean;
  /** in a PREFLUSH/FUA sequence (RQF_FLUSH_SEQ): the REQ_FSEQ_* steps done so far; −1 not */
  flushSeq: number;
}

/** A bio: one I/O as a process submits it (blktrace Q). Requests hold one or more. */
export interface Bio {
  id: number;
  slot: number;
  /** issuing process instance and pid */
  proc: number;
  pid: number;
  write: boolean;
  /** synchronous: reads, and writes a process waits for (O_SYNC, fsync, journal) */
  sync: boolean;
  sector: number;
  nSectors: number;
  /** CFQ I/O priority: class 1 RT, 2 BE, 3 IDLE; level 0 (highest) … 7 */
  ioprioClass: number;
  ioprioLevel: number;
  queuedNs: number; // Q
  /** the request it belongs to (slot), −1 before G or M */
  rq: number;
  /** a trace-timed device serves it in this time (the traced D2C), ns; −1 = the disk model */
  serviceNs: number;
  /** a piece split off a bio larger than max_sectors (X): the bio it came from (slot), else −1 */
  parent: number;
  /** a bio that was split: its pieces not yet completed (it completes with the last one) */
  pending: number;
  /** REQ_PREFLUSH: the device's volatile cache is flushed before its data (or, with no
   * data, the bio is just a flush); REQ_FUA: its data is on stable media when it completes */
  preflush: boolean;
  fua: boolean;
}

/**
 * Objects in flight by slot; a freed slot's object is reused for the next one, so a long
 * run allocates nothing per request or bio. Plain data (survives structuredClone).
 */
export interface SlotTable<T> {
  slots: T[];
  free: number[];
}

export type RequestTable = SlotTable<IoRequest>;
export type BioTable = SlotTable<Bio>;

export function createSlotTable<T>(): SlotTable<T> {
  return { slots: [], free: [] };
}

export const createRequestTable = createSlotTable<IoRequest>;
export const createBioTable = createSlotTable<Bio>;

/** A free slot and its object to reuse (a fresh one from `make` the first time). */
function takeSlot<T extends { slot: number }>(t: SlotTable<T>, make: () => T): T {
  const slot = t.free.length > 0 ? t.free.pop()! : t.slots.length;
  let item = t.slots[slot];
  if (item === undefined) {
    item = make();
    t.slots[slot] = item;
  }
  item.slot = slot;
  return item;
}

import { doubleFields } from './sim/doubles';

// Fresh objects are literals with every field: V8 then keeps all of them inside the object
// (one shape, no separate property store to chase), which the hot path reads constantly.
// The values are placeholders; allocRequest and allocBio set every field.

function newRequestObject(): IoRequest {
  const rq: IoRequest = {
    id: 0,
    slot: 0,
    proc: 0,
    pid: 0,
    write: false,
    sync: false,
    sector: 0,
    nSectors: 0,
    internal: false,
    bios: [],
    owners: [],
    ioprioClass: 0,
    ioprioLevel: 0,
    fifoNs: -1,
    mergeable: false,
    sched: -1,
    poolClass: 0,
    hashEnd: -1,
    serviceNs: -1,
    queuedNs: -1,
    dispatchedNs: -1,
    completedNs: -1,
    zone: -1,
    cylinder: -1,
    head: -1,
    trackSector: -1,
    angle: 0,
    eligibleNs: -1,
    dataReadyNs: -1,
    startNs: -1,
    seekNs: 0,
    rotationNs: 0,
    transferNs: 0,
    busNs: 0,
    overheadNs: 0,
    extraDisconnect: false,
    cacheHit: false,
    media: false,
    flushOp: false,
    fua: false,
    flushSeq: -1,
  };
  return doubleFields(
    rq,
    'fifoNs',
    'serviceNs',
    'queuedNs',
    'dispatchedNs',
    'completedNs',
    'angle',
    'eligibleNs',
    'dataReadyNs',
    'startNs',
    'seekNs',
    'rotationNs',
    'transferNs',
    'busNs',
    'overheadNs',
  );
}

function newBioObject(): Bio {
  const bio: Bio = {
    id: 0,
    slot: 0,
    proc: 0,
    pid: 0,
    write: false,
    sync: false,
    sector: 0,
    nSectors: 0,
    ioprioClass: 0,
    ioprioLevel: 0,
    queuedNs: -1,
    rq: -1,
    serviceNs: -1,
    parent: -1,
    pending: 0,
    preflush: false,
    fua: false,
  };
  return doubleFields(bio, 'queuedNs', 'serviceNs');
}

export function requestAt(t: RequestTable, slot: number): IoRequest {
  return t.slots[slot]!;
}

export function freeRequest(t: RequestTable, rq: IoRequest): void {
  t.free.push(rq.slot);
}

/** A new request in a free slot (reusing that slot's object) with every field reset. */
export function allocRequest(
  t: RequestTable,
  id: number,
  proc: number,
  pid: number,
  write: boolean,
  sync: boolean,
  sector: number,
  nSectors: number,
  queuedNs: number,
  internal = false,
): IoRequest {
  const rq = takeSlot(t, newRequestObject);
  rq.id = id;
  rq.proc = proc;
  rq.pid = pid;
  rq.write = write;
  rq.sync = sync;
  rq.sector = sector;
  rq.nSectors = nSectors;
  rq.internal = internal;
  // Emptied by pop, not `length = 0`: V8 then keeps the backing store (no allocation per
  // request). Every request object is made with both arrays (newRequestObject).
  const bios = rq.bios;
  while (bios.length > 0) bios.pop();
  const owners = rq.owners;
  while (owners.length > 0) owners.pop();
  rq.ioprioClass = 2;
  rq.ioprioLevel = 4;
  rq.fifoNs = -1;
  rq.mergeable = !internal;
  rq.sched = -1;
  rq.poolClass = write ? 0 : 1;
  rq.hashEnd = -1;
  rq.serviceNs = -1;
  rq.queuedNs = queuedNs;
  rq.zone = -1;
  rq.cylinder = -1;
  rq.head = -1;
  rq.trackSector = -1;
  rq.angle = 0;
  rq.dispatchedNs = -1;
  rq.completedNs = -1;
  rq.eligibleNs = -1;
  rq.dataReadyNs = -1;
  rq.startNs = -1;
  rq.seekNs = 0;
  rq.rotationNs = 0;
  rq.transferNs = 0;
  rq.busNs = 0;
  rq.overheadNs = 0;
  rq.extraDisconnect = false;
  rq.cacheHit = false;
  rq.media = false;
  rq.flushOp = false;
  rq.fua = false;
  rq.flushSeq = -1;
  return rq;
}

export function bioAt(t: BioTable, slot: number): Bio {
  return t.slots[slot]!;
}

export function freeBio(t: BioTable, bio: Bio): void {
  t.free.push(bio.slot);
}

export function allocBio(
  t: BioTable,
  id: number,
  proc: number,
  pid: number,
  write: boolean,
  sync: boolean,
  sector: number,
  nSectors: number,
  queuedNs: number,
): Bio {
  const bio = takeSlot(t, newBioObject);
  bio.id = id;
  bio.proc = proc;
  bio.pid = pid;
  bio.write = write;
  bio.sync = sync;
  bio.sector = sector;
  bio.nSectors = nSectors;
  bio.ioprioClass = 2;
  bio.ioprioLevel = 4;
  bio.queuedNs = queuedNs;
  bio.rq = -1;
  bio.serviceNs = -1;
  bio.parent = -1;
  bio.pending = 0;
  bio.preflush = false;
  bio.fua = false;
  return bio;
}
