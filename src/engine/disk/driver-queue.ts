// Queueing 'driver' (DiskParams.queueing): DiskSim's validation setups queue and schedule
// at the host's driver ("Use queueing in subsystem") in front of a disk that takes one
// command at a time ("Max queue length" 1). The driver sends the next command when the
// last has completed; the drive then handles it as it handles any command. The driver's
// SPTF estimates as DiskSim's ioqueue does (disk_get_servtime → dm_acctime on the disk's
// mech_state): from the angle the disk last knew, not the angle when the command will start
// after its overhead. docs/DISKSIM.md, "SPTF at depth".
import type { IoRequest } from '../request';
import { requestAt } from '../request';
import type { DiskSimulation } from './sim-view';
import { removeAt } from '../arrays';
import { armKnownNs } from './cache';
import { pickNext, type DiskPick } from './disk-scheduler';
import { locate } from './mechanics';

/** The drive taking a command the driver sends (drive.ts acceptCommand, passed in: the
 * driver sits above the drive, which calls it back as commands complete). False: refused. */
export type AcceptCommand = (
  sim: DiskSimulation,
  rq: IoRequest,
  now: number,
  tag: boolean,
) => boolean;

/** The host hands the command to the driver's queue (it holds a tag until completion). */
export function driverEnqueue(
  sim: DiskSimulation,
  rq: IoRequest,
  now: number,
  accept: AcceptCommand,
): void {
  const drive = sim.state.drive;
  drive.tagsInUse++;
  rq.dispatchedNs = now;
  locate(sim.model.disk, rq);
  drive.driverQueue.push(rq.slot);
  driverSend(sim, now, accept);
}

const candidates: IoRequest[] = [];
const pick: DiskPick = { index: 0, rule: 'only-candidate', estimatesNs: [] };

/** If the disk has no command of the host's, choose the next and send it. */
export function driverSend(sim: DiskSimulation, now: number, accept: AcceptCommand): void {
  const drive = sim.state.drive;
  const queue = drive.driverQueue;
  if (drive.awaitingCompletion || queue.length === 0) return;
  const m = sim.model;
  const n = queue.length;
  for (let i = 0; i < n; i++) candidates[i] = requestAt(sim.state.requests, queue[i]!);
  pickNext(
    m.disk,
    m.diskScheduler,
    candidates,
    n,
    drive.arm,
    // DiskSim's estimate floors a write's whole positioning at the minimum seek delay
    // (disk_buffer_estimate_servtime), so an append looks a mere 0.6 ms away and is chosen;
    // exempting appends from the delay in the estimate makes the same choice
    drive.writeSegment.hi,
    armKnownNs(sim, now),
    m.agingWeight,
    pick,
    false,
  );
  const rq = candidates[pick.index]!;
  // a write-back drive with a full buffer refuses: the driver keeps it and retries
  if (!accept(sim, rq, now, false)) return;
  removeAt(queue, pick.index);
  drive.awaitingCompletion = true;
  drive.decisions++;
}
