// Quiz mode's question: before a decision with a real choice, which request goes next?
// The candidates are buttons (in request order, so their order gives nothing away); after a
// click, the scheduler's own choice with its rule and sentence, each loser's reason or the
// drive's estimate, and the score. Continue plays on to the next question.
import { useEffect, useRef } from 'react';
import type { DecisionRecord } from '../../engine';
import { answer, proceed } from '../../app/quiz';
import type { Replay } from '../../app/replay';
import { useStore, type Store } from '../../app/store';
import { formatNs } from '../format';
import { RequestChip } from '../RequestChip';

interface Props {
  replay: Replay;
  store: Store;
  decisions: readonly DecisionRecord[];
}

export function QuizPanel({ replay, store, decisions }: Props) {
  const quiz = useStore(store, (s) => s.quiz ?? null);
  const first = useRef<HTMLButtonElement>(null);
  const cont = useRef<HTMLButtonElement>(null);
  const asking = quiz?.asking ?? null;
  const picked = quiz?.picked ?? null;
  useEffect(() => {
    if (asking !== null && picked === null) first.current?.focus();
    else if (asking !== null) cont.current?.focus();
  }, [asking, picked]);
  if (!quiz) return null;
  const d = asking !== null ? decisions[asking] : undefined;
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
    <section className="quiz" aria-label="Quiz">
      <h2>
        Quiz{' '}
        <small data-testid="quiz-score">
          {quiz.right} of {quiz.asked} right
        </small>
      </h2>
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
