// Shared by the loader tests: a minimal valid scenario and ways to load or break it.
import { expect } from 'vitest';
import { loadScenario, ScenarioError } from '../../src/engine/scenario/load';
import type { Scenario } from '../../src/engine/scenario/types';

export const FILE = 'scenarios/x.json';

/** Raw scenario JSON, deliberately loose: tests write invalid values into it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type RawJson = Record<string, any>;

/** The smallest valid scenario: one random reader and a stop. */
export function minimal(): RawJson {
  return { name: 'x', workload: { processes: [{ name: 'reader' }] }, stop: { requests: 10 } };
}

/** `minimal()` with `edit` applied. */
export function raw(edit: (s: RawJson) => void = () => {}): RawJson {
  const s = minimal();
  edit(s);
  return s;
}

/** The problem lines for an invalid scenario (fails the test if it loads). */
export function problems(json: unknown): string[] {
  try {
    loadScenario(json, FILE);
  } catch (e) {
    expect(e).toBeInstanceOf(ScenarioError);
    return (e as ScenarioError).message.split('\n');
  }
  throw new Error('expected a ScenarioError, but the scenario loaded');
}

export function load(json: unknown): Scenario {
  return loadScenario(json, FILE);
}
