// The simulation as the workload sees it: the block layer's view (iosched/sim-view.ts) and
// the processes, the page cache and the journals. It is the whole simulation below the run's
// own bounds (simulation.ts adds those and the loop's counters).
import type { BlockModel, BlockSimulation, BlockState } from '../iosched/sim-view';
import type { PageCacheSpec } from './page-cache';
import type { ProcessSpec } from './process-spec';
import type { ReiserJournal } from './reiserfs-journal';
import type { WorkloadState } from './workload';

export interface WorkloadModel extends BlockModel {
  processes: ProcessSpec[];
  /** buffered I/O through a page cache (the flusher is the last process), or null */
  pageCache: PageCacheSpec | null;
}

export interface WorkloadSimState extends BlockState {
  workload: WorkloadState;
}

/** ReiserFS's threads (reiserfs-threads.ts) as its journal calls them: a writer's
 * transaction ended, its thread goes on (do_journal_end's flush of the old transactions).
 * createSimulation sets it: the threads call the journal, which calls back through this. */
export interface ReiserfsThreads {
  writerEnded(sim: WorkloadSimulation, j: ReiserJournal, bitmapHolder: number, now: number): void;
}

export interface WorkloadSimulation extends BlockSimulation {
  model: WorkloadModel;
  state: WorkloadSimState;
  reiserfsThreads: ReiserfsThreads;
}
