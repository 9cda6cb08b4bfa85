// The animation clock: while playing, advance the replay time by the screen time elapsed,
// divided by the slowdown; stop at the end of the log. One requestAnimationFrame loop.
import { useEffect } from 'react';
import { handleKey } from './actions';
import type { Clock } from './actions';
import { useStore, type Store } from './store';

export function usePlayback(store: Store, clock: Clock | null): void {
  const playing = useStore(store, (s) => s.playing);
  useEffect(() => {
    if (!playing || !clock) return;
    let frame = 0;
    let last = performance.now();
    const tick = (now: number) => {
      const { tNs, slowdown } = store.get();
      const next = tNs + ((now - last) * 1e6) / slowdown;
      last = now;
      if (next >= clock.endNs) {
        store.set({ tNs: clock.endNs, playing: false });
        return;
      }
      store.set({ tNs: next });
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [playing, clock, store]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => handleKey(e, store, clock);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store, clock]);
}
