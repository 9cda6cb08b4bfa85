// Quiz mode's question: before a decision with a real choice, which request goes next?
// The candidates are buttons (in request order, so their order gives nothing away); after a
// click, the scheduler's own choice with its rule and sentence, each loser's reason or the
// drive's estimate, and the score. Continue plays on to the next question. A decision at the
// played window's first instant (disk.py's choice at t = 0) cannot be stopped before: while it
// is asked, the disk, queues and decision log are veiled (they already show the outcome).
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { DecisionRecord } from '../../engine';
import { answer, isVeiled, proceed, totalTimeRight } from '../../app/quiz';
import type { Replay } from '../../app/replay';
import { useStore, type Store } from '../../app/store';
import { formatNs } from '../format';
import { RequestChip } from '../RequestChip';

interface Props {
  replay: Replay;
  store: Store;
  decisions: readonly DecisionRecord[];
  /** a fixed request list: also ask for the run's total time (disk.py's -c question) */
  askTotal?: boolean;
}

export function QuizPanel({ replay, store, decisions, askTotal = false }: Props) {
  const quiz = useStore(store, (s) => s.quiz ?? null);
  const first = useRef<HTMLButtonElement>(null);
  const cont = useRef<HTMLButtonElement>(null);
  const asking = quiz?.asking ?? null;
  const picked = quiz?.picked ?? null;
  const tNs = useStore(store, (s) => s.tNs);
  useEffect(() => {
    if (asking !== null && picked === null) first.current?.focus();
    else if (asking !== null) cont.current?.focus();
  }, [asking, picked]);
  if (!quiz) return null;
  const d = asking !== null ? decisions[asking] : undefined;
  const veiled = isVeiled(quiz, d, tNs);
  const who =
    d?.layer === 'disk'
      ? `the drive (${replay.log.summary.diskScheduler})`
      : `the I/O scheduler (${replay.log.summary.iosched})`;
  const describe = (rq: number) => {
    const q = replay.requests.get(rq);
    if (!q) return `request ${rq}`;
    const proc = replay.log.processes[q.proc] ?? `process ${q.proc}`;
    return `${proc}, ${q.write ? 'write' : 'read'} at sector ${q.sector}, cylinder ${q.cylinder}, head ${q.head}`;
  };
  return (
    <section className="quiz" aria-label="Quiz" data-veiled={veiled || undefined}>
      <h2>
        Quiz{' '}
        <small data-testid="quiz-score">
          {quiz.right} of {quiz.asked} right
        </small>
      </h2>
      {askTotal && <TotalTime replay={replay} store={store} />}
      {!d ? (
        <p className="muted">
          {quiz.next >= decisions.length && decisions.length > 0
            ? 'No more decisions to guess in this run.'
            : decisions.length === 0
              ? 'This run makes no decision with a choice (every time, one request was ready).'
              : 'Play: the simulation stops before each decision with a choice and asks which request goes next.'}
        </p>
      ) : (
        <>
          <p>
            At {formatNs(d.tNs)}, which request does {who} send next?
          </p>
          {veiled && (
            <p className="muted small" data-testid="quiz-veil">
              The disk, the queues and the decision log are hidden until you answer: at this instant
              they already show what was sent.
            </p>
          )}
          <ul className="quiz-candidates">
            {[...d.candidates]
              .sort((a, b) => a.rq - b.rq)
              .map((c, i) => {
                const q = replay.requests.get(c.rq);
                const state =
                  picked === null
                    ? ''
                    : c.rq === d.chosen
                      ? 'chosen'
                      : c.rq === picked
                        ? 'wrong'
                        : 'loser';
                return (
                  <li key={c.rq} className={state}>
                    <button
                      type="button"
                      ref={i === 0 ? first : undefined}
                      disabled={picked !== null}
                      aria-label={`Request ${c.rq}: ${describe(c.rq)}`}
                      onClick={() => store.set({ quiz: answer(store.get().quiz ?? quiz, d, c.rq) })}
                    >
                      <RequestChip id={c.rq} q={q} /> {describe(c.rq)}
                    </button>
                    {picked !== null && (
                      <span className="reason">
                        {c.rq === d.chosen ? ' ✔ chosen' : ''}
                        {c.estimateNs !== null && ` · estimate ${formatNs(c.estimateNs)}`}
                        {c.note && ` · ${c.note}`}
                      </span>
                    )}
                  </li>
                );
              })}
          </ul>
          {picked !== null && (
            <div className="quiz-reveal" role="status">
              <p>
                <b>{picked === d.chosen ? 'Right.' : `Not this time: it sent #${d.chosen}.`}</b>{' '}
                Rule <code>{d.rule}</code>
                {d.text ? `: ${d.text}` : ''}
              </p>
              <button
                type="button"
                ref={cont}
                className="primary"
                onClick={() =>
                  store.set({ quiz: proceed(store.get().quiz ?? quiz), playing: true })
                }
              >
                Continue
              </button>
            </div>
          )}
        </>
      )}
    </section>
  );
}

/** "What is the total time?" — answered before watching, revealed at the end of the run
 * (or on request); right within 10%. */
function TotalTime({ replay, store }: { replay: Replay; store: Store }) {
  const ended = useStore(store, (s) => s.tNs >= replay.log.endNs);
  const [text, setText] = useState('');
  const [guess, setGuess] = useState<number | null>(null);
  const [shown, setShown] = useState(false);
  const actualMs = replay.log.endNs / 1e6;
  const reveal = guess !== null && (ended || shown);
  const input = useRef<HTMLInputElement>(null);
  // Scored when the answer is shown (at the end, or on "Reveal now"), as the page says.
  const scored = useRef(false);
  useEffect(() => {
    if (!reveal || guess === null || scored.current) return;
    scored.current = true;
    const q = store.get().quiz;
    if (q)
      store.set({
        quiz: {
          ...q,
          asked: q.asked + 1,
          right: q.right + (totalTimeRight(guess, actualMs) ? 1 : 0),
        },
      });
  }, [reveal, guess, actualMs, store]);
  // The run waits for the guess: watching it would give the answer away.
  useEffect(() => {
    store.set({ playing: false, tNs: replay.log.fromNs });
    input.current?.focus();
  }, [store, replay]);
  const invalid = text.trim() !== '' && !(Number(text) > 0);

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const g = Number(text);
    if (!(g > 0) || guess !== null) return;
    setGuess(g);
    store.set({ playing: true });
  }

  return (
    <div className="quiz-total">
      {guess === null ? (
        <form onSubmit={submit}>
          <label htmlFor="quiz-total">
            How long will the whole request list take, in ms (from the first request to the last
            completion)? The run starts when you answer.
          </label>{' '}
          <input
            id="quiz-total"
            ref={input}
            type="number"
            min={0}
            step="any"
            value={text}
            aria-invalid={invalid || undefined}
            aria-describedby={invalid ? 'quiz-total-err' : undefined}
            onChange={(e) => setText(e.target.value)}
          />{' '}
          <button type="submit">Answer</button>
          {invalid && (
            <p className="field-error" id="quiz-total-err">
              the time must be a number of ms greater than 0
            </p>
          )}
        </form>
      ) : reveal ? (
        <p role="status">
          <b>{totalTimeRight(guess, actualMs) ? 'Right' : 'Not quite'}</b>: the run took{' '}
          {formatNs(replay.log.endNs)}; you said {guess} ms (
          {(((guess - actualMs) / actualMs) * 100).toFixed(0)}% off; within 10% counts).
        </p>
      ) : (
        <p>
          You said {guess} ms; the answer comes at the end of the run.{' '}
          <button type="button" onClick={() => setShown(true)}>
            Reveal now
          </button>
        </p>
      )}
    </div>
  );
}
