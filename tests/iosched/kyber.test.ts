// Kyber (src/engine/iosched/kyber.ts) against Linux 6.18 block/kyber-iosched.c: one test per
// rule, named after the kernel function it comes from. Unit tests drive the scheduler's hooks
// with a small context; the rest run hand-built scenarios through the real engine on 6.18.
import { describe, expect, it } from 'vitest';
import { declared, docTunables } from '../helpers/doc-tunables';
import { ensureRegistered } from '../../src/engine/iosched/elevator';
import { KYBER_RULES, domainOf, kyber, type KyberState } from '../../src/engine/iosched/kyber';
import { KYBER_BATCH_SIZE, KYBER_DEPTH } from '../../src/engine/iosched/kyber-tunables';
import { drain, fresh, insert } from './kyber-harness';
import { buildModel } from '../../src/engine/model';
import type { FixedRequest, ProcessSpec } from '../../src/engine/scenario/types';
import { createSimulation, step } from '../../src/engine/simulation';
import { proc, scenario } from '../helpers/scenario';
import { BUSY, rd, tracedRun, wr } from '../helpers/traced-run';

ensureRegistered(kyber);

const runLength = (xs: string[]) => {
  const out: string[] = [];
  for (const x of xs) {
    const last = out.at(-1);
    if (last && last[0] === x) out[out.length - 1] = `${x}${Number(last.slice(1)) + 1}`;
    else out.push(`${x}1`);
  }
  return out;
};

describe('kyber: tunables and constants', () => {
  it('kyber_sched_attrs: read_lat_nsec 2 ms and write_lat_nsec 10 ms, in ns', () => {
    expect(kyber.tunables.map((t) => [t.name, t.default, t.unit, t.min])).toEqual([
      ['read_lat_nsec', 2_000_000, 'ns', 0],
      ['write_lat_nsec', 10_000_000, 'ns', 0],
    ]);
  });

  it('kyber_depth 256/128/64/16, kyber_batch_size 16/8/1/1 (read, write, discard, other)', () => {
    expect([...KYBER_DEPTH]).toEqual([256, 128, 64, 16]);
    expect([...KYBER_BATCH_SIZE]).toEqual([16, 8, 1, 1]);
    const { s } = fresh();
    expect(s.depth).toEqual([256, 128, 64, 16]);
    expect(s.targets).toEqual([2_000_000, 10_000_000, 5_000_000_000]);
  });

  it('docs/iosched/kyber.md lists the declared tunables', () => {
    expect(docTunables('kyber.md').rows).toEqual(declared(kyber.tunables));
  });

  it('the rule list is closed', () => {
    expect(KYBER_RULES).toEqual([
      'continue-batch',
      'new-batch',
      'throttled',
      'scale-down',
      'scale-up',
    ]);
  });
});

describe('kyber: domains, depth limits and merging', () => {
  it('kyber_sched_domain: REQ_OP_READ → READ, REQ_OP_WRITE → WRITE', () => {
    expect(domainOf({ write: false })).toBe(0);
    expect(domainOf({ write: true })).toBe(1);
  });

  it('kyber_depth_updated (6.18): async_depth = nr_requests × 75 / 100, also the min shallow depth', () => {
    const { s } = fresh();
    expect(s.asyncDepth).toBe(48);
    expect(kyber.depthUpdated!(s, 10)).toBe(7);
    // the pool's wake batch follows it: min(64, 48) / 8 = 6 on a SATA disk's 64 tags
    const sim = createSimulation(
      buildModel(
        scenario({
          iosched: 'kyber',
          kernel: '6.18',
          preset: 'sata-7200-500g',
          queueDepth: 32,
          processes: [proc({ requests: [rd(0, 0)] })],
        }),
      ),
    );
    expect(sim.state.host.mq.depth).toBe(64);
    expect(sim.state.host.mq.wakeBatch).toBe(6);
    expect((sim.state.host.elevator as KyberState).asyncDepth).toBe(48);
  });

  it('kyber_limit_depth: only async requests (!op_is_sync) get the shallow depth', () => {
    const { s } = fresh();
    const bio = (write: boolean, sync: boolean) => ({ write, sync }) as never;
    expect(kyber.limitDepth!(s, bio(true, false))).toBe(48);
    expect(kyber.limitDepth!(s, bio(true, true))).toBe(Infinity);
    expect(kyber.limitDepth!(s, bio(false, true))).toBe(Infinity);
  });

  it('kyber_limit_depth in the engine: async writes hold at most 75% of nr_requests tags', () => {
    // 40 async writes queued at once against nr_requests 8: at most 6 hold tags at a time
    const writes: FixedRequest[] = Array.from({ length: 40 }, (_, i) => wr(i * 10_000, 0));
    const model = buildModel(
      scenario({
        iosched: 'kyber',
        kernel: '6.18',
        queue: { nr_requests: 8 },
        queueDepth: 8,
        preset: 'sata-7200-500g',
        processes: [proc({ name: 'w', sync: false, requests: writes })],
      }),
    );
    const sim = createSimulation(model);
    let most = 0;
    while (step(sim)) most = Math.max(most, sim.state.host.mq.used);
    expect(most).toBe(6);
    expect(sim.state.metrics.iosCompleted).toBe(40);
  });

  it('blk_bio_list_merge (kyber_bio_merge): a bio joins one of the newest 8 requests of its domain list', () => {
    // 10 reads of separate processes wait behind a busy disk; then bios adjacent to the
    // oldest (not looked at) and to the third newest (merged, M)
    const ten: ProcessSpec[] = Array.from({ length: 10 }, (_, i) =>
      proc({ name: `r${i}`, requests: [rd(100_000 + i * 1000, 1)] }),
    );
    const late = proc({
      name: 'late',
      requests: [rd(100_000 + 8, 2), rd(100_000 + 7 * 1000 + 8, 2)],
    });
    const r = tracedRun(
      scenario({
        iosched: 'kyber',
        kernel: '6.18',
        processes: [proc({ name: 'busy', requests: [BUSY] }), ...ten, late],
      }),
    );
    const m = r.trace.filter((e) => e.action === 'M');
    expect(m.map((e) => e.sector)).toEqual([100_000 + 7 * 1000 + 8]);
  });

  it('kyber_bio_merge: a request flushed to khd->rqs takes no more bios', () => {
    const { s, ctx } = fresh();
    insert(s, ctx, false);
    insert(s, ctx, false);
    expect(kyber.bioMergeList!(s, { write: false } as never)).toEqual([0, 1]);
    kyber.dispatch(s, false, ctx); // flushes both, dispatches one
    expect(s.rqs[0]).toEqual([1]);
    expect(kyber.bioMergeList!(s, { write: false } as never)).toEqual([]);
  });
});

describe('kyber: dispatch (kyber_dispatch_request, kyber_dispatch_cur_domain)', () => {
  it('kyber_dispatch_request: batches of 16 reads and 8 writes, round robin over the domains', () => {
    const { s, ctx } = fresh();
    for (let i = 0; i < 40; i++) insert(s, ctx, false);
    for (let i = 0; i < 20; i++) insert(s, ctx, true);
    expect(runLength(drain(s, ctx))).toEqual(['R16', 'W8', 'R16', 'W8', 'R8', 'W4']);
    const rules = ctx.records.map((r) => r.rule);
    // cur_domain starts at READ with batching 0: the first batch is a continued one
    expect(rules.filter((r) => r === 'new-batch')).toHaveLength(5);
    expect(rules.filter((r) => r === 'continue-batch')).toHaveLength(60 - 5);
  });

  it('kyber_dispatch_request: an empty domain ends its batch early; the next with requests goes', () => {
    const { s, ctx } = fresh();
    for (let i = 0; i < 3; i++) insert(s, ctx, false);
    for (let i = 0; i < 3; i++) insert(s, ctx, true);
    expect(runLength(drain(s, ctx))).toEqual(['R3', 'W3']);
    expect(
      ctx.records.find((r) => r.rule === 'new-batch' && r.text.includes('READ has no requests')),
    ).toBeTruthy();
  });

  it('kyber_get_domain_token: a domain at its depth is throttled; the others go on', () => {
    const { s, ctx } = fresh();
    s.depth[0] = 2;
    for (let i = 0; i < 5; i++) insert(s, ctx, false);
    for (let i = 0; i < 2; i++) insert(s, ctx, true);
    expect(drain(s, ctx)).toEqual(['R', 'R', 'W', 'W']);
    expect(s.used).toEqual([2, 2, 0, 0]);
    expect(ctx.records.at(-1)!.rule).toBe('throttled');
    expect(s.throttled[0]).toBeGreaterThan(0);
  });

  it('kyber_flush_busy_kcqs: without a token the software queue is not flushed (bios may still merge)', () => {
    const { s, ctx } = fresh();
    s.depth[0] = 1;
    insert(s, ctx, false);
    kyber.dispatch(s, false, ctx);
    insert(s, ctx, false);
    expect(kyber.dispatch(s, false, ctx)).toBe(-1);
    expect(s.kcq[0]).toEqual([1]);
    expect(s.rqs[0]).toEqual([]);
  });

  it('kyber_finish_request: the token goes back when the request is freed', () => {
    const { s, ctx } = fresh();
    s.depth[0] = 1;
    const a = insert(s, ctx, false);
    insert(s, ctx, false);
    expect(kyber.dispatch(s, false, ctx)).toBe(a.slot);
    expect(kyber.dispatch(s, false, ctx)).toBe(-1);
    kyber.putRequest!(s, a, ctx);
    expect(s.used[0]).toBe(0);
    expect(kyber.dispatch(s, false, ctx)).toBe(1);
  });

  it('in the engine, tokens held always equal the requests on the device', () => {
    const procs = [proc({ name: 'mix', count: 4, op: 'mix', readFraction: 0.7 })];
    const sim = createSimulation(
      buildModel(
        scenario({
          iosched: 'kyber',
          kernel: '6.18',
          queueDepth: 8,
          preset: 'ssd',
          processes: procs,
          stopMs: 200,
        }),
      ),
    );
    let checked = 0;
    while (step(sim)) {
      const s = sim.state.host.elevator as KyberState;
      expect(s.used[0]! + s.used[1]!).toBe(
        sim.state.host.inDriver + sim.state.host.dispatchQueue.length,
      );
      checked++;
    }
    expect(checked).toBeGreaterThan(1000);
  });
});
