// The Linux-scheduler lessons' claims (issue 3), checked through the real CLI on the
// committed scenario files, as a student would run them.
import { describe, expect, it, vi } from 'vitest';

// Each lesson runs whole simulations through the CLI, several per test.
vi.setConfig({ testTimeout: 60_000 });
import { elevatorNames } from '../../src/engine/iosched/elevator';
import '../../src/engine/iosched/registry';
import type { RunSummary } from '../../src/engine/summary';
import { SCENARIOS, spindleJson } from '../cli/run-cli';

interface Sweep {
  runs: Array<{ settings: Record<string, string | number>; summary: RunSummary }>;
}

const LINUX = ['noop', 'deadline', 'anticipatory', 'cfq'].filter((n) =>
  elevatorNames().includes(n),
);
const proc = (s: RunSummary, name: string) => s.processes.find((p) => p.name === name)!;

describe('lesson: merging', () => {
  it('4 KiB pieces glue back into requests; 2.6.16 noop merges only back-to-back arrivals', async () => {
    const sweep = await spindleJson<Sweep>([
      'sweep',
      `${SCENARIOS}/merging.json`,
      '--vary',
      `iosched.name=none,${LINUX.join(',')}`,
      '--vary',
      'iosched.kernel=2.6.32,2.6.16',
      '--json',
    ]);
    const ratio = (name: string, kernel: string) =>
      sweep.runs.find(
        (r) => r.settings['iosched.name'] === name && r.settings['iosched.kernel'] === kernel,
      )!.summary.requests.mergeRatio;
    expect(ratio('none', '2.6.32')).toBe(1);
    for (const name of LINUX) expect(ratio(name, '2.6.32')).toBeGreaterThan(3);
    expect(ratio('noop', '2.6.16')).toBeLessThan(1.5);
    expect(ratio('noop', '2.6.16')).toBeLessThan(ratio('noop', '2.6.32') / 2);
  });
});

describe("lesson: deadline's promise", () => {
  it('no read waits past read_expire + one batch under deadline; noop makes reads wait behind writes', async () => {
    const run = (name: string) =>
      spindleJson<RunSummary>([
        'run',
        `${SCENARIOS}/deadline-promise.json`,
        '--set',
        `iosched.name=${name}`,
        '--json',
      ]);
    const deadline = await run('deadline');
    const noop = await run('noop');
    // One batch: fifo_batch (16) requests, each at most a full-stroke 8 KiB write on the
    // C2247A (19.85 ms seek + 0.65 settle + 11.1 rotation + ~2 transfer + ~1 overhead).
    const batchMs = 16 * 35;
    expect(proc(deadline, 'reader').q2cMaxMs).toBeLessThan(500 + batchMs);
    expect(proc(noop, 'reader').q2cMaxMs).toBeGreaterThan(2 * proc(deadline, 'reader').q2cMaxMs);
  });
});

describe('lesson: disk queue depth', () => {
  it('at depth 1 noop is clearly behind deadline; the gap closes as the drive queue deepens', async () => {
    const sweep = await spindleJson<Sweep>([
      'sweep',
      `${SCENARIOS}/disk-queue-depth.json`,
      '--vary',
      'disk.queueDepth=1,32',
      '--vary',
      'iosched.name=noop,deadline',
      '--json',
    ]);
    const iops = (qd: number, name: string) =>
      sweep.runs.find(
        (r) => r.settings['disk.queueDepth'] === qd && r.settings['iosched.name'] === name,
      )!.summary.throughput.iops;
    expect(iops(1, 'noop')).toBeLessThan(0.7 * iops(1, 'deadline'));
    expect(iops(32, 'noop')).toBeGreaterThan(0.9 * iops(32, 'deadline'));
    // Deeper drive queues help noop most (Riska et al.).
    expect(iops(32, 'noop') / iops(1, 'noop')).toBeGreaterThan(
      iops(32, 'deadline') / iops(1, 'deadline'),
    );
  });
});

describe('lesson: SSD', () => {
  it('on the ssd preset noop does as well as the other schedulers', async () => {
    const sweep = await spindleJson<Sweep>([
      'sweep',
      `${SCENARIOS}/ssd.json`,
      '--vary',
      `iosched.name=${LINUX.join(',')}`,
      '--json',
    ]);
    // Throughput, not mean latency: a scheduler that starves some processes (CFQ idling on
    // an SSD before 2.6.33) completes fewer, faster I/Os, which flatters its mean.
    const noop = sweep.runs.find((r) => r.settings['iosched.name'] === 'noop')!.summary;
    for (const r of sweep.runs) {
      expect(noop.throughput.iops).toBeGreaterThan(0.95 * r.summary.throughput.iops);
      expect(noop.throughput.mbps).toBeGreaterThan(0.95 * r.summary.throughput.mbps);
    }
  });
});

describe('lesson: CFQ fairness', () => {
  const run = (...sets: string[]) =>
    spindleJson<RunSummary>([
      'run',
      `${SCENARIOS}/cfq-fairness.json`,
      ...sets.flatMap((s) => ['--set', s]),
      '--json',
    ]);
  const share = (s: RunSummary, name: string) => proc(s, name).diskTimeShare;
  /** CFQ's sync slice at a best-effort level: slice_sync + slice_sync/5 × (4 − level). */
  const slice = (level: number) => 100 + (100 / 5) * (4 - level);

  it('four equal-priority processes get disk-time shares within ±10%', async () => {
    const s = await run();
    for (const name of ['a', 'b', 'c', 'd']) {
      expect(share(s, name)).toBeGreaterThan(0.25 * 0.9);
      expect(share(s, name)).toBeLessThan(0.25 * 1.1);
    }
  });

  it('with priorities, the shares follow the slice lengths (within 20%)', async () => {
    const s = await run(
      'workload.processes.0.ioprio.level=0',
      'workload.processes.3.ioprio.level=7',
    );
    const base = (share(s, 'b') + share(s, 'c')) / 2;
    for (const [name, level] of [
      ['a', 0],
      ['d', 7],
    ] as const) {
      const ratio = share(s, name) / base;
      expect(ratio).toBeGreaterThan((slice(level) / slice(4)) * 0.8);
      expect(ratio).toBeLessThan((slice(level) / slice(4)) * 1.2);
    }
  });

  it('the idle class gets only idle time: beside three busy readers, almost none', async () => {
    const s = await run('workload.processes.3.ioprio.class=idle');
    expect(share(s, 'd')).toBeLessThan(0.01);
    for (const name of ['a', 'b', 'c']) expect(share(s, name)).toBeGreaterThan(0.3);
  });
});

describe('lesson: deceptive idleness', () => {
  const run = (...sets: string[]) =>
    spindleJson<RunSummary>([
      'run',
      `${SCENARIOS}/deceptive-idleness.json`,
      ...sets.flatMap((s) => ['--set', s]),
      '--json',
    ]);

  it('AS gives the sequential reader at least 2× the throughput deadline gives it', async () => {
    const as = await run('iosched.name=anticipatory');
    const deadline = await run('iosched.name=deadline');
    expect(proc(as, 'reader').mbps).toBeGreaterThan(2 * proc(deadline, 'reader').mbps);
  });

  it('with antic_expire = 0, AS behaves like deadline (reader within 10%)', async () => {
    const off = await run('iosched.name=anticipatory', 'iosched.tunables.antic_expire=0');
    const deadline = await run('iosched.name=deadline');
    const ratio = proc(off, 'reader').mbps / proc(deadline, 'reader').mbps;
    expect(ratio).toBeGreaterThan(0.9);
    expect(ratio).toBeLessThan(1.1);
  });
});
