// I/O injection while BFQ idles (src/engine/iosched/bfq-inject.ts) against
// block/bfq-iosched.c of Linux 6.x: bfq_select_queue's injection branch,
// bfq_choose_bfqq_for_injection, bfq_update_inject_limit, bfq_reset_inject_limit, the
// sampling in bfq_add_request, bfq_check_waker, bfq_update_has_short_ttime's reset.
import { describe, expect, it } from 'vitest';
import { bfqFresh, complete, dispatch, insert, MS, queueOfPid } from './bfq-harness';
import {
  injectOnTtimeChange,
  pickInjection,
  resetInjectLimit,
  updateInjectLimit,
} from '../../src/engine/iosched/bfq-inject';
import type { Fake } from './kyber-harness';
import type { BfqView } from '../../src/engine/iosched/bfq-view';
import { bfq, type BfqState } from '../../src/engine/iosched/bfq';

/** pid 1 (weight 80, seeky) in service and idled for — for its share, not for
 * throughput (a queueing disk) — beside pid 2 (weight 40) with three requests queued */
function idlingForHeavySeekyQueue() {
  const { s, ctx } = bfqFresh();
  s.hwTag = 1;
  insert(s, ctx, { pid: 1, sector: 1000, level: 0 });
  queueOfPid(s, 1).seekHistory = -1;
  for (let i = 0; i < 3; i++) insert(s, ctx, { pid: 2, sector: 500_000_000 + i * 8 });
  ctx.now = 20 * MS;
  const first = dispatch(s, ctx);
  expect(ctx.table[first]!.pid).toBe(1); // the heavier queue finishes first (B-WF2Q+)
  ctx.now = 25 * MS;
  complete(s, ctx, first);
  expect(queueOfPid(s, 1).waitRequest).toBe(true); // asymmetric weights: idle for it
  return { s, ctx };
}

/** pid 1's next request arrives now and is served in `ms` */
function firstRequest(s: BfqState, ctx: Fake, ms: number) {
  const rq = insert(s, ctx, { pid: 1, sector: 2_000_000 });
  const slot = dispatch(s, ctx);
  expect(slot).toBe(rq.slot);
  expect(s.waitedRq).toBe(slot);
  ctx.now += ms * MS;
  complete(s, ctx, slot);
}

describe('bfq: injection (bfq_choose_bfqq_for_injection)', () => {
  it('with inject_limit 0 and no baseline yet nothing is injected: the device just idles', () => {
    const { s, ctx } = idlingForHeavySeekyQueue();
    expect(queueOfPid(s, 1).injectLimit).toBe(0);
    expect(dispatch(s, ctx)).toBe(-1);
  });

  it('bfq_update_inject_limit: a first request served with the drive empty sets the baseline and the limit to 1; then one request of another queue is injected, not two', () => {
    const { s, ctx } = idlingForHeavySeekyQueue();
    ctx.now = 26 * MS;
    firstRequest(s, ctx, 4);
    const q1 = queueOfPid(s, 1);
    expect(q1.lastServTimeNs).toBe(4 * MS);
    expect(q1.injectLimit).toBe(1);
    expect(q1.waitRequest).toBe(true);
    const slot = dispatch(s, ctx);
    expect(ctx.table[slot]!.pid).toBe(2);
    expect(s.inService).toBe(q1.id); // still idling for pid 1
    expect(s.rqsInjected).toBe(true);
    expect(ctx.records.at(-1)!.rule).toBe('inject');
    expect(ctx.records.at(-1)!.text).toMatch(/0 in flight < inject_limit 1/);
    const view = bfq.inspect(s, ctx) as unknown as BfqView;
    expect(view.injected).toBe(1);
    expect(view.idling).toMatchObject({ waitRequest: true, injectedSinceEmpty: true });
    expect(view.queues.find((q) => q.id === q1.id)).toMatchObject({
      injectLimit: 1,
      baselineMs: 4,
    });
    expect(dispatch(s, ctx)).toBe(-1); // 1 in flight: the limit is reached
    // bfq_remove_request: injected down to empty, pid 2's queue leaves the busy list with
    // budget and service reset (they no longer mean "the last time it emptied")
    const q2 = queueOfPid(s, 2);
    let inFlight = slot;
    for (let i = 0; i < 2; i++) {
      complete(s, ctx, inFlight);
      inFlight = dispatch(s, ctx);
      expect(ctx.table[inFlight]!.pid).toBe(2);
    }
    expect([q2.busy, q2.budget, q2.service]).toEqual([false, 0, 0]);
  });

  it('bfq_update_inject_limit: with injection, a total service time under 1.5 × the baseline raises the limit; at or over it lowers it (and notes decrease_time_jif)', () => {
    const { s, ctx } = bfqFresh();
    const q = queueOfPid(s, insert(s, ctx, { pid: 1, sector: 0 }).pid);
    q.lastServTimeNs = 4 * MS;
    q.injectLimit = 2;
    s.maxRqInDriver = 4;
    s.rqsInjected = true;
    s.rqInDriver = 3;
    s.lastEmptyOccupiedNs = 0;
    ctx.now = 5.9 * MS;
    updateInjectLimit(s, q, ctx);
    expect(q.injectLimit).toBe(3);
    expect(q.lastServTimeNs).toBe(4 * MS); // not lower: the baseline stays
    s.rqsInjected = true;
    ctx.now = 6 * MS;
    updateInjectLimit(s, q, ctx);
    expect(q.injectLimit).toBe(2);
    expect(q.decreaseTimeJ).toBe(1);
    // never above max_rq_in_driver + 1
    q.injectLimit = 5;
    s.rqsInjected = true;
    ctx.now = 1 * MS;
    updateInjectLimit(s, q, ctx);
    expect(q.injectLimit).toBe(5);
    expect(q.lastServTimeNs).toBe(1 * MS); // a lower total time lowers the baseline
  });

  it('bfq_reset_inject_limit: every second a first request restarts from 0 (short think time) or 1 (long), with no baseline', () => {
    const { s, ctx } = bfqFresh();
    const q = queueOfPid(s, insert(s, ctx, { pid: 1, sector: 0 }).pid);
    q.injectLimit = 4;
    q.lastServTimeNs = 3 * MS;
    resetInjectLimit(s, q, 7);
    expect([q.injectLimit, q.lastServTimeNs, q.decreaseTimeJ]).toEqual([0, 0, 7]);
    q.hasShortTtime = false;
    resetInjectLimit(s, q, 8);
    expect(q.injectLimit).toBe(1);
    // bfq_add_request does it when decrease_time_jif is a second old
    q.injectLimit = 4;
    const j0 = q.decreaseTimeJ;
    complete(s, ctx, 0);
    ctx.now = (j0 / 250) * 1e9 + 1001 * MS;
    insert(s, ctx, { pid: 1, sector: 8 });
    expect(q.injectLimit).toBe(q.hasShortTtime ? 0 : 1);
  });

  it('bfq_update_has_short_ttime: the think time turning long before a baseline exists resets the limit at once; turning short, only 100 ms after the last decrease', () => {
    const { s, ctx } = bfqFresh();
    const q = queueOfPid(s, insert(s, ctx, { pid: 1, sector: 0 }).pid);
    q.injectLimit = 3;
    q.decreaseTimeJ = 10;
    q.hasShortTtime = false;
    injectOnTtimeChange(s, q, true, 11);
    expect(q.injectLimit).toBe(1);
    q.injectLimit = 3;
    q.hasShortTtime = true;
    injectOnTtimeChange(s, q, false, 20); // 20 − 11 jiffies < 100 ms
    expect(q.injectLimit).toBe(3);
    injectOnTtimeChange(s, q, false, 40);
    expect(q.injectLimit).toBe(0);
  });
});

describe('bfq: wakers and the process’s own async I/O (bfq_select_queue)', () => {
  it('bfq_check_waker: a queue with a long think time that gets I/O within 4 ms of another queue’s completion three times running takes it as its waker — injected first while it idles', () => {
    const { s, ctx } = bfqFresh();
    const w = queueOfPid(s, insert(s, ctx, { pid: 2, sector: 900_000_000 }).pid);
    const q = queueOfPid(s, insert(s, ctx, { pid: 1, sector: 0 }).pid);
    bfqDrainOne(s, ctx, 1);
    longThinkTime(q);
    for (let i = 1; i <= 3; i++) {
      ctx.now += 20 * MS;
      s.lastCompletedQ = w.id;
      s.lastCompletionNs = ctx.now - 3 * MS;
      insert(s, ctx, { pid: 1, sector: i * 8 });
      expect(q.numWakerDetections).toBe(i);
      bfqDrainOne(s, ctx, 1);
    }
    expect(q.wakerQ).toBe(w.id);
    expect(w.woken).toEqual([q.id]);
    expect(ctx.records.some((r) => r.rule === 'waker-detected')).toBe(true);
    // 4 ms after the completion is too late
    const { s: s2, ctx: c2 } = bfqFresh();
    const w2 = queueOfPid(s2, insert(s2, c2, { pid: 2, sector: 900_000_000 }).pid);
    const q2 = queueOfPid(s2, insert(s2, c2, { pid: 1, sector: 0 }).pid);
    bfqDrainOne(s2, c2, 1);
    longThinkTime(q2);
    c2.now += 20 * MS;
    s2.lastCompletedQ = w2.id;
    s2.lastCompletionNs = c2.now - 4 * MS;
    insert(s2, c2, { pid: 1, sector: 8 });
    expect(q2.tentativeWakerQ).toBe(-1);
  });

  it('the waker with budget for its next request is injected before any other queue, whatever the limit', () => {
    const { s, ctx } = idlingForHeavySeekyQueue();
    const q1 = queueOfPid(s, 1);
    const q2 = queueOfPid(s, 2);
    q1.wakerQ = q2.id;
    q2.woken = [q1.id];
    expect(pickInjection(s, q1, ctx)).toMatchObject({ q: q2, why: 'waker' });
    const slot = dispatch(s, ctx);
    expect(ctx.table[slot]!.pid).toBe(2);
    expect(ctx.records.at(-1)!.text).toMatch(/waker/);
  });

  it('the async writes of the in-service queue’s own process are injected first (they cannot hurt it)', () => {
    const { s, ctx } = idlingForHeavySeekyQueue();
    insert(s, ctx, { pid: 1, sector: 7_000_000, write: true, level: 0 });
    const slot = dispatch(s, ctx);
    expect(ctx.table[slot]!).toMatchObject({ pid: 1, write: true });
    expect(ctx.records.at(-1)!.text).toMatch(/async I\/O of its own process/);
  });
});

/** a think time averaging 20 ms over many samples: long (over slice_idle / 2) */
function longThinkTime(q: BfqState['queues'][number]) {
  q.ttimeSamples = 256;
  q.ttimeTotal = 256 * 20 * MS;
  q.ttimeMean = 20 * MS;
  q.hasShortTtime = false;
}

/** dispatch and complete pid's oldest request (its queue may not be in service) */
function bfqDrainOne(s: BfqState, ctx: Fake, pid: number) {
  for (let i = 0; i < 10; i++) {
    const slot = dispatch(s, ctx);
    if (slot < 0) {
      bfq.timer!(s, ctx); // the idle window closes
      continue;
    }
    complete(s, ctx, slot);
    if (ctx.table[slot]!.pid === pid) return;
  }
}

describe('bfq: preemption (bfq_bfqq_handle_idle_busy_switch)', () => {
  it('next_queue_may_preempt: without groups the in-service queue is off its tree, so a queue whose next request comes in time, with budget left, preempts it (bfq_bfqq_update_budg_for_activation)', () => {
    const { s, ctx } = bfqFresh();
    s.hwTag = 1;
    insert(s, ctx, { pid: 2, sector: 500_000_000 });
    queueOfPid(s, 2).seekHistory = -1; // seeky: no idling for it
    insert(s, ctx, { pid: 1, sector: 1000 });
    insert(s, ctx, { pid: 1, sector: 1008 });
    const first = dispatch(s, ctx);
    expect(ctx.table[first]!.pid).toBe(2);
    expect(ctx.table[dispatch(s, ctx)]!.pid).toBe(1); // pid 2 expired: no more requests
    const q2 = queueOfPid(s, 2);
    expect(q2.nonBlockingWaitRq).toBe(true);
    ctx.now = 1 * MS;
    complete(s, ctx, first);
    ctx.now = 2 * MS; // within 3 × slice_idle of its last completion
    insert(s, ctx, { pid: 2, sector: 300_000_000 });
    expect(s.expirations.preempted).toBe(1);
    expect(ctx.records.some((r) => r.rule === 'expire-preempted' && /bfq1S/.test(r.text))).toBe(
      true,
    );
  });
});
