// The worker that owns a simulation: a thin adapter from messages to engine calls
// (STYLE.md habit 1). The page talks to it through comlink; see ./client.ts.
import { expose } from 'comlink';
import { loadScenario, runScenario, type RunSummary } from '../engine';

export interface RunResponse {
  title: string;
  summary: RunSummary;
}

const api = {
  /**
   * Validate a scenario file's JSON and run it. An invalid scenario throws the engine's
   * ScenarioError; comlink re-throws it in the page with its message (file and key path).
   */
  run(json: unknown, source: string, seed?: number): RunResponse {
    const scenario = loadScenario(json, source);
    const { summary } = runScenario(scenario, seed === undefined ? {} : { seed });
    return { title: scenario.title, summary };
  },
};

export type SimApi = typeof api;

expose(api);
