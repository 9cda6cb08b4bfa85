// The disk's events, registered with the loop (sim/loop.ts): the mechanism freed, a command
// completed, the fitted device done, the idle drive picking. A completed command goes to
// the host that registered itself (sim.host: the block layer).
import { requestAt } from '../request';
import { EventKind } from '../sim/events';
import type { RegisterHandler } from '../sim/loop';
import { driveRelease, onDrivePick, onMechanismFree } from './drive';
import { fittedDone } from './fitted';
import type { DiskSimulation } from './sim-view';

/** The drive lets go of the command and the host hears of its completion. */
function complete(sim: DiskSimulation, slot: number, t: number): void {
  driveRelease(sim, requestAt(sim.state.requests, slot), t);
  sim.host.complete(sim, requestAt(sim.state.requests, slot), t);
}

function mechanismFree(sim: DiskSimulation, a: number, rq: number, t: number): void {
  onMechanismFree(sim, rq, t);
  // a = 1: the command completes at the same instant (a read the mechanism held).
  if (a === 1) complete(sim, rq, t);
}

function driveComplete(sim: DiskSimulation, _a: number, rq: number, t: number): void {
  complete(sim, rq, t);
}

function fittedDoneEvent(sim: DiskSimulation, a: number, _rq: number, t: number): void {
  for (const slot of fittedDone(sim, a, t)) complete(sim, slot, t);
}

export function registerDiskEvents(on: RegisterHandler<DiskSimulation>): void {
  on(EventKind.MechanismFree, mechanismFree);
  on(EventKind.DriveComplete, driveComplete);
  on(EventKind.FittedDone, fittedDoneEvent);
  on(EventKind.DrivePick, onDrivePick); // the idle drive picking
}
