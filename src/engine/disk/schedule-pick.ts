// The idle mechanism's next look for work: one DrivePick event at the earliest time asked
// for (drive.ts and the commands accept-command-rare.ts takes both ask).
import { pushEvent } from '../sim/heap';
import { EventKind, EventPriority } from '../sim/events';
import type { DiskSimulation } from './sim-view';

/** Ask the idle mechanism to look for work at time t (after same-instant arrivals). */
export function schedulePick(sim: DiskSimulation, t: number): void {
  const drive = sim.state.drive;
  if (drive.mechBusy) return; // it picks when it becomes free
  if (drive.pickAt >= 0 && drive.pickAt <= t) return;
  drive.pickAt = t;
  pushEvent(sim.state.heap, t, EventPriority.Pick, EventKind.DrivePick);
}
