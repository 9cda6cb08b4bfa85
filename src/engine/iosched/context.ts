// The ElevatorContext: what a scheduler sees and may do, over one simulation's live state.
import { bioAt, requestAt, type IoRequest } from '../request';
import { pushEvent } from '../sim/heap';
import { EventKind, EventPriority } from '../sim/events';
import type { BlockSimulation } from './sim-view';
import { hostRunQueue } from './host';
import type { Bio, Candidate, ElevatorContext } from './types';
import { isNonRotational } from '../disk/params';
import { doubleFields } from '../sim/doubles';

/**
 * One per simulation. A class, not an object of closures: its methods are the same
 * functions for every simulation, so V8 can inline a scheduler's ctx.rq(slot) (closures
 * made per simulation are "many closures" to it, never inlined once a process has run
 * several simulations). Call the methods on the context (they read `this`).
 */
class SimContext implements ElevatorContext {
  // Plain fields, read on nearly every scheduler call: HZ and recording are fixed for the
  // run, and the step loop sets `now` before each event (setContextTime).
  now = 0;
  readonly hz: number;
  readonly recording: boolean;
  private readonly sim: BlockSimulation;

  constructor(sim: BlockSimulation) {
    this.sim = sim;
    this.hz = sim.model.iosched.hz;
    this.recording = sim.sink !== null;
    doubleFields<{ now: number }>(this, 'now');
  }

  rq(slot: number): IoRequest {
    return requestAt(this.sim.state.requests, slot);
  }

  bio(slot: number): Bio {
    return bioAt(this.sim.state.bios, slot);
  }

  inDriver(): number {
    return this.sim.state.host.inDriver;
  }

  deviceDepth(): number {
    return this.sim.model.queueDepth;
  }

  nonRotational(): boolean {
    return isNonRotational(this.sim.model.disk.params);
  }

  setTimer(atNs: number): void {
    const h = this.sim.state.host;
    h.timerAt = atNs;
    h.timerSeq++;
    pushEvent(this.sim.state.heap, atNs, EventPriority.HostTimer, EventKind.HostTimer, h.timerSeq);
  }

  clearTimer(): void {
    const h = this.sim.state.host;
    h.timerAt = -1;
    h.timerSeq++;
  }

  decide(rule: string, chosen: number, candidates: Candidate[], text: string): void {
    const sim = this.sim;
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
  }

  message(text: string): void {
    const sim = this.sim;
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
  }

  kick(): void {
    hostRunQueue(this.sim, this.sim.state.now);
  }
}

/** The context a scheduler works through; one per simulation, reading its live state. */
export function createElevatorContext(sim: BlockSimulation): ElevatorContext {
  return new SimContext(sim);
}

/** The step loop keeps the context's clock with the simulation's. */
export function setContextTime(ctx: ElevatorContext, now: number): void {
  (ctx as { now: number }).now = now;
}
