// A simulation: the immutable model (disk, workload, settings) and the state that
// evolves, advanced one event at a time. Same model + seed ⇒ the same event sequence.
// The state is plain data: snapshots are structuredClone copies (SimPy-style loop).
import type { CompiledDisk } from '../disk/compile';
import type { DiskSchedulerName } from '../disk/disk-scheduler';
import type { RangeSchedulerName } from '../disk/range';
import type { WritePolicy } from '../disk/params';
import {
  createDriveState,
  onDrivePick,
  onMechanismFree,
  driveRelease,
  type DriveState,
} from '../disk/drive';
import { fittedDone } from '../disk/fitted';
import type { TraceSink } from '../events';
import { getElevator } from '../iosched/elevator';
import type { ElevatorContext, ElevatorType } from '../iosched/types';
import '../iosched/registry';
import { createElevatorContext, setContextTime } from '../iosched/context';
import { onQueueDelay } from '../iosched/requeue';
import { onPlugFlush } from '../iosched/plug-task';
import { onWriteback } from '../workload/flusher';
import { onJournal } from '../workload/journal';
import { onReiserfsThread, onReiserfsWork, onSyncSupers } from '../workload/reiserfs-threads';
import { onUnplugTimer } from '../iosched/plug-queue';
import { createHostState, hostComplete, onHostTimer, type HostState } from '../iosched/host';
import { initMqTags } from '../iosched/tags-mq';
import { createCollector, type Collector } from '../metrics/collector';
import {
  createBioTable,
  createRequestTable,
  requestAt,
  type BioTable,
  type RequestTable,
} from '../request';
import type { QueueSettings } from '../iosched/queue-settings';
import type { ProcessSpec } from '../scenario/types';
import type { PageCacheSpec } from '../workload/page-cache';
import {
  createWorkloadState,
  onIssue,
  startWorkload,
  type WorkloadState,
} from '../workload/workload';
import { EventKind } from './events';
import { createHeap, peekEvent, popEvent, type EventHeap } from './heap';

export interface Model {
  disk: CompiledDisk;
  queueDepth: number;
  diskScheduler: DiskSchedulerName;
  writePolicy: WritePolicy;
  agingWeight: number;
  /** how the drive places range writes, and ECS's targets per track (0 = every start) */
  rangeScheduler: RangeSchedulerName;
  ecsTargets: number;
  iosched: { name: string; tunables: Record<string, number>; hz: number; queue: QueueSettings };
  processes: ProcessSpec[];
  /** buffered I/O through a page cache (the flusher is the last process), or null */
  pageCache: PageCacheSpec | null;
  seed: number;
  stopRequests: number | null;
  stopNs: number | null;
  /** the engine's own end for a run whose stop condition lies too far (run-bounds.ts) */
  budget: { requests: number; events: number };
}

export interface SimState {
  now: number;
  heap: EventHeap;
  requests: RequestTable;
  nextRqId: number;
  bios: BioTable;
  nextBioId: number;
  drive: DriveState;
  host: HostState;
  workload: WorkloadState;
  metrics: Collector;
  /** events processed so far */
  steps: number;
  done: boolean;
  /** the run ended at the engine's bound (MAX_RUN_REQUESTS completions or MAX_RUN_EVENTS
   * events) before its own stop condition */
  budgetReached: boolean;
}

export interface Simulation {
  model: Model;
  state: SimState;
  /** where events, service phases and decisions go; null = nowhere (fastest) */
  sink: TraceSink | null;
  /** the I/O scheduler's operations, looked up once from model.iosched.name */
  elevator: ElevatorType<unknown>;
  /** what the scheduler sees and may do (ElevatorContext over this simulation) */
  ctx: ElevatorContext;
}

export function createSimulation(model: Model, sink: TraceSink | null = null): Simulation {
  const elevator = getElevator(model.iosched.name);
  if (!elevator) throw new Error(`unknown I/O scheduler "${model.iosched.name}"`);
  const sim = { model, sink, elevator } as Simulation;
  sim.ctx = createElevatorContext(sim);
  sim.state = {
    now: 0,
    heap: createHeap(),
    requests: createRequestTable(),
    nextRqId: 0,
    bios: createBioTable(),
    nextBioId: 0,
    drive: createDriveState(sim),
    host: createHostState(),
    workload: createWorkloadState(model),
    metrics: createCollector(model),
    steps: 0,
    done: false,
    budgetReached: false,
  };
  sim.state.host.elevator = elevator.init(model.iosched.tunables, sim.ctx);
  if (model.iosched.queue.taskPlug) initMqTags(sim);
  startWorkload(sim);
  return sim;
}

/** The time of the next event, or Infinity when nothing is pending. */
export function peekTime(sim: Simulation): number {
  return peekEvent(sim.state.heap)?.t ?? Infinity;
}

/** Process one event. Returns false once the run is over. */
export function step(sim: Simulation): boolean {
  const st = sim.state;
  if (st.done) return false;
  const ev = popEvent(st.heap);
  if (!ev) {
    st.done = true;
    return false;
  }
  if (sim.model.stopNs !== null && ev.t > sim.model.stopNs) {
    st.now = sim.model.stopNs;
    setContextTime(sim.ctx, st.now);
    st.done = true;
    return false;
  }
  st.now = ev.t;
  setContextTime(sim.ctx, ev.t);
  st.steps++;
  // Read now: the handlers' pushes may reuse the event object.
  const { kind, a, rq, t } = ev;
  switch (kind) {
    case EventKind.Issue:
      onIssue(sim, a, t);
      break;
    case EventKind.MechanismFree:
      onMechanismFree(sim, rq, t);
      // a = 1: the command completes at the same instant (a read the mechanism held).
      if (a === 1) {
        driveRelease(sim, requestAt(st.requests, rq), t);
        hostComplete(sim, requestAt(st.requests, rq), t);
      }
      break;
    case EventKind.DriveComplete:
      driveRelease(sim, requestAt(st.requests, rq), t);
      hostComplete(sim, requestAt(st.requests, rq), t);
      break;
    case EventKind.FittedDone:
      for (const slot of fittedDone(sim, a, t)) {
        driveRelease(sim, requestAt(st.requests, slot), t);
        hostComplete(sim, requestAt(st.requests, slot), t);
      }
      break;
    case EventKind.DrivePick:
      onDrivePick(sim, t);
      break;
    case EventKind.HostTimer:
      onHostTimer(sim, a, t);
      break;
    case EventKind.UnplugTimer:
      onUnplugTimer(sim, a, t);
      break;
    case EventKind.QueueDelay:
      onQueueDelay(sim, a, t);
      break;
    case EventKind.PlugFlush:
      onPlugFlush(sim, a, t);
      break;
    case EventKind.Writeback:
      onWriteback(sim, a, t);
      break;
    case EventKind.Journal:
      onJournal(sim, a, rq, t);
      break;
    case EventKind.ReiserfsThread:
      onReiserfsThread(sim, a, rq, t);
      break;
    case EventKind.SyncSupers:
      onSyncSupers(sim, t);
      break;
    case EventKind.ReiserfsWork:
      onReiserfsWork(sim, a, t);
      break;
  }
  if (sim.model.stopRequests !== null && st.metrics.iosCompleted >= sim.model.stopRequests)
    st.done = true;
  else if (
    st.metrics.iosCompleted >= sim.model.budget.requests ||
    st.steps >= sim.model.budget.events
  ) {
    // a run stopped by time alone that would go on for hours (issue 20 item 7)
    st.done = true;
    st.budgetReached = true;
  }
  return !st.done;
}

/** Run until the next event would be after tNs (or the run ends). */
export function runUntil(sim: Simulation, tNs: number): void {
  while (!sim.state.done && peekTime(sim) <= tNs) step(sim);
  if (!sim.state.done && sim.state.now < tNs) {
    sim.state.now = tNs;
    setContextTime(sim.ctx, tNs);
  }
}

export function runToEnd(sim: Simulation): void {
  while (step(sim)) {
    /* each step advances the clock */
  }
}

/** A copy of the state that a later restore() returns to exactly. */
export function snapshot(sim: Simulation): SimState {
  return structuredClone(sim.state);
}

export function restore(sim: Simulation, snap: SimState): void {
  sim.state = structuredClone(snap);
  setContextTime(sim.ctx, sim.state.now);
}
