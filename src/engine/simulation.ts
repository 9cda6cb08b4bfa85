// A simulation: the immutable model (disk, workload, settings) and the state that
// evolves, advanced one event at a time. Same model + seed ⇒ the same event sequence.
// The state is plain data: snapshots are structuredClone copies (SimPy-style loop).
// This file assembles the layers, each of which sees only its own view and those below
// (disk/sim-view.ts ← iosched/sim-view.ts ← workload/sim-view.ts): it registers their
// event handlers in one table, and wires each layer's calls upward (the drive's
// completions to the block layer, a bio's wake-up and completion to its process).
import { createDriveState } from './disk/drive';
import { registerDiskEvents } from './disk/handlers';
import type { TraceSink } from './events';
import { getElevator } from './iosched/elevator';
import './iosched/registry';
import { createElevatorContext, setContextTime } from './iosched/context';
import { registerBlockEvents } from './iosched/handlers';
import { writerEnded } from './workload/reiserfs-threads';
import {
  createHostState,
  endRequest,
  hostComplete,
  hostRunQueue,
  insertRequest,
  newRequest,
  releaseRequest,
} from './iosched/host';
import { initMqTags } from './iosched/tags-mq';
import { createCollector } from './metrics/collector';
import { createBioTable, createRequestTable } from './request';
import { createHandlerTable, type EventHandler } from './sim/loop';
import { registerWorkloadEvents } from './workload/handlers';
import type { WorkloadModel, WorkloadSimState, WorkloadSimulation } from './workload/sim-view';
import { createWorkloadState, noteBioDone, noteBioWakes, startWorkload } from './workload/workload';
import { createHeap, peekEvent, popEvent } from './sim/heap';
import { doubleFields } from './sim/doubles';

export interface Model extends WorkloadModel {
  stopRequests: number | null;
  stopNs: number | null;
  /** the engine's own end for a run whose stop condition lies too far (run-bounds.ts) */
  budget: { requests: number; events: number };
}

export interface SimState extends WorkloadSimState {
  /** events processed so far */
  steps: number;
  done: boolean;
  /** the run ended at the engine's bound (MAX_RUN_REQUESTS completions or MAX_RUN_EVENTS
   * events) before its own stop condition */
  budgetReached: boolean;
}

export interface Simulation extends WorkloadSimulation {
  model: Model;
  state: SimState;
  /** each event kind's handler, registered by the layers (sim/loop.ts) */
  handlers: EventHandler<Simulation>[];
  /** where the step loop ends, from the model once: one test of each an event (runStops) */
  stops: RunStops;
}

/** The model's stops as numbers, Infinity for none. */
interface RunStops {
  /** no event after this time (stopNs) */
  atNs: number;
  /** completions at which the run ends: its stopRequests, or the engine's budget */
  completions: number;
  /** events at which the run ends: the engine's budget */
  events: number;
}

function runStops(model: Model): RunStops {
  return {
    atNs: model.stopNs ?? Infinity,
    completions: Math.min(model.stopRequests ?? Infinity, model.budget.requests),
    events: model.budget.events,
  };
}

/** The layers' handlers, lowest first; a kind belongs to one layer. */
const LAYERS = [registerDiskEvents, registerBlockEvents, registerWorkloadEvents];

// The simulation and its state are built by constructors, not object literals. V8 builds a
// literal's boilerplate the second time the literal runs, with a placeholder in each field
// that holds an object: that widens the field's type from one shape to any value. Built by
// a literal, the second simulation in a process deoptimized some 40 hot functions and every
// later one ran code checking the shapes of sim.state, sim.model and the rest: FCFS QD1
// 6,514 instructions a request against 6,243 built by these (valgrind, 2026-11-30). The
// fields are assigned in the constructors (`declare`: no class field set to undefined
// first, which would widen them the same way).

/** The functions the layers call upward through (constants: one shape, one value). */
const HOST: Simulation['host'] = { complete: hostComplete };
const SUBMITTER: Simulation['submitter'] = { bioWakes: noteBioWakes, bioDone: noteBioDone };
const CORE: Simulation['core'] = {
  runQueue: hostRunQueue,
  insert: insertRequest,
  end: endRequest,
  release: releaseRequest,
  newRequest,
};
const REISERFS_THREADS: Simulation['reiserfsThreads'] = { writerEnded };

class SimulationObject {
  declare model: Model;
  declare sink: TraceSink | null;
  declare elevator: Simulation['elevator'];
  declare host: Simulation['host'];
  declare submitter: Simulation['submitter'];
  declare core: Simulation['core'];
  declare reiserfsThreads: Simulation['reiserfsThreads'];
  declare handlers: Simulation['handlers'];
  declare stops: RunStops;
  constructor(model: Model, sink: TraceSink | null, elevator: Simulation['elevator']) {
    this.model = model;
    this.sink = sink;
    this.elevator = elevator;
    this.host = HOST;
    this.submitter = SUBMITTER;
    this.core = CORE;
    this.reiserfsThreads = REISERFS_THREADS;
    this.handlers = createHandlerTable<Simulation>(LAYERS);
    this.stops = runStops(model);
  }
}

class StateObject {
  declare now: number;
  declare heap: SimState['heap'];
  declare requests: SimState['requests'];
  declare nextRqId: number;
  declare bios: SimState['bios'];
  declare nextBioId: number;
  declare drive: SimState['drive'];
  declare host: SimState['host'];
  declare workload: SimState['workload'];
  declare metrics: SimState['metrics'];
  declare steps: number;
  declare done: boolean;
  declare budgetReached: boolean;
  constructor(sim: Simulation) {
    this.now = 0;
    this.heap = createHeap();
    this.requests = createRequestTable();
    this.nextRqId = 0;
    this.bios = createBioTable();
    this.nextBioId = 0;
    this.drive = createDriveState(sim);
    this.host = createHostState();
    this.workload = createWorkloadState(sim.model);
    this.metrics = createCollector(sim.model);
    this.steps = 0;
    this.done = false;
    this.budgetReached = false;
  }
}

export function createSimulation(model: Model, sink: TraceSink | null = null): Simulation {
  const elevator = getElevator(model.iosched.name);
  if (!elevator) throw new Error(`unknown I/O scheduler "${model.iosched.name}"`);
  // ctx and state are added after (their own constructors need the simulation)
  const sim = new SimulationObject(model, sink, elevator) as unknown as Simulation;
  sim.ctx = createElevatorContext(sim);
  sim.state = doubleFields<SimState>(new StateObject(sim), 'now');
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
  if (st.done === true) return false; // compared: a truth test of a field runs V8's ToBoolean
  const ev = popEvent(st.heap);
  // `=== undefined`, not a truth test: V8 tests an object's truth against every falsy kind
  if (ev === undefined) {
    st.done = true;
    return false;
  }
  const stops = sim.stops;
  if (ev.t > stops.atNs) {
    st.now = stops.atNs;
    setContextTime(sim.ctx, st.now);
    st.done = true;
    return false;
  }
  st.now = ev.t;
  setContextTime(sim.ctx, ev.t);
  st.steps++;
  // Read now: the handlers' pushes may reuse the event object.
  const { kind, a, rq, t } = ev;
  sim.handlers[kind]!(sim, a, rq, t);
  if (st.metrics.iosCompleted >= stops.completions || st.steps >= stops.events) endRun(sim);
  return st.done === false; // the handler or endRun may have ended it
}

/** A stop reached after an event: the run's own (stopRequests), else the engine's budget. */
function endRun(sim: Simulation): void {
  const st = sim.state;
  st.done = true;
  const own = sim.model.stopRequests;
  // a run stopped by time alone that would go on for hours (issue 20 item 7)
  if (own === null || st.metrics.iosCompleted < own) st.budgetReached = true;
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
