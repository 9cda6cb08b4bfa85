// "Predict first" (issue #16 item 1): before a lesson step runs, the student says which way
// the lesson's key figure will move — the throughput for a run of fixed length in time, the
// run's total time for a fixed amount of work — and the answer is the two runs' own figures,
// revealed once the step's run has arrived. Pure functions; no DOM.
import type { RunSummary } from '../engine';
import { asObject } from './workload-config';

export type Guess = 'higher' | 'lower' | 'same';
export const GUESSES: readonly Guess[] = ['higher', 'lower', 'same'];
/** within this fraction of the figure before, the change counts as "about the same" */
export const SAME_WITHIN = 0.05;

export interface PredictMetric {
  /** the figure in words, for the question */
  words: string;
  unit: string;
  value: (s: RunSummary) => number;
}

const IOPS: PredictMetric = {
  words: 'the throughput (I/Os per second)',
  unit: 'IOPS',
  value: (s) => s.throughput.iops,
};
const TOTAL: PredictMetric = {
  words: 'the time the run takes',
  unit: 'ms',
  value: (s) => s.simulatedTimeMs,
};

/** The figure a lesson's steps are predicted on: a run stopped by time is judged by what it
 * got done (throughput); a run of fixed work (a request count, or fixed request lists) by how
 * long it took. */
export function predictMetric(lesson: unknown): PredictMetric {
  const stop = asObject(asObject(lesson).stop);
  return typeof stop.timeMs === 'number' && typeof stop.requests !== 'number' ? IOPS : TOTAL;
}

/** Which way the figure moved, "same" within SAME_WITHIN of where it was. */
export function outcome(before: number, after: number): Guess {
  if (Math.abs(after - before) <= SAME_WITHIN * Math.abs(before)) return 'same';
  return after > before ? 'higher' : 'lower';
}

export function guessWords(g: Guess): string {
  return g === 'same' ? `about the same (within ${SAME_WITHIN * 100}%)` : g;
}
