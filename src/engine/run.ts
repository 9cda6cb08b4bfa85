// Run a scenario to its end and report (the CLI's and the worker's entry point).
import type { TraceSink } from './events';
import { buildModel } from './model';
import type { Scenario } from './scenario/types';
import { createSimulation, runToEnd, step, type Simulation } from './simulation';
import { summarize, type RunSummary } from './summary';

export interface RunOptions {
  /** overrides the scenario's seed */
  seed?: number;
  /** receives every event, service phase and decision (slower; omit for figures only) */
  sink?: TraceSink;
  /** called every 65,536 steps with the simulation (the CLI's progress line on a terminal) */
  progress?: (sim: Simulation) => void;
}

export interface RunResult {
  summary: RunSummary;
  simulation: Simulation;
}

export function runScenario(scenario: Scenario, options: RunOptions = {}): RunResult {
  const sim = createSimulation(
    buildModel(scenario, options.seed ?? scenario.seed),
    options.sink ?? null,
  );
  const progress = options.progress;
  if (progress === undefined) runToEnd(sim);
  else {
    let k = 0;
    while (step(sim)) if ((++k & 0xffff) === 0) progress(sim);
  }
  return { summary: summarize(sim, scenario), simulation: sim };
}
