// Helpers for the AS tests: runs through the real engine (D order, decision records,
// the scheduler's state at the end), and a hand-driven context for the hooks the
// framework does not call yet (merging, forced dispatch, may_queue).
import type { DecisionRecord, TraceEvent, TraceSink } from '../../src/engine/events';
import { anticipatory, type AsState } from '../../src/engine/iosched/anticipatory';
import { ensureRegistered } from '../../src/engine/iosched/elevator';
import type { Bio, ElevatorContext } from '../../src/engine/iosched/types';
import { allocRequest, createRequestTable, type IoRequest } from '../../src/engine/request';
import { runScenario } from '../../src/engine/run';
import type { FixedRequest, ProcessSpec } from '../../src/engine/scenario/types';
import { proc, scenario } from '../helpers/scenario';
import { testBio } from '../helpers/bio';

ensureRegistered(anticipatory);

export const MS = 1e6;

export interface AsRun {
  /** dispatches (D), in order */
  d: TraceEvent[];
  /** completions (C), in order */
  c: TraceEvent[];
  /** the I/O scheduler's decision records */
  dec: DecisionRecord[];
  /** inspect() at the end of the run */
  view: ReturnType<typeof anticipatory.inspect>;
  state: AsState;
  processes: Array<{ name: string; pid: number; completed: number }>;
}

export function runAs(
  processes: ProcessSpec[],
  o: { tunables?: Record<string, number>; queueDepth?: number; stopMs?: number; hz?: number } = {},
): AsRun {
  const d: TraceEvent[] = [];
  const c: TraceEvent[] = [];
  const dec: DecisionRecord[] = [];
  const sink: TraceSink = {
    trace: (e) => (e.action === 'D' ? d.push(e) : e.action === 'C' ? c.push(e) : 0),
    service: () => {},
    decision: (x) => (x.layer === 'iosched' ? dec.push(x) : 0),
  };
  const { summary, simulation } = runScenario(
    scenario({
      iosched: 'anticipatory',
      tunables: o.tunables ?? {},
      queueDepth: o.queueDepth ?? 1,
      preset: 'hp-c2247a',
      processes,
      stopMs: o.stopMs ?? null,
      hz: o.hz ?? 250,
    }),
    { sink },
  );
  const state = simulation.state.host.elevator as AsState;
  return {
    d,
    c,
    dec,
    state,
    view: anticipatory.inspect(state, simulation.ctx),
    processes: summary.processes.map((p) => ({ name: p.name, pid: p.pid, completed: p.completed })),
  };
}

type Entry = { sector: number; at?: number; think?: number; kib?: number; op?: 'read' | 'write' };

/** A process with a fixed request list: timed entries (at ms) or think-time entries
 * (issued `think` ms after the previous one completes). */
export function list(name: string, entries: Entry[], sync: boolean | null = null): ProcessSpec {
  const requests: FixedRequest[] = entries.map((e) => ({
    sector: e.sector,
    sizeKiB: e.kib ?? 4,
    op: e.op ?? 'read',
    atMs: e.at ?? 0,
    thinkTimeMs: e.think ?? null,
  }));
  return proc({ name, requests, sync });
}

/** The decision records for one rule. */
export const decisions = (r: AsRun, rule: string) => r.dec.filter((x) => x.rule === rule);
export const idOf = (r: AsRun, sector: number) => r.d.find((e) => e.sector === sector)!.rq;

/** A writer with three 64 KiB async writes queued at `at` ms, far from the readers and
 * from each other (so the block layer does not merge them). */
export const writer = (at = 0.5) =>
  list(
    'writer',
    [1_500_000, 1_600_000, 1_700_000].map((sector) => ({ sector, at, kib: 64, op: 'write' })),
  );

/** When a timer armed for `n` jiffies after the jiffy containing `tNs` fires (ns). */
export const tick = (tNs: number, n: number, hz = 250) =>
  ((Math.floor((tNs * hz) / 1e9) + n) * 1e9) / hz;

export const rulesOf = (r: AsRun) => r.dec.map((x) => x.rule);
export const dSectors = (r: AsRun) => r.d.map((e) => e.sector);
export const cTime = (r: AsRun, sector: number) => r.c.find((e) => e.sector === sector)!.tNs;
export const dTime = (r: AsRun, sector: number) => r.d.find((e) => e.sector === sector)!.tNs;
export const firstDecision = (r: AsRun, rule: string) => r.dec.find((x) => x.rule === rule);

/** A hand-driven ElevatorContext over a small request table. */
export function harness(tunables: Record<string, number> = {}, hz = 250) {
  const table = createRequestTable();
  const decisions: Array<{ rule: string; chosen: number; text: string }> = [];
  const h = {
    now: 0,
    timerAt: -1,
    decisions,
    ctx: null as unknown as ElevatorContext,
    s: null as unknown as AsState,
    /** queue a request (add), as the framework would */
    add(pid: number, sector: number, o: { write?: boolean; sync?: boolean; n?: number } = {}) {
      const write = o.write ?? false;
      const rq = allocRequest(
        table,
        table.slots.length,
        0,
        pid,
        write,
        o.sync ?? !write,
        sector,
        o.n ?? 8,
        h.now,
      );
      anticipatory.add(h.s, rq, h.ctx);
      return rq;
    },
    /** one dispatch call; the request is taken by the driver at once (activate) */
    dispatch(force = false): IoRequest | null {
      const slot = anticipatory.dispatch(h.s, force, h.ctx);
      if (slot < 0) return null;
      const rq = h.ctx.rq(slot);
      anticipatory.activate!(h.s, rq, h.ctx);
      return rq;
    },
    complete(rq: IoRequest) {
      anticipatory.completed(h.s, rq, h.ctx);
    },
    bio(pid: number, sector: number, nSectors: number, write: boolean, sync = !write): Bio {
      return testBio({ pid, sector, nSectors, write, sync, queuedNs: h.now });
    },
  };
  h.ctx = {
    get now() {
      return h.now;
    },
    hz,
    rq: (slot) => table.slots[slot]!,
    bio: () => {
      throw new Error('no bios here');
    },
    inDriver: () => 0,
    deviceDepth: () => 1,
    nonRotational: () => false,
    setTimer: (t) => void (h.timerAt = t),
    clearTimer: () => void (h.timerAt = -1),
    decide: (rule, chosen, _c, text) => void decisions.push({ rule, chosen, text }),
    recording: true,
    message: () => {},
    kick: () => {},
  };
  h.s = anticipatory.init(tunables, h.ctx);
  return h;
}
