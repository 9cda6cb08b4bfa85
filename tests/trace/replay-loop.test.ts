// Closed-mode replay keeps the trace's timing (replay-loop.ts): each Q after a process's
// first is DEPENDENT — issued thinkTimeMs after the completion of the process's own request
// that last completed between its previous Q and it — or INDEPENDENT — issued gapMs after
// the previous Q. A process keeps its own outstanding count, bursts stay bursts, and the sum
// of a process's think times and gaps never exceeds the trace's span.
import { describe, expect, it } from 'vitest';
import '../../src/engine/iosched/registry';
import { readTraceText } from '../../src/engine/trace/replay-source';
import { buildScenario, buildWorkload, firstQNs, replayTrace } from '../../src/engine/trace/replay';
import type { FixedRequest } from '../../src/engine/scenario/types';
import { dataText } from '../helpers/data';
import { tracedRun } from '../helpers/traced-run';

let seq = 0;
const line = (ms: number, pid: number, a: string, rwbs: string, rest: string): string =>
  `  8,0    0 ${String(++seq).padStart(8)} ${(ms / 1000).toFixed(9).padStart(15)} ${String(pid).padStart(5)}  ${a} ${rwbs.padStart(3)} ${rest}`;

/** A (pid 100) reads one at a time, thinking 2 ms, then 0.5 ms; B (pid 200) issues a burst
 * of three reads 0.1 ms apart, then one 0.2 ms after the last of them completes. B's
 * completions fall between A's Qs: A's think times are measured from A's own. */
function twoProcesses(): string {
  seq = 0;
  const io = (q: number, d: number, c: number, pid: number, comm: string, sector: number) => [
    [q, line(q, pid, 'Q', 'R', `${sector} + 8 [${comm}]`)] as const,
    [d, line(d, pid, 'D', 'R', `${sector} + 8 [${comm}]`)] as const,
    [c, line(c, 0, 'C', 'R', `${sector} + 8 [0]`)] as const,
  ];
  const events = [
    ...io(0, 0.01, 1, 100, 'a', 1000),
    ...io(3, 3.01, 4, 100, 'a', 2000),
    ...io(4.5, 4.51, 5, 100, 'a', 3000),
    ...io(0.5, 0.51, 2, 200, 'b', 50000),
    ...io(0.6, 0.61, 2.5, 200, 'b', 60000),
    ...io(0.7, 0.71, 2.8, 200, 'b', 70000),
    ...io(3.0, 3.02, 3.5, 200, 'b', 80000),
  ].sort((x, y) => x[0] - y[0]);
  return events.map((e) => e[1]).join('\n');
}

describe('closed replay: dependent and independent requests', () => {
  it('each process keeps its own think times; a burst is issued on the clock', () => {
    const reading = readTraceText(twoProcesses());
    const { scenario, workload } = buildScenario(reading, {
      mode: 'closed',
      meta: { scheduler: 'none' },
    });
    const [a, b] = scenario.workload.processes;
    const close = (x: number | null | undefined) => (x == null ? x : Math.round(x * 1e6) / 1e6);
    const rounded = (r: FixedRequest[] | null) =>
      r!.map((e) => ({
        atMs: close(e.atMs),
        thinkTimeMs: close(e.thinkTimeMs),
        afterDone: e.afterDone,
        gapMs: close(e.gapMs),
      }));
    // A: 0 → C at 1, Q at 3 (think 2 after its own C; B's C at 2 and 2.5 do not count)
    expect(rounded(a!.requests)).toEqual([
      { atMs: 0, thinkTimeMs: null, afterDone: undefined, gapMs: undefined },
      { atMs: 0, thinkTimeMs: 2, afterDone: 0, gapMs: undefined },
      { atMs: 0, thinkTimeMs: 0.5, afterDone: 1, gapMs: undefined },
    ]);
    // B: the burst 0.1 ms apart (nothing of B completed in between), then 0.2 ms after the
    // latest of its own completions (2.8, request 2)
    expect(rounded(b!.requests)).toEqual([
      { atMs: 0.5, thinkTimeMs: null, afterDone: undefined, gapMs: undefined },
      { atMs: 0, thinkTimeMs: null, afterDone: undefined, gapMs: 0.1 },
      { atMs: 0, thinkTimeMs: null, afterDone: undefined, gapMs: 0.1 },
      { atMs: 0, thinkTimeMs: 0.2, afterDone: 2, gapMs: undefined },
    ]);
    expect(workload).toMatchObject({ dependent: 3, independent: 4 });
  });

  it('in the simulation the burst is in flight together and A waits for its own completions', () => {
    const { scenario } = buildScenario(readTraceText(twoProcesses()), {
      mode: 'closed',
      meta: { scheduler: 'none', rotational: 1 }, // ms per read: the burst overlaps
      queueDepth: 4,
    });
    const { trace } = tracedRun(scenario);
    const at = (a: string, sector: number) =>
      trace.find((e) => e.action === a && e.sector === sector)!.tNs / 1e6;
    const burst = [50000, 60000, 70000];
    expect(burst.map((s) => at('Q', s))).toEqual([0.5, 0.6, 0.7].map((x) => expect.closeTo(x, 9)));
    expect(Math.min(...burst.map((s) => at('C', s)))).toBeGreaterThan(at('Q', 70000));
    expect(at('Q', 80000)).toBeCloseTo(at('C', 70000) + 0.2, 9);
    expect(at('Q', 2000)).toBeCloseTo(at('C', 1000) + 2, 9);
    expect(at('Q', 3000)).toBeCloseTo(at('C', 2000) + 0.5, 9);
  });

  it('the report counts them; open and trace-timed modes issue all on the clock', () => {
    const reading = readTraceText(twoProcesses());
    const closed = replayTrace(reading, { mode: 'closed', meta: { scheduler: 'none' } });
    expect(closed.requests).toMatchObject({ dependent: 3, independent: 4 });
    expect(closed.processes.map((p) => p.loop)).toEqual([
      { dependent: 2, independent: 1, thinkMs: expect.closeTo(2.5, 9), gapMs: 0 },
      {
        dependent: 1,
        independent: 3,
        thinkMs: expect.closeTo(0.2, 9),
        gapMs: expect.closeTo(0.2, 9),
      },
    ]);
    const open = replayTrace(reading, { mode: 'open', meta: { scheduler: 'none' } });
    expect(open.requests).toMatchObject({ dependent: 0, independent: 7 });
    expect(open.processes[0]!.loop).toBeNull();
  });
});

const TRACES = [
  'bfq_randrw7030_jobs4',
  'kyber_seqread_1m_split',
  'mq-deadline_ext4_smallfiles_fsync',
  'none_randread_4k',
];

describe.each(TRACES)('closed replay of linux-6.18/%s', (name) => {
  it("each process's think times and gaps sum to at most its span of Qs (≤ the trace's)", () => {
    const reading = readTraceText(dataText('linux-6.18', name, 'trace.txt.gz'));
    const dev = [...reading.devices.values()].find((d) => d.qs.length > 0)!;
    const t0 = firstQNs(dev);
    const lastC = dev.completions.reduce((m, c) => Math.max(m, c.tNs), t0);
    const spanMs = (lastC - t0) / 1e6;
    const w = buildWorkload(dev, 'closed');
    expect(w.dependent + w.independent).toBe(dev.qs.length);
    expect(w.dependent).toBeGreaterThan(0);
    for (const p of w.processes) {
      const qs = dev.qs.filter((q) => q.pid === p.info.pid).map((q) => q.tNs);
      const ownSpanMs = (Math.max(...qs) - Math.min(...qs)) / 1e6;
      const loop = p.info.loop!;
      expect(loop.thinkMs + loop.gapMs).toBeLessThanOrEqual(ownSpanMs + 1e-6);
      expect(ownSpanMs).toBeLessThanOrEqual(spanMs);
      // the entries say the same as the sums
      const think = p.spec.requests.reduce((s, r) => s + ((r.thinkTimeMs as number) ?? 0), 0);
      expect(think).toBeCloseTo(loop.thinkMs, 6);
    }
  });
});

/** C (pid 300, like jbd2) writes one block at 9 ms; at 10 ms it submits three contiguous
 * blocks 0.5 µs apart under one plug (Q G P Q M Q M U), and its 9 ms write completes between
 * the second and third Q; then, after sleeping (UT), two blocks in a plug flushed at its
 * limits in between (U, then P before the next Q), then one Q alone. */
function plugged(): string {
  seq = 0;
  const c = '[c]';
  const w = (ms: number, a: string, sector: number, n = 8) =>
    line(ms, 300, a, 'W', `${sector} + ${n} ${c}`);
  const n = (ms: number, a: string, rest = '') => line(ms, 300, a, 'N', `${c}${rest}`);
  return [
    w(9, 'Q', 500),
    w(9, 'G', 500),
    n(9, 'P'),
    n(9, 'U', ' 1'),
    w(9, 'D', 500),
    w(10, 'Q', 1000),
    w(10, 'G', 1000),
    n(10, 'P'),
    w(10.0005, 'Q', 1008),
    w(10.0005, 'M', 1008),
    line(10.0007, 0, 'C', 'W', '500 + 8 [0]'),
    w(10.001, 'Q', 1016),
    w(10.001, 'M', 1016),
    n(10.0012, 'U', ' 1'),
    w(10.0013, 'D', 1000, 24),
    line(11, 0, 'C', 'W', '1000 + 24 [0]'),
    w(12, 'Q', 2000),
    w(12, 'G', 2000),
    n(12, 'P'),
    n(12.0001, 'UT', ' 1'),
    w(12.0002, 'Q', 3000),
    w(12.0002, 'G', 3000),
    n(12.0002, 'P'),
    w(12.0003, 'Q', 4000),
    w(12.0003, 'G', 4000),
    n(12.0003, 'U', ' 1'), // at the plug's limits: flushed before 4000's request joins
    n(12.0003, 'P'),
    n(12.0004, 'U', ' 1'),
    w(12.0005, 'D', 2000),
    w(12.0005, 'D', 3000),
    w(12.0005, 'D', 4000),
    line(13, 0, 'C', 'W', '2000 + 8 [0]'),
    line(13, 0, 'C', 'W', '3000 + 8 [0]'),
    line(13, 0, 'C', 'W', '4000 + 8 [0]'),
  ].join('\n');
}

describe('closed replay: the Qs of one traced plug are one submission', () => {
  it('numbers the plugs from the Q that opened each (Q G P) to its U; a flush at the limits goes on, UT ends it', () => {
    const dev = [...readTraceText(plugged()).devices.values()][0]!;
    const plugOf = Object.fromEntries(dev.qs.map((q) => [q.sector, q.plug]));
    const p = plugOf[500]!;
    // 2000's plug ends at the UT; 3000 opens the next, and 4000 stays in it past the flush
    // at the limits (U then P before the task's next Q)
    expect(plugOf).toEqual({
      500: p,
      1000: p + 1,
      1008: p + 1,
      1016: p + 1,
      2000: p + 2,
      3000: p + 3,
      4000: p + 3,
    });
  });

  it('a 2.6 queue plug is not a submission: P by one process, unplugged by another (UT: kblockd on the timer)', () => {
    seq = 0;
    const q = (ms: number, a: string, sector: number, pid = 400) =>
      line(ms, pid, a, 'W', `${sector} + 8 [k]`);
    // 2.6.32: the writer plugs the empty queue (P), kblockd's unplug timer unplugs it (UT) 3 ms
    // later; its next Qs meet a queue plugged by someone else
    const old = [
      q(0, 'Q', 100),
      q(0, 'G', 100),
      line(0, 400, 'P', 'N', '[k]'),
      q(0.1, 'Q', 108),
      q(0.1, 'M', 108),
      line(3, 35, 'UT', 'N', '[kblockd/0] 1'),
      q(3, 'D', 100),
      q(4, 'Q', 5000),
      q(4, 'G', 5000),
      line(4, 400, 'P', 'N', '[k]'),
      q(4.1, 'Q', 6000),
      q(4.1, 'G', 6000),
      line(7, 35, 'UT', 'N', '[kblockd/0] 2'),
    ].join('\n');
    const dev = [...readTraceText(old).devices.values()][0]!;
    expect(dev.qs.map((x) => x.plug)).toEqual([-1, -1, -1, -1]);
    // and a trace with no U at all says nothing of plugs either
    const noU = [q(0, 'Q', 100), q(0, 'G', 100), line(0, 400, 'P', 'N', '[k]'), q(0.1, 'Q', 108)];
    expect([...readTraceText(noU.join('\n')).devices.values()][0]!.qs.map((x) => x.plug)).toEqual([
      -1, -1,
    ]);
  });

  it('a Q in the plug of the one before is independent, whatever of its own completed meanwhile, and that entry keeps the plug open', () => {
    const reading = readTraceText(plugged());
    const { scenario, workload } = buildScenario(reading, {
      mode: 'closed',
      meta: { scheduler: 'mq-deadline' },
    });
    const list = scenario.workload.processes[0]!.requests!;
    const by = Object.fromEntries(list.map((r) => [r.sector, r]));
    // 500's completion (10.0007 ms) falls between 1008 and 1016: still in the plug
    expect(by[1016]).toMatchObject({ gapMs: expect.closeTo(0.0005, 9) });
    expect(by[1016]!.afterDone).toBeUndefined();
    expect([500, 1000, 1008, 1016, 2000, 3000, 4000].map((s) => by[s]!.plugged ?? false)).toEqual([
      false,
      true,
      true,
      false,
      false,
      true,
      false,
    ]);
    expect(workload.inPlug).toBe(3);
    // open mode keeps the same submissions, each Q at its traced time
    const open = buildScenario(reading, { mode: 'open', meta: { scheduler: 'mq-deadline' } });
    const openList = open.scenario.workload.processes[0]!.requests!;
    expect(openList.map((r) => r.plugged ?? false)).toEqual([
      false,
      true,
      true,
      false,
      false,
      true,
      false,
    ]);
  });

  it('replayed on kernel 6.18 the three blocks become the kernel’s one request, dispatched after the last Q', () => {
    const reading = readTraceText(plugged());
    const { scenario } = buildScenario(reading, {
      mode: 'closed',
      meta: { scheduler: 'mq-deadline', rotational: 1 },
      queueDepth: 4,
    });
    const { trace } = tracedRun(scenario);
    const d = trace.filter((e) => e.action === 'D' && e.sector >= 1000 && e.sector < 2000);
    expect(d.map((e) => [e.sector, e.nSectors])).toEqual([[1000, 24]]);
    const lastQ = trace.find((e) => e.action === 'Q' && e.sector === 1016)!;
    expect(d[0]!.tNs).toBe(lastQ.tNs);
    // 3000 and 4000: one submission too (sectors apart: two requests, one U of 2)
    const u = trace.filter((e) => e.action === 'U' && e.tNs >= lastQ.tNs + 1e6);
    expect(u.map((e) => e.count)).toEqual([1, 2]);
  });
});
