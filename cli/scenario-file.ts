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

/**
 * Apply `settings` to a copy of `raw` and validate the result. `note` hears what an edit
 * implied beyond itself (a scheduler change resetting the file's tunables).
 */
export function scenarioWith(
  raw: unknown,
  path: string,
  settings: readonly Setting[],
  note: (text: string) => void = () => {},
): Scenario {
  const copy = structuredClone(raw);
  const before = { ...iosched(copy) }; // the name before the edits (they edit in place)
  for (const s of settings) applySetting(copy, s);
  resetTunablesOnSwitch(before, iosched(copy), settings, note);
  return loadScenario(copy, sourceName(path));
}

interface Iosched {
  name?: unknown;
  tunables?: unknown;
}

function iosched(root: unknown): Iosched | undefined {
  const x = (root as { iosched?: unknown } | null)?.iosched;
  return x !== null && typeof x === 'object' && !Array.isArray(x) ? (x as Iosched) : undefined;
}

/**
 * An edit that changes iosched.name starts the new scheduler at its defaults, as the page's
 * settings do and as the kernel does (switching the elevator replaces the queue's iosched/
 * directory): the file's tunables belong to the old scheduler and are left out. Tunables set
 * on the command line are kept, whatever their order.
 */
function resetTunablesOnSwitch(
  before: Iosched,
  after: Iosched | undefined,
  settings: readonly Setting[],
  note: (text: string) => void,
): void {
  if (!after || before.name === after.name) return;
  const file = before.tunables;
  const now = after.tunables;
  if (file === null || typeof file !== 'object' || now !== file) return; // replaced by an edit
  const prefix = 'iosched.tunables.';
  const explicit = new Set(
    settings.flatMap((s) => (s.key.startsWith(prefix) ? [s.key.slice(prefix.length)] : [])),
  );
  const dropped = Object.keys(file).filter((k) => !explicit.has(k));
  if (dropped.length === 0) return;
  const table = file as Record<string, unknown>;
  const text = dropped.map((k) => `${k}=${JSON.stringify(table[k])}`).join(', ');
  for (const k of dropped) delete table[k];
  note(
    `iosched.name ${JSON.stringify(before.name)} → ${JSON.stringify(after.name)}: the scenario's tunables (${text}) were ${JSON.stringify(before.name)}'s and are left out; ${JSON.stringify(after.name)} starts at its defaults`,
  );
}

function sourceName(path: string): string {
  return path === '-' ? '<stdin>' : path;
}
