// Kernel 6.18's flush machinery (block/blk-flush.c): a write with REQ_PREFLUSH and/or REQ_FUA
// on a queue whose device has a volatile write cache becomes a sequence of up to three steps —
// PREFLUSH (a flush command before the data), DATA, POSTFLUSH (a flush after it, standing in
// for FUA on a device that cannot do FUA itself) — each step begun when the one before ends.
//  - blk_flush_policy: which steps a request needs. No write cache (QUEUE_FLAG_WC clear): none
//    but its data — an empty flush just completes. With one: PREFLUSH if it asks for it,
//    POSTFLUSH if it asks for FUA and the device lacks QUEUE_FLAG_FUA (else FUA goes down with
//    the data).
//  - blk_insert_flush, after G: PREFLUSH and FUA are cleared from the request (FUA kept for a
//    device that does it), REQ_SYNC set. Data alone goes on as any request (its process's
//    plug, the scheduler); data + POSTFLUSH goes on too, counted as flush data in flight and
//    sequenced when its data completes; anything with a PREFLUSH enters the sequence now.
//  - blk_flush_complete_seq: a request waiting for PREFLUSH or POSTFLUSH joins the pending list
//    (flush_queue[flush_pending_idx]; flush_pending_since set when it was empty); its DATA
//    goes to the requeue list, inserted by kblockd at the head of the scheduler's dispatch
//    list (I); DONE ends it: its bios complete, C with no sectors (its data completed before).
//  - blk_kick_flush, after every step: one flush command at a time (C1: flush_pending_idx ==
//    flush_running_idx); none while any sequence's data is on the device (C2) unless the
//    pending list has waited FLUSH_PENDING_TIMEOUT (C3); then pending_idx flips and the one
//    flush_rq serves every request on that list. The flush bypasses the scheduler: the head of
//    the hardware queue's dispatch list (blk_mq_insert_request, REQ_OP_FLUSH). blkparse shows
//    it as D FN and C FN — no G, no I.
//  - flush_end_io: running_idx flips; each request it served moves to its next step.
// Spindle runs kblockd's requeue work at the instant it is kicked (the kernel's worker runs a
// few µs later). BFQ and Kyber take the data at the head of their own dispatch lists
// (ElevatorType.addHead: bfqd->dispatch, served before any queue; the head of Kyber's domain
// list, still behind a token); 2.6's schedulers, which 6.18 does not have, through their add.
import { noteCompleted } from '../metrics/collector';
import { allocRequest, requestAt, type IoRequest } from '../request';
import type { BlockSimulation } from './sim-view';
import { emitRq } from './emit';
import type { Bio } from './types';

/** REQ_FSEQ_*: the steps of a sequence (a request's flushSeq holds those done) */
export const REQ_FSEQ_PREFLUSH = 1 << 0;
export const REQ_FSEQ_DATA = 1 << 1;
export const REQ_FSEQ_POSTFLUSH = 1 << 2;
export const REQ_FSEQ_DONE = 1 << 3;
export const REQ_FSEQ_ACTIONS = REQ_FSEQ_PREFLUSH | REQ_FSEQ_DATA | REQ_FSEQ_POSTFLUSH;
/** FLUSH_PENDING_TIMEOUT = 5 * HZ: seconds a pending flush may wait for sequences' data */
export const FLUSH_PENDING_TIMEOUT_S = 5;

/** struct blk_flush_queue: the two lists a flush alternates between, and what is in flight. */
export interface FlushQueue {
  /** flush_queue[2]: request slots waiting for a flush (PREFLUSH or POSTFLUSH) */
  lists: [number[], number[]];
  pendingIdx: 0 | 1;
  runningIdx: 0 | 1;
  /** flush_pending_since, jiffies */
  pendingSinceJ: number;
  /** flush_data_in_flight: sequences whose data is in the scheduler or on the device */
  dataInFlight: number;
  /** q->requeue_list (data steps) and q->flush_list (the flush command), for kblockd */
  requeue: number[];
  flushList: number[];
  /** flush commands issued so far */
  issued: number;
}

export function createFlushQueue(): FlushQueue {
  return {
    lists: [[], []],
    pendingIdx: 0,
    runningIdx: 0,
    pendingSinceJ: 0,
    dataInFlight: 0,
    requeue: [],
    flushList: [],
    issued: 0,
  };
}

/** The device's write cache and FUA as the queue flags say (write_cache, fua; left out: a
 * preset's write-back policy; the fitted device and an SSD model have no cache unless set). */
export function queueFlushFlags(sim: BlockSimulation): { wc: boolean; fua: boolean } {
  const q = sim.model.iosched.queue;
  const p = sim.model.disk.params;
  const wc = q.writeCache ?? (!p.fitted && !p.ssd && sim.model.writePolicy === 'write-back');
  return { wc, fua: q.fua ?? false };
}

/** blk_flush_policy: the steps a request of `nSectors` with these flags needs. */
export function flushPolicy(
  nSectors: number,
  preflush: boolean,
  fua: boolean,
  flags: { wc: boolean; fua: boolean },
): number {
  let policy = nSectors > 0 ? REQ_FSEQ_DATA : 0;
  if (flags.wc) {
    if (preflush) policy |= REQ_FSEQ_PREFLUSH;
    if (fua && !flags.fua) policy |= REQ_FSEQ_POSTFLUSH;
  }
  return policy;
}

/** blk_flush_cur_seq: the first step not yet done */
export function currentStep(done: number): number {
  let bit = 1;
  while (done & bit) bit <<= 1;
  return bit;
}

function jiffies(sim: BlockSimulation, now: number): number {
  return Math.floor((now * sim.model.iosched.hz) / 1e9);
}

/**
 * blk_insert_flush: a new request (after G) for a bio with PREFLUSH or FUA. True when the
 * flush machinery took it; false when it goes on as any request (into the plug).
 */
export function insertFlush(sim: BlockSimulation, rq: IoRequest, bio: Bio, now: number): boolean {
  const flags = queueFlushFlags(sim);
  const policy = flushPolicy(rq.nSectors, bio.preflush, bio.fua, flags);
  rq.fua = bio.fua && flags.fua; // REQ_FUA stays only for a device that does it
  rq.sync = true; // PREFLUSH/FUA imply REQ_SYNC, kept once they are cleared
  rq.mergeable = false; // never merged (REQ_NOMERGE_FLAGS, RQF_FLUSH_SEQ)
  const fq = sim.state.host.flush;
  switch (policy) {
    case 0: // an empty flush on a device without a write cache: nothing to do
      rq.flushSeq = REQ_FSEQ_ACTIONS;
      endSequence(sim, rq, now);
      return true;
    case REQ_FSEQ_DATA:
      rq.mergeable = !rq.fua;
      return false;
    case REQ_FSEQ_DATA | REQ_FSEQ_POSTFLUSH:
      // its data goes as any request's; its completion starts the post-flush
      rq.flushSeq = REQ_FSEQ_PREFLUSH;
      fq.dataInFlight++;
      return false;
    default:
      rq.flushSeq = 0;
      completeStep(sim, rq, REQ_FSEQ_ACTIONS & ~policy, now);
      requeueWork(sim, now);
      return true;
  }
}

/** blk_flush_complete_seq: `rq` finished the steps `seq`; begin its next one. */
export function completeStep(sim: BlockSimulation, rq: IoRequest, seq: number, now: number): void {
  const fq = sim.state.host.flush;
  rq.flushSeq |= seq;
  switch (currentStep(rq.flushSeq)) {
    case REQ_FSEQ_PREFLUSH:
    case REQ_FSEQ_POSTFLUSH: {
      const pending = fq.lists[fq.pendingIdx];
      if (pending.length === 0) fq.pendingSinceJ = jiffies(sim, now);
      pending.push(rq.slot);
      break;
    }
    case REQ_FSEQ_DATA:
      fq.dataInFlight++;
      fq.requeue.push(rq.slot);
      break;
    default:
      endSequence(sim, rq, now);
  }
  kickFlush(sim, now);
}

/** blk_kick_flush: issue the flush command if C1–C3 allow. */
export function kickFlush(sim: BlockSimulation, now: number): void {
  const fq = sim.state.host.flush;
  const pending = fq.lists[fq.pendingIdx];
  if (fq.pendingIdx !== fq.runningIdx || pending.length === 0) return; // C1
  const hz = sim.model.iosched.hz;
  if (fq.dataInFlight > 0 && jiffies(sim, now) < fq.pendingSinceJ + FLUSH_PENDING_TIMEOUT_S * hz)
    return; // C2, unless C3
  fq.pendingIdx = (fq.pendingIdx ^ 1) as 0 | 1;
  const first = requestAt(sim.state.requests, pending[0]!);
  // the queue's flush_rq, for the first waiter's context: no tag of its own (it borrows one)
  const flush = allocRequest(
    sim.state.requests,
    sim.state.nextRqId++,
    first.proc,
    first.pid,
    false,
    true,
    0,
    0,
    now,
  );
  flush.flushOp = true;
  flush.mergeable = false;
  flush.poolClass = -1;
  fq.flushList.push(flush.slot);
  fq.issued++;
}

/**
 * blk_mq_requeue_work (kblockd): each data step inserted at the head (I) — of the
 * scheduler's dispatch list, which the framework's dispatch queue plays for mq-deadline
 * and none (BFQ and Kyber: their addHead) — then the flush command at the head of the
 * dispatch list; the queue runs.
 */
export function requeueWork(sim: BlockSimulation, now: number): void {
  const fq = sim.state.host.flush;
  if (fq.requeue.length === 0 && fq.flushList.length === 0) return;
  const h = sim.state.host;
  const e = sim.elevator;
  const headInsert = e.passthrough === true || e.name === 'mq-deadline';
  const table = sim.state.requests;
  for (const slot of fq.requeue.splice(0)) {
    const rq = requestAt(table, slot);
    if (headInsert) {
      if (sim.sink) emitRq(sim, 'I', rq, now);
      h.dispatchQueue.unshift(slot);
    } else sim.core.insert(sim, rq, now, true);
  }
  for (const slot of fq.flushList.splice(0)) h.dispatchQueue.unshift(slot);
  sim.core.runQueue(sim, now);
}

/** The device completed a flush command or a sequence's data. */
export function flushComplete(sim: BlockSimulation, rq: IoRequest, now: number): void {
  const h = sim.state.host;
  h.inDriver--;
  h.blocked = false;
  rq.completedNs = now;
  if (sim.sink) emitRq(sim, 'C', rq, now);
  if (rq.flushOp) flushEndIo(sim, rq, now);
  else {
    // mq_flush_data_end_io: the data is done (the request holds no bytes now); its bios wait
    noteCompleted(sim, rq, now);
    rq.nSectors = 0;
    h.flush.dataInFlight--;
    completeStep(sim, rq, REQ_FSEQ_DATA, now);
  }
  requeueWork(sim, now);
  sim.core.runQueue(sim, now);
}

/** flush_end_io: the flush served the running list; each of its requests goes on. */
function flushEndIo(sim: BlockSimulation, flush: IoRequest, now: number): void {
  const fq = sim.state.host.flush;
  sim.state.requests.free.push(flush.slot); // the flush_rq: no tag, no bios
  const running = fq.lists[fq.runningIdx];
  fq.lists[fq.runningIdx] = [];
  fq.runningIdx = (fq.runningIdx ^ 1) as 0 | 1;
  const table = sim.state.requests;
  for (const slot of running) {
    const rq = requestAt(table, slot);
    completeStep(sim, rq, currentStep(rq.flushSeq), now);
  }
}

/** REQ_FSEQ_DONE: blk_flush_restore_request, then blk_mq_end_request — C with no bytes left,
 * the bios end, the request is freed. */
function endSequence(sim: BlockSimulation, rq: IoRequest, now: number): void {
  const hadData = rq.dispatchedNs >= 0;
  rq.flushSeq = -1;
  rq.nSectors = 0;
  rq.completedNs = now;
  if (sim.sink) emitRq(sim, 'C', rq, now);
  sim.core.end(sim, rq, now, hadData);
}
