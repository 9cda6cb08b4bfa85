// Trace replay: which Spindle scheduler stands in for the traced one (SCHEDULER_MAP, the
// trace's meta.json or message lines), and which block layer it runs on (kernel 6.18's
// per-task plugging for a blk-mq scheduler, else 2.6's).
import type { Kernel } from '../iosched/queue-settings';
import { mqTagDepth } from '../iosched/tags-mq';
import { ReplayError } from './replay-errors';
import { defaultKernel, type KernelChoice } from './replay-kernel';
import type { TraceReading } from './replay-source';

/** What is known about the traced system beside the text (the corpus's meta.json). */
export interface TraceMeta {
  scheduler?: string;
  rotational?: number;
  maxSectorsKb?: number;
  /** the traced queue's nr_requests (kernel 6.18 replays size the tag pool by it) */
  nrRequests?: number;
  /** the traced queue's write_cache ("write back" or "write through") and fua (0 or 1): the
   * fitted device's, for kernel 6.18's flush machinery */
  writeCache?: string;
  fua?: number;
}

/** modern blk-mq scheduler → the nearest Spindle scheduler, and why (LINUX-SCHEDULERS.md §9) */
export const SCHEDULER_MAP: Record<string, { simulated: string; note: string }> = {
  'mq-deadline': {
    simulated: 'mq-deadline',
    note: "Spindle's mq-deadline follows Linux 6.10-6.18 (per-class lists, prio aging, jiffies >= deadline expiry), over kernel 6.18's per-task plugging and blk-mq's one tag pool (async_depth, the tags writes and async requests may hold, is nr_requests unless set)",
  },
  bfq: {
    simulated: 'bfq',
    note: "Spindle's BFQ follows Linux 6.18 (B-WF2Q+ over per-process queues with sector budgets, budget feedback and time charging, idling, weight raising, I/O injection and wakers, cooperating-queue and stable merging, large bursts, the peak-rate estimator and its automatic max_budget) over kernel 6.18's per-task plugging and blk-mq tag pool; not modelled: cgroups, multiple actuators, processes exiting",
  },
  kyber: {
    simulated: 'kyber',
    note: "Spindle's Kyber follows Linux 6.18 (per-domain tokens taken at dispatch, latency histograms, the 100 ms depth scaling against read_lat_nsec and write_lat_nsec) over kernel 6.18's per-task plugging and blk-mq tag pool; one software queue stands for the kernel's per-CPU ones",
  },
  none: {
    simulated: 'none',
    note: 'blk-mq without a scheduler issues in arrival order, as Spindle\'s "none" does',
  },
  noop: { simulated: 'noop', note: 'the same 2.6 scheduler' },
  deadline: { simulated: 'deadline', note: 'the same 2.6 scheduler' },
  cfq: { simulated: 'cfq', note: 'the same 2.6 scheduler' },
  anticipatory: { simulated: 'anticipatory', note: 'the same 2.6 scheduler' },
};

export interface SchedulerMapping {
  traced: string | null;
  /** where the traced scheduler's name came from */
  tracedFrom: 'meta.json' | 'message lines' | 'unknown';
  simulated: string;
  note: string;
}

export type { KernelChoice } from './replay-kernel';

/** The simulated block layer: kernel 6.18's (per-task plugging) when a blk-mq trace is
 * replayed under a blk-mq scheduler; a 2.6 scheduler runs on the 2.6 block layer. The CLI's
 * default and the page's replay form's (app/replay-choices.ts) are this one rule. */
export function chooseKernel(mapping: SchedulerMapping, given: Kernel | undefined): KernelChoice {
  if (given !== undefined) return { value: given, source: '--kernel' };
  return defaultKernel(mapping.traced, mapping.simulated);
}

export interface NrRequestsChoice {
  value: number;
  source: string;
}

/**
 * Kernel 6.18's nr_requests for the replay, the size of blk-mq's tag pool (tags-mq.ts);
 * null on the 2.6 kernels (their pool keeps its own default). Given, or the traced
 * queue's (meta.json): without a scheduler nr_requests is the driver's tag count T, with
 * one 2 × min(T, 128) unless someone changed it (taken as unchanged: the least T that
 * gives it is half of it). Else the kernel's default for the simulated queue depth.
 */
export function chooseNrRequests(
  meta: TraceMeta | undefined,
  mapping: SchedulerMapping,
  kernel: Kernel,
  /** the host's tag set: as deep as the simulated drive accepts (its preset's maxQueueDepth) */
  tagSetDepth: number,
  given: number | undefined,
): NrRequestsChoice | null {
  if (kernel !== '6.18') return null;
  if (given !== undefined) return { value: given, source: '--nr-requests' };
  const simulatedNone = mapping.simulated === 'none';
  const n = meta?.nrRequests;
  if (n !== undefined && mapping.traced !== null) {
    const tracedNone = mapping.traced === 'none';
    const from = `meta.json: the traced ${mapping.traced}'s nr_requests ${n}`;
    if (tracedNone === simulatedNone) return { value: n, source: from };
    if (tracedNone)
      return { value: 2 * Math.min(n, 128), source: `${from} (its tags) → 2 × min(${n}, 128)` };
    const half = Math.max(1, Math.floor(n / 2));
    return { value: half, source: `${from} = 2 × min(tags, 128): at least ${half} tags` };
  }
  const value = mqTagDepth(tagSetDepth, !simulatedNone, null);
  return {
    value,
    source: `kernel 6.18's default for a tag set of ${tagSetDepth}${simulatedNone ? ' (the driver’s tags)' : `: 2 × min(${tagSetDepth}, 128)`}; the trace does not give it (an NVMe queue's is 256 with a scheduler, a SATA disk's 64): --nr-requests`,
  };
}

export function mapScheduler(
  reading: TraceReading,
  meta: TraceMeta | undefined,
  given: string | undefined,
): SchedulerMapping {
  let traced: string | null = null;
  let tracedFrom: SchedulerMapping['tracedFrom'] = 'unknown';
  if (meta?.scheduler !== undefined) {
    traced = meta.scheduler;
    tracedFrom = 'meta.json';
  } else if (reading.messageScheduler !== null) {
    traced = reading.messageScheduler;
    tracedFrom = 'message lines';
  }
  const mapped = traced !== null ? SCHEDULER_MAP[traced] : undefined;
  if (given !== undefined) {
    const note =
      mapped === undefined
        ? `chosen with --scheduler; the traced scheduler is ${traced === null ? 'unknown' : `"${traced}", which Spindle has no mapping for`}`
        : mapped.simulated === given
          ? `chosen with --scheduler, the nearest to the traced one: ${mapped.note}`
          : `chosen with --scheduler; the nearest to the traced ${traced} would be ${mapped.simulated} (${mapped.note})`;
    return { traced, tracedFrom, simulated: given, note };
  }
  if (mapped === undefined)
    throw new ReplayError(
      traced === null
        ? 'the trace does not say which scheduler ran (no meta.json beside it, no BFQ or CFQ messages): give --scheduler'
        : `the traced scheduler "${traced}" has no Spindle counterpart: give --scheduler`,
    );
  return { traced, tracedFrom, simulated: mapped.simulated, note: mapped.note };
}
