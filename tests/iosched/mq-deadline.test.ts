// mq-deadline (src/engine/iosched/mq-deadline.ts) against LINUX-SCHEDULERS.md §9.2 and
// Linux 6.10–6.18 block/mq-deadline.c: one test per rule where it differs from 2.6
// deadline, each a small hand-built scenario run through the real engine.
import { declared, docTunables } from '../helpers/doc-tunables';
import { describe, expect, it } from 'vitest';
import { ensureRegistered } from '../../src/engine/iosched/elevator';
import {
  mqDeadline,
  MQ_DEADLINE_RULES,
  prioOf,
  type MqDeadlineState,
  type MqDeadlineView,
} from '../../src/engine/iosched/mq-deadline';
import { buildModel } from '../../src/engine/model';
import type { FixedRequest, ProcessSpec } from '../../src/engine/scenario/types';
import { createSimulation, peekTime, step, type Simulation } from '../../src/engine/simulation';
import { proc, scenario } from '../helpers/scenario';
import { BUSY, rd, tracedRun, wr, type TracedRun } from '../helpers/traced-run';

ensureRegistered(mqDeadline);

const MS = 1e6;
const INT_MAX = 2147483647;

const reads = (...requests: FixedRequest[]) => proc({ name: 'r', requests });
const klass = (cls: 'rt' | 'be' | 'idle', name: string, ...requests: FixedRequest[]) =>
  proc({ name, sync: true, ioprio: { class: cls, level: 4 }, requests });

interface Setup {
  tunables?: Record<string, number>;
  queueDepth?: number;
  preset?: string;
  hz?: number;
  stopMs?: number;
}

function sc(processes: ProcessSpec[], o: Setup = {}) {
  return scenario({
    iosched: 'mq-deadline',
    tunables: o.tunables ?? {},
    queueDepth: o.queueDepth ?? 1,
    preset: o.preset ?? 'hp-c2247a',
    hz: o.hz ?? 250,
    processes,
    stopMs: o.stopMs ?? null,
  });
}

type Run = TracedRun;
const run = (processes: ProcessSpec[], o: Setup = {}): Run => tracedRun(sc(processes, o));

const order = (r: Run, skip = BUSY.sector) =>
  r.d.filter((e) => e.sector !== skip).map((e) => `${e.write ? 'W' : 'R'}${e.sector}`);
const idAt = (r: Run, sector: number) => r.d.find((e) => e.sector === sector)!.rq;
const PICKS = new Set([
  'continue-batch',
  'fifo-expired',
  'sweep-ended-fifo-head',
  'sweep-continues',
]);
/** The rule that picked the request at `sector` (the last record naming it). */
const pickRule = (r: Run, sector: number) =>
  r.decisions.filter((d) => PICKS.has(d.rule) && d.chosen === idAt(r, sector)).at(-1)!.rule;

function simAt(processes: ProcessSpec[], ms: number, o: Setup = {}) {
  const sim = createSimulation(buildModel(sc(processes, o)));
  while (peekTime(sim) < ms * MS) step(sim);
  return sim;
}
const stateOf = (sim: Simulation) => sim.state.host.elevator as MqDeadlineState;
const view = (sim: Simulation) => mqDeadline.inspect(stateOf(sim), sim.ctx) as MqDeadlineView;

describe('mq-deadline: tunables and contract (§9.2)', () => {
  it('§9.2 tunables: deadline’s five with the same defaults, plus prio_aging_expire 10 s and 6.18’s async_depth', () => {
    expect(mqDeadline.tunables.map((t) => [t.name, t.default, t.unit, t.min, t.max])).toEqual([
      ['read_expire', 500, 'ms', 0, INT_MAX],
      ['write_expire', 5000, 'ms', 0, INT_MAX],
      ['fifo_batch', 16, 'requests', 0, INT_MAX],
      ['writes_starved', 2, 'count', -2147483648, INT_MAX],
      ['front_merges', 1, 'bool', 0, 1],
      ['prio_aging_expire', 10000, 'ms', 0, INT_MAX],
      // STORE_INT(deadline_async_depth_store, &dd->async_depth, 1, INT_MAX); the kernel's
      // default is nr_requests itself, which INT_MAX matches: no limit
      ['async_depth', INT_MAX, 'requests', 1, INT_MAX],
    ]);
    expect(MQ_DEADLINE_RULES).toContain('prio-aged');
  });

  it('§9.2 tunables: docs/iosched/mq-deadline.md lists them exactly as declared', () => {
    const { rows } = docTunables('mq-deadline.md');
    expect(rows).toEqual(declared(mqDeadline.tunables));
  });

  it('msecs_to_jiffies: expiries are kept in jiffies, rounded up, at the run’s HZ', () => {
    const s = stateOf(simAt([reads(BUSY)], 0, { hz: 250, tunables: { read_expire: 10 } }));
    expect(s.fifoExpireJ).toEqual([3, 1250]); // 10 ms = 2.5 jiffies → 3; 5 s = 1250
    expect(s.prioAgingExpireJ).toBe(2500);
    expect(s.lastDir).toBe(1); // dd_init_sched: last_dir = DD_WRITE
    // A request's deadline is the start of its deadline jiffy: inserted at 1 ms (jiffy 0).
    const v = view(
      simAt([reads(BUSY, rd(1000, 1))], 10, { hz: 250, tunables: { read_expire: 10 } }),
    );
    expect(v.classes[1]!.readFifo).toEqual([{ rq: 1, sector: 1000, nSectors: 8, deadlineMs: 12 }]);
  });

  it('ioprio_class_to_prio: none and BE → BE, RT → RT, IDLE → IDLE', () => {
    expect([0, 1, 2, 3].map(prioOf)).toEqual([1, 0, 1, 2]);
  });
});

describe('mq-deadline: dispatch within a class', () => {
  it('deadline_check_fifo: expired once jiffies reach the deadline (read_expire 0: at once)', () => {
    // The SSD answers in ~0.1 ms, so everything happens inside jiffy 0 (HZ 100). R1000 is the
    // FIFO head, R5000 the sweep's next. With fifo_batch 1 each dispatch starts a batch.
    const procs = [reads(rd(3000, 0), rd(1000, 0.01), rd(5000, 0.02))];
    const now = run(procs, { preset: 'ssd', hz: 100, tunables: { read_expire: 0, fifo_batch: 1 } });
    expect(order(now, -1)).toEqual(['R3000', 'R1000', 'R5000']);
    expect(pickRule(now, 1000)).toBe('fifo-expired');
    // read_expire 1 ms is one jiffy at HZ 100: not yet expired in jiffy 0 → the sweep goes on.
    const later = run(procs, {
      preset: 'ssd',
      hz: 100,
      tunables: { read_expire: 1, fifo_batch: 1 },
    });
    expect(order(later, -1)).toEqual(['R3000', 'R5000', 'R1000']);
    expect(pickRule(later, 5000)).toBe('sweep-continues');
    expect(pickRule(later, 1000)).toBe('sweep-ended-fifo-head');
  });

  it('deadline_from_pos: the sweep resumes at or above the last start (equal sectors too, no alias rule)', () => {
    const procs = [reads(BUSY, rd(1000, 1), rd(1000, 2, 8), rd(500, 3))];
    const r = run(procs);
    expect(r.d.map((e) => [e.rq, e.sector])).toEqual([
      [0, BUSY.sector],
      [1, 1000],
      [2, 1000],
      [3, 500],
    ]);
    expect(pickRule(r, 500)).toBe('sweep-ended-fifo-head');
    expect(r.decisions.find((d) => d.chosen === 2)!.rule).toBe('continue-batch');
    // Both R1000s sit side by side in the sort list (2.6 deadline would have aliased id 1).
    const v = view(simAt(procs, 10));
    expect(v.classes[1]!.sortRead).toEqual([3, 1, 2]);
    expect(v.classes[1]!.latestPos.read).toBe(BUSY.sector);
  });

  it('dd_init_sched last_dir = WRITE: the first dispatch continues a "write batch" from sector 0', () => {
    // Both arrive while the queue is plugged; at the unplug, 2.6 deadline would start a read
    // batch. mq-deadline's next_request(WRITE) from latest_pos 0 finds the write first.
    const r = run([
      proc({ name: 'w', sync: true, requests: [wr(9000, 0)] }),
      proc({ name: 'r', requests: [rd(2000, 0.5)] }),
    ]);
    const d = r.d.map((e) => `${e.write ? 'W' : 'R'}${e.sector}`);
    expect(d).toEqual(['W9000', 'R2000']);
    expect(pickRule(r, 9000)).toBe('continue-batch');
  });

  it('writes_starved: reads preferred at most writes_starved new batches while writes wait', () => {
    const r = run(
      [
        reads(BUSY, ...[1, 2, 3, 4, 5, 6].map((i) => rd(i * 10000, 1))),
        proc({ name: 'w', sync: true, requests: [wr(15000, 2), wr(35000, 2)] }),
      ],
      { tunables: { fifo_batch: 1, writes_starved: 2 } },
    );
    expect(
      order(r)
        .map((o) => o[0])
        .join(''),
    ).toBe('RRWRRWRR');
    expect(r.decisions.filter((d) => d.rule === 'new-batch-write-starved')).toHaveLength(2);
  });
});

describe('mq-deadline: priority classes', () => {
  it('dd_dispatch_request: RT before BE before IDLE, whatever the arrival order', () => {
    const r = run([
      klass('idle', 'i', rd(1000, 1)),
      klass('be', 'b', rd(2000, 2)),
      klass('rt', 'r', rd(3000, 3)),
      reads(BUSY),
    ]);
    expect(order(r)).toEqual(['R3000', 'R2000', 'R1000']);
  });

  it('dd_queued: a lower class waits while a higher class has requests on the device', () => {
    // Queue depth 4: the BE read could go alongside the RT ones, but dd_queued(RT) > 0.
    const r = run(
      [klass('rt', 'r', rd(1_000_000, 0, 64), rd(1_200_000, 0, 64)), klass('be', 'b', rd(2000, 1))],
      { queueDepth: 4 },
    );
    const be = r.d.find((e) => e.sector === 2000)!;
    const rtDone = r.trace.filter((e) => e.action === 'C' && e.sector >= 1_000_000);
    expect(be.tNs).toBeGreaterThanOrEqual(Math.max(...rtDone.map((e) => e.tNs)));
    const wait = r.decisions.find((d) => d.rule === 'wait-higher-prio')!;
    expect(wait.text).toMatch(/RT has \d request\(s\) on the device/);
  });

  it('prio aging: a BE request older than prio_aging_expire goes ahead of a busy RT stream', () => {
    // RT keeps the disk busy with back-to-back reads; BE's one read is inserted at 1 ms.
    const rt = Array.from({ length: 30 }, (_, i) => rd(100_000 + i * 50_000, 0));
    const procs = [klass('rt', 'r', ...rt), klass('be', 'b', rd(2000, 1))];
    const starved = run(procs, { tunables: { prio_aging_expire: 100_000 } });
    expect(order(starved, -1).at(-1)).toBe('R2000'); // never aged: served last
    const aged = run(procs, { tunables: { prio_aging_expire: 100 } });
    const be = aged.d.find((e) => e.sector === 2000)!;
    const rec = aged.decisions.find((d) => d.rule === 'prio-aged')!;
    expect(rec.chosen).toBe(be.rq);
    // Served at the first dispatch after it had waited 100 ms (25 jiffies at HZ 250).
    expect(be.tNs).toBeGreaterThanOrEqual(100 * MS);
    expect(order(aged, -1).indexOf('R2000')).toBeLessThan(rt.length);
    expect(rec.text).toContain('prio_aging_expire (25 jiffies)');
  });

  it('blk_rq_merge_ok: bios of different I/O priority do not merge', () => {
    const r = run([
      reads(BUSY),
      klass('be', 'b', rd(1000, 1)),
      klass('idle', 'i', rd(1008, 2)), // back-to-back with R1000, another class
    ]);
    expect(r.trace.filter((e) => e.action === 'M' || e.action === 'F')).toHaveLength(0);
    const sameClass = run([reads(BUSY), klass('be', 'b', rd(1000, 1), rd(1008, 2))]);
    expect(sameClass.trace.filter((e) => e.action === 'M')).toHaveLength(1);
  });

  it('io_stats_per_prio: queued = inserted − finished; owned_by_driver counts the device', () => {
    const procs = [
      klass('rt', 'r', rd(1_000_000, 0, 64), rd(1_200_000, 0, 64)),
      klass('be', 'b', rd(2000, 1)),
    ];
    const v = view(simAt(procs, 5, { queueDepth: 4 }));
    expect(v.classes.map((c) => [c.name, c.queued, c.ownedByDriver])).toEqual([
      ['RT', 2, 2],
      ['BE', 1, 0],
      ['IDLE', 0, 0],
    ]);
    const end = run(procs, { queueDepth: 4 });
    const s = stateOf(end.sim);
    expect(s.prio.map((pp) => pp.inserted - pp.finished)).toEqual([0, 0, 0]);
  });
});

describe('mq-deadline: determinism and registry', () => {
  it('same scenario, same seed ⇒ the same dispatch order', () => {
    const procs = [
      proc({ name: 'mix', count: 4, rateIops: 0, op: 'mix', readFraction: 0.7, sizeKiB: 4 }),
    ];
    const a = run(procs, { stopMs: 300, queueDepth: 4 });
    const b = run(procs, { stopMs: 300, queueDepth: 4 });
    expect(a.d.length).toBeGreaterThan(10);
    expect(a.d.map((e) => [e.rq, e.sector, e.tNs])).toEqual(
      b.d.map((e) => [e.rq, e.sector, e.tNs]),
    );
  });
});
