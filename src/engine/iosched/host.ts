// The block layer between processes and the device (LINUX-SCHEDULERS.md §1): a bio is
// queued (Q); it merges into a pending request (M/F, merge.ts) or gets a new one from the
// pool (G — or the process sleeps, S, when nr_requests are out; kernel 6.18 takes a tag from
// blk-mq's one shared pool instead, tags-mq.ts); an empty queue is plugged
// (P) so bios can gather; the request enters the I/O scheduler (I); unplugging (U, UT) runs
// the queue, and the driver pulls requests through the dispatch queue while the device has
// free tags (D); the device's completion (C) frees the request and the queue runs again.
// The scheduler (an ElevatorType) sees only its hooks, through the ElevatorContext here.
// Hot paths test `sim.sink !== null`, `=== true`: V8 types these loads as any value, and a bare
// truthiness test of one not `false` (null, true) runs its whole ToBoolean, ~10 instructions.
import { driveHasFreeTag, driveSubmit } from '../disk/drive';
import { noteBioCompleted, noteCompleted, noteDispatched, noteQueued } from '../metrics/collector';
import { allocRequest, bioAt, freeBio, freeRequest, requestAt, type IoRequest } from '../request';
import type { BlockSimulation } from './sim-view';
import { createMergeHash, hashAdd, hashDel, tryListMerge, tryMerge, type MergeHash } from './merge';
import { dispatchInsert, takeFirst } from './dispatch-queue';
import { emitBio, emitRq } from './emit';
import { requeue } from './requeue';
import { pieceEnds, submitSplit } from './split';
import { addToPlug, plugMerge, type TaskPlug } from './plug-task';
import { armUnplugTimer, plugQueue, shouldPlug, unplug, unplugThreshReached } from './plug-queue';
import { createMqTags, mqGetRequest, mqRequestFreed, mqSleeps, type MqTags } from './tags-mq';
import type { Bio, ElevatorType } from './types';
import './registry';
import type { Batchers } from './ioc-batching';
import { isSync, poolClass, requestFreed, sleepForRequest, takeRequest } from './request-pool';
import { createFlushQueue, flushComplete, insertFlush, type FlushQueue } from './blk-flush';

export interface HostState {
  /** the scheduler's own state (plain data) */
  elevator: unknown;
  /** requests the scheduler has released, in the order the driver will take them */
  dispatchQueue: number[];
  /** requests the device has (D without C) */
  inDriver: number;
  /** requests inside the scheduler (the kernel's nr_sorted) */
  sorted: number;
  /** end sector of the last request the driver took (the dispatch-sort boundary) */
  endSector: number;
  /** when the scheduler's timer fires, −1 if unarmed; the event carries timerSeq */
  timerAt: number;
  timerSeq: number;
  /** the one-hit merge cache (a request slot, −1 if none) and the back-merge hash */
  lastMerge: number;
  hash: MergeHash;
  backMerges: number;
  frontMerges: number;
  /** 2.6: requests allocated per pool class [async or write, sync or read] */
  allocated: [number, number];
  /** bios whose process sleeps for a request, per class (bio slots, FIFO) */
  waiters: [number[], number[]];
  full: [boolean, boolean];
  batchers: Batchers;
  /** the device refused a command: the queue waits for a completion or the delay */
  blocked: boolean;
  blockSeq: number;
  /** the queue is plugged; plugSeq invalidates a stale unplug timer */
  plugged: boolean;
  plugSeq: number;
  /** the plugSeq whose unplug timer is on the clock */
  plugArmed: number;
  /** kernel 6.18: each process's own plug, by pid (plug-task.ts) */
  taskPlugs: Record<number, TaskPlug>;
  /** kernel 6.18: blk-mq's tag pool in place of the 2.6 request pool (tags-mq.ts) */
  mq: MqTags;
  /** kernel 6.18: the PREFLUSH/FUA machinery's flush queue (blk-flush.ts) */
  flush: FlushQueue;
}

export function createHostState(): HostState {
  return {
    elevator: null,
    dispatchQueue: [],
    inDriver: 0,
    sorted: 0,
    endSector: 0,
    timerAt: -1,
    timerSeq: 0,
    lastMerge: -1,
    hash: createMergeHash(),
    backMerges: 0,
    frontMerges: 0,
    allocated: [0, 0],
    waiters: [[], []],
    full: [false, false],
    batchers: {},
    blocked: false,
    blockSeq: 0,
    plugged: false,
    plugSeq: 0,
    plugArmed: -1,
    taskPlugs: {},
    mq: createMqTags(),
    flush: createFlushQueue(),
  };
}

/** elv_queue_empty: nothing in the dispatch queue and nothing in the scheduler. */
function queueEmpty(sim: BlockSimulation): boolean {
  const h = sim.state.host;
  return h.dispatchQueue.length === 0 && sim.elevator.queued(h.elevator) === 0;
}

/** A process submits a bio (Q); one over max_sectors goes on in pieces (X). */
export function submitBio(sim: BlockSimulation, bio: Bio, now: number): void {
  noteQueued(sim, now); // a bio is submitted as it is made: its queuedNs is now
  if (sim.sink !== null) emitBio(sim, 'Q', bio, now);
  if (bio.nSectors > sim.model.iosched.queue.maxSectors) submitSplit(sim, bio, now, submitPiece);
  else submitPiece(sim, bio, now);
}

/** A bio within the queue's limits: merged, or given a request. */
function submitPiece(sim: BlockSimulation, bio: Bio, now: number): void {
  // rare: 6.18's plug first, kept out so V8 inlines this common path into its caller
  if (sim.model.iosched.queue.taskPlug && plugTakesBio(sim, bio, now)) return;
  if (sim.elevator.passthrough === true) getRequest(sim, bio, now);
  else mergeOrGetRequest(sim, bio, now);
}

/** 6.18: a PREFLUSH/FUA bio gets its request at once (it never merges), and another may merge
 * into the process's plug; true if either took it. */
function plugTakesBio(sim: BlockSimulation, bio: Bio, now: number): boolean {
  // bio_mergeable: a PREFLUSH or FUA bio never merges (REQ_NOMERGE_FLAGS)
  if (bio.preflush || bio.fua) {
    getRequest(sim, bio, now);
    return true;
  }
  // blk_mq_attempt_bio_merge: nomerges 2 alone stops the plug's and the scheduler's bio merges
  return sim.model.iosched.queue.nomerges !== 2 && plugMerge(sim, bio, now);
}

/** A scheduler that merges: the bio goes into a pending request, or gets its own. */
function mergeOrGetRequest(sim: BlockSimulation, bio: Bio, now: number): void {
  const e = sim.elevator;
  // a bio_merge hook over a list (Kyber): blk_bio_list_merge instead of elv_merge
  if (e.bioMergeList) {
    if (
      sim.model.iosched.queue.nomerges === 2 ||
      !tryListMerge(sim, bio, e.bioMergeList(sim.state.host.elevator, bio), now)
    )
      getRequest(sim, bio, now);
    return;
  }
  // Merging is tried only when the queue holds something (§1.4).
  if (!queueEmpty(sim) && tryMerge(sim, bio, now)) {
    if (isSync(bio)) unplug(sim, now);
    return;
  }
  getRequest(sim, bio, now);
}

/** get_request_wait: a request from the pool, or the process sleeps (S) until one is freed. */
function getRequest(sim: BlockSimulation, bio: Bio, now: number): void {
  if (sim.model.iosched.queue.taskPlug) {
    mqGetRequest(sim, bio, now); // blk-mq: a tag from the one shared pool
    return;
  }
  const c = poolClass(sim, bio);
  if (!takeRequest(sim, bio, c, now)) {
    sleepForRequest(sim, bio, c, now);
    return;
  }
  newRequest(sim, bio, c, now);
}

/** Whether a bio sleeps for a request (2.6) or a tag (6.18): the last to go to sleep. */
export function bioSleeps(sim: BlockSimulation, slot: number): boolean {
  const h = sim.state.host;
  if (sim.model.iosched.queue.taskPlug)
    return mqSleeps(h.mq, slot, bioAt(sim.state.bios, slot).pid);
  for (const line of h.waiters) if (line[line.length - 1] === slot) return true;
  return false;
}

/** G, then plug an empty queue (P), insert into the scheduler (I), maybe unplug; 6.18:
 * into the process's plug. `c` is the pool class (2.6) or the tag class (tags-mq.ts). */
export function newRequest(sim: BlockSimulation, bio: Bio, c: number, now: number): void {
  const h = sim.state.host;
  const e = sim.elevator;
  const rq = allocRequest(
    sim.state.requests,
    sim.state.nextRqId++,
    bio.proc,
    bio.pid,
    bio.write,
    isSync(bio),
    bio.sector,
    bio.nSectors,
    now,
  );
  // Q's time copied field to field: given to allocRequest, which V8 may leave out of line, a
  // number read from a field is boxed (a new HeapNumber per request).
  rq.queuedNs = bio.queuedNs;
  rq.bios.push(bio.slot);
  rq.ioprioClass = bio.ioprioClass;
  rq.ioprioLevel = bio.ioprioLevel;
  rq.poolClass = c;
  rq.serviceNs = bio.serviceNs;
  bio.rq = rq.slot;
  // The scheduler's set_request hook runs inside get_request, before G is traced.
  e.setRequest?.(h.elevator, rq, bio, sim.ctx);
  if (sim.sink !== null) emitBio(sim, 'G', bio, now);
  // 6.18's plug and a sorting elevator's plugging each in their own function: none's
  // pass-through path stays small enough for V8 to inline what it calls
  if (sim.model.iosched.queue.taskPlug) plugRequest(sim, rq, bio, now);
  else if (e.passthrough !== true) queueRequest(sim, rq, bio, now);
  else {
    if (sim.sink !== null) emitRq(sim, 'I', rq, now);
    e.add(h.elevator, rq, sim.ctx);
    hostRunQueue(sim, now);
  }
}

/** 6.18: into the process's plug; a PREFLUSH/FUA request enters the flush machinery first
 * (blk_mq_submit_bio). */
function plugRequest(sim: BlockSimulation, rq: IoRequest, bio: Bio, now: number): void {
  if ((bio.preflush || bio.fua) && insertFlush(sim, rq, bio, now)) return;
  addToPlug(sim, rq, bio, now);
}

/** 2.6: plug an empty queue (P), insert into the scheduler (I), unplug if it is time. */
function queueRequest(sim: BlockSimulation, rq: IoRequest, bio: Bio, now: number): void {
  if (shouldPlug(sim) && queueEmpty(sim) && !sim.state.host.plugged) plugQueue(sim, bio, now);
  insertRequest(sim, rq, now);
  // unplug_thresh: enough requests gathered (no trace event for this one).
  if (unplugThreshReached(sim)) unplug(sim, now);
  if (isSync(bio) || !shouldPlug(sim)) unplug(sim, now);
  armUnplugTimer(sim, now);
}

/** I: the request enters the scheduler (and the merge hash, the one-hit cache). */
export function insertRequest(
  sim: BlockSimulation,
  rq: IoRequest,
  now: number,
  atHead = false,
): void {
  const h = sim.state.host;
  if (sim.sink !== null) emitRq(sim, 'I', rq, now);
  h.sorted++;
  if (rq.mergeable) {
    hashAdd(h.hash, rq);
    if (h.lastMerge < 0) h.lastMerge = rq.slot;
  }
  const e = sim.elevator;
  if (atHead && e.addHead) e.addHead(h.elevator, rq, sim.ctx);
  else e.add(h.elevator, rq, sim.ctx);
}

/** The next request for the driver, −1 if none: the dispatch queue's head, else the
 * scheduler's next, straight (into an empty dispatch queue it would leave again at once). */
function nextForDriver(sim: BlockSimulation, e: ElevatorType<unknown>): number {
  const h = sim.state.host;
  const dq = h.dispatchQueue;
  if (dq.length > 0) return takeFirst(dq);
  const slot = e.dispatch(h.elevator, false, sim.ctx);
  if (slot < 0) return -1;
  if (e.passthrough !== true) leaveScheduler(sim, slot);
  // rare: the scheduler's dispatch filled the queue meanwhile
  return dq.length === 0 ? slot : dispatchInsert(sim, e, slot);
}

/** A released request leaves the scheduler: no more merging into it (cache, hash). */
function leaveScheduler(sim: BlockSimulation, slot: number): void {
  const h = sim.state.host;
  h.sorted--;
  hashDel(h.hash, requestAt(sim.state.requests, slot));
  if (h.lastMerge === slot) h.lastMerge = -1;
}

/** The driver pulls requests while the device has free tags (the request function). */
export function hostRunQueue(sim: BlockSimulation, now: number): void {
  const e = sim.elevator;
  const h = sim.state.host;
  // none, drained (after every completion at QD1): its dispatch would find nothing, and it
  // never plugs; tested here, not by the caller, so V8 keeps this function out of line
  if (e.passthrough === true && queueEmpty(sim)) return;
  if (h.blocked) return; // the device refused a command: wait for a completion or the delay
  if (h.plugged) {
    h.plugged = false; // running the queue removes the plug (blk_remove_plug)
    h.plugSeq++;
  }
  while (driveHasFreeTag(sim)) {
    const slot = nextForDriver(sim, e);
    if (slot < 0) break;
    const rq = requestAt(sim.state.requests, slot);
    rq.mergeable = false;
    h.inDriver++;
    // a flush command has no sectors and never was the scheduler's (blk-flush.ts)
    if (!rq.flushOp) {
      h.endSector = rq.sector + rq.nSectors;
      // elv_next_request: the activate hook runs, then D is traced — before the device
      // says whether it can take the command (2.6.32 SCSI).
      e.activate?.(h.elevator, rq, sim.ctx);
    }
    if (sim.sink !== null) emitRq(sim, 'D', rq, now);
    if (!driveSubmit(sim, rq, now)) {
      requeue(sim, rq, now);
      break;
    }
    if (!rq.flushOp) noteDispatched(sim, rq, now); // rq.dispatchedNs = now (driveSubmit)
  }
}

/** The device completed a request (C): its bios end, it is freed, the queue runs. */
export function hostComplete(sim: BlockSimulation, rq: IoRequest, now: number): void {
  if (rq.flushOp || rq.flushSeq >= 0) {
    flushComplete(sim, rq, now); // a flush command, or a flush sequence's data
    return;
  }
  const h = sim.state.host;
  rq.completedNs = now;
  h.inDriver--;
  h.blocked = false; // a completion makes room: a refused command may go again
  if (sim.sink !== null) emitRq(sim, 'C', rq, now);
  noteCompleted(sim, rq, now);
  endRequest(sim, rq, now, true);
  hostRunQueue(sim, now);
}

/** The request is over (after its C, at `now`, its completedNs): its bios end, the scheduler
 * hears of it if it had it on the device (`dispatched`), it is freed. */
export function endRequest(
  sim: BlockSimulation,
  rq: IoRequest,
  now: number,
  dispatched: boolean,
): void {
  const h = sim.state.host;
  // An index loop: for…of runs the array iterator's protocol, on every completion.
  const slots = rq.bios;
  for (let i = 0; i < slots.length; i++) {
    // a piece of a split bio is freed; the bio itself ends with its last piece. Tested
    // here: a whole bio then costs no call where V8 leaves pieceEnds out of line
    const b = bioAt(sim.state.bios, slots[i]!);
    const bio = b.parent < 0 ? b : pieceEnds(sim, b);
    if (bio === null) continue;
    noteBioCompleted(sim, bio, rq, now);
    sim.submitter.bioDone(sim, bio, now);
    freeBio(sim.state.bios, bio);
  }
  if (dispatched === true) sim.elevator.completed(h.elevator, rq, sim.ctx);
  releaseRequest(sim, rq, now);
}

/** Free a request (completed, or merged away): the pool may wake a sleeping process. */
export function releaseRequest(sim: BlockSimulation, rq: IoRequest, now = sim.state.now): void {
  const h = sim.state.host;
  sim.elevator.putRequest?.(h.elevator, rq, sim.ctx);
  if (h.lastMerge === rq.slot) h.lastMerge = -1;
  const c = rq.poolClass;
  freeRequest(sim.state.requests, rq);
  if (sim.model.iosched.queue.taskPlug) {
    mqRequestFreed(sim, c, now); // blk_mq_free_request puts the tag back
    return;
  }
  const cls = c as 0 | 1;
  h.allocated[cls]--;
  // Only a full class or a sleeping process has anything to hear of it: tested here, so a
  // pool that never fills costs no call where V8 leaves requestFreed out of line.
  if (h.full[cls] === true || h.waiters[cls].length > 0) requestFreed(sim, c, now);
}

/** The scheduler's timer fired (anticipation, idle window, slice): let it act, then run. */
export function onHostTimer(sim: BlockSimulation, seq: number, now: number): void {
  const h = sim.state.host;
  if (seq !== h.timerSeq) return; // re-armed or cleared since
  h.timerAt = -1;
  sim.elevator.timer?.(h.elevator, sim.ctx);
  if (sim.elevator.timerRunsQueue !== false) hostRunQueue(sim, now);
}
