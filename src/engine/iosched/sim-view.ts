// The simulation as the block layer sees it: the disk's view (disk/sim-view.ts) and the
// block layer's own settings, state and scheduler, and the submitter above it (the
// workload), which registers what a woken or completed bio means to its process.
import type { Bio, IoRequest } from '../request';
import type { DiskModel, DiskSimulation, DiskState } from '../disk/sim-view';
import type { HostState } from './host';

export type { HostState };
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

/** The block layer's core (host.ts) as the files beside it call it: merging, plugging,
 * requeueing, blk-mq's tags and the flush machinery call back into it through this table,
 * which createSimulation fills, rather than importing host.ts, which calls them. */
export interface BlockCore {
  /** hostRunQueue: the scheduler releases requests, the driver takes what it can */
  runQueue(sim: BlockSimulation, now: number): void;
  /** insertRequest: the request enters the scheduler (I), at the head if asked */
  insert(sim: BlockSimulation, rq: IoRequest, now: number, atHead?: boolean): void;
  /** endRequest: its bios complete and it is freed */
  end(sim: BlockSimulation, rq: IoRequest, now: number, dispatched: boolean): void;
  /** releaseRequest: a request merged away or done goes back to the pool */
  release(sim: BlockSimulation, rq: IoRequest, now?: number): void;
  /** newRequest: a request made for `bio` in pool class `c` goes on (plug or scheduler) */
  newRequest(sim: BlockSimulation, bio: Bio, c: number, now: number): void;
}

export interface BlockSimulation extends DiskSimulation {
  model: BlockModel;
  state: BlockState;
  /** the I/O scheduler's operations, looked up once from model.iosched.name */
  elevator: ElevatorType<unknown>;
  /** what the scheduler sees and may do (ElevatorContext over this simulation) */
  ctx: ElevatorContext;
  submitter: BioSubmitter;
  core: BlockCore;
}
