// A lesson's steps (issue #16 item 1): each experiment the text proposes is written in it as
// a link `[Try: deadline instead of noop](?sched=deadline)` whose target is the part of a
// page link that differs from the lesson (url-state.ts keys: run settings, `seed=`, compare
// columns `cmp=2&c1.…&c2.…`). The page draws it as a button that runs exactly that — the
// lesson's own setup plus the step's changes, nothing carried over from the step before — so
// every step is a link of its own; the terminal line for it is cli-command.ts's.
// Pure functions; no DOM.
import { isEmptyOverrides, startCompare, type LabConfig, type RunOverrides } from './config';
import type { Problem } from './config-check';
import { parseUrlState } from './url-state';

/** `[Try: …](?…)`: the label (starting "Try:") and the query. */
export const STEP_LINK = /\[(Try:[^\]]+)\]\((\?[^)\s]*)\)/g;

export interface LessonStep {
  label: string;
  /** the query as written, "?sched=deadline" */
  query: string;
  run: RunOverrides;
  seed?: number;
  /** compare columns, or null for one run */
  compare: RunOverrides[] | null;
  problems: Problem[];
}

/** Keys a step may not carry: it changes the run, not the page (lesson, modes, time). */
const NOT_IN_STEPS = /(^|&)(v|lesson|_hide|present|embed|quiz|theme|at|from)=/;

export function parseStep(label: string, query: string): LessonStep {
  const problems: Problem[] = [];
  if (NOT_IN_STEPS.test(query.slice(1)))
    problems.push({
      where: label,
      message: 'a step changes the run only (no lesson, mode or time)',
    });
  const parsed = parseUrlState(query);
  problems.push(
    ...parsed.problems.map((p) => ({ where: `${label}: ${p.where}`, message: p.message })),
  );
  const c = parsed.config;
  return {
    label,
    query,
    run: c.run,
    ...(c.seed !== undefined ? { seed: c.seed } : {}),
    compare: c.compare,
    problems,
  };
}

/** Every step of a lesson text, in order. */
export function lessonSteps(text: string): LessonStep[] {
  return [...text.matchAll(STEP_LINK)].map((m) => parseStep(m[1]!, m[2]!));
}

/** The configuration a step runs: the lesson's setup with the step's changes. The page's
 * modes (presenter, quiz, theme, hidden controls) stay; the played window is the lesson's. */
export function applyStep(c: LabConfig, step: LessonStep): LabConfig {
  return {
    ...c,
    run: structuredClone(step.run),
    seed: step.seed,
    compare: step.compare ? structuredClone(step.compare) : null,
    fromNs: undefined,
    atNs: undefined,
  };
}

/** The lesson's own setup: no overrides, its seed, no compare. */
export function lessonSetup(c: LabConfig): LabConfig {
  return {
    ...c,
    run: { tunables: {}, queue: {}, gen: {} },
    seed: undefined,
    compare: null,
    fromNs: undefined,
    atNs: undefined,
  };
}

/** Whether the page runs the lesson's own setup. */
export function atLessonSetup(c: LabConfig): boolean {
  return isEmptyOverrides(c.run) && c.seed === undefined && c.compare === null;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Whether the configuration is this step's (the step's button shows it is on screen). */
export function isStepOn(c: LabConfig, step: LessonStep): boolean {
  const norm = (o: RunOverrides) => JSON.stringify(sortKeys(o));
  return (
    norm(c.run) === norm(step.run) &&
    c.seed === step.seed &&
    same(c.compare?.map((o) => norm(o)) ?? null, step.compare?.map((o) => norm(o)) ?? null)
  );
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v !== null && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>)
        .filter(([, x]) => x !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, x]) => [k, sortKeys(x)]),
    );
  return v;
}

/** The lesson's comparison: its first step that opens compare, if any (the Compare button
 * starts from it). */
export function lessonComparison(text: string): RunOverrides[] | null {
  return lessonSteps(text).find((s) => s.compare !== null)?.compare ?? null;
}

/** Compare mode's first columns: the lesson's own comparison when it has one, else what runs
 * now beside another I/O scheduler (config.ts startCompare). */
export function startLessonCompare(c: LabConfig, lesson: unknown): LabConfig {
  const text = (lesson as { lesson?: unknown } | null)?.lesson;
  const own = typeof text === 'string' ? lessonComparison(text) : null;
  return own ? { ...c, compare: structuredClone(own) } : startCompare(c, lesson);
}

/** What a lesson text's step buttons need (components/lesson/LessonText.tsx). */
export interface StepContext {
  config: LabConfig;
  /** the lesson's file and raw JSON, for the terminal lines */
  file: string;
  lesson: unknown;
  onStep: (step: LessonStep) => void;
}

/** The step buttons' context; `run` applies a change to the configuration as a fresh run. */
export function stepContext(
  config: LabConfig,
  lesson: unknown,
  run: (change: (c: LabConfig) => LabConfig) => void,
): StepContext {
  return { config, file: config.lesson, lesson, onStep: (s) => run((c) => applyStep(c, s)) };
}
