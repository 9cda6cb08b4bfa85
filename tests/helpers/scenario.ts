// Build validated scenarios in tests without JSON files: the defaults here mirror the
// loader's only for the fields a test leaves out; tests that check defaults use the loader.
import { PROCESS_DEFAULTS } from '../../src/engine/scenario/process';
import type { ProcessSpec, Scenario } from '../../src/engine/scenario/types';

export function proc(p: Partial<ProcessSpec> & { name?: string }): ProcessSpec {
  return { ...PROCESS_DEFAULTS, name: 'p', rateIops: 0, ...p };
}

export function scenario(s: {
  preset?: string;
  queueDepth?: number;
  scheduler?: Scenario['disk']['scheduler'];
  cache?: Scenario['disk']['cache'];
  overrides?: Record<string, unknown>;
  processes: ProcessSpec[];
  stopRequests?: number | null;
  stopMs?: number | null;
  seed?: number;
  iosched?: string;
  tunables?: Record<string, number>;
  queue?: Record<string, number>;
  kernel?: '2.6.32' | '2.6.16' | '6.18';
  hz?: number;
}): Scenario {
  return {
    name: 'test',
    title: 'test',
    lesson: '',
    seed: s.seed ?? 1,
    disk: {
      preset: s.preset ?? 'hp-c2247a',
      queueDepth: s.queueDepth ?? 1,
      scheduler: s.scheduler ?? 'fcfs',
      cache: s.cache ?? null,
      agingWeight: 6,
      overrides: s.overrides ?? {},
    },
    iosched: {
      name: s.iosched ?? 'none',
      tunables: s.tunables ?? {},
      queue: s.queue ?? {},
      kernel: s.kernel ?? '2.6.32',
      hz: s.hz ?? 250,
    },
    workload: { processes: s.processes },
    stop: { requests: s.stopRequests ?? null, timeMs: s.stopMs ?? null },
    source: 'test',
  };
}

/** disk.py-style fixed list: one-sector reads, all queued at time 0. */
export function fixedReads(sectors: number[]): ProcessSpec {
  return proc({
    requests: sectors.map((sector) => ({
      sector,
      sizeKiB: 0.5,
      op: 'read' as const,
      atMs: 0,
      thinkTimeMs: null,
    })),
  });
}
