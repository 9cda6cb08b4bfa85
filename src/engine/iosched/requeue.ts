// Requeue (LINUX-SCHEDULERS.md §1.5): the device refused a command — a write-back drive
// whose buffer is full answers QUEUE FULL — so the request goes back to the dispatch queue.
import type { IoRequest } from '../request';
import { pushEvent } from '../sim/heap';
import { EventKind, EventPriority } from '../sim/events';
import type { BlockSimulation } from './sim-view';
import { emitRq } from './emit';

/**
 * The device refused the command (QUEUE FULL): it goes back to the head of the dispatch
 * queue (R), the scheduler hears of it (deactivate), and the queue stays blocked until a
 * command completes — or, with nothing outstanding, for SCSI's 3 ms queue delay.
 */
export function requeue(sim: BlockSimulation, rq: IoRequest, now: number): void {
  const h = sim.state.host;
  h.inDriver--;
  if (sim.sink) emitRq(sim, 'R', rq, now);
  sim.elevator.deactivate?.(h.elevator, rq, sim.ctx);
  h.dispatchQueue.unshift(rq.slot);
  h.blocked = true;
  if (h.inDriver === 0) {
    h.blockSeq++;
    pushEvent(
      sim.state.heap,
      now + REQUEUE_DELAY_NS,
      EventPriority.HostTimer,
      EventKind.QueueDelay,
      h.blockSeq,
    );
  }
}

/** SCSI_QUEUE_DELAY: how long a device that refused with nothing outstanding is left alone. */
const REQUEUE_DELAY_NS = 3e6;

/** The delay after a refusal is over: try the device again. */
export function onQueueDelay(sim: BlockSimulation, seq: number, now: number): void {
  const h = sim.state.host;
  if (!h.blocked || seq !== h.blockSeq) return;
  h.blocked = false;
  sim.core.runQueue(sim, now);
}
