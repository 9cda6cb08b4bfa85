// A workload process instance's state (plain data: snapshots clone it), apart from the code
// that runs it (workload.ts, fixed-list.ts), so that neither imports the other for its types.
import type { Rng } from '../sim/rng';
import type { GenInstance } from './generators/types';

/** What a fixed list's afterDone entries wait for: each entry's completion time (ns, −1
 * not yet) and the entry each bio in flight was issued for (by bio id). */
export interface ListWaits {
  doneNs: Float64Array;
  entryOfBio: Map<number, number>;
}

export interface ProcInstance {
  /** index into model.processes */
  spec: number;
  /** the addresses it may touch (the process's span, or the whole disk) */
  spanStart: number;
  spanSectors: number;
  pid: number;
  name: string;
  rng: Rng;
  /** next sector for a sequential pattern */
  cursor: number;
  /** next entry of a fixed request list */
  listIndex: number;
  /** a fixed list with afterDone entries: which entries have completed, and when */
  listWaits: ListWaits | null;
  inFlight: number;
  issued: number;
  /** a named generator's thread state (generators/runtime.ts), null for other processes */
  gen: GenInstance | null;
}
