// The host side of the block layer: a process's bio becomes a request (Q, G, I), the
// elevator holds it, and requests go to the device (D) while it has free tags; the
// device's completion (C) frees a tag and pulls the next one (the kernel's pull model).
import { driveHasFreeTag, driveSubmit } from '../disk/drive';
import type { BlkAction } from '../events';
import { noteCompleted, noteDispatched, noteQueued } from '../metrics/collector';
import { freeRequest, requestAt, type IoRequest } from '../request';
import type { Model, Simulation } from '../sim/simulation';
import { noteRequestDone } from '../workload/workload';
import type { ElevatorType } from './elevator';

export interface HostState {
  /** the elevator's own state (plain data) */
  elevator: unknown;
}

export function createHostState(e: ElevatorType<unknown>, model: Model): HostState {
  return { elevator: e.init(model.iosched.tunables) };
}

function emit(sim: Simulation, action: BlkAction, rq: IoRequest, t: number): void {
  sim.sink!.trace({
    tNs: t,
    action,
    rq: rq.id,
    pid: rq.pid,
    proc: rq.proc,
    sector: rq.sector,
    nSectors: rq.nSectors,
    write: rq.write,
    sync: rq.sync,
  });
}

/** A process submits a request: queued (Q), a request allocated (G), inserted (I). */
export function hostSubmit(sim: Simulation, rq: IoRequest, now: number): void {
  noteQueued(sim, rq);
  if (sim.sink) {
    emit(sim, 'Q', rq, now);
    emit(sim, 'G', rq, now);
    emit(sim, 'I', rq, now);
  }
  sim.elevator.add(sim.state.host.elevator, rq, now);
  hostDispatch(sim, now);
}

/** Hand requests to the device while it has free tags and the elevator offers one. */
export function hostDispatch(sim: Simulation, now: number): void {
  const e = sim.elevator;
  const es = sim.state.host.elevator;
  while (driveHasFreeTag(sim)) {
    const id = e.dispatch(es, now);
    if (id < 0) break; // the elevator returns a request slot
    const rq = requestAt(sim.state.requests, id);
    if (sim.sink) emit(sim, 'D', rq, now);
    driveSubmit(sim, rq, now);
    noteDispatched(sim, rq);
  }
}

/** The device completed a request (C). */
export function hostComplete(sim: Simulation, rq: IoRequest, now: number): void {
  rq.completedNs = now;
  if (sim.sink) emit(sim, 'C', rq, now);
  noteCompleted(sim, rq);
  sim.elevator.completed(sim.state.host.elevator, rq, now);
  noteRequestDone(sim, rq, now);
  freeRequest(sim.state.requests, rq);
  hostDispatch(sim, now);
}

/** A host-layer timer (plug, anticipation, slice idle) fired; none yet in pass-through. */
export function onHostTimer(sim: Simulation, _kind: number, now: number): void {
  hostDispatch(sim, now);
}
