// The drive's scheduler asked about the candidates gathered now, from the arm where it is:
// the one call the drive's own pick (drive.ts) and a range-write pick (range-pick.ts) make.
import type { IoRequest } from '../request';
import { pickNext, type DiskPick } from './disk-scheduler';
import { streamingWriteLbn } from './drive-state';
import type { DiskSimulation } from './sim-view';

/** pickNext over the first `n` of `candidates` at `now`, answered in `out`; `explain`: with
 * each estimate and the notes a decision record needs. */
export function drivePickNext(
  sim: DiskSimulation,
  candidates: readonly IoRequest[],
  n: number,
  now: number,
  out: DiskPick,
  explain: boolean,
): DiskPick {
  const m = sim.model;
  const drive = sim.state.drive;
  const lastWriteEnd = streamingWriteLbn(drive, now);
  return pickNext(
    m.disk,
    m.diskScheduler,
    candidates,
    n,
    drive.arm,
    lastWriteEnd,
    now,
    m.agingWeight,
    out,
    explain,
  );
}
