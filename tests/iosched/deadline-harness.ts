// Helpers for the deadline tests (deadline-*.test.ts): LINUX-SCHEDULERS.md §1.4 and §3, one
// test per rule, each a small hand-built scenario run through the real engine. The disk has
// one tag (queue depth 1), so the first request goes straight to it; BUSY, a 64 KiB read far
// out, keeps it busy ~60 ms while the requests under test queue up and the scheduler has the
// choice the test is about. Writes are sync where timing matters (async writes may be held
// by the plug for up to 3 ms).
import { deadline, type DeadlineState, type DeadlineView } from '../../src/engine/iosched/deadline';
import { ensureRegistered } from '../../src/engine/iosched/elevator';
import { buildModel } from '../../src/engine/model';
import type { FixedRequest, ProcessSpec } from '../../src/engine/scenario/types';
import { createSimulation, peekTime, step, type Simulation } from '../../src/engine/simulation';
import { proc, scenario } from '../helpers/scenario';
import { BUSY, tracedRun, type TracedRun } from '../helpers/traced-run';

ensureRegistered(deadline);

export const MS = 1e6;

export const reads = (...requests: FixedRequest[]) => proc({ name: 'r', requests });
export const syncWrites = (...requests: FixedRequest[]) =>
  proc({ name: 'w', sync: true, requests });

function sc(processes: ProcessSpec[], tunables: Record<string, number> = {}, stopMs?: number) {
  return scenario({
    iosched: 'deadline',
    tunables,
    queueDepth: 1,
    preset: 'hp-c2247a',
    processes,
    stopMs: stopMs ?? null,
  });
}

export type Run = TracedRun;

export function run(
  processes: ProcessSpec[],
  tunables: Record<string, number> = {},
  stopMs?: number,
) {
  return tracedRun(sc(processes, tunables, stopMs));
}

/** "R1000", "W2000" per dispatched request, in D order, without BUSY. */
export const order = (r: Run) =>
  r.d.filter((e) => e.sector !== BUSY.sector).map((e) => `${e.write ? 'W' : 'R'}${e.sector}`);

/** Every dispatch has one record that picked its request; a new batch also has one for
 * its direction, just before. */
const PICKS = new Set([
  'alias',
  'continue-batch',
  'fifo-expired',
  'sweep-ended-fifo-head',
  'sweep-continues',
]);
export const picks = (r: Run) => r.decisions.filter((d) => PICKS.has(d.rule));
export const idAt = (r: Run, sector: number) => r.d.find((e) => e.sector === sector)!.rq;
/** The rule that picked the request at `sector`. */
export const pickRule = (r: Run, sector: number) =>
  picks(r).find((d) => d.chosen === idAt(r, sector))!.rule;
/** The direction rule of each new batch, in order (BUSY's batch first). */
export const batchRules = (r: Run) =>
  r.decisions.filter((d) => d.rule.startsWith('new-batch')).map((d) => d.rule);

/** A simulation stepped until just before `ms`, for looking inside the scheduler. */
export function simAt(processes: ProcessSpec[], tunables: Record<string, number>, ms: number) {
  const sim = createSimulation(buildModel(sc(processes, tunables)));
  while (peekTime(sim) < ms * MS) step(sim);
  return sim;
}
export const stateOf = (sim: Simulation) => sim.state.host.elevator as DeadlineState;
export const view = (sim: Simulation) => deadline.inspect(stateOf(sim), sim.ctx) as DeadlineView;
