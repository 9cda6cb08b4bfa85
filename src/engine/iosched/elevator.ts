// The I/O schedulers by name: a table, checked at registration (STYLE.md habit 5).
// Each scheduler is one file implementing ElevatorType (types.ts).
import type { ElevatorType } from './types';

export type { ElevatorType, TunableSpec } from './types';

const registry = new Map<string, ElevatorType<unknown>>();

const REQUIRED_OPS = ['init', 'add', 'dispatch', 'completed', 'queued', 'inspect'] as const;

export function registerElevator<S>(e: ElevatorType<S>): void {
  if (registry.has(e.name)) throw new Error(`elevator "${e.name}" registered twice`);
  for (const op of REQUIRED_OPS) {
    if (typeof e[op] !== 'function') throw new Error(`elevator "${e.name}" lacks ${op}()`);
  }
  const names = new Set<string>();
  for (const t of e.tunables) {
    if (names.has(t.name))
      throw new Error(`elevator "${e.name}": tunable ${t.name} declared twice`);
    names.add(t.name);
    if (!(t.min <= t.default && t.default <= t.max)) {
      throw new Error(
        `elevator "${e.name}": ${t.name} default ${t.default} outside ${t.min}…${t.max}`,
      );
    }
  }
  registry.set(e.name, e as ElevatorType<unknown>);
}

/** Register unless already there (tests of a scheduler not yet in the built-in list). */
export function ensureRegistered<S>(e: ElevatorType<S>): void {
  if (!registry.has(e.name)) registerElevator(e);
}

export function getElevator(name: string): ElevatorType<unknown> | undefined {
  return registry.get(name);
}

export function elevatorNames(): string[] {
  return [...registry.keys()];
}
