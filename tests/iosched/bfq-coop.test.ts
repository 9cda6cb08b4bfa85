// BFQ's cooperating queues and bursts (src/engine/iosched/bfq-coop.ts, bfq-pos.ts,
// bfq-burst.ts) against block/bfq-iosched.c of Linux 6.x, each test named after the kernel
// function: bfq_setup_cooperator, bfqq_find_close, bfq_may_be_close_cooperator,
// bfq_too_late_for_merging, bfq_merge_bfqqs, bfq_split_bfqq / bfq_bfqq_resume_state,
// bfq_do_or_sched_stable_merge / bfq_setup_stable_merge, bfq_handle_burst.
import { describe, expect, it } from 'vitest';
import { bfqFresh, complete, dispatch, insert, MS, queueOfPid } from './bfq-harness';
import { bfq, type BfqState } from '../../src/engine/iosched/bfq';
import { expire } from '../../src/engine/iosched/bfq-expire';
import { queueName } from '../../src/engine/iosched/bfq-types';
import type { BfqView } from '../../src/engine/iosched/bfq-view';
import { ensureRegistered } from '../../src/engine/iosched/elevator';
import { proc, scenario } from '../helpers/scenario';
import { tracedRun } from '../helpers/traced-run';

ensureRegistered(bfq);

/** three processes' queues, far apart, created over 700 ms (no stable merge) */
function threeQueues(t: Record<string, number> = {}, ssd = false) {
  const f = bfqFresh({ t, ssd });
  insert(f.s, f.ctx, { pid: 3, sector: 900_000_000 });
  f.ctx.now = 700 * MS;
  insert(f.s, f.ctx, { pid: 1, sector: 100_000 });
  return f;
}

describe('bfq: close cooperators (bfq_setup_cooperator)', () => {
  it('bfqq_find_close: a request within BFQQ_CLOSE_THR (8192 sectors) of a busy queue’s next one merges the queues (bfq_merge_bfqqs) — both processes now feed one shared queue', () => {
    const { s, ctx } = threeQueues();
    ctx.now = 1400 * MS;
    const rq = insert(s, ctx, { pid: 2, sector: 100_000 + 8192 });
    const shared = queueOfPid(s, 1);
    expect(queueOfPid(s, 2)).toBe(shared);
    expect(rq.sched).toBe(shared.id);
    expect(shared.coop).toBe(true);
    expect(queueName(shared)).toBe('bfqSHARED-S');
    expect(shared.procRefs).toBe(2);
    expect(shared.queued[1]).toBe(2);
    expect(s.merges).toBe(1);
    expect(ctx.records.some((r) => r.rule === 'queue-merge')).toBe(true);
    // the inspection view shows the shared queue and the processes it serves
    const view = bfq.inspect(s, ctx) as unknown as BfqView;
    expect(view.merges).toBe(1);
    expect(view.queues.find((q) => q.id === shared.id)).toMatchObject({
      name: 'bfqSHARED-S',
      shared: true,
      processes: [1, 2],
    });
  });

  it('bfqq_find_close: 8193 sectors away is not close', () => {
    const { s, ctx } = threeQueues();
    ctx.now = 1400 * MS;
    insert(s, ctx, { pid: 2, sector: 100_000 + 8193 });
    expect(queueOfPid(s, 2)).not.toBe(queueOfPid(s, 1));
  });

  it('bfq_setup_cooperator: no search while only one queue is busy', () => {
    const f = bfqFresh();
    insert(f.s, f.ctx, { pid: 1, sector: 100_000 });
    f.ctx.now = 700 * MS;
    insert(f.s, f.ctx, { pid: 2, sector: 100_008 });
    expect(queueOfPid(f.s, 2)).not.toBe(queueOfPid(f.s, 1));
  });

  it('bfq_may_be_close_cooperator: never with a seeky queue, of another class, or async', () => {
    const seekyCase = threeQueues();
    queueOfPid(seekyCase.s, 1).seekHistory = -1;
    seekyCase.ctx.now = 1400 * MS;
    insert(seekyCase.s, seekyCase.ctx, { pid: 2, sector: 100_008 });
    expect(queueOfPid(seekyCase.s, 2)).not.toBe(queueOfPid(seekyCase.s, 1));
    const rt = threeQueues();
    rt.ctx.now = 1400 * MS;
    insert(rt.s, rt.ctx, { pid: 2, sector: 100_008, cls: 1, level: 4 });
    expect(queueOfPid(rt.s, 2)).not.toBe(queueOfPid(rt.s, 1));
    const async = threeQueues();
    async.ctx.now = 1400 * MS;
    const rq = insert(async.s, async.ctx, { pid: 2, sector: 100_008, write: true });
    expect(async.s.queues[rq.sched]!.sync).toBe(false);
    expect(rt.s.merges + async.s.merges + seekyCase.s.merges).toBe(0);
  });

  it('bfq_too_late_for_merging: a queue served for over HZ/10 since its backlog began is not merged into', () => {
    const { s, ctx } = threeQueues();
    const q1 = queueOfPid(s, 1);
    q1.serviceFromBacklogged = 8;
    q1.firstIoJ = 0; // 1400 ms ago ≫ HZ/10
    ctx.now = 1400 * MS;
    insert(s, ctx, { pid: 2, sector: 100_008 });
    expect(queueOfPid(s, 2)).not.toBe(q1);
  });

  it('bfq_setup_cooperator: a request close to where the in-service queue was last served (in_serv_last_pos) joins it', () => {
    const { s, ctx } = threeQueues();
    ctx.now = 1400 * MS;
    const slot = dispatch(s, ctx); // bfq3S or bfq1S goes in service
    const inServ = s.queues[s.inService]!;
    expect(slot).toBeGreaterThanOrEqual(0);
    const at = inServ.pid === 1 ? 100_000 + 4000 : 900_000_000 + 4000;
    insert(s, ctx, { pid: 2, sector: at });
    expect(queueOfPid(s, 2)).toBe(inServ);
  });

  it('nonrot_with_queueing: no merging on an SSD that queues', () => {
    const { s, ctx } = threeQueues({}, true);
    ctx.now = 1400 * MS;
    insert(s, ctx, { pid: 2, sector: 100_008 });
    expect(queueOfPid(s, 2)).not.toBe(queueOfPid(s, 1));
  });

  it('bfq_merge_bfqqs: the shared queue inherits the merged queue’s weight raising and I/O-boundness', () => {
    const { s, ctx } = threeQueues({ low_latency: 1 });
    const q1 = queueOfPid(s, 1);
    expect(q1.wrCoeff).toBe(30); // new queues are interactive
    ctx.now = 4000 * MS;
    // pid 2's new queue is raised too and merges into q1: q1 keeps its raising
    insert(s, ctx, { pid: 2, sector: 100_008 });
    expect(queueOfPid(s, 2)).toBe(q1);
    expect(q1.wrCoeff).toBe(30);
  });
});

describe('bfq: splitting a shared queue (bfq_split_bfqq)', () => {
  it('__bfq_bfqq_expire marks a shared queue gone seeky split_coop; the next insertion of one of its processes gives it its own queue again, with its saved state (bfq_bfqq_resume_state)', () => {
    const { s, ctx } = threeQueues();
    ctx.now = 1400 * MS;
    insert(s, ctx, { pid: 2, sector: 100_008 });
    const shared = queueOfPid(s, 1);
    expect(queueOfPid(s, 2)).toBe(shared);
    // served, then found seeky at its expiration
    for (let i = 0; i < 20 && s.queues[s.inService] !== shared; i++) {
      const slot = dispatch(s, ctx);
      if (slot >= 0) complete(s, ctx, slot);
      else bfq.timer!(s, ctx); // the idle window closes
    }
    expect(s.queues[s.inService]).toBe(shared);
    shared.seekHistory = -1;
    expire(s, shared, false, 'no-more-requests', ctx);
    expect(shared.splitCoop).toBe(true);
    ctx.now = 1500 * MS;
    const rq = insert(s, ctx, { pid: 2, sector: 500_000_000 });
    const own = queueOfPid(s, 2);
    expect(own).not.toBe(shared);
    expect(rq.sched).toBe(own.id);
    expect(own.splitJ).toBeGreaterThan(0);
    expect(shared.procRefs).toBe(1);
    expect(s.splits).toBe(1);
    expect(ctx.records.some((r) => r.rule === 'queue-split')).toBe(true);
    // pid 1, the last process of the shared queue, keeps it as its own (pid restored)
    insert(s, ctx, { pid: 1, sector: 700_000_000 });
    expect(queueOfPid(s, 1)).toBe(shared);
    expect(shared.coop).toBe(false);
    expect(queueName(shared)).toBe('bfq1S');
  });
});

describe('bfq: stable merging (bfq_do_or_sched_stable_merge)', () => {
  it('on a queueing SSD, a sync queue created within bfq_burst_interval (180 ms) of the last one, at the same priority, is merged with it at once', () => {
    const { s, ctx } = bfqFresh({ ssd: true });
    insert(s, ctx, { pid: 1, sector: 1000 });
    ctx.now = 100 * MS;
    insert(s, ctx, { pid: 2, sector: 900_000_000 });
    expect(queueOfPid(s, 2)).toBe(queueOfPid(s, 1));
    expect(s.bics[1]!.stablyMerged && s.bics[2]!.stablyMerged).toBe(true);
    // 200 ms after the last created: a queue of its own; another level: too
    ctx.now = 300 * MS;
    insert(s, ctx, { pid: 3, sector: 5000 });
    insert(s, ctx, { pid: 4, sector: 6000, level: 2 });
    expect(queueOfPid(s, 3)).not.toBe(queueOfPid(s, 1));
    expect(queueOfPid(s, 4)).not.toBe(queueOfPid(s, 1));
  });

  it('on a disk, the merge waits bfq_late_stable_merging (600 ms) and is dropped if idling boosts the queue’s throughput (bfq_setup_stable_merge)', () => {
    const seq = bfqFresh();
    insert(seq.s, seq.ctx, { pid: 1, sector: 1000 });
    insert(seq.s, seq.ctx, { pid: 2, sector: 900_000_000 });
    expect(seq.s.bics[2]!.stableMergeQ).toBe(seq.s.syncOf[1]);
    seq.ctx.now = 500 * MS; // too early
    insert(seq.s, seq.ctx, { pid: 2, sector: 900_000_008 });
    expect(seq.s.bics[2]!.stableMergeQ).toBe(seq.s.syncOf[1]);
    // a sequential, I/O-bound queue on a disk: idling boosts it — the merge is dropped
    // (a queue never emptied since its creation is not I/O-bound yet: its tot_idle_time
    // starts at 2^64 − 1, bfq_update_io_intensity — this one is, as if it had)
    const q2 = queueOfPid(seq.s, 2);
    q2.idleWrap = -1;
    q2.totIdleTime = 0;
    q2.ioBound = true;
    seq.ctx.now = 700 * MS;
    insert(seq.s, seq.ctx, { pid: 2, sector: 900_000_016 });
    expect(seq.s.bics[2]!.stableMergeQ).toBe(-1);
    expect(queueOfPid(seq.s, 2)).not.toBe(queueOfPid(seq.s, 1));
    // a seeky one is merged, for good (not split when seeky)
    const rnd = bfqFresh();
    insert(rnd.s, rnd.ctx, { pid: 1, sector: 1000 });
    insert(rnd.s, rnd.ctx, { pid: 2, sector: 900_000_000 });
    queueOfPid(rnd.s, 2).seekHistory = -1;
    rnd.ctx.now = 700 * MS;
    insert(rnd.s, rnd.ctx, { pid: 2, sector: 300_000_000 });
    expect(queueOfPid(rnd.s, 2)).toBe(queueOfPid(rnd.s, 1));
    expect(rnd.s.bics[2]!.stablyMerged).toBe(true);
    expect(rnd.ctx.records.some((r) => /stable merge/.test(r.text))).toBe(true);
  });

  it('in the engine: two random readers started together share one queue after 600 ms; on a disk found not to queue (hw_tag 0) idling boosts them and they do not', () => {
    const run = (qd: number, outstanding = 1) => {
      const r = tracedRun(
        scenario({
          iosched: 'bfq',
          kernel: '6.18',
          preset: 'sata-7200-500g',
          queueDepth: qd,
          tunables: { low_latency: 0 },
          processes: [
            proc({ name: 'r', count: 2, op: 'read', pattern: 'random', sizeKiB: 4, outstanding }),
          ],
          stopMs: 2000,
        }),
      );
      return r.sim.state.host.elevator as BfqState;
    };
    const ncq = run(32);
    expect(ncq.merges).toBe(1);
    expect(ncq.syncOf[1000]).toBe(ncq.syncOf[1001]);
    const one = run(1, 4);
    expect(one.hwTag).toBe(0);
    expect(one.merges).toBe(0);
  });
});

describe('bfq: bursts (bfq_handle_burst)', () => {
  it('the 8th queue created within bfq_burst_interval of the last makes a large burst (bfq_large_burst_thresh): none of them is weight-raised any more', () => {
    const { s, ctx } = bfqFresh({ t: { low_latency: 1 } });
    for (let pid = 1; pid <= 7; pid++) {
      ctx.now = pid * 20 * MS;
      insert(s, ctx, { pid, sector: pid * 100_000_000, level: pid % 2 ? 4 : 3 });
    }
    expect(s.burstSize).toBe(7);
    expect(queueOfPid(s, 7).wrCoeff).toBe(30);
    expect(s.largeBurst).toBe(false);
    ctx.now = 160 * MS;
    insert(s, ctx, { pid: 8, sector: 850_000_000, level: 3 });
    expect(s.largeBurst).toBe(true);
    for (let pid = 1; pid <= 8; pid++) expect(queueOfPid(s, pid).inLargeBurst).toBe(true);
    expect(queueOfPid(s, 8).wrCoeff).toBe(1); // never raised
    expect(ctx.records.some((r) => r.rule === 'large-burst')).toBe(true);
    // bfq_update_wr_data: a raised queue of the burst loses its raising when served
    while (s.wrBusyQueues > 0) {
      const slot = dispatch(s, ctx);
      if (slot < 0) break;
      complete(s, ctx, slot);
    }
    expect(s.wrBusyQueues).toBe(0);
    // a queue created more than 180 ms after the last starts a new (small) burst
    ctx.now = 400 * MS;
    insert(s, ctx, { pid: 9, sector: 10_000, level: 1 });
    expect(s.largeBurst).toBe(false);
    expect(queueOfPid(s, 9).inLargeBurst).toBe(false);
  });
});
