// Scenario → Model: the preset with its overrides applied, compiled for the run.
import { MAX_RUN_EVENTS, MAX_RUN_REQUESTS } from './scenario/run-bounds';
import { compileDisk } from './disk/compile';
import type { DiskParams } from './disk/params';
import { getPreset } from './disk/presets';
import type { Model } from './simulation';
import type { ProcessSpec, Scenario } from './scenario/types';
import { PROCESS_DEFAULTS } from './scenario/process';
import { queueSettings } from './iosched/queue-settings';
import { getElevator } from './iosched/elevator';
import './iosched/registry';
import { defaultAt } from './iosched/types';
import { generatorFamily } from './workload/generators/index';

/** Overrides replace the preset's values key by key; arrays and scalars are replaced whole. */
export function applyOverrides<T>(base: T, overrides: Record<string, unknown>): T {
  const out = structuredClone(base) as Record<string, unknown>;
  for (const [k, v] of Object.entries(overrides)) {
    const cur = out[k];
    out[k] =
      v !== null &&
      typeof v === 'object' &&
      !Array.isArray(v) &&
      cur !== null &&
      typeof cur === 'object' &&
      !Array.isArray(cur)
        ? applyOverrides(cur, v as Record<string, unknown>)
        : v;
  }
  return out as T;
}

export function diskParamsOf(s: Scenario): DiskParams {
  const preset = getPreset(s.disk.preset);
  if (!preset) throw new Error(`unknown disk preset "${s.disk.preset}"`);
  const params = applyOverrides(preset, s.disk.overrides);
  if (s.disk.cache) params.cache.writePolicy = s.disk.cache;
  return params;
}

/** The scheduler's tunables: the given ones over the kernel defaults at this HZ. */
function withDefaults(
  name: string,
  given: Record<string, number>,
  hz: number,
): Record<string, number> {
  const e = getElevator(name);
  if (!e) throw new Error(`unknown I/O scheduler "${name}"`);
  const values: Record<string, number> = {};
  for (const t of e.tunables) values[t.name] = defaultAt(t, hz);
  return { ...values, ...given };
}

export function buildModel(s: Scenario, seed = s.seed): Model {
  const params = diskParamsOf(s);
  return {
    disk: compileDisk(params),
    queueDepth: s.disk.queueDepth,
    diskScheduler: s.disk.scheduler,
    writePolicy: params.cache.writePolicy,
    agingWeight: s.disk.agingWeight,
    rangeScheduler: s.disk.rangeScheduler ?? 'hrs',
    ecsTargets: s.disk.ecsTargets ?? 0,
    iosched: {
      name: s.iosched.name,
      tunables: withDefaults(s.iosched.name, s.iosched.tunables, s.iosched.hz),
      hz: s.iosched.hz,
      queue: queueSettings(s.iosched.queue, s.iosched.kernel),
    },
    processes: s.workload.pageCache
      ? [
          ...s.workload.processes,
          ...kjournalds(s.workload.processes),
          ...reiserfsThreads(s.workload.processes),
          flusherProcess(),
        ]
      : s.workload.processes,
    pageCache: s.workload.pageCache ?? null,
    seed,
    stopRequests: s.stop.requests,
    stopNs: s.stop.timeMs === null ? null : s.stop.timeMs * 1e6,
    budget: { requests: MAX_RUN_REQUESTS, events: MAX_RUN_EVENTS },
  };
}

/** A kjournald thread for each thread of a generator whose file system journals through
 * jbd (workload/journal.ts), named as 2.6.32 names it. */
function kjournalds(processes: ProcessSpec[]): ProcessSpec[] {
  return processes.flatMap((p, i) =>
    p.generator && generatorFamily(p.generator).journalled?.(p.generator)
      ? [
          {
            ...PROCESS_DEFAULTS,
            name: 'kjournald',
            count: p.count,
            rateIops: 0,
            op: 'write' as const,
            kjournald: i,
          },
        ]
      : [],
  );
}

/** ReiserFS's journal threads when a generator's file system is ReiserFS
 * (workload/reiserfs-threads.ts): sync_supers and the commit workqueue's reiserfs/0, one
 * each however many file systems, named as 2.6.32 names them. */
function reiserfsThreads(processes: ProcessSpec[]): ProcessSpec[] {
  if (!processes.some((p) => p.generator && generatorFamily(p.generator).reiserfs?.(p.generator)))
    return [];
  const thread = (name: string, reiserfs: 'sync' | 'work'): ProcessSpec => ({
    ...PROCESS_DEFAULTS,
    name,
    rateIops: 0,
    op: 'write',
    reiserfs,
  });
  return [thread('sync_supers', 'sync'), thread('reiserfs/0', 'work')];
}

/** The page cache's flusher thread, named as 2.6.32 names it for the first SCSI disk. */
function flusherProcess(): ProcessSpec {
  return { ...PROCESS_DEFAULTS, name: 'flush-8:0', rateIops: 0, op: 'write', flusher: true };
}
