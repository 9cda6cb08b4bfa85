// The real `spindle` command, spawned as a user runs it: `run --json`'s output shape
// (ARCHITECTURE.md), --set/--seed/--scheduler, sweep's cartesian product, and the disk.py
// figures through the CLI. Exports: export.test.ts; bad arguments: errors.test.ts.
import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../../src/engine/summary';
import { SCENARIOS, spindle, spindleJson } from './run-cli';

const RANDOM_READ = `${SCENARIOS}/c2247a-random-read.json`;
const OSTEP = `${SCENARIOS}/ostep-fifo-vs-satf.json`;
const SWITCHER = `${SCENARIOS}/fio-switcher.json`;

const LATENCY = ['mean', 'p50', 'p95', 'p99', 'max'];
/** Every key path of ARCHITECTURE.md's `spindle run --json` shape, with its type. */
const SHAPE: Array<[string, 'string' | 'number']> = [
  ['scenario', 'string'],
  ['seed', 'number'],
  ['iosched', 'string'],
  ['disk', 'string'],
  ['diskScheduler', 'string'],
  ['queueDepth', 'number'],
  ['simulatedTimeMs', 'number'],
  ...['queued', 'dispatched', 'completed', 'backMerges', 'frontMerges'].map(
    (k): [string, 'number'] => [`requests.${k}`, 'number'],
  ),
  ['throughput.iops', 'number'],
  ['throughput.mbps', 'number'],
  ...['q2c', 'q2d', 'd2c'].flatMap((l) =>
    LATENCY.map((k): [string, 'number'] => [`latencyMs.${l}.${k}`, 'number']),
  ),
  ...['seek', 'rotation', 'transfer', 'overhead'].map((k): [string, 'number'] => [
    `positioningMs.${k}`,
    'number',
  ]),
  ['work.positioningEstimates', 'number'],
  ['work.iosched.multiplyAdds', 'number'],
];
const PROCESS_SHAPE: Array<[string, 'string' | 'number']> = [
  ['name', 'string'],
  ['pid', 'number'],
  ['completed', 'number'],
  ['iops', 'number'],
  ['mbps', 'number'],
  ['q2cMeanMs', 'number'],
  ['q2cMaxMs', 'number'],
  ['diskTimeShare', 'number'],
];

function at(o: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown>)?.[k], o);
}

describe('spindle run --json', () => {
  it('prints exactly one JSON document with every field of the documented shape', async () => {
    const r = await spindle(['run', RANDOM_READ, '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const doc = JSON.parse(r.stdout) as RunSummary; // throws on anything but one document
    for (const [path, type] of SHAPE) {
      expect(typeof at(doc, path), path).toBe(type);
      if (type === 'number') expect(Number.isFinite(at(doc, path)), path).toBe(true);
    }
    expect(doc.processes).toHaveLength(1);
    for (const [key, type] of PROCESS_SHAPE)
      expect(typeof at(doc.processes[0], key), key).toBe(type);
    expect(doc).toMatchObject({
      scenario: 'c2247a-random-read',
      seed: 1,
      iosched: 'none',
      disk: 'hp-c2247a',
      diskScheduler: 'fcfs',
      queueDepth: 1,
    });
    expect(doc.requests.completed).toBe(2000);
    // A 5400 RPM disk reading at random: tens of IOPS, roughly 20 ms a read.
    expect(doc.throughput.iops).toBeGreaterThan(30);
    expect(doc.throughput.iops).toBeLessThan(80);
    expect(doc.latencyMs.q2c.mean).toBeGreaterThan(12);
    expect(doc.latencyMs.q2c.mean).toBeLessThan(30);
  });

  it('the same seed gives byte-identical output', async () => {
    const a = await spindle(['run', RANDOM_READ, '--json', '--seed', '7']);
    const b = await spindle(['run', RANDOM_READ, '--seed=7', '--json']);
    expect(a.code).toBe(0);
    expect(a.stdout).toBe(b.stdout);
  });

  it('--seed changes the figures of a random workload', async () => {
    const one = await spindleJson<RunSummary>(['run', RANDOM_READ, '--json']);
    const two = await spindleJson<RunSummary>(['run', RANDOM_READ, '--json', '--seed', '2']);
    expect(one.seed).toBe(1);
    expect(two.seed).toBe(2);
    expect(two.requests.completed).toBe(one.requests.completed);
    expect(two.simulatedTimeMs).not.toBe(one.simulatedTimeMs);
    expect(two.latencyMs.q2c.mean).not.toBe(one.latencyMs.q2c.mean);
  });

  it('--set edits the scenario by its JSON paths', async () => {
    const doc = await spindleJson<RunSummary>([
      'run',
      RANDOM_READ,
      '--set',
      'disk.queueDepth=16',
      '--set',
      'workload.processes.0.count=4',
      '--set=stop.requests=400',
      '--json',
    ]);
    expect(doc.queueDepth).toBe(16);
    expect(doc.processes.map((p) => p.name)).toEqual([
      'reader-0',
      'reader-1',
      'reader-2',
      'reader-3',
    ]);
    expect(doc.requests.completed).toBe(400);
  });

  it('--scheduler sets the drive scheduler or the I/O scheduler, by name', async () => {
    const drive = await spindleJson<RunSummary>(['run', OSTEP, '--scheduler', 'sstf', '--json']);
    expect(drive.diskScheduler).toBe('sstf');
    const host = await spindleJson<RunSummary>(['run', OSTEP, '--scheduler', 'none', '--json']);
    expect(host.iosched).toBe('none');
  });

  it('a scheduler change starts the new scheduler at its defaults: the file’s tunables are left out, with a note; tunables set alongside stay', async () => {
    const short = ['--set', 'stop.timeMs=300', '--json'];
    // the switcher's file carries sample_period_ms and ema_window_ms, which AS does not have
    const r = await spindle(['run', SWITCHER, '--scheduler', 'anticipatory', ...short]);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as RunSummary).iosched).toBe('anticipatory');
    expect(r.stderr).toBe(
      `spindle: note: iosched.name "switcher" → "anticipatory": the scenario's tunables (sample_period_ms=1000, ema_window_ms=4000) were "switcher"'s and are left out; "anticipatory" starts at its defaults\n`,
    );
    // a tunable set on the command line is kept, before or after the name
    const cfq = (...set: string[]) => spindle(['run', SWITCHER, ...set, ...short]);
    const plain = await cfq('--set', 'iosched.name=cfq');
    const before = await cfq('--set', 'iosched.tunables.slice_idle=0', '--set', 'iosched.name=cfq');
    const after = await cfq('--set', 'iosched.name=cfq', '--set', 'iosched.tunables.slice_idle=0');
    expect(before.stdout).toBe(after.stdout);
    expect(before.stdout).not.toBe(plain.stdout);
    expect(before.stderr).toContain('(sample_period_ms=1000, ema_window_ms=4000)');
    // a sweep over schedulers says it once
    const sweep = await spindle([
      'sweep',
      SWITCHER,
      '--scheduler',
      'anticipatory,cfq,switcher',
      ...short,
    ]);
    expect(sweep.code).toBe(0);
    expect(sweep.stderr.split('\n').filter(Boolean)).toHaveLength(2);
  });

  it('--decisions lists the decisions of the rules asked for, after the same figures', async () => {
    const args = ['run', SWITCHER, '--json'];
    const plain = await spindleJson<RunSummary>(args);
    const picked = await spindleJson<
      RunSummary & {
        decisions: {
          match: string[];
          total: number;
          shown: Array<{ tMs: number; layer: string; rule: string; chosen: number; text: string }>;
        };
      }
    >([...args, '--decisions', 'switch-to,switch-done']);
    const { decisions, ...summary } = picked;
    expect(summary).toEqual(plain); // watching the decisions changes nothing
    expect(decisions.match).toEqual(['switch-to', 'switch-done']);
    expect(decisions.total).toBe(2);
    expect(decisions.shown.map((d) => [d.tMs, d.layer, d.rule])).toEqual([
      [126000, 'iosched', 'switch-to-anticipatory'],
      [126820, 'iosched', 'switch-done'],
    ]);
    expect(decisions.shown[0]!.text).toMatch(/SR 0\.\d\d ≥ 0\.75 → sequential: anticipatory$/);
    const text = await spindle(['run', SWITCHER, '--decisions', 'switch-done']);
    expect(text.stdout).toContain('decisions whose rule contains "switch-done": 1\n');
    expect(text.stdout).toMatch(
      /126,820\.000 ms {2}iosched {2}switch-done {2}elevator switch cfq → anticipatory/,
    );
    const empty = await spindle(['run', SWITCHER, '--decisions', ',']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('--decisions takes words of rule names');
  }, 120_000); // four runs of a 180 s scenario

  it('reports CFQ-ANN’s extra computation: its network’s multiply-adds, none for CFQ', async () => {
    const run = (...set: string[]) =>
      spindleJson<RunSummary>([
        'run',
        `${SCENARIOS}/ffsb-cfq-ann.json`,
        '--set',
        'stop.timeMs=10000',
        ...set,
        '--json',
      ]);
    const [ann, cfq] = await Promise.all([run(), run('--set', 'iosched={"name":"cfq"}')]);
    expect(ann.iosched).toBe('cfq-ann');
    // learning and recall over up to 16 queues' 32 neurons: thousands in ten seconds
    expect(ann.work.iosched.multiplyAdds).toBeGreaterThan(1000);
    expect(cfq.iosched).toBe('cfq');
    expect(cfq.work.iosched.multiplyAdds).toBe(0);
  });

  it('without --json prints a readable summary', async () => {
    const r = await spindle(['run', OSTEP]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('ostep-fifo-vs-satf');
    expect(r.stdout).toContain('simulated 795.0 ms');
    expect(r.stdout).toMatch(/Q2C\s+405\.00/);
  });
});

describe('disk.py -a 7,30,8 through the CLI', () => {
  it('FCFS takes 795 time units', async () => {
    const doc = await spindleJson<RunSummary>(['run', OSTEP, '--json']);
    expect(Math.abs(doc.simulatedTimeMs - 795)).toBeLessThan(1e-6);
    expect(doc.requests.completed).toBe(3);
  });

  it('SPTF (disk.py SATF) takes 375', async () => {
    const doc = await spindleJson<RunSummary>([
      'run',
      OSTEP,
      '--set',
      'disk.scheduler=sptf',
      '--json',
    ]);
    expect(doc.diskScheduler).toBe('sptf');
    expect(Math.abs(doc.simulatedTimeMs - 375)).toBeLessThan(1e-6);
  });
});

interface SweepDoc {
  scenario: string;
  runs: Array<{ settings: Record<string, unknown>; summary: RunSummary }>;
}

describe('spindle sweep --json', () => {
  it('runs the cartesian product, first --vary outermost', async () => {
    const doc = await spindleJson<SweepDoc>([
      'sweep',
      RANDOM_READ,
      '--vary',
      'disk.queueDepth=1,4',
      '--vary',
      'workload.processes.0.count=1,2,4',
      '--set',
      'stop.requests=100',
      '--json',
    ]);
    expect(doc.scenario).toBe('c2247a-random-read');
    expect(doc.runs).toHaveLength(6);
    expect(doc.runs.map((r) => r.settings)).toEqual([
      { 'disk.queueDepth': 1, 'workload.processes.0.count': 1 },
      { 'disk.queueDepth': 1, 'workload.processes.0.count': 2 },
      { 'disk.queueDepth': 1, 'workload.processes.0.count': 4 },
      { 'disk.queueDepth': 4, 'workload.processes.0.count': 1 },
      { 'disk.queueDepth': 4, 'workload.processes.0.count': 2 },
      { 'disk.queueDepth': 4, 'workload.processes.0.count': 4 },
    ]);
    for (const { settings, summary } of doc.runs) {
      expect(summary.queueDepth).toBe(settings['disk.queueDepth']);
      expect(summary.processes).toHaveLength(settings['workload.processes.0.count'] as number);
      expect(summary.requests.completed).toBe(100);
      for (const [path, type] of SHAPE) expect(typeof at(summary, path), path).toBe(type);
    }
  });

  it('--scheduler S1,S2 is one more dimension', async () => {
    const doc = await spindleJson<SweepDoc>([
      'sweep',
      OSTEP,
      '--scheduler',
      'fcfs,sptf',
      '--vary',
      'seed=1,2',
      '--json',
    ]);
    expect(doc.runs).toHaveLength(4);
    expect(
      doc.runs.map((r) => [r.settings.seed, r.settings.scheduler, r.summary.simulatedTimeMs]),
    ).toEqual([
      [1, 'fcfs', 795],
      [1, 'sptf', 375],
      [2, 'fcfs', 795],
      [2, 'sptf', 375],
    ]);
  });
});

describe('spindle presets', () => {
  it('--json lists the presets with their size', async () => {
    const doc = await spindleJson<{
      presets: Array<{ name: string; sectors: number; rpm: number }>;
    }>(['presets', '--json']);
    const c2247a = doc.presets.find((p) => p.name === 'hp-c2247a');
    expect(c2247a).toMatchObject({ sectors: 2054864, rpm: 5400 });
    expect(doc.presets.find((p) => p.name === 'ostep')).toMatchObject({ sectors: 36 });
  });

  it('prints a table without --json', async () => {
    const r = await spindle(['presets']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^preset\s+rpm/);
    expect(r.stdout).toContain('hp-c2247a');
  });
});

describe('help', () => {
  it.each([
    ['--help'],
    ['run', '--help'],
    ['sweep', '--help'],
    ['export', '-h'],
    ['help', 'presets'],
  ])('spindle %s … prints usage and exits 0', async (...args) => {
    const r = await spindle(args);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Usage: spindle/);
    expect(r.stderr).toBe('');
  });
});
