// CFQ's dispatch path, one request per call (cfq_dispatch_requests, 2.6.32): choose the
// queue (cfq_select_queue: keep the active one within its slice, wait for it while it
// idles, else expire it and take the leftmost of the service tree), check that it may
// dispatch (cfq_may_dispatch), and move its FIFO-expired or next request out.
// LINUX-SCHEDULERS.md §5.6, §5.7; expiry §5.8.
import type { IoRequest } from '../request';
import { prioToMaxrq, sliceUsed } from './cfq-queue';
import { dispatchInsert } from './cfq-rq';
import { closeCooperator, resortRrList, serviceTreeFirst, setupMerge } from './cfq-service-tree';
import {
  CLASS_IDLE,
  CLASS_NAMES,
  decide,
  jiffiesNow,
  logd,
  logq,
  queueName,
  rqPointer,
  type CfqQueue,
  type CfqRule,
  type CfqState,
} from './cfq-types';
import type { Candidate, ElevatorContext } from './types';

// ── slices ──

/** __cfq_set_active_queue: a fresh slice (it starts at the first completion). */
function setActiveQueue(s: CfqState, q: CfqQueue | null, ctx: ElevatorContext): void {
  if (q) {
    logq(ctx, q, 'set_active');
    q.sliceEnd = 0;
    q.sliceDispatch = 0;
    q.waitRequest = false;
    q.mustDispatch = false;
    q.mustAllocSlice = false;
    q.fifoExpire = false;
    q.sliceNew = true;
    cancelIdleTimer(s, ctx);
  }
  s.activeQueue = q ? q.id : -1;
}

export function cancelIdleTimer(s: CfqState, ctx: ElevatorContext): void {
  if (s.idleTimerAt >= 0) {
    s.idleTimerAt = -1;
    ctx.clearTimer();
  }
}

/**
 * __cfq_slice_expired: the active queue gives up the disk. With timedOut, an unused
 * (or overrun) slice is saved as slice_resid and moves its next service-tree key.
 */
export function sliceExpired(
  s: CfqState,
  timedOut: boolean,
  rule: CfqRule,
  why: string,
  ctx: ElevatorContext,
): void {
  if (s.activeQueue < 0) return;
  const q = s.queues[s.activeQueue]!;
  if (ctx.recording) logq(ctx, q, `slice expired t=${timedOut ? 1 : 0}`);
  if (q.waitRequest) cancelIdleTimer(s, ctx);
  q.waitRequest = false;
  if (timedOut && !q.sliceNew) {
    q.sliceResid = q.sliceEnd - jiffiesNow(ctx);
    if (ctx.recording) logq(ctx, q, `resid=${q.sliceResid}`);
  }
  resortRrList(s, q, ctx);
  s.activeQueue = -1;
  s.activeCic = -1;
  if (ctx.recording) recordQueueRule(s, q, rule, why, ctx);
}

/** A rule about queue q, with the busy queues as candidates (apart: see recordWait). */
export function recordQueueRule(
  s: CfqState,
  q: CfqQueue,
  rule: CfqRule,
  why: string,
  ctx: ElevatorContext,
): void {
  decide(
    ctx,
    rule,
    -1,
    () => busyCandidates(s, ctx),
    () => `${queueName(q)}: ${why}`,
  );
}

/** Each busy queue's next request, in service-tree order, noted with its key. */
export function busyCandidates(s: CfqState, ctx: ElevatorContext): Candidate[] {
  const out: Candidate[] = [];
  const now = jiffiesNow(ctx);
  for (const id of s.serviceTree) {
    const q = s.queues[id]!;
    if (q.nextRq < 0) continue;
    const active = id === s.activeQueue ? ', active' : '';
    out.push({
      slot: q.nextRq,
      note: `${queueName(q)} next_rq; service-tree key ${q.rbKey} (now ${now})${active}`,
    });
  }
  return out;
}

// ── queue selection (§5.6) ──

interface Selection {
  q: CfqQueue | null;
  /** the rule that put a new queue in charge in this call, or null if it was kept */
  fresh: CfqRule | null;
}

/** selectQueue's answer, one object reused (read it at once): a new one per call was an
 * allocation on every dispatch, which V8 could not remove (four places return it). */
const selection: Selection = { q: null, fresh: null };

function selected(q: CfqQueue | null, fresh: CfqRule | null): Selection {
  selection.q = q;
  selection.fresh = fresh;
  return selection;
}

function newQueueRule(s: CfqState, q: CfqQueue, coop: boolean): CfqRule {
  if (coop) return 'close-cooperator';
  if (q.ioprioClass === CLASS_IDLE) return 'idle-class-when-idle';
  if (s.lastClass !== 0 && s.lastClass !== q.ioprioClass) return 'class-switch';
  return 'new-queue-from-service-tree';
}

// The decision records are built apart from the hot functions: a closure there would cost
// them a context allocation on every call, recording or not.

/** The active queue ran dry and waits (idle timer or requests in flight). */
function recordWait(s: CfqState, q: CfqQueue, ctx: ElevatorContext): void {
  const rule: CfqRule = s.idleTimerAt >= 0 ? 'idle-wait' : 'wait-in-flight';
  decide(
    ctx,
    rule,
    -1,
    () => busyCandidates(s, ctx),
    () =>
      rule === 'idle-wait'
        ? `${queueName(q)} idles until jiffy ${s.idleTimerAt} for its process's next request`
        : `${queueName(q)} has ${q.dispatched} request(s) in flight and an idle window: wait`,
  );
}

/** cfq_select_queue: the queue to dispatch from, or none (waiting on the active one). */
function selectQueue(s: CfqState, ctx: ElevatorContext): Selection {
  let coop: CfqQueue | null = null;
  if (s.activeQueue >= 0) {
    const q = s.queues[s.activeQueue]!;
    if (sliceUsed(q, ctx) && !q.mustDispatch) {
      sliceExpired(s, false, 'slice-expired', 'its time slice is used up (t=0)', ctx);
    } else if (q.sortList.length > 0) {
      return selected(q, null);
    } else {
      coop = closeCooperator(s, q, ctx);
      if (coop) {
        if (q.newQueue < 0) setupMerge(s, q, coop);
        sliceExpired(
          s,
          false,
          'close-cooperator',
          `ran dry; cfq${coop.pid} works near the head`,
          ctx,
        );
      } else if (s.idleTimerAt >= 0 || (q.dispatched > 0 && q.idleWindow)) {
        // No requests queued: let the idle timer, or the requests in flight, decide.
        if (ctx.recording) recordWait(s, q, ctx);
        return selected(null, null);
      } else {
        sliceExpired(
          s,
          false,
          'queue-empty-expire',
          q.idleWindow ? 'empty, not idling' : 'empty, no idle window',
          ctx,
        );
      }
    }
  }
  const next = coop ?? serviceTreeFirst(s);
  setActiveQueue(s, next, ctx);
  if (!next) return selected(null, null);
  const fresh = newQueueRule(s, next, coop !== null);
  s.lastClass = next.ioprioClass;
  return selected(next, fresh);
}

// ── may the active queue dispatch? (§5.7) ──

/** cfq_may_dispatch: null if it may, else the rule that holds it back and why. */
function mayDispatch(s: CfqState, q: CfqQueue, ctx: ElevatorContext): [CfqRule, string] | null {
  if (q.idleWindow && s.rqInDriverAsync > 0)
    return ['drain-async-before-sync', `${s.rqInDriverAsync} async request(s) in the driver`];
  if (s.syncFlight > 0 && !q.sync)
    return ['sync-in-flight', `${s.syncFlight} sync request(s) in flight`];
  const idle = q.ioprioClass === CLASS_IDLE;
  let max = idle ? 1 : s.t.quantum;
  if (q.dispatched >= max) {
    if (idle) return ['idle-class-one-in-flight', 'an IDLE-class queue has one in flight'];
    if (s.busyQueues > 1)
      return ['quantum-reached', `${q.dispatched} in flight = quantum ${max}; others are busy`];
    max *= 4; // the only busy queue may go deeper
  }
  if (!q.sync && s.t.lowLatency) {
    const lastSync = jiffiesNow(ctx) - s.lastEndSyncRq;
    let depth = Math.floor(lastSync / s.t.sliceSync);
    if (!depth && !q.dispatched) depth = 1;
    if (depth < max) {
      max = depth;
      if (q.dispatched >= max)
        return [
          'async-depth-ramp',
          `last sync completion ${lastSync} jiffies ago: async depth ${depth}`,
        ];
    }
  }
  return q.dispatched < max ? null : ['quantum-reached', `${q.dispatched} in flight, limit ${max}`];
}

/** cfq_check_fifo: once per slice, the FIFO head if its deadline has passed. */
function checkFifo(q: CfqQueue, ctx: ElevatorContext): number {
  if (q.fifoExpire) return -1;
  q.fifoExpire = true;
  const head = q.fifo[0];
  if (head === undefined) return -1;
  const rq = ctx.rq(head);
  const expired = ctx.now >= rq.fifoNs;
  if (ctx.recording) logq(ctx, q, `fifo=${expired ? rqPointer(rq.id) : '(null)'}`);
  return expired ? head : -1;
}

// ── dispatch ──

/** cfq_forced_dispatch, one request per call: drain the leftmost queue, then the next. */
function forcedDispatch(s: CfqState, ctx: ElevatorContext): number {
  const q = serviceTreeFirst(s);
  if (!q) return -1;
  const slot = q.nextRq;
  dispatchInsert(s, slot, ctx);
  s.forcedCount++;
  if (ctx.recording)
    decide(
      ctx,
      'forced-dispatch',
      slot,
      () => [],
      () => `${queueName(q)}: drained`,
    );
  if (s.busyQueues === 0) {
    sliceExpired(s, false, 'forced-dispatch', 'every queue drained', ctx);
    if (ctx.recording) logd(ctx, `forced_dispatch=${s.forcedCount}`);
    s.forcedCount = 0;
  }
  return slot;
}

/** cfq_dispatch_requests: one request toward the driver, or −1. */
export function cfqDispatch(s: CfqState, force: boolean, ctx: ElevatorContext): number {
  const alias = s.aliasOut.shift();
  if (alias !== undefined) return alias;
  if (!s.busyQueues) return -1;
  if (force) return forcedDispatch(s, ctx);

  const { q, fresh } = selectQueue(s, ctx);
  if (!q) return -1;

  const refusal = mayDispatch(s, q, ctx);
  if (refusal) {
    if (ctx.recording) recordRefusal(s, q, refusal, ctx);
    return -1;
  }
  // the expired FIFO head if the once-per-slice check finds one, else next_rq
  const fifoSlot = checkFifo(q, ctx);
  const slot = fifoSlot >= 0 ? fifoSlot : q.nextRq;
  const rq = ctx.rq(slot);
  const rule: CfqRule = fifoSlot >= 0 ? 'fifo-expired-in-queue' : (fresh ?? 'continue-slice');
  if (ctx.recording) recordDispatch(s, q, rq, slot, rule, fresh, ctx);
  dispatchInsert(s, slot, ctx);
  if (s.activeCic < 0) s.activeCic = rq.pid;

  q.sliceDispatch++;
  q.mustDispatch = false;
  // An async queue that spent its request budget, or any IDLE-class queue, expires now
  // when others wait.
  const idle = q.ioprioClass === CLASS_IDLE;
  if (s.busyQueues > 1 && ((!q.sync && q.sliceDispatch >= prioToMaxrq(s, q)) || idle)) {
    q.sliceEnd = jiffiesNow(ctx) + 1;
    if (idle) sliceExpired(s, false, 'idle-class-expire', 'IDLE class: one dispatch per turn', ctx);
    else
      sliceExpired(
        s,
        false,
        'async-slice-limit',
        `dispatched ${q.sliceDispatch} = its budget of ${prioToMaxrq(s, q)} requests`,
        ctx,
      );
  }
  logq(ctx, q, 'dispatched a request');
  return slot;
}

function recordRefusal(
  s: CfqState,
  q: CfqQueue,
  refusal: [CfqRule, string],
  ctx: ElevatorContext,
): void {
  decide(
    ctx,
    refusal[0],
    -1,
    () => busyCandidates(s, ctx),
    () => `${queueName(q)} may not dispatch: ${refusal[1]}`,
  );
}

function recordDispatch(
  s: CfqState,
  q: CfqQueue,
  rq: IoRequest,
  slot: number,
  rule: CfqRule,
  fresh: CfqRule | null,
  ctx: ElevatorContext,
): void {
  // A queue switch whose first request comes off the FIFO is recorded on its own.
  if (fresh && rule !== fresh)
    ctx.decide(fresh, -1, busyCandidates(s, ctx), dispatchText(s, q, rq, fresh, ctx));
  const cands = busyCandidates(s, ctx).filter((c) => c.slot !== slot);
  for (const other of q.sortList)
    if (other !== slot && other !== q.nextRq)
      cands.push({ slot: other, note: `${queueName(q)}: farther from the head` });
  ctx.decide(rule, slot, cands, dispatchText(s, q, rq, rule, ctx));
}

function dispatchText(
  s: CfqState,
  q: CfqQueue,
  rq: IoRequest,
  rule: CfqRule,
  ctx: ElevatorContext,
): string {
  const name = queueName(q);
  switch (rule) {
    case 'fifo-expired-in-queue':
      return `${name}: FIFO head (sector ${rq.sector}) is past its deadline; it goes first`;
    case 'continue-slice': {
      const left = q.sliceNew
        ? 'slice not started'
        : `${q.sliceEnd - jiffiesNow(ctx)} jiffies left`;
      return `${name} keeps the disk (${left}): next_rq at sector ${rq.sector}`;
    }
    case 'class-switch':
    case 'idle-class-when-idle':
    case 'close-cooperator':
    case 'new-queue-from-service-tree':
      return `${name} (${CLASS_NAMES[q.ioprioClass]}) is set active: first request at sector ${rq.sector}`;
    default:
      return `${name}: sector ${rq.sector}`;
  }
}
