// The run settings that lessons talk about beyond the scheduler and the disk (issue #16 item
// 1): the drive's write policy (disk.cache), range writes off or on (a process's `range`), each
// process's CFQ I/O priority (ioprio class and level) and the run's length (stop.requests or
// stop.timeMs). How each is written into a lesson's raw scenario, and how each is checked.
// Pure data and functions; the engine's loader validates the result again.
import { asObject, type Json } from './workload-config';

/** The drive's write policies (engine disk/params.ts WritePolicy). */
export const WRITE_POLICIES = ['write-through', 'write-back'] as const;
export type WritePolicyName = (typeof WRITE_POLICIES)[number];

/** CFQ's I/O priority classes (ioprio_set(2): real time, best effort, idle). */
export const IOPRIO_CLASSES = ['rt', 'be', 'idle'] as const;
export type IoprioClass = (typeof IOPRIO_CLASSES)[number];
export interface Ioprio {
  class: IoprioClass;
  /** 0 (highest) to 7 */
  level: number;
}
/** a process with no ioprio runs as best effort, level 4 (the kernel's default for nice 0) */
export const DEFAULT_IOPRIO: Ioprio = { class: 'be', level: 4 };

/** The overrides' fields this module owns (config.ts RunOverrides). */
export interface Extras {
  cache?: WritePolicyName;
  ranges?: boolean;
  ioprio?: Record<string, Ioprio>;
  stop?: StopOverride;
}

/** The run's length: exactly one of the two is a number. */
export type StopOverride = { requests: number; timeMs: null } | { requests: null; timeMs: number };
export const MAX_STOP_REQUESTS = 1_000_000;
/** an hour of simulated time */
export const MAX_STOP_MS = 3_600_000;

/** The processes' lists of a raw scenario ([] when it has none). */
function processesOf(scenario: Json): Json[] {
  const p = asObject(scenario.workload).processes;
  return Array.isArray(p) ? (p as unknown[]).map(asObject) : [];
}

/** Whether a process of the lesson makes range writes of its own (`range`), which
 * `ranges: false` turns into the ordinary sequential writes of the same span. */
export function lessonHasRanges(lesson: unknown): boolean {
  return processesOf(asObject(lesson)).some((p) => p.range !== undefined && p.range !== null);
}

/** A process that could make range writes and makes none: it writes (op write or mix) at
 * random places of a span of its own, no fixed request list, no generator. */
export function couldRange(p: Json): boolean {
  const span = asObject(p.span);
  return (
    (p.range === undefined || p.range === null) &&
    (p.op === 'write' || p.op === 'mix') &&
    p.pattern === 'random' &&
    typeof span.sectors === 'number' &&
    (p.requests === undefined || p.requests === null) &&
    (p.generator === undefined || p.generator === null)
  );
}

/** What range writes are in the lesson, as the settings offer them: 'on' (a process makes
 * them: they can be turned off), 'off' (a process writes at random in a span and could make
 * them: they can be turned on), null (neither: no such setting). */
export function lessonRanges(lesson: unknown): 'on' | 'off' | null {
  if (lessonHasRanges(lesson)) return 'on';
  return processesOf(asObject(lesson)).some(couldRange) ? 'off' : null;
}

/** Range writes on: each random write of a process that makes none may land on any free
 * 4 KiB block of its span — one range, the whole span (range.sizeSectors = its sectors, the
 * engine's defaults otherwise), as `spindle range-sweep group` writes a block group. */
export function applyRangesOn(scenario: Json): void {
  const workload = asObject(scenario.workload);
  const procs = processesOf(scenario);
  if (!procs.some(couldRange))
    throw new Error(
      'range writes: no process of this lesson writes at random within a span of its own',
    );
  scenario.workload = {
    ...workload,
    processes: procs.map((p) =>
      couldRange(p) ? { ...p, range: { sizeSectors: asObject(p.span).sectors } } : p,
    ),
  };
}

/** The lesson's processes with their names and I/O priorities (the default where none). */
export function lessonPriorities(lesson: unknown): Array<{ name: string; ioprio: Ioprio }> {
  return processesOf(asObject(lesson)).map((p, i) => {
    const io = asObject(p.ioprio);
    const cls = (IOPRIO_CLASSES as readonly unknown[]).includes(io.class)
      ? (io.class as IoprioClass)
      : DEFAULT_IOPRIO.class;
    const level = typeof io.level === 'number' ? io.level : DEFAULT_IOPRIO.level;
    return {
      name: typeof p.name === 'string' ? p.name : `process ${i}`,
      ioprio: { class: cls, level },
    };
  });
}

/** The lesson's stop as the settings show it (null: a fixed request list ends by itself). */
export function lessonStop(lesson: unknown): StopOverride | null {
  const s = asObject(asObject(lesson).stop);
  if (typeof s.requests === 'number') return { requests: s.requests, timeMs: null };
  if (typeof s.timeMs === 'number') return { requests: null, timeMs: s.timeMs };
  return null;
}

/** Range writes off: each process's range becomes an ordinary sequential write over its
 * span (the journal's plain log), as the lessons' `--set …range=null --set …pattern=sequential`. */
export function applyRangesOff(scenario: Json): void {
  const workload = asObject(scenario.workload);
  const procs = processesOf(scenario);
  if (!procs.some((p) => p.range !== undefined && p.range !== null))
    throw new Error('range writes: no process of this lesson makes range writes of its own');
  scenario.workload = {
    ...workload,
    processes: procs.map((p) =>
      p.range !== undefined && p.range !== null ? { ...p, range: null, pattern: 'sequential' } : p,
    ),
  };
}

/** Each process's priority by its index; an index the lesson lacks is an error naming it. */
export function applyIoprio(scenario: Json, ioprio: Record<string, Ioprio>): void {
  const workload = asObject(scenario.workload);
  const procs = processesOf(scenario);
  for (const key of Object.keys(ioprio)) {
    const i = Number(key);
    if (!Number.isInteger(i) || i < 0 || i >= procs.length)
      throw new Error(
        `io.${key}: the lesson has no process ${key} (it has ${procs.length}, numbered from 0)`,
      );
  }
  scenario.workload = {
    ...workload,
    processes: procs.map((p, i) =>
      ioprio[i] ? { ...p, ioprio: { class: ioprio[i].class, level: ioprio[i].level } } : p,
    ),
  };
}

/** The run's length replaces the lesson's stop whole. */
export function applyStop(scenario: Json, stop: StopOverride): void {
  scenario.stop = stop.requests !== null ? { requests: stop.requests } : { timeMs: stop.timeMs };
}

/** null when acceptable, else the sentence to show. */
export function checkIoprio(p: Ioprio): string | null {
  if (!(IOPRIO_CLASSES as readonly string[]).includes(p.class))
    return `the class must be one of ${IOPRIO_CLASSES.join(', ')}`;
  if (!Number.isInteger(p.level) || p.level < 0 || p.level > 7)
    return 'the level must be a whole number from 0 to 7';
  return null;
}

export function checkStop(s: StopOverride): string | null {
  if (s.requests !== null) {
    return Number.isInteger(s.requests) && s.requests >= 1 && s.requests <= MAX_STOP_REQUESTS
      ? null
      : `the run's length must be a whole number of requests from 1 to ${MAX_STOP_REQUESTS.toLocaleString('en')}`;
  }
  return Number.isFinite(s.timeMs) && s.timeMs > 0 && s.timeMs <= MAX_STOP_MS
    ? null
    : `the run's length must be a time from more than 0 to ${MAX_STOP_MS.toLocaleString('en')} ms`;
}

/** "be.4" ↔ {class, level}: the link's form of a priority. */
export function ioprioText(p: Ioprio): string {
  return `${p.class}.${p.level}`;
}
export function parseIoprio(text: string): Ioprio | null {
  const m = /^(rt|be|idle)\.([0-7])$/.exec(text);
  return m ? { class: m[1] as IoprioClass, level: Number(m[2]) } : null;
}

/** A priority in words, as ionice says it: "best-effort level 4", "idle". */
export function ioprioWords(p: Ioprio): string {
  if (p.class === 'idle') return 'idle';
  return `${p.class === 'rt' ? 'real-time' : 'best-effort'} level ${p.level}`;
}

/** Copy the acceptable extras of `o` into `out`; report each refused one. */
export function sanitizeExtras(
  o: Extras,
  out: Extras,
  problem: (where: string, message: string) => void,
): void {
  if (o.cache !== undefined) {
    if ((WRITE_POLICIES as readonly string[]).includes(o.cache)) out.cache = o.cache;
    else problem('drive cache', `must be one of ${WRITE_POLICIES.join(', ')}`);
  }
  if (o.ranges !== undefined) {
    if (typeof o.ranges === 'boolean') out.ranges = o.ranges;
    else problem('range writes', 'must be ranges=0 (off) or ranges=1 (on)');
  }
  for (const [i, p] of Object.entries(o.ioprio ?? {})) {
    const bad = checkIoprio(p);
    if (bad) problem(`process ${i} I/O priority`, bad);
    else (out.ioprio ??= {})[i] = p;
  }
  if (o.stop !== undefined) {
    const bad = checkStop(o.stop);
    if (bad) problem("run's length", bad);
    else out.stop = o.stop;
  }
}
