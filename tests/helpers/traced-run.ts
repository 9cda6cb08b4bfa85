// A scenario run with its blktrace events and the I/O scheduler's decision records kept, for
// the schedulers' rule tests; and the fixed requests those tests build their scenes from.
import type { DecisionRecord, TraceEvent, TraceSink } from '../../src/engine/events';
import { runScenario } from '../../src/engine/run';
import type { FixedRequest, Scenario } from '../../src/engine/scenario/types';
import type { Simulation } from '../../src/engine/simulation';

export const rd = (sector: number, atMs: number, sizeKiB = 4): FixedRequest => ({
  sector,
  sizeKiB,
  op: 'read',
  atMs,
  thinkTimeMs: null,
});
export const wr = (sector: number, atMs: number, sizeKiB = 4): FixedRequest => ({
  ...rd(sector, atMs, sizeKiB),
  op: 'write',
});
/** Keeps the C2247A busy for ~60 ms from t = 0 while a test's requests arrive. */
export const BUSY = rd(1_500_000, 0, 64);

export interface TracedRun {
  trace: TraceEvent[];
  /** the D events, in order */
  d: TraceEvent[];
  /** the I/O scheduler's decision records */
  decisions: DecisionRecord[];
  sim: Simulation;
}

export function tracedRun(scenario: Scenario): TracedRun {
  const trace: TraceEvent[] = [];
  const decisions: DecisionRecord[] = [];
  const sink: TraceSink = {
    trace: (e) => trace.push(e),
    service: () => {},
    decision: (d) => {
      if (d.layer === 'iosched') decisions.push(d);
    },
  };
  const { simulation } = runScenario(scenario, { sink });
  return { trace, d: trace.filter((e) => e.action === 'D'), decisions, sim: simulation };
}
