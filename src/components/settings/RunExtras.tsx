// The settings panel's fields for run-extras.ts: the drive's write policy (in "Disk"), range
// writes and each process's I/O priority ("Processes"), the run's length ("Run"). Their
// draft lives in the panel's draft (keys below); `write` adds what differs from the lesson
// to the overrides the panel applies.
import type { RunOverrides } from '../../app/config';
import {
  checkStop,
  IOPRIO_CLASSES,
  lessonRanges,
  lessonPriorities,
  lessonStop,
  WRITE_POLICIES,
  type IoprioClass,
  type StopOverride,
  type WritePolicyName,
} from '../../app/run-extras';
import { Choice } from './Choice';

type Draft = Record<string, string>;
type Unit = 'requests' | 'ms';

const CLASS_WORDS: Record<IoprioClass, string> = {
  rt: 'real time',
  be: 'best effort',
  idle: 'idle',
};

export interface RunExtras {
  cacheLesson: WritePolicyName | null;
  cache: (presetPolicy: WritePolicyName | undefined) => string;
  rangesLesson: 'on' | 'off' | null;
  ranges: string;
  procs: Array<{
    name: string;
    cls: string;
    level: string;
    lessonCls: string;
    lessonLevel: string;
  }>;
  stopLesson: StopOverride | null;
  stopText: string;
  stopUnit: Unit;
  errors: Record<string, string>;
  set: (key: string, value: string) => void;
  write: (o: RunOverrides, presetPolicy: WritePolicyName | undefined) => void;
}

const unitOf = (s: StopOverride): Unit => (s.requests !== null ? 'requests' : 'ms');
const amountOf = (s: StopOverride): number => s.requests ?? s.timeMs ?? 0;

/** The extra fields' values: the draft over the overrides over the lesson. */
export function runExtras(
  lesson: unknown,
  overrides: RunOverrides,
  draft: Draft,
  set: (key: string, value: string) => void,
): RunExtras {
  const raw = lesson as { disk?: { cache?: unknown } } | null;
  const cacheLesson = (WRITE_POLICIES as readonly unknown[]).includes(raw?.disk?.cache)
    ? (raw!.disk!.cache as WritePolicyName)
    : null;
  const lessonProcs = lessonPriorities(lesson);
  const procs = lessonProcs.map((p, i) => {
    const o = overrides.ioprio?.[String(i)] ?? p.ioprio;
    return {
      name: p.name,
      cls: draft[`io.${i}.class`] ?? o.class,
      level: draft[`io.${i}.level`] ?? String(o.level),
      lessonCls: p.ioprio.class,
      lessonLevel: String(p.ioprio.level),
    };
  });
  const stopLesson = lessonStop(lesson);
  const stopNow = overrides.stop ?? stopLesson;
  const stopUnit = (draft['stop.unit'] as Unit | undefined) ?? (stopNow ? unitOf(stopNow) : 'ms');
  const stopText = draft['stop.n'] ?? (stopNow ? String(amountOf(stopNow)) : '');
  const stopValue = (): StopOverride =>
    stopUnit === 'requests'
      ? { requests: Number(stopText), timeMs: null }
      : { requests: null, timeMs: Number(stopText) };
  const errors: Record<string, string> = {};
  if (stopLesson) {
    const bad = stopText.trim() === '' ? "the run's length needs a value" : checkStop(stopValue());
    if (bad) errors.stop = bad;
  }
  const cache = (presetPolicy: WritePolicyName | undefined) =>
    draft.cache ?? overrides.cache ?? cacheLesson ?? presetPolicy ?? 'write-through';
  /** the lesson's range writes ('on' / 'off'), or null where the setting does not apply */
  const rangesLesson = lessonRanges(lesson);
  const ranges =
    draft.ranges ??
    (overrides.ranges === undefined ? (rangesLesson ?? 'off') : overrides.ranges ? 'on' : 'off');

  function write(o: RunOverrides, presetPolicy: WritePolicyName | undefined) {
    const c = cache(presetPolicy);
    if (c !== (cacheLesson ?? presetPolicy)) o.cache = c as WritePolicyName;
    if (rangesLesson !== null && ranges !== rangesLesson) o.ranges = ranges === 'on';
    procs.forEach((p, i) => {
      if (p.cls !== p.lessonCls || p.level !== p.lessonLevel)
        (o.ioprio ??= {})[String(i)] = { class: p.cls as IoprioClass, level: Number(p.level) };
    });
    if (stopLesson) {
      const s = stopValue();
      if (unitOf(s) !== unitOf(stopLesson) || amountOf(s) !== amountOf(stopLesson)) o.stop = s;
    }
  }

  return {
    cacheLesson,
    cache,
    rangesLesson,
    ranges,
    procs,
    stopLesson,
    stopText,
    stopUnit,
    errors,
    set,
    write,
  };
}

export function RunExtraFields({
  extras: x,
  uid,
  part,
  presetPolicy,
}: {
  extras: RunExtras;
  uid: string;
  part: 'disk' | 'processes' | 'run';
  presetPolicy?: WritePolicyName;
}) {
  if (part === 'disk') {
    const lessonValue = x.cacheLesson ?? presetPolicy ?? 'write-through';
    return (
      <Choice
        id={`${uid}-cache`}
        label="drive cache"
        hint="write-through: a write is done when it is on the platter; write-back: once it is in the drive's buffer (disk.cache)"
        value={x.cache(presetPolicy)}
        options={WRITE_POLICIES}
        lessonValue={lessonValue}
        onChange={(v) => x.set('cache', v)}
      />
    );
  }
  if (part === 'processes') {
    return (
      <fieldset className="processes">
        <legend>Processes</legend>
        {x.rangesLesson !== null && (
          <Choice
            id={`${uid}-ranges`}
            label="range writes"
            hint={
              x.rangesLesson === 'on'
                ? 'off: each range write becomes an ordinary write to the next block of its span (range = null, pattern sequential)'
                : 'on: each random write may go to any free 4 KiB block of its span, where the drive chooses (range.sizeSectors = the span; the block layer must be none)'
            }
            value={x.ranges}
            options={['on', 'off']}
            lessonValue={x.rangesLesson}
            onChange={(v) => x.set('ranges', v)}
          />
        )}
        <p className="muted small">
          I/O priority (<code>ionice</code>): CFQ scales a process&apos;s time slice by its
          best-effort level (0 highest, 7 lowest) and serves the idle class only when nobody else
          wants the disk; the other schedulers ignore it.
        </p>
        {x.procs.map((p, i) => (
          <div className="ioprio-row" key={i}>
            <Choice
              id={`${uid}-io-${i}-class`}
              label={`${p.name}: I/O class`}
              value={p.cls}
              options={IOPRIO_CLASSES}
              labels={CLASS_WORDS}
              lessonValue={p.lessonCls}
              onChange={(v) => x.set(`io.${i}.class`, v)}
            />
            <Choice
              id={`${uid}-io-${i}-level`}
              label={`${p.name}: I/O level`}
              value={p.level}
              options={['0', '1', '2', '3', '4', '5', '6', '7']}
              lessonValue={p.lessonLevel}
              onChange={(v) => x.set(`io.${i}.level`, v)}
            />
          </div>
        ))}
      </fieldset>
    );
  }
  if (!x.stopLesson) return null;
  const lessonText = `${amountOf(x.stopLesson)} ${unitOf(x.stopLesson)}`;
  const nowText = `${x.stopText} ${x.stopUnit}`;
  const err = x.errors.stop;
  return (
    <fieldset>
      <legend>Run</legend>
      <div className={`field${nowText !== lessonText ? ' changed' : ''}`}>
        <label htmlFor={`${uid}-stop`}>run length</label>
        <span className="run-length">
          <input
            id={`${uid}-stop`}
            type="number"
            inputMode="decimal"
            min={1}
            step="any"
            value={x.stopText}
            aria-invalid={err ? true : undefined}
            aria-describedby={`${uid}-stop-hint${err ? ` ${uid}-stop-err` : ''}`}
            onChange={(e) => x.set('stop.n', e.target.value)}
          />
          <select
            aria-label="run length unit"
            value={x.stopUnit}
            onChange={(e) => x.set('stop.unit', e.target.value)}
          >
            <option value="requests">requests</option>
            <option value="ms">ms</option>
          </select>
        </span>
        <span className="hint" id={`${uid}-stop-hint`}>
          requests completed or ms of simulated time (stop.requests, stop.timeMs)
          {nowText !== lessonText && ` · lesson: ${lessonText}`}
        </span>
        {err && (
          <p className="field-error" id={`${uid}-stop-err`}>
            {err}
          </p>
        )}
      </div>
    </fieldset>
  );
}
