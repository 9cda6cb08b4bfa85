// The host side of the block layer (LINUX-SCHEDULERS.md §1): a process's I/O is queued
// (Q), gets a request (G) and enters the I/O scheduler (I); requests move through the
// dispatch queue to the device while it has free tags (D, the pull model); the device's
// completion (C) frees a tag and the queue runs again. The scheduler (an ElevatorType)
// sees only its hooks, through the ElevatorContext built here.
import { driveHasFreeTag, driveSubmit } from '../disk/drive';
import type { BlkAction } from '../events';
import { noteCompleted, noteDispatched, noteQueued } from '../metrics/collector';
import { freeRequest, requestAt, type IoRequest } from '../request';
import { pushEvent } from '../sim/heap';
import { EventKind, EventPriority } from '../sim/events';
import type { Simulation } from '../sim/simulation';
import { noteRequestDone } from '../workload/workload';
import type { Candidate, ElevatorContext, ElevatorType } from './types';
import './registry';

export interface HostState {
  /** the scheduler's own state (plain data) */
  elevator: unknown;
  /** requests the scheduler has released, in the order the driver will take them */
  dispatchQueue: number[];
  /** requests the device has (D without C) */
  inDriver: number;
  /** end sector of the last request the driver took (the dispatch-sort boundary) */
  endSector: number;
  /** when the scheduler's timer fires, −1 if unarmed; the event carries timerSeq */
  timerAt: number;
  timerSeq: number;
}

export function createHostState(): HostState {
  return { elevator: null, dispatchQueue: [], inDriver: 0, endSector: 0, timerAt: -1, timerSeq: 0 };
}

/** The context a scheduler works through; one per simulation, reading its live state. */
export function createElevatorContext(sim: Simulation): ElevatorContext {
  return {
    get now() {
      return sim.state.now;
    },
    get hz() {
      return sim.model.iosched.hz;
    },
    get recording() {
      return sim.sink !== null;
    },
    rq: (slot) => requestAt(sim.state.requests, slot),
    bio: () => {
      throw new Error('bios arrive with the merging block layer');
    },
    inDriver: () => sim.state.host.inDriver,
    deviceDepth: () => sim.model.queueDepth,
    setTimer(atNs) {
      const h = sim.state.host;
      h.timerAt = atNs;
      h.timerSeq++;
      pushEvent(sim.state.heap, atNs, EventPriority.HostTimer, EventKind.HostTimer, h.timerSeq);
    },
    clearTimer() {
      const h = sim.state.host;
      h.timerAt = -1;
      h.timerSeq++;
    },
    decide(rule, chosen, candidates, text) {
      if (!sim.sink) return;
      const table = sim.state.requests;
      sim.sink.decision({
        tNs: sim.state.now,
        layer: 'iosched',
        rule,
        chosen: chosen >= 0 ? requestAt(table, chosen).id : -1,
        candidates: candidates.map((c: Candidate) => ({
          rq: requestAt(table, c.slot).id,
          estimateNs: null,
          note: c.note,
        })),
        text,
      });
    },
    message(text) {
      sim.sink?.trace({
        tNs: sim.state.now,
        action: 'm',
        rq: -1,
        pid: 0,
        proc: -1,
        sector: 0,
        nSectors: 0,
        write: false,
        sync: false,
        message: text,
      });
    },
    kick() {
      hostRunQueue(sim, sim.state.now);
    },
  };
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
  sim.elevator.add(sim.state.host.elevator, rq, sim.ctx);
  hostRunQueue(sim, now);
}

/** Put a released request into the dispatch queue, as the scheduler asks (§1.5). */
function dispatchInsert(sim: Simulation, e: ElevatorType<unknown>, slot: number): void {
  const dq = sim.state.host.dispatchQueue;
  if (e.dispatchInsert === 'append' || dq.length === 0) {
    dq.push(slot);
    return;
  }
  // elv_dispatch_sort: keep one ascending sweep after the boundary, then one below it;
  // never pass a request of the other direction.
  const table = sim.state.requests;
  const rq = requestAt(table, slot);
  const boundary = sim.state.host.endSector;
  let i = dq.length;
  while (i > 0) {
    const pos = requestAt(table, dq[i - 1]!);
    if (pos.write !== rq.write) break;
    if (rq.sector >= boundary) {
      if (pos.sector < boundary) {
        i--;
        continue;
      }
    } else if (pos.sector >= boundary) break;
    if (rq.sector >= pos.sector) break;
    i--;
  }
  dq.splice(i, 0, slot);
}

/** The driver pulls requests while the device has free tags (the request function). */
export function hostRunQueue(sim: Simulation, now: number): void {
  const e = sim.elevator;
  const h = sim.state.host;
  while (driveHasFreeTag(sim)) {
    if (h.dispatchQueue.length === 0) {
      const slot = e.dispatch(h.elevator, false, sim.ctx);
      if (slot < 0) break;
      dispatchInsert(sim, e, slot);
    }
    const rq = requestAt(sim.state.requests, h.dispatchQueue.shift()!);
    rq.mergeable = false;
    h.inDriver++;
    h.endSector = rq.sector + rq.nSectors;
    if (sim.sink) emit(sim, 'D', rq, now);
    e.activate?.(h.elevator, rq, sim.ctx);
    driveSubmit(sim, rq, now);
    noteDispatched(sim, rq);
  }
}

/** The device completed a request (C). */
export function hostComplete(sim: Simulation, rq: IoRequest, now: number): void {
  const h = sim.state.host;
  rq.completedNs = now;
  h.inDriver--;
  if (sim.sink) emit(sim, 'C', rq, now);
  noteCompleted(sim, rq);
  sim.elevator.completed(h.elevator, rq, sim.ctx);
  sim.elevator.putRequest?.(h.elevator, rq, sim.ctx);
  noteRequestDone(sim, rq, now);
  freeRequest(sim.state.requests, rq);
  hostRunQueue(sim, now);
}

/** The scheduler's timer fired (anticipation, idle window, slice): let it act, then run. */
export function onHostTimer(sim: Simulation, seq: number, now: number): void {
  const h = sim.state.host;
  if (seq !== h.timerSeq) return; // re-armed or cleared since
  h.timerAt = -1;
  sim.elevator.timer?.(h.elevator, sim.ctx);
  hostRunQueue(sim, now);
}
