// The workload part of a run's overrides: which named generator variants (FFSB's profile,
// Postmark's configuration and file system, fio's job, the number of kernel builds) a
// lesson lets the user change, and how a change is written into the scenario.
import { PAGE_CACHE_DEFAULTS } from '../engine/workload/page-cache';

export type Json = Record<string, unknown>;

/** A JSON object, or {} for anything else (a lesson's raw keys are not trusted). */
export function asObject(v: unknown): Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {};
}

/** One generator key a user may change: the engine's GeneratorChoice as plain data. */
export interface GeneratorInfo {
  kind: string;
  key: string;
  choices: string[];
  defaultValue: string | null;
  doc: string;
}

/** A choice's text as the scenario value: numbers as numbers, true/false as booleans. */
const typed = (v: string): unknown =>
  v === 'true' ? true : v === 'false' ? false : /^\d+(\.\d+)?$/.test(v) ? Number(v) : v;

/** Each process's generator with the overridden keys of its kind (numbers as numbers). */
export function applyGenerators(scenario: Json, gen: Record<string, string>): void {
  const workload = asObject(scenario.workload);
  if (!Array.isArray(workload.processes)) return;
  for (const p of workload.processes as unknown[]) {
    const g = asObject(asObject(p).generator);
    for (const [name, value] of Object.entries(gen)) {
      const [kind, key] = name.split('.');
      if (g.kind === kind && key) g[key] = typed(value);
    }
  }
}

/** The generator keys a lesson lets the user change: those of the catalog whose kind the
 * lesson's processes use and on whose value they all agree (fio-switcher's six different
 * jobs offer no "job"), with the lesson's value. */
export function lessonGenerators(
  lesson: unknown,
  catalog: { generators: readonly GeneratorInfo[] },
): Array<GeneratorInfo & { lessonValue: string }> {
  const procs = asObject(asObject(lesson).workload).processes;
  const gens = Array.isArray(procs) ? procs.map((p) => asObject(asObject(p).generator)) : [];
  return catalog.generators.flatMap((info) => {
    const values = new Set(
      gens
        .filter((g) => g.kind === info.kind)
        .map((g) => (g[info.key] === undefined ? info.defaultValue : String(g[info.key]))),
    );
    const [only] = [...values];
    return values.size === 1 && typeof only === 'string' ? [{ ...info, lessonValue: only }] : [];
  });
}

/** Whether any of the lesson's processes runs a named generator (the page cache applies to
 * those only). */
export function lessonHasGenerators(lesson: unknown): boolean {
  const procs = asObject(asObject(lesson).workload).processes;
  return Array.isArray(procs) && procs.some((p) => asObject(p).generator !== undefined);
}

/** A scenario's `workload.pageCache` as its memory in MiB (the engine's default 1024 when
 * the object leaves it out), 0 when there is none. */
export function pageCacheMiB(v: unknown): number {
  if (v === null || typeof v !== 'object') return 0;
  const m = (v as { memoryMiB?: unknown }).memoryMiB;
  return typeof m === 'number' ? m : PAGE_CACHE_DEFAULTS.memoryMiB;
}

/** The page-cache sizes the settings panel offers, MiB (0: none). */
export const PAGE_CACHE_CHOICES = [0, 16, 64, 256, 1024] as const;

/** The page-cache override: `memoryMiB` of the lesson's page cache (or the defaults), or
 * none for 0. */
export function applyPageCache(scenario: Json, memoryMiB: number): void {
  const workload = asObject(scenario.workload);
  scenario.workload = {
    ...workload,
    pageCache: memoryMiB > 0 ? { ...asObject(workload.pageCache), memoryMiB } : null,
  };
}
