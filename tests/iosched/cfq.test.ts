/* eslint-disable max-lines -- one file for CFQ's rules, one test (or table) per rule */
// CFQ (Linux 2.6.32), one test per rule of LINUX-SCHEDULERS.md §5, on small hand-built
// scenarios run through the real engine (block layer, disk model), reading the D order,
// CFQ's blktrace 'm' messages and its decision records. Process pids start at 1000.
import { describe, expect, test } from 'vitest';
import type { DecisionRecord, TraceEvent, TraceSink } from '../../src/engine/events';
import { cfq, cfqChooseReq, CFQ_RULES } from '../../src/engine/iosched/cfq';
import type { CfqState } from '../../src/engine/iosched/cfq-types';
import { ensureRegistered } from '../../src/engine/iosched/elevator';
import { defaultAt, type Bio, type ElevatorContext } from '../../src/engine/iosched/types';
import { allocRequest, createRequestTable, type IoRequest } from '../../src/engine/request';
import { runScenario } from '../../src/engine/run';
import type { FixedRequest, ProcessSpec } from '../../src/engine/scenario/types';
import { proc, scenario } from '../helpers/scenario';
import { testBio } from '../helpers/bio';

ensureRegistered(cfq);

const MS = 1e6;

interface Run {
  summary: ReturnType<typeof runScenario>['summary'];
  state: CfqState;
  events: TraceEvent[];
  decisions: DecisionRecord[];
  /** CFQ's 'm' lines, in order */
  messages: { tMs: number; text: string }[];
  /** D events in order */
  d: TraceEvent[];
  rules: Record<string, number>;
  /** cfq.inspect() at the end of the run */
  inspect: () => Record<string, unknown>;
}

function run(o: {
  processes: ProcessSpec[];
  stopMs?: number;
  tunables?: Record<string, number>;
  queueDepth?: number;
  hz?: number;
  preset?: string;
}): Run {
  const events: TraceEvent[] = [];
  const decisions: DecisionRecord[] = [];
  const sink: TraceSink = {
    trace: (e) => events.push(e),
    service: () => {},
    decision: (d) => {
      if (d.layer === 'iosched') decisions.push(d);
    },
  };
  const { summary, simulation } = runScenario(
    scenario({
      iosched: 'cfq',
      tunables: o.tunables ?? {},
      queueDepth: o.queueDepth ?? 1,
      preset: o.preset ?? 'hp-c2247a',
      stopMs: o.stopMs ?? null,
      hz: o.hz,
      processes: o.processes,
    }),
    { sink },
  );
  const rules: Record<string, number> = {};
  for (const x of decisions) rules[x.rule] = (rules[x.rule] ?? 0) + 1;
  return {
    summary,
    state: simulation.state.host.elevator as CfqState,
    events,
    decisions,
    messages: events
      .filter((e) => e.action === 'm')
      .map((e) => ({ tMs: e.tNs / MS, text: e.message ?? '' })),
    d: events.filter((e) => e.action === 'D'),
    rules,
    inspect: () => cfq.inspect(simulation.state.host.elevator as CfqState, simulation.ctx),
  };
}

/** A fixed request list: 4 KiB reads at the given sectors and times. */
function reads(list: Array<[sector: number, atMs: number]>): FixedRequest[] {
  return list.map(([sector, atMs]) => ({
    sector,
    sizeKiB: 4,
    op: 'read' as const,
    atMs,
    thinkTimeMs: null,
  }));
}

/** pids of the D events, consecutive repeats collapsed: the order queues got the disk. */
function turns(d: TraceEvent[]): number[] {
  const out: number[] = [];
  for (const e of d) if (out[out.length - 1] !== e.pid) out.push(e.pid);
  return out;
}

/** A bare context for calling CFQ's hooks directly (merge hooks, may_queue, forced
 * dispatch): a request table, a settable clock, the 'm' lines and decisions it records. */
function fakeCtx(hz = 250) {
  const table = createRequestTable();
  const messages: string[] = [];
  const rules: string[] = [];
  let id = 0;
  const clock = { now: 0 };
  const ctx: ElevatorContext = {
    get now() {
      return clock.now;
    },
    hz,
    rq: (slot) => table.slots[slot]!,
    bio: () => {
      throw new Error('no bios here');
    },
    inDriver: () => 0,
    deviceDepth: () => 1,
    nonRotational: () => false,
    setTimer() {},
    clearTimer() {},
    decide: (rule) => {
      rules.push(rule);
    },
    recording: true,
    message: (t) => {
      messages.push(t);
    },
    kick() {},
  };
  const rq = (
    pid: number,
    sector: number,
    o: { write?: boolean; sync?: boolean } = {},
  ): IoRequest =>
    allocRequest(table, id++, 0, pid, o.write ?? false, o.sync ?? !o.write, sector, 8, clock.now);
  const bio = (pid: number, sector: number, o: { write?: boolean; sync?: boolean } = {}): Bio =>
    testBio({ pid, sector, ...o });
  return { ctx, clock, messages, rules, rq, bio };
}

// ── §5.1 tunables ──

describe('§5.1 tunables', () => {
  test('sysfs names and 2.6.32 defaults (at HZ 1000), jiffy-based ones HZ-dependent', () => {
    const byName = Object.fromEntries(cfq.tunables.map((t) => [t.name, t]));
    expect(cfq.tunables.map((t) => t.name)).toEqual([
      'quantum',
      'fifo_expire_sync',
      'fifo_expire_async',
      'back_seek_max',
      'back_seek_penalty',
      'slice_sync',
      'slice_async',
      'slice_async_rq',
      'slice_idle',
      'low_latency',
    ]);
    const at = (hz: number) =>
      Object.fromEntries(cfq.tunables.map((t) => [t.name, defaultAt(t, hz)]));
    // block/cfq-iosched.c: quantum 4, fifo HZ/8 and HZ/4, back_max 16 MiB, penalty 2,
    // slices HZ/10 and HZ/25, slice_async_rq 2, slice_idle HZ/125, cfq_latency 1
    expect(at(1000)).toEqual({
      quantum: 4,
      fifo_expire_sync: 125,
      fifo_expire_async: 250,
      back_seek_max: 16384,
      back_seek_penalty: 2,
      slice_sync: 100,
      slice_async: 40,
      slice_async_rq: 2,
      slice_idle: 8,
      low_latency: 1,
    });
    // HZ 250: HZ/8 = 31 jiffies = 124 ms, HZ/4 = 62 jiffies = 248 ms
    expect(at(250)).toMatchObject({ fifo_expire_sync: 124, fifo_expire_async: 248, slice_idle: 8 });
    // HZ 100: HZ/125 = 0, raised to one jiffy = 10 ms
    expect(at(100)).toMatchObject({ fifo_expire_sync: 120, slice_idle: 10, slice_async: 40 });
    expect(byName['low_latency']!.unit).toBe('bool');
    expect(byName['back_seek_max']!.unit).toBe('KiB');
  });

  test('the kernel keeps them in jiffies (msecs_to_jiffies rounds up)', () => {
    const r = run({ processes: [proc({ requests: reads([[1000, 0]]) })], hz: 250 });
    expect(r.state.t).toEqual({
      quantum: 4,
      fifoExpireSync: 31,
      fifoExpireAsync: 62,
      backSeekMaxKiB: 16384,
      backSeekPenalty: 2,
      sliceSync: 25,
      sliceAsync: 10,
      sliceAsyncRq: 2,
      sliceIdle: 2,
      lowLatency: 1,
    });
    const r2 = run({
      processes: [proc({ requests: reads([[1000, 0]]) })],
      hz: 250,
      tunables: { slice_idle: 5 },
    });
    expect(r2.state.t.sliceIdle).toBe(2); // 5 ms at 4 ms per jiffy → 2 jiffies
  });
});

// ── §5.2 queues ──

describe('§5.2 queues, classes, priorities', () => {
  test('one sync queue per process; async queues shared by all processes of a priority', () => {
    const r = run({
      stopMs: 400,
      processes: [
        proc({ name: 'reader' }),
        proc({ name: 'w1', op: 'write', outstanding: 2 }),
        proc({ name: 'w2', op: 'write', outstanding: 2 }),
        proc({ name: 'w0', op: 'write', ioprio: { class: 'be', level: 0 } }),
      ],
    });
    const queues = r.inspect()['queues'] as Array<{
      queue: string;
      pid: number;
      sync: boolean;
    }>;
    expect(queues.map((q) => [q.queue, q.pid, q.sync])).toEqual(
      expect.arrayContaining([
        ['cfq1000', 1000, true],
        // created by w1, shared with w2: blktrace names it after its creator
        ['async be4', 1001, false],
        ['async be0', 1003, false],
      ]),
    );
    expect(queues).toHaveLength(3);
    const alloced = r.messages.filter((m) => m.text.endsWith(' alloced')).map((m) => m.text);
    expect(alloced.sort()).toEqual(['cfq1000 alloced', 'cfq1001 alloced', 'cfq1003 alloced']);
    // w2's writes go into w1's queue: each I of w2 is followed by cfq1001 insert_request
    const afterW2 = r.events
      .map((e, i) => (e.action === 'I' && e.pid === 1002 ? r.events[i + 1]!.message : null))
      .filter((m) => m !== null);
    expect(afterW2.length).toBeGreaterThan(0);
    expect(new Set(afterW2)).toEqual(new Set(['cfq1001 insert_request']));
  });

  test('an IDLE-class process runs at level 7 and never idles', () => {
    const r = run({
      stopMs: 300,
      processes: [proc({ name: 'idle', thinkTimeMs: 1, ioprio: { class: 'idle', level: 2 } })],
    });
    const q = r.state.queues[0]!;
    expect([q.ioprioClass, q.ioprio, q.idleWindow]).toEqual([3, 7, false]);
    expect(r.messages.some((m) => m.text.includes('arm_idle'))).toBe(false);
    expect(r.rules['idle-class-expire']).toBeGreaterThan(0);
  });
});

// ── §5.3 slices ──

describe('§5.3 slice length and request budget', () => {
  test('slice = slice_sync + slice_sync/5 × (4 − level): 45 jiffies at level 0, 10 at level 7 (HZ 250)', () => {
    const r = run({
      stopMs: 1500,
      processes: [
        proc({ name: 'hi', ioprio: { class: 'be', level: 0 } }),
        proc({ name: 'lo', ioprio: { class: 'be', level: 7 } }),
      ],
    });
    const slices = (pid: number) =>
      new Set(
        r.messages.filter((m) => m.text.startsWith(`cfq${pid} set_slice=`)).map((m) => m.text),
      );
    expect([...slices(1000)]).toEqual(['cfq1000 set_slice=45']);
    expect([...slices(1001)]).toEqual(['cfq1001 set_slice=10']);
    const r1000 = run({
      stopMs: 600,
      hz: 1000,
      processes: [proc({ name: 'lo', ioprio: { class: 'rt', level: 7 } })],
    });
    expect(r1000.messages.find((m) => m.text.includes('set_slice'))?.text).toBe(
      'cfq1000 set_slice=40',
    );
  });

  test.each([
    [{}, 18, 4],
    [{ slice_async: 100 }, 45, 10],
  ])(
    'async slice = slice_async + slice_async/5 × (4 − level), and an async queue holds the disk that long (%j: %i jiffies at level 0, %i at level 7)',
    (tunables, slice0, slice7) => {
      // two async writers, levels 0 and 7, always busy; a request budget (slice_async_rq)
      // too large to bind, so each turn ends when its slice is used (cfq_slice_used)
      const r = run({
        stopMs: 10000,
        tunables: { ...tunables, slice_async_rq: 64 },
        processes: [
          proc({ name: 'w0', op: 'write', outstanding: 8, ioprio: { class: 'be', level: 0 } }),
          proc({ name: 'w7', op: 'write', outstanding: 8, ioprio: { class: 'be', level: 7 } }),
        ],
      });
      expect(r.rules['async-slice-limit']).toBeUndefined();
      const JIFFY_MS = 4; // HZ 250
      const maxD2cMs = r.summary.latencyMs.d2c.max;
      let turns = 0;
      r.events.forEach((e, i) => {
        const m = e.action === 'm' ? /^cfq(\d+) set_slice=(\d+)$/.exec(e.message ?? '') : null;
        if (!m) return;
        const [pid, len] = [Number(m[1]), Number(m[2])];
        expect(len).toBe(pid === 1000 ? slice0 : slice7);
        // the other queue's next dispatch: not before the slice is used (it began within
        // the jiffy of e), and no later than the request in flight then takes to complete
        const next = r.events.slice(i).find((x) => x.action === 'D' && x.pid !== pid);
        if (!next) return;
        const heldMs = (next.tNs - e.tNs) / MS;
        expect(heldMs).toBeGreaterThanOrEqual((len - 1) * JIFFY_MS);
        expect(heldMs).toBeLessThanOrEqual((len + 1) * JIFFY_MS + maxD2cMs);
        turns++;
      });
      expect(turns).toBeGreaterThan(30);
    },
  );

  test('the slice clock starts at the first completion of the slice, not at set_active', () => {
    const r = run({ stopMs: 800, processes: [proc({ name: 'a' }), proc({ name: 'b' })] });
    const cs = r.events.filter((e) => e.action === 'C');
    let checked = 0;
    r.messages.forEach((m, i) => {
      if (!m.text.includes('set_slice=')) return;
      const pid = Number(/cfq(\d+)/.exec(m.text)![1]);
      // the first completion of this queue at or before the message is at the same time
      const c = cs.filter((e) => e.pid === pid && e.tNs / MS <= m.tMs).pop()!;
      expect(c.tNs / MS).toBe(m.tMs);
      const active = r.messages
        .slice(0, i)
        .filter((x) => x.text === `cfq${pid} set_active`)
        .pop()!;
      expect(active.tMs).toBeLessThan(m.tMs);
      checked++;
    });
    expect(checked).toBeGreaterThan(3);
  });

  test('async budget: an async queue expires after 2 × (n + n × (7 − level)) dispatches while others wait', () => {
    // long slices (slice_async 1 s: 400 ms at level 7), so the budget binds first
    // (slice_sync stays longer, as with the defaults: see the service-tree offset)
    const r = run({
      stopMs: 3000,
      tunables: { slice_async: 1000, slice_sync: 2000 },
      processes: [
        proc({ name: 'w7', op: 'write', outstanding: 8, ioprio: { class: 'be', level: 7 } }),
        proc({ name: 'w4', op: 'write', outstanding: 8, ioprio: { class: 'be', level: 4 } }),
      ],
    });
    expect(r.rules['async-slice-limit']).toBeGreaterThan(3);
    const runLengths = (pid: number) => {
      const out: number[] = [];
      let n = 0;
      for (const e of r.d) {
        if (e.pid === pid) n++;
        else if (n) {
          out.push(n);
          n = 0;
        }
      }
      return out;
    };
    // level 7: 4 per slice; level 4: 16 per slice (its earlier key may give it two in a row)
    expect(new Set(runLengths(1000))).toEqual(new Set([4]));
    expect(runLengths(1001).every((n) => n % 16 === 0)).toBe(true);
    const limits = r.decisions.filter((x) => x.rule === 'async-slice-limit').map((x) => x.text);
    expect(new Set(limits)).toEqual(
      new Set([
        'cfq1000 async (be/7): dispatched 4 = its budget of 4 requests',
        'cfq1001 async (be/4): dispatched 16 = its budget of 16 requests',
      ]),
    );
  });
});

// ── §5.4 the service tree ──

describe('§5.4 the service tree', () => {
  test('RT queues before BE before IDLE, whatever the arrival order', () => {
    const r = run({
      processes: [
        proc({ name: 'rt', requests: reads([[100000, 0]]), ioprio: { class: 'rt', level: 4 } }),
        proc({ name: 'idle', requests: reads([[200000, 1]]), ioprio: { class: 'idle', level: 7 } }),
        proc({ name: 'be', requests: reads([[300000, 2]]) }),
        proc({ name: 'rt2', requests: reads([[400000, 3]]), ioprio: { class: 'rt', level: 4 } }),
      ],
    });
    expect(turns(r.d)).toEqual([1000, 1003, 1002, 1001]);
    const switches = r.decisions.filter((x) => x.chosen >= 0).map((x) => x.rule);
    expect(switches).toEqual([
      'new-queue-from-service-tree',
      'new-queue-from-service-tree',
      'class-switch',
      'idle-class-when-idle',
    ]);
    // each waited for its idle timer in between
    expect(r.rules['idle-timeout']).toBe(3);
  });

  test('key = now + (busy − 1) × (level-0 slice − own slice) − slice_resid: lower priority starts further back', () => {
    const r = run({
      processes: [
        proc({ name: 'first', requests: reads([[1000, 0]]) }),
        proc({ name: 'x', requests: reads([[100000, 1]]) }),
        proc({ name: 'lo', requests: reads([[200000, 2]]), ioprio: { class: 'be', level: 7 } }),
        proc({ name: 'hi', requests: reads([[300000, 3]]), ioprio: { class: 'be', level: 0 } }),
      ],
    });
    // x: key 0 (alone); lo: 1 × (45 − 10) = 35 jiffies back; hi: 2 × (45 − 45) = 0, after x
    expect(turns(r.d)).toEqual([1000, 1001, 1003, 1002]);
    const keys = r.decisions.find((x) => x.rule === 'idle-timeout')!.candidates.map((c) => c.note);
    expect(keys.join('|')).toMatch(/cfq1001 .*key 0 .*\|cfq1003 .*key 0 .*\|cfq1002 .*key 35 /);
  });
});

// ── §5.5 choosing the request inside a queue ──

describe('§5.5 cfq_choose_req and next_rq', () => {
  const rq = (sector: number, sync = true) => ({ sector, sync });
  const pick = (
    a: { sector: number; sync: boolean } | null,
    b: { sector: number; sync: boolean } | null,
    head: number,
    backKiB = 16384,
    penalty = 2,
  ) => {
    const c = cfqChooseReq(a, b, head, backKiB, penalty);
    return [c.chosen === a ? 'a' : c.chosen === b ? 'b' : null, c.reason];
  };

  test.each([
    // [a, b, head, back_seek_max KiB, penalty] → winner, reason
    [null, rq(10), 0, 16384, 2, 'b', 'only-one'],
    [rq(10), null, 0, 16384, 2, 'a', 'only-one'],
    [rq(5000, false), rq(9000), 0, 16384, 2, 'b', 'sync-over-async'],
    [rq(100), rq(300), 50, 16384, 2, 'a', 'closer'],
    // 40 behind costs 80 > 60 ahead
    [rq(960), rq(1060), 1000, 16384, 2, 'b', 'closer'],
    // 20 behind costs 40 < 60 ahead
    [rq(980), rq(1060), 1000, 16384, 2, 'a', 'closer'],
    // penalty 1: 40 behind = 40 < 60
    [rq(960), rq(1060), 1000, 16384, 1, 'a', 'closer'],
    // equal cost: the higher sector
    [rq(970), rq(1060), 1000, 16384, 2, 'b', 'tie-higher-sector'],
    [rq(1060), rq(970), 1000, 16384, 2, 'a', 'tie-higher-sector'],
    // more than back_seek_max behind wraps: loses to anything not wrapped, however far
    [rq(1000), rq(2_000_000), 40000, 16384, 2, 'b', 'other-wrapped'],
    [rq(8000), rq(2_000_000), 40000, 16384, 2, 'a', 'closer'],
    // back_seek_max 0: any backward request wraps
    [rq(999), rq(2_000_000), 1000, 0, 2, 'b', 'other-wrapped'],
    // both wrapped: the lower sector (one long backward seek, then forward)
    [rq(500), rq(300), 100000, 16, 2, 'b', 'both-wrapped-lower-sector'],
  ] as const)(
    'choose(%o, %o, head %d, back %d KiB, ×%d) → %s (%s)',
    (a, b, head, back, pen, want, why) => {
      expect(pick(a, b, head, back, pen)).toEqual([want, why]);
    },
  );

  const fourReads = reads([
    [1000, 0],
    [5000, 0],
    [900, 0],
    [3000, 0],
  ]);

  test('next_rq sweeps up from the head; a short backward seek costs back_seek_penalty × its distance', () => {
    const sectors = (t: Record<string, number>) =>
      run({ tunables: t, processes: [proc({ requests: fourReads })] }).d.map((e) => e.sector);
    // head after 1000 is 1008: 900 costs 108 × 2 = 216 < 1992 to 3000
    expect(sectors({})).toEqual([1000, 900, 3000, 5000]);
    // × 20 it costs 2160 > 1992: 3000 first. next_rq after 3000 is chosen when 3000 is
    // dispatched, against the head of the request before it (1008), so 900 (2160) still
    // beats 5000 (3992): the kernel's last_position moves only at activation.
    expect(sectors({ back_seek_penalty: 20 })).toEqual([1000, 3000, 900, 5000]);
    // back_seek_max 0: 900 "wraps" and goes last
    expect(sectors({ back_seek_max: 0 })).toEqual([1000, 3000, 5000, 900]);
  });

  test('FIFO: an expired request goes first, but only at the first dispatch of a slice', () => {
    const procs = () => [
      proc({ name: 'b', requests: reads([[1000, 0]]) }),
      proc({
        name: 'a',
        requests: reads([
          [1500000, 1],
          [1400000, 1.5],
          [2000, 2],
        ]),
      }),
    ];
    const order = (t: Record<string, number>) => {
      const r = run({ tunables: t, processes: procs() });
      return { sectors: r.d.filter((e) => e.pid === 1001).map((e) => e.sector), r };
    };
    // default fifo_expire_sync (124 ms): from the head at 1008, 2000 first, then up
    expect(order({}).sectors).toEqual([2000, 1400000, 1500000]);
    // 10 ms: when 'a' gets the disk its FIFO head (1500000) is overdue and goes first; the
    // FIFO is not looked at again in the slice, so 1400000 (also overdue) waits its turn
    const { sectors, r } = order({ fifo_expire_sync: 10 });
    expect(sectors).toEqual([1500000, 2000, 1400000]);
    expect(r.rules['fifo-expired-in-queue']).toBe(1);
    expect(r.messages.filter((m) => m.text.startsWith('cfq1001 fifo='))).toHaveLength(1);
    expect(r.messages.find((m) => m.text.startsWith('cfq1001 fifo='))!.text).toMatch(
      /^cfq1001 fifo=ffff8800[0-9a-f]{8}$/,
    );
  });
});

// ── §5.6 queue selection ──

describe('§5.6 queue selection', () => {
  test('the active queue keeps the disk for its slice; then the next queue of the service tree runs', () => {
    const r = run({ stopMs: 2000, processes: [proc({ name: 'a' }), proc({ name: 'b' })] });
    expect(r.rules['slice-expired']).toBeGreaterThan(10);
    // from set_slice to 'slice expired': the 100 ms slice, plus at most one request's service
    let n = 0;
    for (const m of r.messages) {
      if (!m.text.includes('slice expired')) continue;
      const pid = /cfq(\d+)/.exec(m.text)![1];
      const start = r.messages
        .filter((x) => x.text.startsWith(`cfq${pid} set_slice=`) && x.tMs <= m.tMs)
        .pop();
      if (!start) continue;
      const len = m.tMs - start.tMs;
      expect(len).toBeGreaterThanOrEqual(96); // 25 jiffies, the first one partial
      expect(len).toBeLessThan(100 + 40);
      n++;
    }
    expect(n).toBeGreaterThan(10);
    // strict alternation of two equal queues
    const t = turns(r.d);
    for (let i = 2; i < t.length; i++) expect(t[i]).toBe(t[i - 2]);
  });

  test('a lone queue whose slice is used is set active again: a fresh slice, so its FIFO is checked again', () => {
    // One buffered random writer with a deep backlog: the shared async queue is the only
    // busy queue. cfq_select_queue still expires it when slice_async is used, and
    // __cfq_set_active_queue makes it active again with its fifo_expire flag cleared, so
    // cfq_check_fifo looks at its FIFO once per slice (not once per fifo_expire_async, as
    // AS's as_fifo_expired does): once the backlog is older than fifo_expire_async, every
    // slice starts with the FIFO head, wherever it lies.
    const writer = () => proc({ name: 'w', op: 'write', sync: false, outstanding: 64, span: null });
    const r = run({ stopMs: 4000, processes: [writer()] });
    const actives = r.messages.filter((m) => m.text === 'cfq1000 set_active');
    const fifo = r.messages.filter((m) => m.text.startsWith('cfq1000 fifo='));
    // one FIFO look per slice, right at set_active
    expect(fifo).toHaveLength(actives.length);
    expect(actives.length).toBeGreaterThan(20);
    fifo.forEach((m, i) => expect(m.tMs).toBe(actives[i]!.tMs));
    // after the first second, every slice's first dispatch is the overdue FIFO head
    const late = fifo.filter((m) => m.tMs > 1000);
    expect(late.length).toBeGreaterThan(10);
    for (const m of late) expect(m.text).toMatch(/^cfq1000 fifo=ffff8800[0-9a-f]{8}$/);
    expect(r.rules['fifo-expired-in-queue']).toBeGreaterThanOrEqual(late.length);
    expect(r.rules['slice-expired']).toBeGreaterThanOrEqual(late.length);
    // a FIFO deadline longer than the run: no slice starts off the FIFO
    const calm = run({
      stopMs: 4000,
      tunables: { fifo_expire_async: 10000 },
      processes: [writer()],
    });
    expect(calm.rules['fifo-expired-in-queue']).toBeUndefined();
  });

  test('close cooperator: a queue that runs dry hands over to one working at the head, and they merge', () => {
    const stream = (start: number, n: number): FixedRequest[] =>
      Array.from({ length: n }, (_, i) => ({
        sector: start + 16 * i,
        sizeKiB: 4,
        op: 'read' as const,
        atMs: 0,
        thinkTimeMs: i === 0 ? null : 0,
      }));
    // two processes reading interleaved 4 KiB blocks of one region
    const r = run({
      processes: [
        proc({ name: 'a', requests: stream(100000, 20) }),
        proc({ name: 'b', requests: stream(100008, 20) }),
      ],
    });
    expect(r.rules['close-cooperator']).toBeGreaterThan(0);
    expect(r.messages.map((m) => m.text)).toContain('cfq1000 merging with queue ffff880100000200');
    // the disk sweeps the region in order, without idling between the two
    const sectors = r.d.map((e) => e.sector);
    expect(sectors).toEqual([...sectors].sort((x, y) => x - y));
    expect(r.rules['idle-timeout'] ?? 0).toBe(0);
    // far apart, they are not cooperators: each idles at the end of its slice
    const far = run({
      processes: [
        proc({ name: 'a', requests: stream(100000, 20) }),
        proc({ name: 'b', requests: stream(1500000, 20) }),
      ],
    });
    expect(far.rules['close-cooperator'] ?? 0).toBe(0);
    expect(far.messages.some((m) => m.text.includes('merging with queue'))).toBe(false);
  });
});

// ── §5.7 dispatch: cfq_may_dispatch ──

describe('§5.7 dispatch limits', () => {
  /** the most requests of one process in the driver after a D while another process
   * had requests waiting in the scheduler (or, with `alone`, at any D) */
  const perPidInFlight = (events: TraceEvent[], alone = false) => {
    const live = new Map<number, number>();
    const waiting = new Map<number, number>();
    let max = 0;
    for (const e of events) {
      if (e.action === 'I') waiting.set(e.pid, (waiting.get(e.pid) ?? 0) + 1);
      if (e.action === 'D') {
        waiting.set(e.pid, waiting.get(e.pid)! - 1);
        const n = (live.get(e.pid) ?? 0) + 1;
        live.set(e.pid, n);
        const othersWait = [...waiting].some(([pid, k]) => pid !== e.pid && k > 0);
        if (alone || othersWait) max = Math.max(max, n);
      } else if (e.action === 'C') live.set(e.pid, live.get(e.pid)! - 1);
    }
    return max;
  };

  test('quantum: at most quantum requests of the active queue in the driver while others wait (×4 alone)', () => {
    const two = (q: Record<string, number>) =>
      run({
        stopMs: 1500,
        queueDepth: 16,
        tunables: q,
        processes: [proc({ name: 'a', outstanding: 16 }), proc({ name: 'b', outstanding: 16 })],
      });
    const r = two({});
    expect(perPidInFlight(r.events)).toBe(4);
    expect(r.rules['quantum-reached']).toBeGreaterThan(0);
    expect(perPidInFlight(two({ quantum: 2 }).events)).toBe(2);
    const alone = run({
      stopMs: 1000,
      queueDepth: 32,
      processes: [proc({ name: 'a', outstanding: 24 })],
    });
    expect(perPidInFlight(alone.events, true)).toBe(16);
  });

  test('async waits while sync requests are in flight; an idling sync queue waits for async to drain', () => {
    const r = run({
      stopMs: 3000,
      queueDepth: 8,
      processes: [
        // a sequential reader thinking 3 ms keeps its idle window
        proc({ name: 'reader', pattern: 'sequential', thinkTimeMs: 3 }),
        proc({ name: 'writer', op: 'write', outstanding: 8 }),
      ],
    });
    const writesAtD: number[] = [];
    const readsAtD: number[] = [];
    const live = { r: 0, w: 0 };
    for (const e of r.events) {
      if (e.action === 'D') {
        if (e.write) writesAtD.push(live.r);
        else readsAtD.push(live.w);
        live[e.write ? 'w' : 'r']++;
      } else if (e.action === 'C') live[e.write ? 'w' : 'r']--;
    }
    expect(writesAtD.length).toBeGreaterThan(10);
    expect(readsAtD.length).toBeGreaterThan(10);
    expect(Math.max(...writesAtD)).toBe(0); // no write went out with reads in flight
    expect(Math.max(...readsAtD)).toBe(0); // no read went out with writes in flight
    expect(r.rules['sync-in-flight']).toBeGreaterThan(0);
    expect(r.rules['drain-async-before-sync']).toBeGreaterThan(0);
  });

  test('low_latency: async depth is 1 right after a sync completion and grows by 1 per slice_sync', () => {
    const scen = (low: number) =>
      run({
        stopMs: 1500,
        queueDepth: 8,
        tunables: { low_latency: low },
        processes: [
          proc({ name: 'writer', op: 'write', outstanding: 8 }),
          proc({
            name: 'reader',
            requests: reads([
              [500000, 300],
              [900000, 800],
            ]),
          }),
        ],
      });
    /** most writes in flight at a write's D within 100 ms after a read completed */
    const afterRead = (r: Run) => {
      let lastReadC = -Infinity;
      let max = 0;
      let w = 0;
      for (const e of r.events) {
        if (e.action === 'C' && !e.write) lastReadC = e.tNs;
        if (e.action === 'C' && e.write) w--;
        if (e.action === 'D' && e.write) {
          w++;
          if (e.tNs - lastReadC < 96 * MS) max = Math.max(max, w);
        }
      }
      return max;
    };
    const on = scen(1);
    expect(afterRead(on)).toBe(1);
    expect(on.rules['async-depth-ramp']).toBeGreaterThan(0);
    expect(afterRead(scen(0))).toBeGreaterThan(1);
  });
});

// ── §5.8 completion, idling and slice expiry ──

describe('§5.8 idling', () => {
  const thinkers = (tunables: Record<string, number> = {}) =>
    run({
      stopMs: 2000,
      tunables,
      // two sequential readers far apart, each thinking 3 ms between reads
      processes: [proc({ name: 's', count: 2, pattern: 'sequential', thinkTimeMs: 3 })],
    });

  test('an emptied sync queue idles slice_idle for its process, which keeps the disk for its slice', () => {
    const r = thinkers();
    expect(r.rules['idle-arm']).toBeGreaterThan(50);
    expect(r.rules['idle-hit']).toBeGreaterThan(50);
    expect(r.messages.some((m) => m.text === 'cfq1000 arm_idle: 2')).toBe(true); // 8 ms = 2 jiffies
    // about one turn per 100 ms slice
    expect(turns(r.d).length).toBeLessThan(30);
    // slice_idle = 0: no idling, the two alternate request by request
    const none = thinkers({ slice_idle: 0 });
    expect(none.rules['idle-arm'] ?? 0).toBe(0);
    expect(turns(none.d).length).toBeGreaterThan(5 * turns(r.d).length);
  });

  test('idle timer: a process thinking longer than slice_idle loses the disk, then its idle window', () => {
    const r = run({
      stopMs: 1500,
      processes: [
        proc({ name: 'slow', pattern: 'sequential', thinkTimeMs: 20 }),
        proc({ name: 'busy', pattern: 'sequential', span: { startSector: 1e6, sectors: 1e5 } }),
      ],
    });
    expect(r.rules['idle-timeout']).toBeGreaterThan(0);
    expect(r.messages.filter((m) => m.text.startsWith('cfq1000 idle=')).map((m) => m.text)).toEqual(
      ['cfq1000 idle=0'],
    );
    // before: "idle timer fired" then "slice expired t=0"; after: no arm_idle for cfq1000
    const off = r.messages.find((m) => m.text === 'cfq1000 idle=0')!.tMs;
    const fired = r.messages.findIndex((m) => m.text === 'cfq idle timer fired');
    expect(r.messages[fired + 1]!.text).toBe('cfq1000 slice expired t=0');
    expect(r.messages.some((m) => m.text.startsWith('cfq1000 arm_idle') && m.tMs > off)).toBe(
      false,
    );
    expect(r.rules['queue-empty-expire']).toBeGreaterThan(0);
  });

  test('a seeky queue (mean seek > 8192 sectors) idles at most 2 ms', () => {
    const idles = (hz: number) => {
      const r = run({
        stopMs: 1500,
        hz,
        processes: [proc({ name: 'random' }), proc({ name: 'seq', pattern: 'sequential' })],
      });
      const of = (pid: number) =>
        new Set(
          r.messages.filter((m) => m.text.startsWith(`cfq${pid} arm_idle`)).map((m) => m.text),
        );
      return [of(1000), of(1001)];
    };
    // HZ 250: 2 ms rounds up to 1 jiffy; before its statistics are valid it idles 2 jiffies
    expect(idles(250)).toEqual([
      new Set(['cfq1000 arm_idle: 2', 'cfq1000 arm_idle: 1']),
      new Set(['cfq1001 arm_idle: 2']),
    ]);
    expect(idles(1000)).toEqual([
      new Set(['cfq1000 arm_idle: 8', 'cfq1000 arm_idle: 2']),
      new Set(['cfq1001 arm_idle: 8']),
    ]);
  });

  test('no idling on a non-rotational device that queues commands (hw_tag): an SSD does not idle', () => {
    // cfq_arm_slice_timer returns at once when the device is non-rotational (the ssd
    // preset) and hw_tag is set; idle-arm counts the queues that did idle
    const idles = (preset: string, processes: ProcessSpec[]) => {
      const r = run({ stopMs: 1000, queueDepth: 8, preset, processes });
      return { arms: r.rules['idle-arm'] ?? 0, hwTag: r.state.hwTag };
    };
    // two sync random readers and a deep sequential one: hw_tag stays 1 on both drives;
    // the rotating one idles for the readers, the SSD never does
    const withTag = [
      proc({ name: 'r', count: 2 }),
      proc({ name: 'd', outstanding: 8, pattern: 'sequential' }),
    ];
    const rotating = idles('hp-c2247a', withTag);
    expect(rotating.hwTag).toBe(1);
    expect(rotating.arms).toBeGreaterThan(10);
    expect(idles('ssd', withTag)).toEqual({ arms: 0, hwTag: 1 });
    // a deep random reader instead: the driver never holds 5 (CFQ's own limits), hw_tag
    // drops to 0 after 50 loaded samples (cfq_update_hw_tag), and the SSD idles too
    const noTag = [proc({ name: 'r', count: 2 }), proc({ name: 'd', outstanding: 8 })];
    const withoutTag = idles('ssd', noTag);
    expect(withoutTag.hwTag).toBe(0);
    expect(withoutTag.arms).toBeGreaterThan(10);
  }, 60_000);

  test('hw_tag: 1 at start; after 50 loaded samples, 1 only if the driver held 5 requests', () => {
    const shallow = run({ stopMs: 1500, processes: [proc({ outstanding: 8 })] });
    expect(shallow.state.hwTag).toBe(0);
    expect(run({ stopMs: 100, processes: [proc({})] }).state.hwTag).toBe(1); // no load yet
    const deep = run({ stopMs: 1500, queueDepth: 32, processes: [proc({ outstanding: 16 })] });
    expect(deep.state.hwTag).toBe(1);
    expect(deep.inspect()['hwTag']).toBe(1);
  });
});

// ── §5.9 preemption ──

describe('§5.9 preemption', () => {
  /** the first D after the given process's first I */
  const firstDAfter = (r: Run, pid: number) => {
    const i = r.events.findIndex((e) => e.action === 'I' && e.pid === pid);
    return r.events.slice(i).find((e) => e.action === 'D')!;
  };

  test('an RT request preempts a BE queue mid-slice; the BE queue keeps its unused slice (resid)', () => {
    const r = run({
      stopMs: 400,
      processes: [
        proc({ name: 'be' }),
        proc({ name: 'rt', requests: reads([[900000, 50]]), ioprio: { class: 'rt', level: 4 } }),
      ],
    });
    expect(firstDAfter(r, 1001).pid).toBe(1001);
    expect(r.rules['preempt-rt']).toBe(1);
    const i = r.messages.findIndex((m) => m.text === 'cfq1001 preempt');
    expect(r.messages[i + 1]!.text).toBe('cfq1000 slice expired t=1');
    expect(r.messages[i + 2]!.text).toMatch(/^cfq1000 resid=(\d+)$/);
    expect(Number(/resid=(\d+)/.exec(r.messages[i + 2]!.text)![1])).toBeGreaterThan(0);
    // without RT class the same request waits for the BE slice
    const be = run({
      stopMs: 400,
      processes: [proc({ name: 'be' }), proc({ name: 'other', requests: reads([[900000, 50]]) })],
    });
    expect(firstDAfter(be, 1001).pid).toBe(1000);
    expect(be.rules['preempt-rt'] ?? 0).toBe(0);
  });

  test('a sync request preempts an async queue', () => {
    const r = run({
      stopMs: 400,
      processes: [
        proc({ name: 'writer', op: 'write', outstanding: 8 }),
        proc({ name: 'reader', requests: reads([[900000, 50]]) }),
      ],
    });
    expect(r.rules['preempt-sync-over-async']).toBe(1);
    expect(firstDAfter(r, 1001).pid).toBe(1001);
  });

  test('any RT or BE request preempts an IDLE-class queue', () => {
    const r = run({
      stopMs: 400,
      processes: [
        proc({ name: 'idle', ioprio: { class: 'idle', level: 7 } }),
        proc({ name: 'be', requests: reads([[900000, 50]]) }),
      ],
    });
    expect(r.rules['preempt-idle-class']).toBe(1);
    expect(firstDAfter(r, 1001).pid).toBe(1001);
  });

  test('while the active queue idles, a request close to the head preempts it', () => {
    // 'a' reads 10000, then 3 ms after it completes, 10008; 'b' sends one read while 'a'
    // idles: close to the head (within 8192 sectors), it preempts; far away, it waits
    const a = proc({
      name: 'a',
      requests: [
        { sector: 10000, sizeKiB: 4, op: 'read', atMs: 0, thinkTimeMs: null },
        { sector: 10008, sizeKiB: 4, op: 'read', atMs: 0, thinkTimeMs: 3 },
      ],
    });
    const firstC = run({ processes: [a] }).events.find((e) => e.action === 'C')!.tNs / MS;
    const withB = (sector: number) =>
      run({ processes: [a, proc({ name: 'b', requests: reads([[sector, firstC + 1]]) })] });
    const near = withB(12000);
    expect(near.rules['preempt-close']).toBe(1);
    expect(near.d.map((e) => e.sector)).toEqual([10000, 12000, 10008]);
    const far = withB(900000);
    expect(far.rules['preempt-close'] ?? 0).toBe(0);
    expect(far.d.map((e) => e.sector)).toEqual([10000, 10008, 900000]);
  });
});

// ── §5.11 the headline claims ──

describe('§5.11 fairness', () => {
  test('four equal closed-loop random readers get disk-time shares within ±10% of each other', () => {
    const r = run({ stopMs: 8000, processes: [proc({ name: 'r', count: 4 })] });
    const shares = r.summary.processes.map((p) => p.diskTimeShare);
    const mean = shares.reduce((a, b) => a + b, 0) / shares.length;
    for (const s of shares) expect(Math.abs(s - mean) / mean).toBeLessThan(0.1);
    expect(Math.max(...shares) / Math.min(...shares)).toBeLessThan(1.1);
  });

  test('levels 0 and 7: disk time follows the slice lengths (180 ms and 40 ms a turn)', () => {
    const r = run({
      stopMs: 10000,
      processes: [
        proc({ name: 'hi', ioprio: { class: 'be', level: 0 } }),
        proc({ name: 'lo', ioprio: { class: 'be', level: 7 } }),
      ],
    });
    const [hi, lo] = r.summary.processes.map((p) => p.diskTimeShare) as [number, number];
    // each turn is the slice plus the request before the slice clock starts and the
    // overrun of the last one (~15 ms each): (180 + 30) / (40 + 30) = 3
    expect(hi / lo).toBeGreaterThan(2.6);
    expect(hi / lo).toBeLessThan(3.6);
    // equal levels: equal shares
    const eq = run({ stopMs: 10000, processes: [proc({ name: 'x', count: 2 })] });
    const [x, y] = eq.summary.processes.map((p) => p.diskTimeShare) as [number, number];
    expect(x / y).toBeGreaterThan(0.9);
    expect(x / y).toBeLessThan(1.1);
  });

  test('an IDLE-class process gets the disk only when no other process has requests queued', () => {
    /** at each D of `pid`, requests of other processes inserted and not yet dispatched */
    const othersWaiting = (r: Run, pid: number) => {
      const waiting = new Map<number, number>();
      const out: number[] = [];
      for (const e of r.events) {
        if (e.action === 'I') waiting.set(e.pid, (waiting.get(e.pid) ?? 0) + 1);
        if (e.action !== 'D') continue;
        waiting.set(e.pid, waiting.get(e.pid)! - 1);
        if (e.pid === pid) out.push([...waiting].reduce((n, [p, k]) => (p === pid ? n : n + k), 0));
      }
      return out;
    };
    const idle = { class: 'idle' as const, level: 7 };
    // a busy BE reader: the IDLE reader gets one request in as each BE slice ends
    const busy = run({
      stopMs: 5000,
      processes: [proc({ name: 'be' }), proc({ name: 'idle', ioprio: idle })],
    });
    const atBusy = othersWaiting(busy, 1001);
    expect(atBusy.length).toBeGreaterThan(0);
    expect(Math.max(...atBusy)).toBe(0);
    expect(busy.summary.processes[1]!.diskTimeShare).toBeLessThan(0.2);
    // a BE reader thinking 50 ms: the IDLE reader fills the gaps
    const gaps = run({
      stopMs: 5000,
      processes: [proc({ name: 'be', thinkTimeMs: 50 }), proc({ name: 'idle', ioprio: idle })],
    });
    const atGaps = othersWaiting(gaps, 1001);
    expect(Math.max(...atGaps)).toBe(0);
    expect(gaps.summary.processes[1]!.diskTimeShare).toBeGreaterThan(0.5);
    expect(gaps.rules['idle-class-when-idle']).toBeGreaterThan(50);
    // the same process in BE class takes turns with the busy reader
    const be = run({ stopMs: 5000, processes: [proc({ name: 'be' }), proc({ name: 'other' })] });
    expect(Math.max(...othersWaiting(be, 1001))).toBeGreaterThan(0);
  });
});

// ── hooks the block layer calls ──

describe('merge hooks, may_queue, forced dispatch (called directly)', () => {
  test('front merges only inside the submitting process own queue; no sync bio into an async request', () => {
    const f = fakeCtx();
    const s = cfq.init({}, f.ctx);
    const a = f.rq(1, 1000);
    const w = f.rq(1, 5000, { write: true });
    const b = f.rq(2, 3000);
    for (const rq of [a, w, b]) cfq.add(s, rq, f.ctx);
    expect(cfq.frontMergeCandidate!(s, f.bio(1, 992), 1000, f.ctx)).toBe(a.slot);
    expect(cfq.frontMergeCandidate!(s, f.bio(2, 992), 1000, f.ctx)).toBe(-1); // not pid 2's
    expect(cfq.frontMergeCandidate!(s, f.bio(3, 992), 1000, f.ctx)).toBe(-1); // no queue yet
    expect(cfq.allowMerge!(s, a, f.bio(1, 1008), f.ctx)).toBe(true);
    expect(cfq.allowMerge!(s, a, f.bio(2, 1008), f.ctx)).toBe(false);
    expect(cfq.allowMerge!(s, w, f.bio(1, 5008, { write: true }), f.ctx)).toBe(true);
    // an O_SYNC write bio would go to the sync queue: not into the async request
    expect(cfq.allowMerge!(s, w, f.bio(1, 5008, { write: true, sync: true }), f.ctx)).toBe(false);
  });

  test('sector neighbours, front-merge re-sorting and the FIFO place of a merged request', () => {
    const f = fakeCtx();
    const s = cfq.init({}, f.ctx);
    const x = f.rq(1, 2000);
    f.clock.now = 5 * MS;
    const y = f.rq(1, 1000);
    const z = f.rq(1, 3000);
    for (const rq of [x, y, z]) cfq.add(s, rq, f.ctx);
    expect(cfq.formerRequest!(s, x, f.ctx)).toBe(y.slot);
    expect(cfq.latterRequest!(s, x, f.ctx)).toBe(z.slot);
    expect(cfq.latterRequest!(s, z, f.ctx)).toBe(-1);
    // a bio in front of z moved its start below x: it is re-sorted
    z.sector = 1500;
    cfq.merged!(s, z, true, f.ctx);
    expect(s.queues[0]!.sortList).toEqual([y.slot, z.slot, x.slot]);
    // y absorbs the older x: y takes x's deadline and FIFO place
    const before = x.fifoNs;
    cfq.requestsMerged!(s, y, x, f.ctx);
    expect(y.fifoNs).toBe(before);
    expect(s.queues[0]!.fifo).toEqual([y.slot, z.slot]);
    expect(cfq.queued(s)).toBe(2);
  });

  test('may_queue: "must" once per slice for the process its active queue idles for', () => {
    const f = fakeCtx();
    const s = cfq.init({}, f.ctx);
    cfq.add(s, f.rq(1, 1000), f.ctx);
    expect(cfq.mayQueue!(s, f.bio(1, 2000), f.ctx)).toBe('may');
    s.queues[0]!.waitRequest = true;
    expect(cfq.mayQueue!(s, f.bio(1, 2000), f.ctx)).toBe('must');
    expect(cfq.mayQueue!(s, f.bio(1, 2000), f.ctx)).toBe('may');
    expect(cfq.mayQueue!(s, f.bio(2, 2000), f.ctx)).toBe('may');
  });

  test('forced dispatch drains every queue, leftmost first; an alias goes straight out', () => {
    const f = fakeCtx();
    const s = cfq.init({}, f.ctx);
    const rqs = [f.rq(1, 1000), f.rq(1, 9000), f.rq(2, 5000)];
    for (const rq of rqs) cfq.add(s, rq, f.ctx);
    const out: number[] = [];
    for (let slot = cfq.dispatch(s, true, f.ctx); slot >= 0; slot = cfq.dispatch(s, true, f.ctx))
      out.push(f.ctx.rq(slot).sector);
    expect(out).toEqual([1000, 9000, 5000]);
    expect(f.messages).toContain('cfq forced_dispatch=3');
    expect(cfq.queued(s)).toBe(0);
    // the alias rule: a second request at the same start sector pushes the first out
    const g = fakeCtx();
    const t = cfq.init({}, g.ctx);
    const first = g.rq(1, 7000);
    cfq.add(t, first, g.ctx);
    cfq.add(t, g.rq(1, 7000), g.ctx);
    expect(g.rules).toContain('alias-dispatch');
    // on its way out it takes no more bios (the kernel drops it from the merge hash)
    expect(cfq.allowMerge!(t, first, g.bio(1, 7008), g.ctx)).toBe(false);
    expect(cfq.dispatch(t, false, g.ctx)).toBe(first.slot);
  });
});

// ── what CFQ tells the outside world ──

describe('blktrace messages, decision records, inspection', () => {
  test("'m' messages in the kernel's 2.6.32 wording and order", () => {
    const r = run({
      processes: [
        proc({
          requests: reads([
            [1000, 0],
            [2000, 0],
          ]),
        }),
      ],
    });
    expect(r.messages.map((m) => m.text)).toEqual([
      'cfq1000 alloced',
      'cfq1000 insert_request',
      'cfq1000 add_to_rr',
      'cfq1000 set_active',
      'cfq1000 fifo=(null)',
      'cfq1000 dispatch_insert',
      'cfq1000 del_from_rr',
      'cfq1000 dispatched a request',
      'cfq1000 activate rq, drv=1',
      'cfq1000 insert_request',
      'cfq1000 add_to_rr',
      'cfq1000 complete',
      'cfq1000 set_slice=25',
      'cfq schedule dispatch',
      'cfq1000 dispatch_insert',
      'cfq1000 del_from_rr',
      'cfq1000 dispatched a request',
      'cfq1000 activate rq, drv=1',
      'cfq1000 complete',
      'cfq1000 arm_idle: 2',
      // nothing else is busy: the timer leaves the queue active (no expiry, no kick)
      'cfq idle timer fired',
    ]);
    // every text of a longer run is one of the 2.6.32 formats
    const busy = run({
      stopMs: 1500,
      processes: [
        proc({ name: 'a', count: 2 }),
        proc({ name: 'w', op: 'write', outstanding: 4 }),
        proc({ name: 'i', ioprio: { class: 'idle', level: 7 } }),
      ],
    });
    const formats =
      /^cfq(\d+ (alloced|insert_request|add_to_rr|del_from_rr|set_active|fifo=(\(null\)|ffff8800[0-9a-f]{8})|dispatch_insert|dispatched a request|activate rq, drv=\d+|deactivate rq, drv=\d+|complete|set_slice=\d+|arm_idle: \d+|idle=[01]|slice expired t=[01]|resid=-?\d+|preempt|merging with queue ffff8801[0-9a-f]{8}|breaking apart cfqq)| (schedule dispatch|idle timer fired|forced_dispatch=\d+))$/;
    for (const m of busy.messages) expect(m.text).toMatch(formats);
  });

  test('a decision record for every dispatch, every rule from the closed list', () => {
    const r = run({
      stopMs: 1500,
      queueDepth: 4,
      processes: [
        proc({ name: 'a', count: 2, outstanding: 2 }),
        proc({ name: 'w', op: 'write', outstanding: 4 }),
        proc({ name: 'i', ioprio: { class: 'idle', level: 7 } }),
      ],
    });
    const chosen = r.decisions.filter((x) => x.chosen >= 0).map((x) => x.chosen);
    expect(chosen).toEqual(r.d.map((e) => e.rq));
    for (const x of r.decisions) {
      expect(Object.keys(CFQ_RULES)).toContain(x.rule);
      expect(x.text).toBeTruthy();
    }
    const refusals = r.decisions.filter((x) => x.chosen < 0).map((x) => x.rule);
    expect(refusals).toEqual(
      expect.arrayContaining(['wait-in-flight', 'slice-expired', 'drain-async-before-sync']),
    );
  });

  test('inspect(): active queue, idle window, service tree, queues, hw_tag; the state survives structuredClone', () => {
    const f = fakeCtx();
    const s = cfq.init({}, f.ctx);
    cfq.add(s, f.rq(1, 1000), f.ctx);
    cfq.add(s, f.rq(2, 5000, { write: true }), f.ctx);
    const slot = cfq.dispatch(s, false, f.ctx);
    expect(slot).toBe(0);
    const view = cfq.inspect(s, f.ctx);
    expect(view['activeQueue']).toMatchObject({
      queue: 'cfq1',
      pid: 1,
      class: 'be',
      level: 4,
      sliceStartMs: null, // starts at the first completion
      dispatched: 1,
      budget: null,
    });
    expect(view['idleWindow']).toEqual({ armed: false, untilMs: null });
    // it became busy beside another: 1 × (45 − 10) jiffies = 140 ms after time 0
    expect(view['serviceTree']).toEqual([{ queue: 'async be4', class: 'be', key: 140 }]);
    expect(view['queues']).toMatchObject([
      { id: 0, pid: 1, sync: true, sortList: [], fifo: [] },
      { id: 1, pid: 2, sync: false, sortList: [1], fifo: [1], thinkMeanMs: null },
    ]);
    expect(view['hwTag']).toBe(1);
    expect(structuredClone(s)).toEqual(s);
  });
});
