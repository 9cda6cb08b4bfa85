// The ElevatorContext: what a scheduler sees and may do, over one simulation's live state.
import { bioAt, requestAt } from '../request';
import { pushEvent } from '../sim/heap';
import { EventKind, EventPriority } from '../sim/events';
import type { Simulation } from '../sim/simulation';
import { hostRunQueue } from './host';
import type { Candidate, ElevatorContext } from './types';

/** The context a scheduler works through; one per simulation, reading its live state. */
export function createElevatorContext(sim: Simulation): ElevatorContext {
  return {
    // Plain fields, read on nearly every scheduler call: HZ and recording are fixed for the
    // run, and the step loop sets `now` before each event (setContextTime).
    now: 0,
    hz: sim.model.iosched.hz,
    recording: sim.sink !== null,
    rq: (slot) => requestAt(sim.state.requests, slot),
    bio: (slot) => bioAt(sim.state.bios, slot),
    inDriver: () => sim.state.host.inDriver,
    deviceDepth: () => sim.model.queueDepth,
    nonRotational: () => sim.model.disk.params.ssd !== null,
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

/** The step loop keeps the context's clock with the simulation's. */
export function setContextTime(ctx: ElevatorContext, now: number): void {
  (ctx as { now: number }).now = now;
}
