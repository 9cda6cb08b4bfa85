// The lesson beside the animation: its title, the disk it runs on, and its text — and, when
// the settings differ from the lesson's, what was changed (the text describes the lesson's
// own settings, so the student should know when the run on screen is not that). The text's
// `Try:` steps are buttons (lesson/LessonText.tsx); away from the lesson's own setup, a
// button goes back to it.
import type { RunOverrides } from '../app/config';
import type { RunLog } from '../worker/client';
import { playedPart } from '../app/window';
import { ioprioWords } from '../app/run-extras';
import { atLessonSetup } from '../app/lesson-steps';
import { LessonText, type StepContext } from './lesson/LessonText';
import { PredictFirst, usePredictFirst } from './lesson/PredictFirst';

/** The overrides in words, with Linux names: "I/O scheduler noop", "read_expire = 250". */
export function describeOverrides(o: RunOverrides, seed?: number): string[] {
  const out: string[] = [];
  if (o.sched !== undefined) out.push(`I/O scheduler ${o.sched}`);
  for (const [k, v] of Object.entries(o.tunables)) out.push(`${k} = ${v}`);
  if (o.kernel !== undefined) out.push(`kernel ${o.kernel}`);
  if (o.hz !== undefined) out.push(`HZ ${o.hz}`);
  for (const [k, v] of Object.entries(o.queue)) out.push(`${k} = ${v}`);
  if (o.disk !== undefined) out.push(`disk ${o.disk}`);
  if (o.qd !== undefined) out.push(`queue depth ${o.qd}`);
  if (o.dsched !== undefined) out.push(`drive scheduler ${o.dsched}`);
  if (o.cache !== undefined) out.push(`drive cache ${o.cache}`);
  if (o.pc !== undefined) out.push(o.pc > 0 ? `page cache ${o.pc} MiB` : 'no page cache');
  for (const [k, v] of Object.entries(o.gen)) out.push(`${k.replace('.', ' ')} ${v}`);
  if (o.ranges !== undefined) out.push(`range writes ${o.ranges ? 'on' : 'off'}`);
  for (const [i, p] of Object.entries(o.ioprio ?? {})) out.push(`process ${i} ${ioprioWords(p)}`);
  if (o.stop)
    out.push(o.stop.requests !== null ? `${o.stop.requests} requests` : `${o.stop.timeMs} ms`);
  if (seed !== undefined) out.push(`seed ${seed}`);
  return out;
}

export function LessonPanel({
  log,
  changes = [],
  folded = false,
  steps,
  onSetup,
  predict = false,
}: {
  log: Readonly<RunLog>;
  /** what the configuration changed from the lesson (describeOverrides) */
  changes?: readonly string[];
  /** quiz mode: the text may give the answers away, so it is behind a click */
  folded?: boolean;
  /** the steps' buttons run through this (absent: the steps are plain text) */
  steps?: StepContext;
  /** back to the lesson's own setup */
  onSetup?: () => void;
  /** offer "predict first" before a step (one run on screen, whose figure the next is held to) */
  predict?: boolean;
}) {
  const part = playedPart(log);
  const away = steps !== undefined && !atLessonSetup(steps.config);
  const guess = usePredictFirst(log, steps?.lesson);
  const ctx = steps && predict ? { ...steps, onStep: guess.wrap(steps.onStep) } : steps;
  const text = <LessonText source={log.lesson} ctx={ctx} />;
  return (
    <section className="lesson" aria-label="Lesson">
      <h2>{log.title}</h2>
      <p className="muted small">
        {log.geometry.title} · I/O scheduler <code>{log.summary.iosched}</code> · drive scheduler{' '}
        <code>{log.summary.diskScheduler}</code> · queue depth {log.summary.queueDepth} · seed{' '}
        {log.seed}
        {part ? ` · ${part}` : ''}
      </p>
      {changes.length > 0 && (
        <p className="changed-note small" data-testid="changed-note">
          Changed from the lesson: {changes.join(', ')}. The text below describes the lesson&apos;s
          own settings.
        </p>
      )}
      {steps && predict && <PredictFirst state={guess} log={log} run={steps.onStep} />}
      {away && onSetup && (
        <p className="lesson-setup">
          <button type="button" onClick={onSetup}>
            Back to the lesson&apos;s setup
          </button>
        </p>
      )}
      {/* the text scrolls: focusable, so a keyboard can scroll it (axe: scrollable-region) */}
      {folded ? (
        <details className="lesson-fold">
          <summary>Lesson text (it may give the quiz answers away)</summary>
          <div className="lesson-text" tabIndex={0}>
            {text}
          </div>
        </details>
      ) : (
        <div className="lesson-text" tabIndex={0}>
          {text}
        </div>
      )}
    </section>
  );
}
