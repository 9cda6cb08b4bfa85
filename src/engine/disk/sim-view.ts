// The simulation as the disk sees it: the event loop, the requests it serves, its own state
// and figures, and the host above it, which registers where a completed command goes. The
// block layer's view (iosched/sim-view.ts) extends this one; simulation.ts assembles them.
import type { TraceSink } from '../events';
import type { Collector } from '../metrics/collector';
import type { BioTable, IoRequest, RequestTable } from '../request';
import type { LoopState } from '../sim/loop';
import type { CompiledDisk } from './compile';
import type { DiskSchedulerName } from './disk-scheduler';
import type { DriveState } from './drive-state';
import type { WritePolicy } from './params';
import type { RangeSchedulerName, RangeWriter } from './range';

export interface DiskModel {
  disk: CompiledDisk;
  queueDepth: number;
  diskScheduler: DiskSchedulerName;
  writePolicy: WritePolicy;
  agingWeight: number;
  /** how the drive places range writes, and ECS's targets per track (0 = every start) */
  rangeScheduler: RangeSchedulerName;
  ecsTargets: number;
  /** the processes, as far as the drive asks: does any make range writes? */
  processes: readonly RangeWriter[];
  seed: number;
}

export interface DiskState extends LoopState {
  requests: RequestTable;
  /** the next request id (a write-back destage is a request of the drive's own) */
  nextRqId: number;
  bios: BioTable;
  drive: DriveState;
  metrics: Collector;
}

/** The layer above the disk (the block layer's iosched/host.ts): told when the drive
 * completes a command. */
export interface DiskHost {
  complete(sim: DiskSimulation, rq: IoRequest, t: number): void;
}

export interface DiskSimulation {
  model: DiskModel;
  state: DiskState;
  /** where events, service phases and decisions go; null = nowhere (fastest) */
  sink: TraceSink | null;
  /** the host the drive reports to: the block layer registers its completion here */
  host: DiskHost;
}
