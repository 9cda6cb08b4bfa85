// What CFQ does when a request arrives (cfq_insert_request, cfq_rq_enqueued, preemption),
// when one completes (cfq_completed_request: the slice starts, expires, or the queue idles
// with cfq_arm_slice_timer), and when the idle timer fires (cfq_idle_slice_timer).
// LINUX-SCHEDULERS.md §5.8, §5.9.
import type { IoRequest } from '../request';
import { busyCandidates, cancelIdleTimer, sliceExpired } from './cfq-dispatch';
import { addRqRb } from './cfq-rq';
import {
  cicOf,
  queueOf,
  setPrioSlice,
  sliceUsed,
  updateIdleWindow,
  updateSeekTime,
  updateThinkTime,
} from './cfq-queue';
import { closeCooperator, rqClose, serviceTreeAdd } from './cfq-service-tree';
import {
  CFQ_HW_QUEUE_MIN,
  CFQ_MIN_TT_MS,
  CLASS_IDLE,
  CLASS_RT,
  PAGE_CACHE_SIZE,
  decide,
  jiffiesNow,
  jiffyNs,
  logd,
  logq,
  msecsToJiffies,
  queueName,
  sampleValid,
  seeky,
  type CfqQueue,
  type CfqRule,
  type CfqState,
} from './cfq-types';
import type { ElevatorContext } from './types';

// ── arrival ──

// Decision records are built in functions of their own: a closure in a hot function would
// cost it a context allocation on every call, recording or not.
function recordIdleHit(q: CfqQueue, rq: IoRequest, runNow: boolean, ctx: ElevatorContext): void {
  decide(
    ctx,
    'idle-hit',
    -1,
    () => [{ slot: rq.slot, note: 'the request the queue idled for' }],
    () =>
      `${queueName(q)} was idling and its process issued sector ${rq.sector}: it must be dispatched` +
      (runNow ? '' : ' (idle timer left running: small request, no one else waits)'),
  );
}

/** cfq_insert_request: sort list, FIFO with its deadline, then the arrival rules. */
export function insertRequest(s: CfqState, rq: IoRequest, ctx: ElevatorContext): void {
  const q = queueOf(s, rq);
  logq(ctx, q, 'insert_request');
  addRqRb(s, rq, ctx);
  const expire = rq.sync ? s.t.fifoExpireSync : s.t.fifoExpireAsync;
  rq.fifoNs = jiffyNs(jiffiesNow(ctx) + expire, ctx.hz);
  q.fifo.push(rq.slot);
  rqEnqueued(s, q, rq, ctx);
}

/** cfq_rq_enqueued: update the process's statistics; end idling, or preempt. */
function rqEnqueued(s: CfqState, q: CfqQueue, rq: IoRequest, ctx: ElevatorContext): void {
  const cic = cicOf(s, rq.pid, ctx);
  s.rqQueued++;
  updateThinkTime(s, cic, ctx);
  updateSeekTime(q, rq, ctx);
  updateIdleWindow(s, q, cic, ctx);
  q.lastRequestPos = rq.sector + rq.nSectors;

  if (q.id === s.activeQueue) {
    if (q.waitRequest) {
      // The request CFQ idled for. A big one, or one with others waiting, ends idling
      // now; a small one waits for the idle timer or an unplug, so more may merge.
      const big = rq.nSectors * 512 > PAGE_CACHE_SIZE;
      const runNow = big || s.busyQueues > 1;
      q.mustDispatch = true;
      if (ctx.recording) recordIdleHit(q, rq, runNow, ctx);
      if (runNow) {
        cancelIdleTimer(s, ctx);
        ctx.kick();
      }
    }
    return;
  }
  const rule = shouldPreempt(s, q, rq, ctx);
  if (rule) {
    preemptQueue(s, q, rule, ctx);
    ctx.kick();
  }
}

/** cfq_should_preempt: may the new request's queue take over from the active one? */
export function shouldPreempt(
  s: CfqState,
  qn: CfqQueue,
  rq: IoRequest,
  ctx: ElevatorContext,
): CfqRule | null {
  if (s.activeQueue < 0) return null;
  const qa = s.queues[s.activeQueue]!;
  if (sliceUsed(qa, ctx)) return 'preempt-slice-used';
  if (qn.ioprioClass === CLASS_IDLE) return null;
  if (qa.ioprioClass === CLASS_IDLE) return 'preempt-idle-class';
  if (rq.sync && !qa.sync) return 'preempt-sync-over-async';
  // (a metadata request would preempt here; Spindle's requests carry no metadata flag)
  if (qn.ioprioClass === CLASS_RT && qa.ioprioClass !== CLASS_RT) return 'preempt-rt';
  if (s.activeCic < 0 || !qa.waitRequest) return null;
  // as good as a request the idling queue would issue itself
  if (rqClose(s, qa, rq.sector)) return 'preempt-close';
  return null;
}

/** cfq_preempt_queue: expire the active queue (saving its residual) and put the new one
 * at the front of the service tree with a fresh slice. */
function preemptQueue(s: CfqState, qn: CfqQueue, rule: CfqRule, ctx: ElevatorContext): void {
  logq(ctx, qn, 'preempt');
  sliceExpired(s, true, rule, `preempted by ${queueName(qn)}`, ctx);
  serviceTreeAdd(s, qn, true, ctx);
  qn.sliceEnd = 0;
  qn.sliceNew = true;
}

// ── completion ──

/** cfq_update_hw_tag: over 50 loaded samples, did the driver ever hold 5 requests? */
function updateHwTag(s: CfqState): void {
  const inDriver = s.rqInDriverAsync + s.rqInDriverSync;
  if (inDriver > s.rqInDriverPeak) s.rqInDriverPeak = inDriver;
  if (s.rqQueued <= CFQ_HW_QUEUE_MIN && inDriver <= CFQ_HW_QUEUE_MIN) return;
  if (s.hwTagSamples++ < 50) return;
  s.hwTag = s.rqInDriverPeak >= CFQ_HW_QUEUE_MIN ? 1 : 0;
  s.hwTagSamples = 0;
  s.rqInDriverPeak = 0;
}

/** cfq_completed_request */
export function completedRequest(s: CfqState, rq: IoRequest, ctx: ElevatorContext): void {
  const q = queueOf(s, rq);
  const now = jiffiesNow(ctx);
  logq(ctx, q, 'complete');
  updateHwTag(s);
  if (rq.sync) s.rqInDriverSync--;
  else s.rqInDriverAsync--;
  q.dispatched--;
  if (q.sync) s.syncFlight--;
  if (rq.sync) {
    cicOf(s, rq.pid, ctx).lastEndRequest = now;
    s.lastEndSyncRq = now;
  }

  if (q.id === s.activeQueue) {
    const empty = q.sortList.length === 0;
    // The slice clock starts at the first completion of the slice.
    if (q.sliceNew) {
      setPrioSlice(s, q, ctx);
      q.sliceNew = false;
    }
    if (sliceUsed(q, ctx) || q.ioprioClass === CLASS_IDLE) {
      const idle = q.ioprioClass === CLASS_IDLE && !sliceUsed(q, ctx);
      sliceExpired(
        s,
        true,
        idle ? 'idle-class-expire' : 'slice-expired',
        idle ? 'IDLE class: expires at each completion (t=1)' : 'slice used at completion (t=1)',
        ctx,
      );
    } else if (empty && !closeCooperator(s, q, ctx) && rq.sync) {
      // (a request flagged no-idle would not idle; Spindle's requests carry no such flag)
      armSliceTimer(s, ctx);
    }
  }
  if (s.rqInDriverAsync + s.rqInDriverSync === 0) scheduleDispatch(s, ctx);
}

/** cfq_schedule_dispatch: the queue is run again (the framework runs it after this hook). */
function scheduleDispatch(s: CfqState, ctx: ElevatorContext): void {
  if (s.busyQueues) logd(ctx, 'schedule dispatch');
}

/**
 * cfq_arm_slice_timer: the active sync queue ran dry; wait slice_idle (2 ms if seeky)
 * for its process's next request, unless that would not pay.
 */
function armSliceTimer(s: CfqState, ctx: ElevatorContext): void {
  const q = s.queues[s.activeQueue]!;
  // An SSD that queues commands itself has no seek penalty to idle for (2.6.32).
  if (ctx.nonRotational() && s.hwTag) return;
  if (!mayIdle(s, q, ctx)) return;
  q.waitRequest = true;
  let sl = s.t.sliceIdle;
  if (sampleValid(q.seekSamples) && seeky(q))
    sl = Math.min(sl, msecsToJiffies(CFQ_MIN_TT_MS, ctx.hz));
  const at = jiffiesNow(ctx) + sl;
  s.idleTimerAt = at;
  ctx.setTimer(jiffyNs(at, ctx.hz));
  if (ctx.recording) logq(ctx, q, `arm_idle: ${sl}`);
  if (ctx.recording) recordIdleArm(s, q, sl, at, ctx);
}

function recordIdleArm(
  s: CfqState,
  q: CfqQueue,
  sl: number,
  at: number,
  ctx: ElevatorContext,
): void {
  decide(
    ctx,
    'idle-arm',
    -1,
    () => busyCandidates(s, ctx),
    () => `${queueName(q)} ran dry: idle ${sl} jiffies (until jiffy ${at}) for its next request`,
  );
}

/** Idling is off (slice_idle 0 or no idle window), pointless (requests still in the
 * driver; no process to wait for), or would overrun the slice (mean think time). */
function mayIdle(s: CfqState, q: CfqQueue, ctx: ElevatorContext): boolean {
  if (!s.t.sliceIdle || !q.idleWindow) return false;
  if (s.rqInDriverAsync + s.rqInDriverSync > 0) return false;
  if (s.activeCic < 0) return false;
  const cic = s.cics[s.activeCic]!;
  return !(sampleValid(cic.ttimeSamples) && q.sliceEnd - jiffiesNow(ctx) < cic.ttimeMean);
}

// ── the idle timer ──

/** cfq_idle_slice_timer */
export function idleSliceTimer(s: CfqState, ctx: ElevatorContext): void {
  s.idleTimerAt = -1;
  logd(ctx, 'idle timer fired');
  let timedOut = true;
  if (s.activeQueue >= 0) {
    const q = s.queues[s.activeQueue]!;
    timedOut = false;
    const kick = (why: string) => {
      if (ctx.recording)
        decide(
          ctx,
          'idle-timer-kick',
          -1,
          () => busyCandidates(s, ctx),
          () => `${queueName(q)}: ${why}`,
        );
      scheduleDispatch(s, ctx);
    };
    // A request came while idling: let it through.
    if (q.mustDispatch) return kick('a request arrived while idling; it must be dispatched');
    if (!sliceUsed(q, ctx)) {
      // Nothing else to run: keep the queue (no kick).
      if (!s.busyQueues) return;
      if (q.sortList.length > 0) return kick('it has requests queued; run it');
    }
  }
  const q = s.activeQueue >= 0 ? s.queues[s.activeQueue]! : null;
  sliceExpired(
    s,
    timedOut,
    'idle-timeout',
    q && sliceUsed(q, ctx) ? 'slice used while idling' : 'no request came within slice_idle',
    ctx,
  );
  scheduleDispatch(s, ctx);
}
