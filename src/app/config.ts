// The laboratory's configuration: which lesson, and what the user changed on top of it.
// Pure data and pure functions (no DOM, no engine values): the page validates against the
// Catalog the worker sends (the engine's own tables), and the worker applies the overrides
// to the lesson's raw scenario JSON before the engine's loader checks it again.
//
//   LabConfig = lesson file + RunOverrides (one run) + compare columns (2–4 RunOverrides)
//               + which controls are hidden + presentation (presenter, embed, theme)
//
// An override left undefined means "as the lesson says": a link carries only what differs.

import { defaultKernelOf } from '../engine/iosched/blk-mq-only';
import {
  applyGenerators,
  applyPageCache,
  asObject,
  pageCacheMiB,
  type GeneratorInfo,
  type Json,
} from './workload-config';

export type { GeneratorInfo } from './workload-config';
export { lessonGenerators, lessonHasGenerators, PAGE_CACHE_CHOICES } from './workload-config';

/** One tunable as the settings panel shows it: the engine's TunableSpec made plain data
 * (its HZ-dependent default resolved for each HZ). */
export interface TunableInfo {
  /** the Linux sysfs name, e.g. "read_expire" */
  name: string;
  unit: 'ms' | 'us' | 'ns' | 'requests' | 'sectors' | 'bool' | 'count' | 'KiB';
  min: number;
  max: number;
  doc: string;
  /** the kernel default at each HZ, keyed by HZ */
  defaults: Record<number, number>;
}

export interface PresetInfo {
  name: string;
  title: string;
  maxQueueDepth: number;
  ssd: boolean;
}

/** What may be configured, read from the engine in the worker (sim.worker.ts catalog()). */
export interface Catalog {
  schedulers: Array<{ name: string; tunables: TunableInfo[] }>;
  queue: TunableInfo[];
  kernels: string[];
  hz: number[];
  presets: PresetInfo[];
  diskSchedulers: string[];
  /** the generators' named variants (engine GENERATOR_CHOICES) */
  generators: GeneratorInfo[];
}

/** What one run changes on top of its lesson; undefined = the lesson's own value. */
export interface RunOverrides {
  /** iosched.name */
  sched?: string;
  /** iosched.tunables (of the scheduler that runs) */
  tunables: Record<string, number>;
  /** iosched.queue: the request queue's sysfs settings */
  queue: Record<string, number>;
  kernel?: string;
  hz?: number;
  /** disk.preset */
  disk?: string;
  /** disk.queueDepth */
  qd?: number;
  /** disk.scheduler: the drive's own scheduler */
  dsched?: string;
  /** workload.pageCache: its memory in MiB (0: no page cache) */
  pc?: number;
  /** workload generators' keys, "kind.key" → value (e.g. "ffsb.profile" → "rand-read"),
   * applied to every process whose generator is of that kind */
  gen: Record<string, string>;
}

export type Theme = 'light' | 'dark';

/** Controls a teacher may hide (`_hide=`); each id names one visible piece of the page. */
export const HIDEABLE = [
  'lesson',
  'settings',
  'compare',
  'quiz',
  'share',
  'theme',
  'seed',
  'speed',
  'step',
  'scrubber',
  'decisions',
  'internals',
  'summary',
] as const;
export type Hideable = (typeof HIDEABLE)[number];

export interface LabConfig {
  /** a file in public/scenarios/ */
  lesson: string;
  /** undefined = the lesson's seed */
  seed?: number;
  run: RunOverrides;
  /** compare mode: 2 to 4 columns, each its own overrides on the same lesson; null = off */
  compare: RunOverrides[] | null;
  hide: Hideable[];
  present: boolean;
  embed: boolean;
  /** quiz mode: pause before each decision and ask which request goes next */
  quiz: boolean;
  /** undefined = follow prefers-color-scheme */
  theme?: Theme;
  /** start paused at this simulated time (ns); undefined = play from the start */
  atNs?: number;
  /** where the played window starts (ns of simulated time): the worker runs up to it
   * without recording and plays from there; undefined = where the lesson says
   * (its `play.fromMs`), else the run's start; 0 = the start, whatever the lesson says */
  fromNs?: number;
}

export const DEFAULT_LESSON = 'seek-rotate-transfer.json';
export const MIN_COLUMNS = 2;
export const MAX_COLUMNS = 4;

export function emptyOverrides(): RunOverrides {
  return { tunables: {}, queue: {}, gen: {} };
}

export function defaultConfig(): LabConfig {
  return {
    lesson: DEFAULT_LESSON,
    run: emptyOverrides(),
    compare: null,
    hide: [],
    present: false,
    embed: false,
    quiz: false,
  };
}

export function isEmptyOverrides(o: RunOverrides): boolean {
  return (
    o.sched === undefined &&
    o.kernel === undefined &&
    o.hz === undefined &&
    o.disk === undefined &&
    o.qd === undefined &&
    o.dsched === undefined &&
    o.pc === undefined &&
    Object.keys(o.tunables).length === 0 &&
    Object.keys(o.queue).length === 0 &&
    Object.keys(o.gen).length === 0
  );
}

// ---------------------------------------------------------------------------------------
// Applying overrides (the worker does this before loading the scenario)

/**
 * The lesson's raw scenario JSON with the overrides applied: a new object, the input
 * untouched. A different scheduler starts from its own defaults (the lesson's tunables
 * belong to the lesson's scheduler); the same scheduler keeps the lesson's tunables and
 * the overrides replace single values. The engine's loader validates the result.
 */
export function applyOverrides(raw: unknown, o: RunOverrides, seed?: number): unknown {
  const scenario: Json = structuredClone(asObject(raw));
  const disk: Json = { ...asObject(scenario.disk) };
  const iosched: Json = { ...asObject(scenario.iosched) };
  const lessonSched = typeof iosched.name === 'string' ? iosched.name : 'none';
  if (o.sched !== undefined && o.sched !== lessonSched) {
    iosched.name = o.sched;
    delete iosched.tunables;
  }
  if (Object.keys(o.tunables).length > 0) {
    iosched.tunables = { ...asObject(iosched.tunables), ...o.tunables };
  }
  if (Object.keys(o.queue).length > 0) {
    iosched.queue = { ...asObject(iosched.queue), ...o.queue };
  }
  if (o.kernel !== undefined) iosched.kernel = o.kernel;
  if (o.hz !== undefined) iosched.hz = o.hz;
  if (o.disk !== undefined) disk.preset = o.disk;
  if (o.qd !== undefined) disk.queueDepth = o.qd;
  if (o.dsched !== undefined) disk.scheduler = o.dsched;
  if (o.pc !== undefined) applyPageCache(scenario, o.pc);
  scenario.disk = disk;
  scenario.iosched = iosched;
  if (Object.keys(o.gen).length > 0) applyGenerators(scenario, o.gen);
  if (seed !== undefined) scenario.seed = seed;
  return scenario;
}

/** What a run actually uses, for the settings panel: the lesson's values under the
 * overrides. `lesson` is the lesson's raw JSON (as fetched). */
export interface Effective {
  sched: string;
  kernel: string;
  hz: number;
  disk: string;
  qd: number;
  dsched: string;
  /** the page cache's memory, MiB; 0 = none */
  pc: number;
  /** explicitly set tunables (lesson or override); the rest are at their defaults */
  tunables: Record<string, number>;
  queue: Record<string, number>;
}

export function effective(lesson: unknown, o: RunOverrides): Effective {
  const s = asObject(applyOverrides(lesson, o));
  const d = asObject(s.disk);
  const i = asObject(s.iosched);
  const nums = (v: unknown): Record<string, number> =>
    Object.fromEntries(
      Object.entries(asObject(v)).filter((e): e is [string, number] => typeof e[1] === 'number'),
    );
  return {
    sched: typeof i.name === 'string' ? i.name : 'none',
    // as the engine's loader: a blk-mq-only scheduler's kernel is 6.18 unless one is given
    kernel: typeof i.kernel === 'string' ? i.kernel : defaultKernelOf(i.name),
    hz: typeof i.hz === 'number' ? i.hz : 250,
    disk: typeof d.preset === 'string' ? d.preset : 'hp-c2247a',
    qd: typeof d.queueDepth === 'number' ? d.queueDepth : 1,
    dsched: typeof d.scheduler === 'string' ? d.scheduler : 'fcfs',
    pc: pageCacheMiB(asObject(s.workload).pageCache),
    tunables: nums(i.tunables),
    queue: nums(i.queue),
  };
}

// ---------------------------------------------------------------------------------------
// Checking values against the catalog (the settings panel's inline messages, and links)

/** A problem with one value, for a person: `where` names the setting as Linux does. */
export interface Problem {
  where: string;
  message: string;
}

const UNIT_WORDS: Record<TunableInfo['unit'], string> = {
  ms: 'ms',
  us: 'µs',
  ns: 'ns',
  requests: 'requests',
  sectors: 'sectors',
  bool: '(0 or 1)',
  count: '',
  KiB: 'KiB',
};

export function unitWord(unit: TunableInfo['unit']): string {
  return UNIT_WORDS[unit];
}

/** null when `value` is acceptable for the tunable, else the sentence to show. */
export function checkTunable(t: TunableInfo, value: number): string | null {
  if (!Number.isFinite(value)) return `${t.name} must be a number`;
  if (!Number.isInteger(value) && t.unit !== 'ms') return `${t.name} must be a whole number`;
  if (value < t.min || value > t.max) {
    const unit = t.unit === 'bool' ? '' : ` ${unitWord(t.unit)}`;
    return `${t.name} must be from ${t.min} to ${t.max}${unit}`.trimEnd();
  }
  return null;
}

/** The overrides with every value the catalog does not accept removed, and why. */
export function sanitizeOverrides(
  o: RunOverrides,
  catalog: Catalog,
  label = '',
): { overrides: RunOverrides; problems: Problem[] } {
  const problems: Problem[] = [];
  const at = (w: string) => (label ? `${label}: ${w}` : w);
  const out: RunOverrides = emptyOverrides();
  if (o.sched !== undefined) {
    if (catalog.schedulers.some((s) => s.name === o.sched)) out.sched = o.sched;
    else
      problems.push({
        where: at('scheduler'),
        message: `there is no I/O scheduler "${o.sched}"; available: ${catalog.schedulers.map((s) => s.name).join(', ')}`,
      });
  }
  if (o.kernel !== undefined) {
    if (catalog.kernels.includes(o.kernel)) out.kernel = o.kernel;
    else
      problems.push({
        where: at('kernel'),
        message: `must be one of ${catalog.kernels.join(', ')}`,
      });
  }
  if (o.hz !== undefined) {
    if (catalog.hz.includes(o.hz)) out.hz = o.hz;
    else problems.push({ where: at('HZ'), message: `must be one of ${catalog.hz.join(', ')}` });
  }
  let preset: PresetInfo | undefined;
  if (o.disk !== undefined) {
    preset = catalog.presets.find((p) => p.name === o.disk);
    if (preset) out.disk = o.disk;
    else
      problems.push({
        where: at('disk'),
        message: `there is no disk preset "${o.disk}"; available: ${catalog.presets.map((p) => p.name).join(', ')}`,
      });
  }
  if (o.qd !== undefined) {
    const max = preset?.maxQueueDepth ?? 64;
    if (Number.isInteger(o.qd) && o.qd >= 1 && o.qd <= max) out.qd = o.qd;
    else
      problems.push({
        where: at('queue depth'),
        message: `must be a whole number from 1 to ${max}`,
      });
  }
  if (o.dsched !== undefined) {
    if (catalog.diskSchedulers.includes(o.dsched)) out.dsched = o.dsched;
    else
      problems.push({
        where: at('drive scheduler'),
        message: `must be one of ${catalog.diskSchedulers.join(', ')}`,
      });
  }
  if (o.pc !== undefined) {
    if (Number.isInteger(o.pc) && o.pc >= 0 && o.pc <= 1048576) out.pc = o.pc;
    else
      problems.push({
        where: at('page cache'),
        message: 'must be a whole number of MiB from 0 (none) to 1048576',
      });
  }
  // Tunables belong to the scheduler that runs: without a scheduler override, to the
  // lesson's, which the worker checks (the catalog alone cannot know it); here, any
  // scheduler's table that has the name.
  const table = out.sched
    ? (catalog.schedulers.find((s) => s.name === out.sched)?.tunables ?? [])
    : catalog.schedulers.flatMap((s) => s.tunables);
  for (const [name, value] of Object.entries(o.tunables)) {
    const t = table.find((x) => x.name === name);
    if (!t) {
      problems.push({
        where: at(name),
        message: out.sched
          ? `"${out.sched}" has no tunable ${name}`
          : `no I/O scheduler has a tunable ${name}`,
      });
      continue;
    }
    const bad = checkTunable(t, value);
    if (bad) problems.push({ where: at(name), message: bad });
    else out.tunables[name] = value;
  }
  for (const [name, value] of Object.entries(o.queue)) {
    const t = catalog.queue.find((x) => x.name === name);
    const bad = t ? checkTunable(t, value) : `the request queue has no setting ${name}`;
    if (bad || !t) problems.push({ where: at(name), message: bad ?? '' });
    else out.queue[name] = value;
  }
  for (const [name, value] of Object.entries(o.gen)) {
    const g = catalog.generators.find((x) => `${x.kind}.${x.key}` === name);
    if (!g) problems.push({ where: at(name), message: `no workload generator has a key ${name}` });
    else if (!g.choices.includes(value))
      problems.push({ where: at(name), message: `must be one of ${g.choices.join(', ')}` });
    else out.gen[name] = value;
  }
  return { overrides: out, problems };
}

/** The whole configuration against the catalog and the lesson list: what is usable, and
 * a message for everything dropped (it falls back to the lesson's value). */
export function sanitizeConfig(
  c: LabConfig,
  catalog: Catalog,
  lessons: readonly string[],
): { config: LabConfig; problems: Problem[] } {
  const problems: Problem[] = [];
  let lesson = c.lesson;
  if (lessons.length > 0 && !lessons.includes(lesson)) {
    problems.push({ where: 'lesson', message: `there is no lesson "${lesson}"` });
    lesson = DEFAULT_LESSON;
  }
  const run = sanitizeOverrides(c.run, catalog);
  problems.push(...run.problems);
  const compare = c.compare?.map((col, i) => {
    const r = sanitizeOverrides(col, catalog, `column ${i + 1}`);
    problems.push(...r.problems);
    return r.overrides;
  });
  return {
    config: { ...c, lesson, run: run.overrides, compare: compare ?? null },
    problems,
  };
}

/** Compare mode's first two columns: what runs now, and the same under another scheduler. */
export function startCompare(c: LabConfig, lesson: unknown): LabConfig {
  const now = effective(lesson, c.run);
  const other = now.sched === 'deadline' ? 'noop' : 'deadline';
  return { ...c, compare: [c.run, { ...emptyOverrides(), ...c.run, sched: other, tunables: {} }] };
}
