// AS's dispatch procedure (LINUX-SCHEDULERS.md §4.7; docs/iosched/anticipatory.md):
// as_dispatch_request — batches, FIFO expiry, anticipation — and the moves that take a
// request out of AS (as_move_to_dispatch, the alias rule, as_remove_queued_request).
import type { IoRequest } from '../request';
import { findBySector, fifoRemove, sortInsert, sortRemove } from './common';
import type { ElevatorContext } from './types';
import {
  ASYNC,
  AnticStatus,
  SYNC,
  type AsRule,
  type AsState,
  jiffiesNow,
  type BreakReason,
  type Dir,
} from './anticipatory-state';
import { findNextRq } from './anticipatory-choose';
import { anticStop, anticipating, canAnticipate, noCloseInfo, waitReq } from './anticipatory-antic';
import { ioContext } from './anticipatory-stats';
import { candidates, dispatchText, reasonText, waitText } from './anticipatory-text';

export const classOf = (rq: IoRequest): Dir => (rq.sync ? SYNC : ASYNC);

export function record(
  ctx: ElevatorContext,
  s: AsState,
  rule: AsRule,
  chosen: number,
  text: string,
) {
  if (ctx.recording) ctx.decide(rule, chosen, candidates(s, ctx), `as: ${text}`);
}

/** as_remove_queued_request: take `rq` off the sort list and FIFO, fixing next_rq. */
export function removeQueued(s: AsState, rq: IoRequest, ctx: ElevatorContext): void {
  const dir = classOf(rq);
  const aic = s.aic[rq.pid];
  if (aic) aic.nrQueued--;
  if (s.nextRq[dir] === rq.slot)
    s.nextRq[dir] = findNextRq(s.sortList[dir], rq.slot, s.lastSector[dir], ctx);
  fifoRemove(s.fifoList[dir], rq.slot);
  sortRemove(s.sortList[dir], rq.slot);
}

/** as_move_to_dispatch: the request leaves AS; anticipation stops (returns whether it
 * was waiting); the head moves. */
export function moveToDispatch(s: AsState, slot: number, ctx: ElevatorContext): boolean {
  const rq = ctx.rq(slot);
  const dir = classOf(rq);
  const stopped = anticStop(s, ctx);
  s.anticStatus = AnticStatus.OFF;
  s.lastSector[dir] = rq.sector + rq.nSectors;
  if (dir === SYNC) {
    s.anticPid = rq.pid; // in case AS anticipates after this
  } else {
    s.anticPid = -1; // nothing to anticipate after a write
    if (s.currentWriteCount !== 0) s.currentWriteCount--;
  }
  s.iocFinished = false;
  s.nextRq[dir] = findNextRq(s.sortList[dir], slot, s.lastSector[dir], ctx);
  removeQueued(s, rq, ctx);
  ioContext(s, rq.pid).nrDispatched++;
  s.nrDispatched++;
  return stopped;
}

/** as_add_rq_rb with the alias rule: a request already at the same start sector goes
 * straight to dispatch (handed over by the next dispatch() call). Returns whether that
 * stopped an anticipation (the caller then runs the queue, as kblockd would). */
export function addToSortList(s: AsState, rq: IoRequest, ctx: ElevatorContext): boolean {
  const list = s.sortList[classOf(rq)];
  let stopped = false;
  for (let alias = findBySector(list, rq.sector, ctx); alias >= 0;) {
    if (ctx.recording)
      record(ctx, s, 'alias-dispatch', alias, dispatchText(s, 'alias-dispatch', alias, ctx));
    stopped = moveToDispatch(s, alias, ctx) || stopped;
    // In the dispatch queue a request takes no more bios (elv_dispatch_sort drops it from
    // the merge hash and the one-hit cache); it waits here only until dispatch() runs.
    ctx.rq(alias).mergeable = false;
    s.aliasPending.push(alias);
    alias = findBySector(list, rq.sector, ctx);
  }
  sortInsert(list, rq.slot, ctx);
  return stopped;
}

/** as_fifo_expired: has the class's oldest request expired? Checked at most once per
 * fifo_expire interval, so a backlog of expired requests cannot cause a seek storm. */
function fifoExpired(s: AsState, dir: Dir, nowJ: number, ctx: ElevatorContext): boolean {
  if (Math.abs(nowJ - s.lastCheckFifoJ[dir]) < s.fifoExpireJ[dir]) return false;
  s.lastCheckFifoJ[dir] = nowJ;
  const head = s.fifoList[dir][0];
  return head !== undefined && nowJ > fifoJiffies(s, ctx.rq(head));
}

/** rq_fifo_time in jiffies (the request carries it as the ns of that jiffy). */
export function fifoJiffies(s: AsState, rq: IoRequest): number {
  return Math.round((rq.fifoNs * s.hz) / 1e9);
}

/** as_batch_expired: never while changing batch; an async batch also ends when its
 * request budget is spent. */
function batchExpired(s: AsState, nowJ: number): boolean {
  if (s.changedBatch || s.newBatch) return false;
  const late = nowJ > s.currentBatchExpiresJ;
  return s.batchDir === SYNC ? late : late || s.currentWriteCount === 0;
}

/** update_write_batch: at the first completion of a sync batch, size the next async
 * batch (in requests) from how long the last one took against write_batch_expire. */
export function updateWriteBatch(s: AsState, nowJ: number): void {
  const batch = s.batchExpireJ[ASYNC];
  const writeTime = Math.max(0, nowJ - s.currentBatchExpiresJ + batch);
  if (writeTime > batch && !s.writeBatchIdled) {
    if (writeTime > batch * 3) s.writeBatchCount = Math.floor(s.writeBatchCount / 2);
    else s.writeBatchCount--;
  } else if (writeTime < batch && s.currentWriteCount === 0) {
    if (batch > writeTime * 3) s.writeBatchCount *= 2;
    else s.writeBatchCount++;
  }
  if (s.writeBatchCount < 1) s.writeBatchCount = 1;
}

/** Forced dispatch (drain), one request per call: all sync requests, then all async. */
function forcedDispatch(s: AsState, ctx: ElevatorContext): number {
  s.batchDir = SYNC;
  s.changedBatch = false;
  s.newBatch = false;
  for (const dir of [SYNC, ASYNC] as const) {
    const slot = s.nextRq[dir];
    if (slot < 0) continue;
    if (ctx.recording)
      record(ctx, s, 'forced-dispatch', slot, dispatchText(s, 'forced-dispatch', slot, ctx));
    moveToDispatch(s, slot, ctx);
    if (s.nextRq[dir] < 0) s.lastCheckFifoJ[dir] = jiffiesNow(ctx);
    return slot;
  }
  return -1;
}

/** as_dispatch_request: one request per call, or −1 (empty, anticipating, draining). */
export function dispatch(s: AsState, force: boolean, ctx: ElevatorContext): number {
  if (s.aliasPending.length > 0) return s.aliasPending.shift()!; // already in "dispatch"
  if (force) return forcedDispatch(s, ctx);
  const now = jiffiesNow(ctx);
  const reads = s.fifoList[SYNC].length > 0;
  const writes = s.fifoList[ASYNC].length > 0;

  // An async batch with no sync request competing is uncontended: do not time it.
  if (s.batchDir === ASYNC && !reads && (s.currentWriteCount === 0 || !writes))
    s.writeBatchIdled = true;

  if (!(reads || writes)) return -1;
  if (anticipating(s)) {
    if (ctx.recording) record(ctx, s, 'anticipating', -1, waitText(s, 'anticipating', ctx));
    return -1;
  }
  if (s.changedBatch) {
    if (ctx.recording) record(ctx, s, 'batch-drain', -1, waitText(s, 'batch-drain', ctx));
    return -1;
  }

  let slot = -1;
  let rule: AsRule = 'continue-batch';
  let checkFifo = true;
  // Why AS did not wait for the anticipated process, if it asked (for the record).
  let notWaiting: 'no-anticipation-async' | BreakReason | null = null;
  // What the close test saw, kept only for the decision text.
  const info = ctx.recording ? noCloseInfo() : undefined;
  const expired = reads && writes && batchExpired(s, now);
  if (!expired) {
    // The batch is still running (or only one class is queued): continue it.
    slot = s.nextRq[s.batchDir];
    if (s.batchDir === SYNC && s.anticExpireJ > 0) {
      if (fifoExpired(s, SYNC, now, ctx)) {
        slot = s.fifoList[SYNC][0]!;
        rule = 'fifo-expired';
        checkFifo = false;
      } else {
        const why = canAnticipate(s, slot >= 0 ? ctx.rq(slot) : null, now, info);
        if (why === 'wait') {
          waitReq(s, ctx);
          if (ctx.recording)
            record(ctx, s, 'anticipate-start', -1, waitText(s, 'anticipate-start', ctx));
          return -1;
        }
        // The next request is the anticipated process's own: simply continue the batch.
        if (why !== 'finished' && why !== 'anticipation-hit') notWaiting = why;
      }
    }
    // A lone reader's batch never ends: it is pushed on with every request.
    if (checkFifo && slot >= 0 && reads && !writes)
      s.currentBatchExpiresJ = now + s.batchExpireJ[SYNC];
  }
  if (slot < 0) {
    // Not running a batch: pick the class of a new one.
    if (reads && !(writes && s.batchDir === SYNC)) {
      rule = expired ? 'batch-expired-switch' : 'read-batch';
      if (s.batchDir === ASYNC) s.changedBatch = true;
      s.batchDir = SYNC;
      slot = s.fifoList[SYNC][0]!;
      s.lastCheckFifoJ[SYNC] = now;
    } else {
      rule = expired ? 'batch-expired-switch' : 'write-batch';
      if (s.batchDir === SYNC) {
        s.changedBatch = true;
        s.newBatch = false; // the sync batch may end before its first completion
      }
      s.batchDir = ASYNC;
      s.currentWriteCount = s.writeBatchCount;
      s.writeBatchIdled = false;
      slot = s.fifoList[ASYNC][0]!;
      s.lastCheckFifoJ[ASYNC] = now;
    }
  }
  if (checkFifo && fifoExpired(s, s.batchDir, now, ctx)) {
    slot = s.fifoList[s.batchDir][0]!;
    rule = 'fifo-expired';
  }
  if (s.changedBatch) {
    // Switch classes only once the old batch has left the device.
    if (s.nrDispatched > 0) {
      if (ctx.recording) record(ctx, s, 'batch-drain', -1, waitText(s, 'batch-drain', ctx));
      return -1;
    }
    if (s.batchDir === ASYNC) s.currentBatchExpiresJ = now + s.batchExpireJ[ASYNC];
    else s.newBatch = true; // its clock starts at its first completion
    s.changedBatch = false;
  }
  if (ctx.recording) {
    // The request picked by continuing the batch carries the reason AS did not wait; when
    // a new batch was picked instead, the reason joins the text.
    if (notWaiting && rule === 'continue-batch') rule = notWaiting;
    let text = dispatchText(s, rule, slot, ctx, info ?? null);
    if (notWaiting && rule !== notWaiting)
      text += `; not anticipating: ${notWaiting === 'no-anticipation-async' ? 'the last request was async' : reasonText(s, notWaiting, null, info ?? null)}`;
    record(ctx, s, rule, slot, text);
  }
  moveToDispatch(s, slot, ctx);
  return slot;
}
