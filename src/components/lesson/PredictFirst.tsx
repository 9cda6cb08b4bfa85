// "Predict first" for a lesson's steps (app/predict.ts): with the box ticked, a `Try:` step
// first asks which way the lesson's key figure will move; the step runs once the student has
// answered, and the answer — both runs' figures — is shown when the new run has arrived.
import { useEffect, useRef, useState } from 'react';
import type { LessonStep } from '../../app/lesson-steps';
import {
  GUESSES,
  guessWords,
  outcome,
  predictMetric,
  type Guess,
  type PredictMetric,
} from '../../app/predict';
import type { RunLog } from '../../worker/client';

interface Pending {
  step: LessonStep;
  metric: PredictMetric;
  before: number;
  beforeLog: RunLog;
  guess: Guess | null;
}

/** The state and the step handler: `wrap` turns the lesson's onStep into one that asks first. */
export function usePredictFirst(log: RunLog, lesson: unknown) {
  const [on, setOn] = useState(false);
  const [pending, setPending] = useState<Pending | null>(null);
  const wrap =
    (run: (s: LessonStep) => void) =>
    (step: LessonStep): void => {
      // a compare step shows both runs at once: nothing to predict across runs
      if (!on || step.compare) {
        setPending(null);
        run(step);
        return;
      }
      const metric = predictMetric(lesson);
      setPending({ step, metric, before: metric.value(log.summary), beforeLog: log, guess: null });
    };
  return { on, setOn, pending, setPending, wrap };
}

export function PredictFirst({
  state,
  log,
  run,
}: {
  state: ReturnType<typeof usePredictFirst>;
  log: RunLog;
  run: (s: LessonStep) => void;
}) {
  const { on, setOn, pending, setPending } = state;
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (pending && pending.guess === null) first.current?.focus();
  }, [pending]);
  const arrived = pending !== null && pending.guess !== null && log !== pending.beforeLog;
  const after = arrived ? pending.metric.value(log.summary) : 0;
  const moved = arrived ? outcome(pending.before, after) : null;
  const fmt = (x: number) => x.toLocaleString('en', { maximumFractionDigits: 1 });
  return (
    <div className="predict-first">
      <label className="small">
        <input type="checkbox" checked={on} onChange={(e) => setOn(e.target.checked)} /> Predict
        before each step
      </label>
      {pending && (
        <div role="group" aria-label="Predict first" className="predict-box">
          {pending.guess === null ? (
            <>
              <p>
                <b>{pending.step.label}</b> — before it runs: will {pending.metric.words} be higher,
                lower or about the same? (now {fmt(pending.before)} {pending.metric.unit})
              </p>
              {GUESSES.map((g, i) => (
                <button
                  key={g}
                  type="button"
                  ref={i === 0 ? first : undefined}
                  onClick={() => {
                    setPending({ ...pending, guess: g });
                    run(pending.step);
                  }}
                >
                  {guessWords(g)}
                </button>
              ))}{' '}
              <button type="button" onClick={() => setPending(null)}>
                Cancel
              </button>
            </>
          ) : !arrived ? (
            <p>You said {guessWords(pending.guess)}; the answer comes when the run has arrived.</p>
          ) : (
            <p role="status" data-testid="predict-answer">
              <b>{moved === pending.guess ? 'Right' : 'Not this time'}</b>: {pending.metric.words}{' '}
              went from {fmt(pending.before)} to {fmt(after)} {pending.metric.unit} (
              {guessWords(moved!)}
              ); you said {guessWords(pending.guess)}.{' '}
              <button type="button" onClick={() => setPending(null)}>
                Done
              </button>
            </p>
          )}
        </div>
      )}
    </div>
  );
}
