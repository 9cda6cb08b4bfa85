// The 2.6 queue plug (LINUX-SCHEDULERS.md §1.3): an empty queue is plugged (P) so bios can
// gather; it is unplugged by a sync bio, by unplug_thresh requests waiting, by a process
// about to sleep, or by the unplug timer (UT, then kblockd's U). Kernel 6.18 plugs per
// process instead (plug-task.ts).
import { pushEvent } from '../sim/heap';
import { EventKind, EventPriority } from '../sim/events';
import type { BlockSimulation } from './sim-view';
import { emitPlug } from './emit';
import type { HostState } from './sim-view';
import type { Bio } from './types';
import { isNonRotational } from '../disk/params';

/** The kernel plugs a queue unless the device is non-rotational with tagged queueing. */
export function shouldPlug(sim: BlockSimulation): boolean {
  if (sim.model.iosched.queue.taskPlug) return false; // each process plugs instead
  return !(isNonRotational(sim.model.disk.params) && sim.model.queueDepth > 1);
}

export function allocatedTotal(h: HostState): number {
  return h.allocated[0] + h.allocated[1];
}

export function plugQueue(sim: BlockSimulation, bio: Bio, now: number): void {
  const h = sim.state.host;
  h.plugged = true;
  h.plugSeq++;
  if (sim.sink) emitPlug(sim, 'P', now, allocatedTotal(h), bio);
}

/**
 * The unplug timer, armed when a submission leaves the queue plugged. (The kernel arms it
 * in blk_plug_device; arming it here instead saves an event for every sync bio, which
 * plugs and unplugs in the same call, and fires at the same instant.)
 */
export function armUnplugTimer(sim: BlockSimulation, now: number): void {
  const h = sim.state.host;
  if (!h.plugged || h.plugArmed === h.plugSeq) return;
  h.plugArmed = h.plugSeq;
  pushEvent(
    sim.state.heap,
    now + sim.model.iosched.queue.unplugDelayNs,
    EventPriority.HostTimer,
    EventKind.UnplugTimer,
    h.plugSeq,
  );
}

/**
 * __generic_unplug_device, for the silent triggers (a sync bio, unplug_thresh, a process
 * about to sleep): remove the plug and run the queue. On a rotating disk an unplugged
 * queue is left alone (the driver pulls at completion); an SSD runs anyway. (The traced
 * U of a process waiting on a page is not modelled: Spindle's processes wait on bios.)
 */
export function unplug(sim: BlockSimulation, now: number): void {
  const h = sim.state.host;
  if (!h.plugged && shouldPlug(sim)) return;
  sim.core.runQueue(sim, now);
}

/** The unplug timer: UT, then kblockd's U, then the queue runs. */
export function onUnplugTimer(sim: BlockSimulation, seq: number, now: number): void {
  const h = sim.state.host;
  if (!h.plugged || seq !== h.plugSeq) return;
  // The timer fires in interrupt context; kblockd then runs the queue.
  if (sim.sink) {
    emitPlug(sim, 'T', now, allocatedTotal(h), 'swapper');
    emitPlug(sim, 'U', now, allocatedTotal(h), 'kblockd/0');
  }
  sim.core.runQueue(sim, now);
}

/** unplug_thresh: enough requests gathered (no trace event for this one). */
export function unplugThreshReached(sim: BlockSimulation): boolean {
  const h = sim.state.host;
  return h.plugged && allocatedTotal(h) - h.inDriver >= sim.model.iosched.queue.unplugThresh;
}
