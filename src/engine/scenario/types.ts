// A validated scenario: what to simulate (ARCHITECTURE.md "Scenario files").
// Produced from JSON by scenario/load.ts; every field here has been checked.
import type { DiskSchedulerName } from '../disk/disk-scheduler';
import type { RangeSchedulerName } from '../disk/range';
import type { WritePolicy } from '../disk/params';
import type { Kernel } from '../iosched/queue-settings';
import type { PageCacheSpec } from '../workload/page-cache';
import type { ProcessSpec } from '../workload/process-spec';

export type { FixedRequest, ProcessSpec, RangeSpec, SizeRange } from '../workload/process-spec';

export interface Scenario {
  name: string;
  title: string;
  lesson: string;
  seed: number;
  disk: {
    preset: string;
    queueDepth: number;
    scheduler: DiskSchedulerName;
    /** null: the preset's own policy */
    cache: WritePolicy | null;
    /** ASPTF's weight W (DiskSim "Timeout time/weight") */
    agingWeight: number;
    /** range writes: the drive's placement (absent = "hrs") and ECS's targets per track
     * (absent or 0 = every start) */
    rangeScheduler?: RangeSchedulerName;
    ecsTargets?: number;
    /** any disk parameter, overriding the preset's (validated against DiskParams) */
    overrides: Record<string, unknown>;
  };
  iosched: {
    name: string;
    tunables: Record<string, number>;
    /** the request queue's sysfs settings (nr_requests, max_sectors_kb, …) */
    queue: Record<string, number>;
    /** which 2.6 kernel's block layer */
    kernel: Kernel;
    /** the kernel's timer frequency: jiffy-based defaults depend on it */
    hz: number;
  };
  /** pageCache: buffered I/O of generator threads goes through a page cache (null: off) */
  workload: { processes: ProcessSpec[]; pageCache?: PageCacheSpec | null };
  stop: { requests: number | null; timeMs: number | null };
  /** where the page starts playing the run (a viewing hint: the simulation ignores it) */
  play?: { fromMs: number };
  /** where it came from, for error messages */
  source: string;
}
