// Read a scenario file (or `-` for stdin), apply command-line edits, validate.
import { readFileSync } from 'node:fs';
import { loadScenario, parseScenarioJson } from '../src/engine/scenario/load';
import type { Scenario } from '../src/engine/scenario/types';
import { UsageError } from './errors';
import { applySetting, type Setting } from './settings';

const REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'it is a directory',
  EACCES: 'permission denied',
  ENOTDIR: 'a part of the path is not a directory',
};

/** The file's text; a failure is a UsageError naming the path. */
export function readText(path: string): string {
  try {
    return readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    throw new UsageError(
      `cannot read ${path === '-' ? 'standard input' : path}: ${REASONS[code] ?? (e as Error).message}`,
    );
  }
}

/** A scenario file as raw JSON (syntax checked), for editing before validation. */
export function readScenarioJson(path: string): unknown {
  return parseScenarioJson(readText(path), sourceName(path));
}

/** Apply `settings` to a copy of `raw` and validate the result. */
export function scenarioWith(raw: unknown, path: string, settings: readonly Setting[]): Scenario {
  const copy = structuredClone(raw);
  for (const s of settings) applySetting(copy, s);
  return loadScenario(copy, sourceName(path));
}

function sourceName(path: string): string {
  return path === '-' ? '<stdin>' : path;
}
