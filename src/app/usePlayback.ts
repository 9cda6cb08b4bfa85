// The animation clock: while playing, advance the replay time by the screen time elapsed,
// divided by the slowdown; stop at the end of the log. One requestAnimationFrame loop.
import { useEffect } from 'react';
import { handleKey } from './actions';
import type { Clock } from './actions';
import { proceed, quizStop } from './quiz';
import { useStore, type Store } from './store';

/** `quizTimes`: in quiz mode, the instants of the decisions to stop before (quiz.ts). */
export function usePlayback(
  store: Store,
  clock: Clock | null,
  quizTimes: readonly number[] | null = null,
): void {
  const playing = useStore(store, (s) => s.playing);
  useEffect(() => {
    if (!playing || !clock) return;
    let frame = 0;
    let last = performance.now();
    const tick = (now: number) => {
      const { tNs, slowdown } = store.get();
      let quiz = store.get().quiz;
      // A frame's timestamp may precede the performance.now() taken when the loop started:
      // never step backwards.
      const next = tNs + (Math.max(0, now - last) * 1e6) / slowdown;
      last = now;
      // Played on (Space, ▶) without answering: that question is skipped.
      if (quiz && quiz.asking !== null) {
        quiz = proceed(quiz);
        store.set({ quiz });
      }
      const stop = quiz && quizTimes ? quizStop(quiz, quizTimes, clock.stops, tNs, next) : null;
      if (stop && quiz) {
        store.set({
          tNs: stop.atNs,
          playing: false,
          quiz: { ...quiz, asking: stop.index, picked: null },
        });
        return;
      }
      if (next >= clock.endNs) {
        store.set({ tNs: clock.endNs, playing: false });
        return;
      }
      store.set({ tNs: next });
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [playing, clock, store, quizTimes]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => handleKey(e, store, clock);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store, clock]);
}
