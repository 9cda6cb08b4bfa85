// The laboratory's configuration: which lesson, and what the user changed on top of it.
// Pure data and pure functions (no DOM, no engine values): the page validates against the
// Catalog the worker sends (the engine's own tables), and the worker applies the overrides
// to the lesson's raw scenario JSON before the engine's loader checks it again.
//
//   LabConfig = lesson file + RunOverrides (one run) + compare columns (2–4 RunOverrides)
//               + which controls are hidden + presentation (presenter, embed, theme)
//
// An override left undefined means "as the lesson says": a link carries only what differs.

import type { Unapplied } from '../engine/disk/disksim/block-reader';
import { defaultKernelOf } from '../engine/iosched/blk-mq-only';
import {
  applyGenerators,
  applyPageCache,
  asObject,
  pageCacheMiB,
  type GeneratorInfo,
  type Json,
} from './workload-config';
import {
  applyIoprio,
  applyRangesOff,
  applyRangesOn,
  applyStop,
  WRITE_POLICIES,
  type Ioprio,
  type StopOverride,
  type WritePolicyName,
} from './run-extras';

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
  /** the drive's own write policy (disk.cache overrides it) */
  writePolicy: WritePolicyName;
  /** a disk the user opened from DiskSim files (its name begins "file:") */
  file?: UserDiskInfo;
}

/** A disk the user opened from a DiskSim .parv and the files it sources (worker/disk-files.ts). */
export interface UserDiskInfo {
  /** "file:<parv base name>" */
  name: string;
  /** the .parv's path among the files opened */
  parv: string;
  /** the disk's type name in the .parv, e.g. "HP_C2247A_validate" */
  diskType: string;
  /** every file the reader read, the .parv first */
  files: string[];
  /** DiskSim's scheduler for it, as Spindle's name (null: one Spindle has not) */
  scheduler: string | null;
  /** parameters Spindle does not apply, with file and line (never dropped silently) */
  unapplied: Unapplied[];
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
  /** disk.cache: the drive's write policy */
  cache?: WritePolicyName;
  /** false: the processes' range writes become ordinary sequential writes; true: a lesson's
   * random writes within a span become range writes over it (run-extras.ts) */
  ranges?: boolean;
  /** workload.processes[i].ioprio, keyed by the process's index */
  ioprio?: Record<string, Ioprio>;
  /** the run's length: stop.requests or stop.timeMs, replacing the lesson's */
  stop?: StopOverride;
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
    o.cache === undefined &&
    o.ranges === undefined &&
    o.stop === undefined &&
    Object.keys(o.ioprio ?? {}).length === 0 &&
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
  if (o.cache !== undefined) disk.cache = o.cache;
  if (o.pc !== undefined) applyPageCache(scenario, o.pc);
  scenario.disk = disk;
  scenario.iosched = iosched;
  if (Object.keys(o.gen).length > 0) applyGenerators(scenario, o.gen);
  if (o.ranges === false) applyRangesOff(scenario);
  if (o.ranges === true) applyRangesOn(scenario);
  if (o.ioprio && Object.keys(o.ioprio).length > 0) applyIoprio(scenario, o.ioprio);
  if (o.stop) applyStop(scenario, o.stop);
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
  /** the drive's write policy; null = the preset's own */
  cache: WritePolicyName | null;
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
    cache: (WRITE_POLICIES as readonly unknown[]).includes(d.cache)
      ? (d.cache as WritePolicyName)
      : null,
    pc: pageCacheMiB(asObject(s.workload).pageCache),
    tunables: nums(i.tunables),
    queue: nums(i.queue),
  };
}

/** Compare mode's first two columns: what runs now, and the same under another scheduler. */
export function startCompare(c: LabConfig, lesson: unknown): LabConfig {
  const now = effective(lesson, c.run);
  const other = now.sched === 'deadline' ? 'noop' : 'deadline';
  return { ...c, compare: [c.run, { ...emptyOverrides(), ...c.run, sched: other, tunables: {} }] };
}
