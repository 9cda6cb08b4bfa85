// Quiz mode's stops (src/app/quiz.ts): every decision with a choice is asked, the one at the
// played window's first instant included (issue #16 item 6), and that one veils the views.
import { describe, expect, it } from 'vitest';
import { isVeiled, newQuiz, quizStop } from '../../src/app/quiz';
import type { DecisionRecord } from '../../src/engine';

describe('quizStop', () => {
  const stops = [0, 10, 20, 30];
  it('asks a decision at the window’s first instant, stopping there (no instant before it)', () => {
    expect(quizStop(newQuiz(), [0, 20], stops, 0, 5)).toEqual({ index: 0, atNs: 0 });
  });
  it('after it, the next at the same instant, then the later one at the stop before it', () => {
    const q = { ...newQuiz(), next: 1 };
    expect(quizStop(q, [0, 0, 20], stops, 0, 5)).toEqual({ index: 1, atNs: 0 });
    expect(quizStop({ ...q, next: 2 }, [0, 0, 20], stops, 0, 25)).toEqual({ index: 2, atNs: 10 });
  });
  it('nothing while a question is on screen, or beyond this frame', () => {
    expect(quizStop({ ...newQuiz(), asking: 0 }, [0], stops, 0, 5)).toBeNull();
    expect(quizStop(newQuiz(), [20], stops, 0, 15)).toBeNull();
  });
});

describe('isVeiled', () => {
  const d = { tNs: 0 } as DecisionRecord;
  it('while unanswered and the clock is at or past the decision', () => {
    expect(isVeiled(newQuiz(), d, 0)).toBe(true);
    expect(isVeiled({ ...newQuiz(), picked: 3 }, d, 0)).toBe(false);
    expect(isVeiled(newQuiz(), { tNs: 20 } as DecisionRecord, 10)).toBe(false);
    expect(isVeiled(newQuiz(), undefined, 10)).toBe(false);
  });
});
