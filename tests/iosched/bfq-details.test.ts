// BFQ details of the 6.x code that are easy to miss (src/engine/iosched/bfq*.ts): the
// u64 wraps of a new queue's think time and idle time, bfq_bfqq_end_wr,
// bfq_updated_next_req, bfq_allow_bio_merge before insertion. Each test names the kernel
// function; the main rules are in bfq.test.ts and bfq-engine.test.ts.
import { describe, expect, it } from 'vitest';
import { fakeCtx } from './kyber-harness';
import { bfq, type BfqState } from '../../src/engine/iosched/bfq';
import { updatedNextReq } from '../../src/engine/iosched/bfq-insert';
import {
  queueFor,
  updateIoIntensity,
  updateShortTtime,
  updateThinktime,
} from '../../src/engine/iosched/bfq-queue';
import { activateRequeue } from '../../src/engine/iosched/bfq-wf2q';
import { endWr } from '../../src/engine/iosched/bfq-wr';
import type { IoRequest } from '../../src/engine/request';

function fresh(hz = 250) {
  const ctx = fakeCtx(hz);
  (ctx as unknown as { nonRotational: () => boolean }).nonRotational = () => false;
  const s = bfq.init({}, ctx);
  return { s, ctx };
}
function busyQueue(s: BfqState, ctx: ReturnType<typeof fakeCtx>, pid: number, budget: number) {
  const q = s.queues[queueFor(s, pid, true, 2, 4, ctx)]!;
  q.budget = budget;
  activateRequeue(s, q, false);
  q.busy = true;
  s.busyQueues[1]++;
  return q;
}
const rq = (sectors: number, sync = true) => ({ nSectors: sectors, sync }) as IoRequest;

describe('bfq: details of the 6.x code', () => {
  it('bfq_init_bfqq sets last_end_request to now + 1, minus infinity in u64: the first think-time sample is 2 × slice_idle, so the third quick request finds a long think time and the fourth a short one again (the one flip per queue in the 6.18 bfq trace)', () => {
    const { s, ctx } = fresh();
    const q = s.queues[queueFor(s, 1, true, 2, 4, ctx)]!;
    const flags: boolean[] = [];
    for (let i = 0; i < 4; i++) {
      updateThinktime(s, q, ctx.now);
      updateShortTtime(s, q, 0);
      flags.push(q.hasShortTtime);
      q.ttimeLastEnd = ctx.now;
      ctx.now += 20_000; // 20 µs to the next request
    }
    expect(flags).toEqual([true, true, false, true]);
  });

  it('bfq_bfqq_end_wr: after interactive raising, soft_rt_next_start restarts from now', () => {
    const { s, ctx } = fresh();
    const q = s.queues[queueFor(s, 1, true, 2, 4, ctx)]!;
    q.wrCoeff = 30;
    q.wrCurMaxTime = 2625;
    q.softRtNextStart = 99999;
    ctx.now = 4e9; // jiffy 1000
    endWr(s, q, ctx);
    expect(q.softRtNextStart).toBe(1000);
  });

  it('bfq_updated_next_req: a waiting queue’s budget covers its next request and what it already got (entity->service)', () => {
    const { s, ctx } = fresh();
    const q = busyQueue(s, ctx, 1, 500);
    q.maxBudget = 100;
    q.service = 700;
    const r = { ...rq(64), slot: 0, sector: 0 } as IoRequest;
    (ctx as unknown as { table: IoRequest[] }).table.push(r);
    q.nextRq = 0;
    updatedNextReq(s, q, ctx);
    expect(q.budget).toBe(700);
  });

  it('bfq_allow_bio_merge: a request not yet inserted has no queue (bfq_init_rq runs at insertion): no bio may join it through the scheduler', () => {
    const { s, ctx } = fresh();
    queueFor(s, 1, true, 2, 4, ctx);
    const r = { sync: true, sched: -1 } as IoRequest;
    bfq.setRequest!(s, r, undefined as never, ctx);
    expect(r.sched).toBe(-1);
    const bio = { pid: 1, write: false, sync: true, ioprioClass: 2, ioprioLevel: 4, sector: 8 };
    expect(bfq.allowMerge!(s, r, bio as never, ctx)).toBe(false);
  });
});

describe('bfq: tot_idle_time is a u64 (bfq_update_io_intensity)', () => {
  it('a new queue’s first sample is −1 ns (2^64 − 1): never emptied, it counts as idle — not I/O-bound — for some forty halvings of its window; one arrival on the empty queue brings it back', () => {
    const { s, ctx } = fresh();
    const q = s.queues[queueFor(s, 1, true, 2, 4, ctx)]!;
    q.ttimeLastEnd = ctx.now + 1; // bfq_init_bfqq, at the insertion's (cached) time
    updateIoIntensity(q, ctx.now); // just created: only the sample
    q.justCreated = false;
    q.sortList = [0]; // backlogged from now on: no more samples
    let boundAtMs = -1;
    for (let t = 1; t <= 8000 && boundAtMs < 0; t++) {
      updateIoIntensity(q, t * 1e6);
      if (q.ioBound) boundAtMs = t;
    }
    expect(boundAtMs).toBeGreaterThan(3000);
    expect(boundAtMs).toBeLessThan(8000);
    // the same queue had it emptied once: I/O-bound at once
    const { s: s2, ctx: c2 } = fresh();
    const r = s2.queues[queueFor(s2, 1, true, 2, 4, c2)]!;
    r.ttimeLastEnd = c2.now + 1;
    updateIoIntensity(r, c2.now);
    r.justCreated = false;
    r.ttimeLastEnd = 1e6;
    updateIoIntensity(r, 1.2e6); // arrives on the empty queue 0.2 ms after a completion
    expect(r.idleWrap).toBe(-1);
    expect(r.totIdleTime).toBe(0.2e6 - 1);
    expect(r.ioBound).toBe(true); // idle 1/6 of the time: under a fifth
  });
});
