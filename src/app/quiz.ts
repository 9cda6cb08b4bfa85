// Quiz mode (issue #5 item 7): playback pauses before each decision that had a real choice
// (two or more candidates) and asks which request goes next; the student clicks one, the
// page reveals the scheduler's choice with its rule and explanation, and keeps score.
// Pure functions over the run log and the store's QuizState; usePlayback calls quizStop.
import type { DecisionRecord } from '../engine';
import { prevBefore, type Replay } from './replay';
import type { QuizState } from './store';

/** The decisions worth asking about: those that weighed two candidates or more. */
export function quizDecisions(replay: Replay): DecisionRecord[] {
  return replay.log.decisions.filter((d) => d.candidates.length >= 2 && d.chosen >= 0);
}

export function newQuiz(): QuizState {
  return { next: 0, asking: null, picked: null, right: 0, asked: 0 };
}

/** A lesson whose every process is a fixed request list (disk.py-style): its total time is
 * a question worth asking before the run is watched. Reads the lesson's raw JSON. */
export function isFixedList(lesson: unknown): boolean {
  const w = (lesson as { workload?: { processes?: unknown } } | null)?.workload;
  const ps = Array.isArray(w?.processes) ? (w.processes as unknown[]) : [];
  return (
    ps.length > 0 && ps.every((p) => Array.isArray((p as { requests?: unknown } | null)?.requests))
  );
}

/** A total-time guess is right within 10% of the simulated time. */
export function totalTimeRight(guessMs: number, actualMs: number): boolean {
  return Math.abs(guessMs - actualMs) <= 0.1 * actualMs;
}

/** The first index whose time is at or after t (times ascending). */
function firstAtOrAfter(times: readonly number[], t: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid]! >= t) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * While playing from tNs towards nextNs: the quiz question to stop for, if one not yet asked
 * falls in [tNs, nextNs] (a decision at tNs itself — the run's first instant — is asked too:
 * every frame before covered up to its own nextNs, so only such a one is left there).
 * Playback stops just before the decision's instant (the last stop before it, so what
 * arrived earlier is on screen and the outcome is not); a decision at the window's first
 * instant has no stop before it, and the quiz panel veils the views instead (isVeiled).
 */
export function quizStop(
  quiz: QuizState,
  times: readonly number[],
  stops: readonly number[],
  tNs: number,
  nextNs: number,
): { index: number; atNs: number } | null {
  if (quiz.asking !== null) return null;
  const i = Math.max(quiz.next, firstAtOrAfter(times, tNs));
  if (i >= times.length) return null;
  const d = times[i]!;
  if (d > nextNs) return null;
  const before = prevBefore(stops, d);
  return { index: i, atNs: Math.max(tNs, before ?? 0) };
}

/** Whether the views at tNs already show the decision's outcome, so the question must hide
 * them until it is answered (a decision at the played window's first instant). */
export function isVeiled(quiz: QuizState, d: DecisionRecord | undefined, tNs: number): boolean {
  return d !== undefined && quiz.picked === null && tNs >= d.tNs;
}

export function answer(quiz: QuizState, d: DecisionRecord, rq: number): QuizState {
  if (quiz.picked !== null) return quiz;
  return {
    ...quiz,
    picked: rq,
    asked: quiz.asked + 1,
    right: quiz.right + (rq === d.chosen ? 1 : 0),
  };
}

export function proceed(quiz: QuizState): QuizState {
  return {
    ...quiz,
    next: quiz.asking === null ? quiz.next : quiz.asking + 1,
    asking: null,
    picked: null,
  };
}
