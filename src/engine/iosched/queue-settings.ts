// The request queue's own settings (/sys/block/<dev>/queue/, not iosched/), the kernel
// era, and HZ — declared once as data like the schedulers' tunables (LINUX-SCHEDULERS.md §1).
import type { TunableSpec } from './types';

export const QUEUE_SETTINGS: readonly TunableSpec[] = [
  {
    name: 'nr_requests',
    default: 128,
    unit: 'requests',
    min: 4,
    max: 8192,
    doc: '2.6: requests that may be allocated per class (sync/async; read/write before 2.6.30) before processes sleep. 6.18: the tags of the one blk-mq pool; left out, 2 × min(tag set, 128) with a scheduler, the tag set with none — the host’s tag set, as deep as the drive accepts (SATA 32: 64 with a scheduler), whatever the disk’s queue depth.',
  },
  {
    name: 'max_sectors_kb',
    default: 512,
    unit: 'KiB',
    min: 4,
    max: 32768,
    doc: 'The largest request a merge may build (BLK_DEF_MAX_SECTORS = 1024 sectors).',
  },
  {
    name: 'nomerges',
    default: 0,
    unit: 'count',
    min: 0,
    max: 2,
    doc: '0: every merge is tried. 1 (noxmerges): only the one-hit cache of the scheduler’s merges (no back-merge hash, no front merges); 6.18’s plug merge and Kyber’s list merge go on. 2: no merging at all, not even the one-hit cache.',
  },
  {
    name: 'unplug_thresh',
    default: 4,
    unit: 'requests',
    min: 1,
    max: 1024,
    doc: 'A plugged queue is unplugged once this many requests are queued and not in the driver.',
  },
  {
    name: 'unplug_delay',
    default: 3,
    unit: 'ms',
    min: 1,
    max: 1000,
    doc: 'The unplug timer: a plugged queue runs at the latest this long after it was plugged.',
  },
  {
    name: 'write_cache',
    default: -1,
    unit: 'count',
    min: -1,
    max: 1,
    doc: 'Kernel 6.18: 1 “write back” — the device has a volatile write cache (QUEUE_FLAG_WC), so a preflush or FUA write goes through the flush machinery (blk-flush.c); 0 “write through” — preflush and FUA mean nothing and are dropped. Left out (−1): the device’s — a preset’s write policy (write-back: 1); the fitted device has none unless the replay sets it from the trace.',
  },
  {
    name: 'fua',
    default: -1,
    unit: 'count',
    min: -1,
    max: 1,
    doc: 'Kernel 6.18, read-only in Linux: 1 — the device does FUA writes itself (QUEUE_FLAG_FUA), so a FUA write needs no flush after it; 0 — it does not: the flush machinery issues one (a post-flush). Left out (−1): 0.',
  },
];

/** Kernels whose block layer differs in ways Spindle models: 6.18 is blk-mq's per-task
 * plugging (plug-task.ts) in place of the queue plug and its unplug timer. */
export const KERNELS = ['2.6.32', '2.6.16', '6.18'] as const;
export type Kernel = (typeof KERNELS)[number];

export const HZ_VALUES = [100, 250, 1000] as const;

export interface QueueSettings {
  nrRequests: number;
  /** nr_requests was given: kernel 6.18 otherwise derives it from the queue depth (tags-mq.ts) */
  nrRequestsSet: boolean;
  maxSectors: number;
  /** the sysfs value: 0 all merges, 1 the scheduler's merges only through the one-hit
   * cache (QUEUE_FLAG_NOXMERGES), 2 none at all (QUEUE_FLAG_NOMERGES) */
  nomerges: 0 | 1 | 2;
  unplugThresh: number;
  unplugDelayNs: number;
  kernel: Kernel;
  /** before 2.6.30 the request pool's two classes are read/write, since then sync/async */
  poolBySync: boolean;
  /** the generic back-merge hash arrived in 2.6.19; before it noop merged only via the one-hit cache */
  backMergeHash: boolean;
  /** each process plugs its own submissions (2.6.39 on; kernel 6.18 here): no queue plug,
   * no unplug timer or unplug_thresh */
  taskPlug: boolean;
  /** write_cache and fua as set (null: the device's, resolved in model.ts) */
  writeCache: boolean | null;
  fua: boolean | null;
}

export function queueSettings(values: Record<string, number>, kernel: Kernel): QueueSettings {
  const v = (name: string): number =>
    values[name] ?? QUEUE_SETTINGS.find((t) => t.name === name)!.default;
  return {
    nrRequests: v('nr_requests'),
    nrRequestsSet: values.nr_requests !== undefined,
    maxSectors: v('max_sectors_kb') * 2,
    nomerges: v('nomerges') as 0 | 1 | 2,
    unplugThresh: v('unplug_thresh'),
    unplugDelayNs: v('unplug_delay') * 1e6,
    kernel,
    poolBySync: kernel !== '2.6.16',
    backMergeHash: kernel !== '2.6.16',
    taskPlug: kernel === '6.18',
    writeCache: v('write_cache') < 0 ? null : v('write_cache') === 1,
    fua: v('fua') < 0 ? null : v('fua') === 1,
  };
}
