// BFQ (src/engine/iosched/bfq*.ts) against Linux 6.18 block/bfq-iosched.c and bfq-wf2q.c:
// the tunables, weights, B-WF2Q+ and the budget rules, each test named after the kernel
// function it comes from. Engine-level rules: bfq-engine.test.ts.
import { describe, expect, it } from 'vitest';
import { declared, docTunables } from '../helpers/doc-tunables';
import { fakeCtx } from './kyber-harness';
import { bfq, BFQ_RULES, type BfqState } from '../../src/engine/iosched/bfq';
import {
  recalcBudget,
  isSlow,
  betterToIdle,
  asymmetric,
  idlingBoostsThr,
} from '../../src/engine/iosched/bfq-expire';
import {
  ioprioOf,
  ioprioToWeight,
  queueFor,
  seeky,
  servToCharge,
  updateThinktime,
  updateShortTtime,
} from '../../src/engine/iosched/bfq-queue';
import { timeoutSyncDefaultMs } from '../../src/engine/iosched/bfq-tunables';
import {
  activateRequeue,
  bfqDelta,
  deactivateEntity,
  firstActive,
  served,
} from '../../src/engine/iosched/bfq-wf2q';
import { wrDuration } from '../../src/engine/iosched/bfq-wr';
import type { IoRequest } from '../../src/engine/request';

const INT_MAX = 2147483647;
const SH = 2 ** 22;

function fresh(hz = 250, t: Record<string, number> = {}) {
  const ctx = fakeCtx(hz);
  (ctx as unknown as { nonRotational: () => boolean }).nonRotational = () => false;
  const s = bfq.init(t, ctx);
  return { s, ctx };
}
/** a busy BE sync queue of process `pid` with a budget, activated now */
function busyQueue(
  s: BfqState,
  ctx: ReturnType<typeof fakeCtx>,
  pid: number,
  budget: number,
  level = 4,
) {
  const q = s.queues[queueFor(s, pid, true, 2, level, ctx)]!;
  q.budget = budget;
  activateRequeue(s, q, false);
  q.busy = true;
  s.busyQueues[1]++;
  return q;
}
const rq = (sectors: number, sync = true) => ({ nSectors: sectors, sync }) as IoRequest;

describe('bfq: tunables (bfq_attrs) and constants', () => {
  it('bfq_attrs: names, defaults, units and store limits', () => {
    expect(bfq.tunables.map((t) => [t.name, t.default, t.unit, t.min, t.max])).toEqual([
      ['fifo_expire_sync', 125, 'ms', 1, INT_MAX],
      ['fifo_expire_async', 250, 'ms', 1, INT_MAX],
      ['back_seek_max', 16384, 'KiB', 0, INT_MAX],
      ['back_seek_penalty', 2, 'count', 1, INT_MAX],
      ['slice_idle', 8, 'ms', 0, INT_MAX],
      ['slice_idle_us', 8000, 'us', 0, INT_MAX],
      ['max_budget', 0, 'sectors', 0, INT_MAX],
      ['timeout_sync', 124, 'ms', 1, INT_MAX],
      ['strict_guarantees', 0, 'bool', 0, 1],
      ['low_latency', 1, 'bool', 0, 1],
    ]);
  });

  it('bfq_timeout = HZ/8 jiffies: timeout_sync shows 124 ms at 250 Hz, 125 at 1000, 120 at 100', () => {
    expect([250, 1000, 100].map(timeoutSyncDefaultMs)).toEqual([124, 125, 120]);
    expect(fresh(250).s.t.timeoutJ).toBe(31);
    expect(fresh(1000, { timeout_sync: 125 }).s.t.timeoutJ).toBe(125);
  });

  it('slice_idle and slice_idle_us are one value; bfq_strict_guarantees_store raises it to 8 ms', () => {
    expect(fresh().s.t.sliceIdleNs).toBe(8e6);
    expect(fresh(250, { slice_idle: 3 }).s.t.sliceIdleNs).toBe(3e6);
    expect(fresh(250, { slice_idle_us: 500 }).s.t.sliceIdleNs).toBe(5e5);
    expect(fresh(250, { slice_idle: 2, strict_guarantees: 1 }).s.t.sliceIdleNs).toBe(8e6);
  });

  it('docs/iosched/bfq.md lists the declared tunables', () => {
    expect(docTunables('bfq.md').rows).toEqual(declared(bfq.tunables));
  });

  it('the rule list is closed', () => {
    expect(BFQ_RULES).toHaveLength(16);
  });
});

describe('bfq: queues and weights (bfq_get_queue, bfq_ioprio_to_weight)', () => {
  it('bfq_ioprio_to_weight: (8 − level) × 10 — BE 4 → 40, level 0 → 80, level 7 → 10', () => {
    expect([0, 4, 7].map(ioprioToWeight)).toEqual([80, 40, 10]);
  });

  it('bfq_set_next_ioprio_data: class none is BE 4 (nice 0), IDLE is level 7', () => {
    expect(ioprioOf(0, 0)).toEqual([2, 4]);
    expect(ioprioOf(1, 2)).toEqual([1, 2]);
    expect(ioprioOf(3, 0)).toEqual([3, 7]);
  });

  it('bfq_get_queue: one sync queue per process, one async queue per class and level', () => {
    const { s, ctx } = fresh();
    const a = queueFor(s, 100, true, 2, 4, ctx);
    expect(queueFor(s, 100, true, 2, 4, ctx)).toBe(a);
    const w1 = queueFor(s, 100, false, 2, 4, ctx);
    const w2 = queueFor(s, 200, false, 0, 0, ctx);
    expect(w2).toBe(w1); // both BE 4: the shared async queue
    expect(queueFor(s, 200, false, 2, 3, ctx)).not.toBe(w1);
    expect(queueFor(s, 300, true, 2, 4, null)).toBe(-1);
  });

  it('bfq_init_bfqq: max_budget starts at 2/3 of bfq_max_budget (16384 before 194 budgets)', () => {
    const { s, ctx } = fresh();
    expect(s.queues[queueFor(s, 1, true, 2, 4, ctx)]!.maxBudget).toBe(10922);
  });

  it('bfq_serv_to_charge: an async request of a non-raised queue costs 3 × its sectors, 1 × in an asymmetric scenario', () => {
    const { s, ctx } = fresh();
    const sync = s.queues[queueFor(s, 1, true, 2, 4, ctx)]!;
    const async = s.queues[queueFor(s, 1, false, 2, 4, ctx)]!;
    expect(servToCharge(s, sync, rq(8))).toBe(8);
    expect(servToCharge(s, async, rq(8, false))).toBe(24);
    // bfq_asymmetric_scenario: an RT queue busy beside a BE one
    s.busyQueues = [1, 1, 0];
    expect(servToCharge(s, async, rq(8, false))).toBe(8);
    s.busyQueues = [0, 1, 0];
    async.wrCoeff = 30;
    expect(servToCharge(s, async, rq(8, false))).toBe(8);
  });
});

describe('bfq: B-WF2Q+ (bfq-wf2q.c)', () => {
  it('bfq_calc_finish: F = S + budget × 2^22 / weight', () => {
    const { s, ctx } = fresh();
    const q = busyQueue(s, ctx, 1, 4096);
    expect(q.start).toBe(0);
    expect(q.finish).toBe(bfqDelta(4096, 40));
    expect(q.finish).toBe(Math.floor((4096 * SH) / 40));
  });

  it('bfq_bfqq_served: V advances by the service over the weight sum', () => {
    const { s, ctx } = fresh();
    const a = busyQueue(s, ctx, 1, 4096);
    busyQueue(s, ctx, 2, 4096, 0); // weight 80
    expect(s.trees[1].wsum).toBe(120);
    served(s, a, 1200);
    expect(s.trees[1].vtime).toBe(Math.floor((1200 * SH) / 120));
    expect(a.service).toBe(1200);
  });

  it('bfq_first_active_entity: the eligible queue with the smallest finish; a heavier weight finishes first', () => {
    const { s, ctx } = fresh();
    busyQueue(s, ctx, 1, 4096); // weight 40: F = 4096/40
    const heavy = busyQueue(s, ctx, 2, 4096, 0); // weight 80: F = 4096/80
    expect(firstActive(s, s.trees[1], s.trees[1].vtime)).toBe(heavy);
    heavy.start = s.trees[1].vtime + 1; // not eligible
    expect(firstActive(s, s.trees[1], s.trees[1].vtime)!.pid).toBe(1);
  });

  it('__bfq_deactivate_entity: an emptied queue waits on the idle tree, weight kept, until V passes its finish (bfq_forget_idle)', () => {
    const { s, ctx } = fresh();
    const a = busyQueue(s, ctx, 1, 1000);
    const b = busyQueue(s, ctx, 2, 1000);
    deactivateEntity(s, a, true);
    expect(a.tree).toBe(2);
    expect(s.trees[1].wsum).toBe(80);
    served(s, b, 2000); // V = 2000 / 80 × 2^22 > a's finish (1000 / 40)
    expect(a.onSt).toBe(false);
    expect(s.trees[1].wsum).toBe(40);
  });

  it('__bfq_activate_entity: back from the idle tree a queue starts at max(V, its old finish)', () => {
    const { s, ctx } = fresh();
    const a = busyQueue(s, ctx, 1, 1000);
    busyQueue(s, ctx, 2, 1000);
    deactivateEntity(s, a, true);
    const oldFinish = a.finish;
    activateRequeue(s, a, false);
    expect(a.start).toBe(oldFinish);
  });

  it('__bfq_activate_entity: a waiting queue (non_blocking_wait_rq) keeps its finish as start even after V passed it (back-shifting)', () => {
    const { s, ctx } = fresh();
    const a = busyQueue(s, ctx, 1, 1000);
    const b = busyQueue(s, ctx, 2, 1000);
    deactivateEntity(s, a, false); // forgotten: off the trees
    const oldFinish = a.finish;
    served(s, b, 5000);
    activateRequeue(s, a, true);
    expect(a.start).toBeLessThanOrEqual(s.trees[1].vtime);
    expect(a.finish).toBe(s.trees[1].vtime); // shifted so F = V
    expect(oldFinish).toBeLessThan(s.trees[1].vtime);
  });
});

describe('bfq: budgets (__bfq_bfqq_recalc_budget, bfq_bfqq_is_slow)', () => {
  const setup = () => {
    const { s, ctx } = fresh();
    const q = s.queues[queueFor(s, 1, true, 2, 4, ctx)]!;
    q.maxBudget = 4096;
    return { s, ctx, q };
  };
  it('budget exhausted: × 4, capped at bfq_max_budget', () => {
    const { s, ctx, q } = setup();
    recalcBudget(s, q, 'budget-exhausted', ctx);
    expect(q.maxBudget).toBe(16384);
  });
  it('budget timeout: × 2', () => {
    const { s, ctx, q } = setup();
    recalcBudget(s, q, 'budget-timeout', ctx);
    expect(q.maxBudget).toBe(8192);
  });
  it('no more requests: the service received, at least the minimum (max / 32)', () => {
    const { s, ctx, q } = setup();
    q.service = 100;
    recalcBudget(s, q, 'no-more-requests', ctx);
    expect(q.maxBudget).toBe(512);
    q.service = 3000;
    recalcBudget(s, q, 'no-more-requests', ctx);
    expect(q.maxBudget).toBe(3000);
  });
  it('too idle: cut by 4 × the minimum with nothing in flight, doubled with something in flight', () => {
    const { s, ctx, q } = setup();
    recalcBudget(s, q, 'too-idle', ctx);
    expect(q.maxBudget).toBe(4096 - 4 * 512);
    q.maxBudget = 2000;
    recalcBudget(s, q, 'too-idle', ctx);
    expect(q.maxBudget).toBe(512); // ≤ 5 × min: the minimum
    q.dispatched = 1;
    recalcBudget(s, q, 'too-idle', ctx);
    expect(q.maxBudget).toBe(1024);
  });
  it('async queues always get the maximum; raised queues 2 × the minimum', () => {
    const { s, ctx } = fresh();
    const a = s.queues[queueFor(s, 1, false, 2, 4, ctx)]!;
    recalcBudget(s, a, 'no-more-requests', ctx);
    expect(a.maxBudget).toBe(16384);
    const r = s.queues[queueFor(s, 2, true, 2, 4, ctx)]!;
    r.wrCoeff = 30;
    recalcBudget(s, r, 'budget-exhausted', ctx);
    expect(r.maxBudget).toBe(1024);
  });
  it('bfq_bfqq_is_slow: under half the max budget in more than 20 ms; seekiness decides a short slot', () => {
    const { s, ctx, q } = setup();
    s.lastBudgetStartNs = 0;
    ctx.now = 30e6;
    q.service = 100;
    expect(isSlow(s, q, false, ctx)).toEqual({ slow: true, deltaMs: 30 });
    q.service = 9000;
    expect(isSlow(s, q, false, ctx).slow).toBe(false);
    ctx.now = 0.5e6; // under 1 ms: seeky? charge one seek (8 ms) on a disk
    q.seekHistory = 0;
    expect(isSlow(s, q, false, ctx)).toEqual({ slow: false, deltaMs: 8 });
  });
});

describe('bfq: per-queue statistics and idling (bfq_better_to_idle)', () => {
  it('BFQQ_SEEKY: more than 19 of the last 32 requests seeky', () => {
    const { s, ctx } = fresh();
    const q = s.queues[queueFor(s, 1, true, 2, 4, ctx)]!;
    q.seekHistory = 0b11111111111111111111; // 20
    expect(seeky(q)).toBe(true);
    q.seekHistory = 0b1111111111111111111; // 19
    expect(seeky(q)).toBe(false);
  });

  it('bfq_update_io_thinktime + bfq_update_has_short_ttime: a mean think time over slice_idle/2 after 80 samples is long', () => {
    const { s, ctx } = fresh();
    const q = s.queues[queueFor(s, 1, true, 2, 4, ctx)]!;
    for (let i = 0; i < 40; i++) {
      q.ttimeLastEnd = ctx.now;
      ctx.now += 6e6; // 6 ms think time > 4 ms
      updateThinktime(s, q, ctx.now);
    }
    expect(q.ttimeSamples).toBeGreaterThan(80);
    expect(q.ttimeMean).toBeGreaterThan(4e6);
    updateShortTtime(s, q, 0);
    expect(q.hasShortTtime).toBe(false);
  });

  it('bfq_better_to_idle: never for async or idle-class queues or slice_idle 0; strict_guarantees always', () => {
    const { s, ctx } = fresh();
    const a = s.queues[queueFor(s, 1, false, 2, 4, ctx)]!;
    expect(betterToIdle(s, a)).toBe(false);
    const i = s.queues[queueFor(s, 2, true, 3, 0, ctx)]!;
    expect(betterToIdle(s, i)).toBe(false);
    const q = busyQueue(s, ctx, 3, 1000);
    expect(betterToIdle(s, q)).toBe(true); // the only busy queue
    s.t.sliceIdleNs = 0;
    expect(betterToIdle(s, q)).toBe(false);
    s.t.strictGuarantees = true;
    expect(betterToIdle(s, a)).toBe(true);
  });

  it('idling_boosts_thr_without_issues: hw_tag starts unknown (−1), and `!hw_tag` holds only once it is 0', () => {
    const { s, ctx } = fresh();
    const q = s.queues[queueFor(s, 1, true, 2, 4, ctx)]!;
    q.seekHistory = 0; // sequential, I/O-bound, short think time
    s.rot = false; // an SSD
    expect(s.hwTag).toBe(-1);
    expect(idlingBoostsThr(s, q)).toBe(false);
    s.hwTag = 0; // learnt: no command queueing
    expect(idlingBoostsThr(s, q)).toBe(true);
    s.rot = true;
    s.hwTag = 1; // a queueing disk: still for a sequential queue
    expect(idlingBoostsThr(s, q)).toBe(true);
    q.seekHistory = -1;
    expect(idlingBoostsThr(s, q)).toBe(false);
    s.wrBusyQueues = 1;
    s.hwTag = 0; // a raised queue busy: never
    expect(idlingBoostsThr(s, q)).toBe(false);
  });

  it('bfq_asymmetric_scenario: different weights (not for the lightest queue), or several classes busy', () => {
    const { s, ctx } = fresh();
    const light = busyQueue(s, ctx, 1, 1000, 7);
    const heavy = busyQueue(s, ctx, 2, 1000, 0);
    s.weights = [
      [10, 1],
      [80, 1],
    ];
    light.inWeightsTree = heavy.inWeightsTree = true;
    expect(asymmetric(s, heavy)).toBe(true);
    expect(asymmetric(s, light)).toBe(false);
    s.weights = [[40, 2]];
    s.busyQueues = [1, 1, 0];
    expect(asymmetric(s, light)).toBe(true);
  });
});

describe('bfq: weight raising constants (bfq_wr_duration)', () => {
  it('bfq_wr_duration: ref_wr_duration × 3/2 with the initial peak rate — 10.5 s on a disk', () => {
    const { s } = fresh(1000);
    expect(wrDuration(s)).toBe(10500);
  });
});
