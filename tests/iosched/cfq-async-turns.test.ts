// Two behaviours of 2.6.32 CFQ that look like defects and are not (docs/iosched/cfq.md,
// "Two consequences of the rules, measured"): an async request may preempt an idling sync
// queue by the close rule, which lets one TPC-B terminal keep the disk; and the shared
// async queue, once the processes with sync queues no longer block on the async writes
// (the page cache's flusher submits them), gets one dispatch per turn and a turn every
// ~1.4 s. Kernel references are to block/cfq-iosched.c of 2.6.32.
import { readFileSync } from 'node:fs';
import { describe, expect, test, vi } from 'vitest';
import { loadScenario } from '../../src/engine/scenario/load';
import type { FixedRequest, ProcessSpec } from '../../src/engine/scenario/types';
import { SCENARIOS } from '../cli/run-cli';
import { proc, scenario } from '../helpers/scenario';
import { tracedRun, type TracedRun } from '../helpers/traced-run';

// whole lesson runs: seconds each, far more on a loaded shared machine
vi.setConfig({ testTimeout: 120_000 });

const MS = 1e6;

/** How often each of CFQ's rules fired. */
function ruleCounts(r: TracedRun): Record<string, number> {
  const rules: Record<string, number> = {};
  for (const d of r.decisions) rules[d.rule] = (rules[d.rule] ?? 0) + 1;
  return rules;
}

/** A committed scenario under CFQ, optionally with the page cache, recorded. */
function lesson(file: string, pageCache = false): TracedRun {
  const raw = JSON.parse(readFileSync(`${SCENARIOS}/${file}`, 'utf8')) as {
    iosched: unknown;
    workload: Record<string, unknown>;
  };
  raw.iosched = { name: 'cfq' };
  if (pageCache) raw.workload.pageCache = {};
  return tracedRun(loadScenario(raw, file));
}

const at = (sector: number, atMs: number, op: 'read' | 'write'): FixedRequest => ({
  sector,
  sizeKiB: 4,
  op,
  atMs,
  thinkTimeMs: null,
});

describe('cfq_should_preempt: an async request may preempt by the close rule', () => {
  test('an async write near the head preempts the idling sync queue; the process’s next sync read takes the disk back with a fresh slice (cfq_preempt_queue)', () => {
    // 'a' reads 10000, then 3 ms after it completes 10008, idling in between; the writer's
    // async write at 12000 arrives while 'a' idles. 2.6.32's rule order: slice used, IDLE
    // class, sync over async, metadata, RT, then — for any request, sync or not — "as good
    // as one the idling queue would issue" (cfq_rq_close: within its mean seek distance,
    // 8192 sectors before its statistics are valid).
    const a = proc({
      name: 'a',
      requests: [
        at(10000, 0, 'read'),
        { sector: 10008, sizeKiB: 4, op: 'read', atMs: 0, thinkTimeMs: 3 },
      ],
    });
    const sc = (procs: ProcessSpec[]) =>
      scenario({ iosched: 'cfq', preset: 'hp-c2247a', processes: procs });
    const firstC = tracedRun(sc([a])).trace.find((e) => e.action === 'C')!.tNs / MS;
    const r = tracedRun(sc([a, proc({ name: 'w', requests: [at(12000, firstC + 1, 'write')] })]));
    const preempts = r.decisions.filter((d) => d.rule.startsWith('preempt'));
    expect(preempts.map((d) => d.rule)).toEqual(['preempt-close', 'preempt-sync-over-async']);
    expect(preempts[0]!.text).toBe('cfq1000 (be/4): preempted by cfq1001 async (be/4)');
    expect(preempts[1]!.text).toBe('cfq1001 async (be/4): preempted by cfq1000 (be/4)');
    expect(r.d.map((e) => [e.sector, e.sync])).toEqual([
      [10000, true],
      [12000, false],
      [10008, true],
    ]);
    // the preempting queue's slice starts afresh at its next completion: the whole 25
    // jiffies (100 ms at HZ 250), not what was left of the slice it lost
    const m = r.trace.filter((e) => e.action === 'm').map((e) => e.message);
    const back = m.lastIndexOf('cfq1000 preempt');
    expect(m.slice(back).find((t) => t?.startsWith('cfq1000 set_slice='))).toBe(
      'cfq1000 set_slice=25',
    );
  });
});

describe('TPC-B under CFQ: one terminal keeps the disk through that cycle', () => {
  // Seed 1, 30 s: terminals 0–3 commit 259, 265, 807, 264 transactions. All but 3 of the
  // 478 close-rule preemptions are the async queue's over terminal 2's idling queue, and
  // terminal 2's sync requests preempt the async queue back 626 times (the others' 136–179).
  test('the terminal whose idling queue the async queue preempts commits three times as many transactions as each other terminal', () => {
    const r = lesson('tpcb.json');
    const commits = new Map<number, number>();
    for (const e of r.trace)
      if (e.action === 'C' && e.write && e.sync) commits.set(e.pid, (commits.get(e.pid) ?? 0) + 1);
    const close = r.decisions.filter((d) => d.rule === 'preempt-close');
    const victims = new Map<string, number>();
    for (const d of close) {
      const m = /^(cfq\d+) \(be\/4\): preempted by cfq\d+ async/.exec(d.text ?? '');
      expect(m).not.toBeNull();
      victims.set(m![1]!, (victims.get(m![1]!) ?? 0) + 1);
    }
    const [top, n] = [...victims.entries()].sort((x, y) => y[1] - x[1])[0]!;
    expect(n / close.length).toBeGreaterThan(0.95);
    const pid = Number(top.slice(3));
    const others = [...commits.entries()].filter(([p]) => p !== pid).map(([, c]) => c);
    expect(others).toHaveLength(3);
    for (const c of others) expect(commits.get(pid)!).toBeGreaterThan(2.5 * c);
  });
});

describe('the page cache’s flusher under CFQ: the async queue gets one request a turn', () => {
  // ffsb-cfq-ann.json (8 FFSB threads, mixed profile), seed 1, 120 s. With the page cache
  // the flusher's writes (from 30 s) are dispatched 64 times, one per turn of the async
  // queue, each turn ended by a thread's sync request (preempt-sync-over-async); the sync
  // queues idle (20,249 idle hits, 9 idle timeouts) and use their whole slices. Without it
  // the threads sleep in get_request for their own async writes: their queues run dry
  // (7,589 expiries empty), queues change 12,876 times and 5,830 async writes go out.
  const asyncD = (t: TracedRun) => t.d.filter((e) => !e.sync).length;

  test('with the page cache: under 100 async dispatches in 120 s, as many as the async queue’s turns ended by a sync request', () => {
    const r = lesson('ffsb-cfq-ann.json', true);
    const rules = ruleCounts(r);
    const n = asyncD(r);
    expect(n).toBeLessThan(100);
    expect(n).toBeGreaterThan(30);
    expect(rules['preempt-sync-over-async']).toBe(n);
    expect(rules['idle-hit']!).toBeGreaterThan(100 * (rules['idle-timeout'] ?? 0));
    expect(rules['queue-empty-expire'] ?? 0).toBe(0);
  });

  test('without it: the threads’ queues run dry, the async queue gets thousands of turns', () => {
    const r = lesson('ffsb-cfq-ann.json');
    expect(asyncD(r)).toBeGreaterThan(5000);
    expect(ruleCounts(r)['queue-empty-expire']!).toBeGreaterThan(5000);
  });
});
