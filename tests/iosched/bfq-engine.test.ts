// BFQ's rules seen through the real engine on kernel 6.18 (src/engine/iosched/bfq*.ts;
// block/bfq-iosched.c): weights sharing the disk, budgets growing for a sequential
// reader, time charged to random ones, idling, timeouts, the FIFO, weight raising,
// strict_guarantees and the tag depths. Each test names the kernel function.
import { describe, expect, it } from 'vitest';
import { bfq, type BfqState } from '../../src/engine/iosched/bfq';
import { ensureRegistered } from '../../src/engine/iosched/elevator';
import { buildModel } from '../../src/engine/model';
import type { ProcessSpec } from '../../src/engine/scenario/types';
import { createSimulation, step } from '../../src/engine/simulation';
import { proc, scenario } from '../helpers/scenario';
import { tracedRun } from '../helpers/traced-run';

ensureRegistered(bfq);

const seq = (name: string, level = 4, extra: Partial<ProcessSpec> = {}) =>
  proc({
    name,
    op: 'read',
    pattern: 'sequential',
    sizeKiB: 64,
    ioprio: { class: 'be', level },
    ...extra,
  });
const rnd = (name: string, count = 1) =>
  proc({ name, count, op: 'read', pattern: 'random', sizeKiB: 4 });

function sc(
  processes: ProcessSpec[],
  tunables: Record<string, number> = {},
  o: { ms?: number; qd?: number; preset?: string; queue?: Record<string, number> } = {},
) {
  return scenario({
    iosched: 'bfq',
    kernel: '6.18',
    preset: o.preset ?? 'sata-7200-500g',
    queueDepth: o.qd ?? 32,
    scheduler: 'sptf',
    tunables,
    queue: o.queue,
    processes,
    stopMs: o.ms ?? 3000,
  });
}
const rules = (r: ReturnType<typeof tracedRun>) => r.decisions.map((d) => d.rule);
const count = (r: ReturnType<typeof tracedRun>, rule: string) =>
  rules(r).filter((x) => x === rule).length;
const sectorsOf = (r: ReturnType<typeof tracedRun>, proc: number) =>
  r.trace.filter((e) => e.action === 'C' && e.proc === proc).reduce((n, e) => n + e.nSectors, 0);

describe('bfq in the engine', () => {
  it('B-WF2Q+ with bfq_ioprio_to_weight: sequential readers at levels 0 and 7 share the disk about 80 : 10', () => {
    const r = tracedRun(
      sc(
        [seq('hi', 0), seq('lo', 7, { span: { startSector: 400_000_000, sectors: 100_000_000 } })],
        { low_latency: 0 },
        { ms: 4000 },
      ),
    );
    const hi = sectorsOf(r, 0);
    const lo = sectorsOf(r, 1);
    expect(hi / lo).toBeGreaterThan(5);
    expect(hi / lo).toBeLessThan(12);
  });

  it('__bfq_bfqq_recalc_budget: a sequential reader exhausts its budgets and they grow to bfq_max_budget (autotuned from the peak rate)', () => {
    const r = tracedRun(sc([seq('s')], { low_latency: 0 }));
    expect(count(r, 'expire-budget-exhausted')).toBeGreaterThan(3);
    const s = r.sim.state.host.elevator as BfqState;
    const q = s.queues[s.syncOf[1000]!]!;
    expect(s.maxBudget).not.toBe(16384);
    expect(q.maxBudget).toBe(s.maxBudget);
  });

  it('bfq_bfqq_charge_time: random (seeky) readers are charged their time, not their sectors', () => {
    // the sequential reader at another level: no stable merge with the random ones (which
    // may share a queue of their own, bfqSHARED-S)
    const r = tracedRun(sc([seq('s', 3), rnd('r', 2)], { low_latency: 0 }));
    const charged = r.decisions.filter(
      (d) => d.rule.startsWith('expire-') && (d.text ?? '').includes('ms of time'),
    );
    expect(charged.length).toBeGreaterThan(0);
    expect(charged.some((d) => /bfq1000S/.test(d.text ?? ''))).toBe(false);
    const sectors = r.decisions.filter(
      (d) => /bfq1000S expires/.test(d.text ?? '') && (d.text ?? '').includes('charged its'),
    );
    expect(sectors.length).toBeGreaterThan(0);
  });

  it('bfq_arm_slice_timer: an emptied sync sequential queue idles (slice_idle); slice_idle 0 never does', () => {
    const on = tracedRun(sc([seq('s'), rnd('r', 2)], { low_latency: 0 }, { qd: 1 }));
    expect(count(on, 'idle')).toBeGreaterThan(10);
    const off = tracedRun(
      sc([seq('s'), rnd('r', 2)], { low_latency: 0, slice_idle: 0 }, { qd: 1 }),
    );
    expect(count(off, 'idle')).toBe(0);
  });

  it('bfq_bfqq_budget_timeout: a queue in service past timeout_sync expires for budget timeout', () => {
    // a random reader alone with a huge budget cannot use it in time
    const r = tracedRun(
      sc(
        [rnd('r')],
        { low_latency: 0, max_budget: 1000000, timeout_sync: 20 },
        { qd: 1, ms: 2000 },
      ),
    );
    expect(count(r, 'expire-budget-timeout')).toBeGreaterThan(0);
  });

  it('bfq_check_fifo: with a short fifo_expire_sync an expired FIFO head goes next', () => {
    const r = tracedRun(
      sc(
        [
          rnd('r', 1),
          proc({ name: 'deep', op: 'read', pattern: 'random', sizeKiB: 4, outstanding: 16 }),
        ],
        { low_latency: 0, fifo_expire_sync: 1 },
        { qd: 1, ms: 1500 },
      ),
    );
    expect(count(r, 'fifo-expired')).toBeGreaterThan(0);
  });

  it('low_latency (bfq_bfqq_handle_idle_busy_switch): a new queue is interactive — weight × 30; off, no raising', () => {
    const on = tracedRun(sc([rnd('r')], {}, { ms: 200 }));
    expect(count(on, 'weight-raised')).toBe(1);
    const s = on.sim.state.host.elevator as BfqState;
    expect(s.queues[s.syncOf[1000]!]!.wrCoeff).toBe(30);
    const off = tracedRun(sc([rnd('r')], { low_latency: 0 }, { ms: 200 }));
    expect(count(off, 'weight-raised')).toBe(0);
  });

  it('strict_guarantees: one request at a time on the device', () => {
    const sim = createSimulation(
      buildModel(sc([rnd('r', 4)], { strict_guarantees: 1 }, { ms: 500 })),
    );
    let most = 0;
    while (step(sim)) most = Math.max(most, sim.state.host.inDriver);
    expect(most).toBe(1);
  });

  it('bfq_limit_depth (6.18 bfq_depth_updated): async writes hold at most half of nr_requests', () => {
    const w = proc({
      name: 'w',
      op: 'write',
      sync: false,
      pattern: 'random',
      sizeKiB: 4,
      outstanding: 64,
    });
    const sim = createSimulation(
      buildModel(sc([w], { low_latency: 0 }, { ms: 300, queue: { nr_requests: 16 } })),
    );
    let most = 0;
    while (step(sim)) most = Math.max(most, sim.state.host.mq.used);
    expect(most).toBe(8);
    expect((sim.state.host.elevator as BfqState).asyncDepths).toEqual([
      [8, 12],
      [3, 6],
    ]);
  });

  it('the counters balance at the end: nothing queued, nothing in flight, no busy queue', () => {
    const r = tracedRun(
      sc(
        [
          seq('s'),
          rnd('r', 3),
          proc({ name: 'w', op: 'write', sync: false, sizeKiB: 16, outstanding: 4 }),
        ],
        {},
        { ms: 800 },
      ),
    );
    const s = r.sim.state.host.elevator as BfqState;
    // the run stops at 800 ms with work in flight; requests held = queued + in flight
    expect(s.queuedTotal).toBe(bfq.queued(s));
    expect(s.rqInDriver).toBe(r.sim.state.host.inDriver + r.sim.state.host.dispatchQueue.length);
  });
});
