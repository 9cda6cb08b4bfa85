// The simulation as the block layer sees it: the disk's view (disk/sim-view.ts) and the
// block layer's own settings, state and scheduler, and the submitter above it (the
// workload), which registers what a woken or completed bio means to its process.
import type { Bio } from '../request';
import type { DiskModel, DiskSimulation, DiskState } from '../disk/sim-view';
import type { HostState } from './host';
import type { QueueSettings } from './queue-settings';
import type { ElevatorContext, ElevatorType } from './types';

export interface BlockModel extends DiskModel {
  iosched: { name: string; tunables: Record<string, number>; hz: number; queue: QueueSettings };
}

export interface BlockState extends DiskState {
  nextBioId: number;
  host: HostState;
}

/** The layer above the block layer (the workload's workload.ts): what a bio's process does
 * when the bio gets a request after sleeping for one, and when it completes. */
export interface BioSubmitter {
  bioWakes(sim: BlockSimulation, bio: Bio, now: number): void;
  bioDone(sim: BlockSimulation, bio: Bio, now: number): void;
}

export interface BlockSimulation extends DiskSimulation {
  model: BlockModel;
  state: BlockState;
  /** the I/O scheduler's operations, looked up once from model.iosched.name */
  elevator: ElevatorType<unknown>;
  /** what the scheduler sees and may do (ElevatorContext over this simulation) */
  ctx: ElevatorContext;
  submitter: BioSubmitter;
}
