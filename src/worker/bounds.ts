// Where a run stops short of its scenario's own end: the played log's bound and the whole
// run's. A module of constants only, so the page's charts import it without the engine.

export interface RunBound {
  /** requests completed (C) */
  completions: number;
  /** simulated time, ns */
  simNs: number;
}

/** The log the page plays stops here (the worker's load and run). */
export const MAX_COMPLETIONS = 2000;
export const MAX_SIM_NS = 60e9;
export const PLAYED_BOUND: RunBound = { completions: MAX_COMPLETIONS, simNs: MAX_SIM_NS };

/** How far "the whole run" goes: a scenario that runs longer is charted up to here. */
export const WHOLE_RUN_BOUND: RunBound = { completions: 100_000, simNs: 3600e9 };
