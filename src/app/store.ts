// The page's playback state in one small store (no module-level globals: one store per App).
// Views subscribe to the slice they draw with useStore(store, selector).
import { useMemo, useRef, useSyncExternalStore } from 'react';

export type LayerFilter = 'all' | 'disk' | 'iosched';

export interface PlaybackState {
  /** the replay clock, simulated ns */
  tNs: number;
  playing: boolean;
  /** screen time per disk time: 1 = real time, 1e6 = a million times slower, 0.001 = a
   * thousand times faster (a 30 s run in 30 ms of screen time) */
  slowdown: number;
  helpOpen: boolean;
  layer: LayerFilter;
  /** the decision log shows only this rule's decisions ('' or absent: every rule) */
  rule?: string;
  /** the first-visit introduction asked for again (help overlay) */
  introOpen?: boolean;
  /** quiz mode's progress (quiz.ts); absent or null when not quizzing */
  quiz?: QuizState | null;
}

/** Quiz mode: which decision is being asked, what was picked, the score. Indices are into
 * the run's quiz decisions (quiz.ts quizDecisions). */
export interface QuizState {
  /** the first decision not yet asked */
  next: number;
  /** the decision on screen, or null while playing */
  asking: number | null;
  /** the request the student picked (revealed), or null while still asking */
  picked: number | null;
  right: number;
  asked: number;
}

export interface Store {
  get(): PlaybackState;
  set(patch: Partial<PlaybackState>): void;
  subscribe(listener: () => void): () => void;
}

export const MIN_SLOWDOWN = 1e-3;
export const MAX_SLOWDOWN = 1e6;

export function clampSlowdown(s: number): number {
  return Math.min(MAX_SLOWDOWN, Math.max(MIN_SLOWDOWN, s));
}

export function createStore(initial: PlaybackState): Store {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    set(patch) {
      state = { ...state, ...patch };
      for (const l of listeners) l();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

const NO_UPDATES = () => () => {};

/**
 * Subscribe to one slice; the selector must return a primitive or a stable object. With
 * `live` false the view keeps the value it last drew and is not re-rendered (a view scrolled
 * out of sight, ./in-view.ts); it reads the store afresh when live again.
 */
export function useStore<T>(store: Store, select: (s: PlaybackState) => T, live = true): T {
  const held = useRef<{ value: T } | null>(null);
  const subscribe = useMemo(() => (live ? store.subscribe : NO_UPDATES), [live, store]);
  return useSyncExternalStore(subscribe, () => {
    if (live || !held.current) held.current = { value: select(store.get()) };
    return held.current.value;
  });
}
