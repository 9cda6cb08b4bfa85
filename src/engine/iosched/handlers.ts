// The block layer's events, registered with the loop (sim/loop.ts): the scheduler's timer,
// the 2.6 queue's unplug timer, the delay after the device refused a command, and kernel
// 6.18's plug flush at the end of a process's submission.
import { EventKind } from '../sim/events';
import type { RegisterHandler } from '../sim/loop';
import { onHostTimer } from './host';
import { onUnplugTimer } from './plug-queue';
import { onPlugFlush } from './plug-task';
import { onQueueDelay } from './requeue';
import type { BlockSimulation } from './sim-view';

function hostTimer(sim: BlockSimulation, a: number, _rq: number, t: number): void {
  onHostTimer(sim, a, t);
}

function unplugTimer(sim: BlockSimulation, a: number, _rq: number, t: number): void {
  onUnplugTimer(sim, a, t);
}

function queueDelay(sim: BlockSimulation, a: number, _rq: number, t: number): void {
  onQueueDelay(sim, a, t);
}

function plugFlush(sim: BlockSimulation, a: number, _rq: number, t: number): void {
  onPlugFlush(sim, a, t);
}

export function registerBlockEvents(on: RegisterHandler<BlockSimulation>): void {
  on(EventKind.HostTimer, hostTimer);
  on(EventKind.UnplugTimer, unplugTimer);
  on(EventKind.QueueDelay, queueDelay);
  on(EventKind.PlugFlush, plugFlush);
}
