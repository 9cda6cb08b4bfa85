// The played window: the part of a run the page animates, [log.fromNs, log.endNs] — the
// run's start, or later when a lesson (`play.fromMs`), the link (`from=`) or the user asks
// (the worker's ./played.ts). Pure helpers the views share: its words, where playback
// starts in it, and how slow to play it.
import { clampSlowdown } from './store';

interface Window {
  fromNs: number;
  endNs: number;
  bounded: boolean;
  geometry: { rotating: boolean; revolutionNs: number };
}

/** The unit a window ending at endNs is told in: s from 10 s on, else ms. */
export function windowUnit(endNs: number): { scale: number; unit: 's' | 'ms' } {
  return endNs >= 1e10 ? { scale: 1e9, unit: 's' } : { scale: 1e6, unit: 'ms' };
}

/** "124.0–128.6 s" (or "12.0–35.1 ms" for a window that ends within 10 s). */
export function windowText(w: Pick<Window, 'fromNs' | 'endNs'>): string {
  const { scale, unit } = windowUnit(w.endNs);
  const f = (ns: number) => (ns / scale).toFixed(1);
  return `${f(w.fromNs)}–${f(w.endNs)} ${unit}`;
}

/** The window several runs span together (compare mode's shared clock): earliest start to
 * latest end. */
export function spanOf(ws: ReadonlyArray<Pick<Window, 'fromNs' | 'endNs'>>): {
  fromNs: number;
  endNs: number;
} {
  return {
    fromNs: Math.min(...ws.map((w) => w.fromNs)),
    endNs: Math.max(...ws.map((w) => w.endNs)),
  };
}

/** Which part of the run is played, in words: null when it is the whole run. */
export function playedPart(w: Window): string | null {
  if (w.fromNs > 0 && w.fromNs >= w.endNs && !w.bounded) {
    const { scale, unit } = windowUnit(w.endNs);
    return `the run ends at ${(w.endNs / scale).toFixed(1)} ${unit}, before the time asked: nothing more to show`;
  }
  if (w.fromNs > 0) return `showing ${windowText(w)} of the run`;
  return w.bounded ? 'showing the first part of the run' : null;
}

/** Where playback starts: at `atNs` (a link's `at=`) held within the window, else its start. */
export function startTime(w: Pick<Window, 'fromNs' | 'endNs'>, atNs: number | undefined): number {
  if (atNs === undefined) return w.fromNs;
  return Math.min(Math.max(atNs, w.fromNs), w.endNs);
}

/** Slow enough to follow: a revolution in 4 s on screen; an SSD's whole window in a minute. */
export function defaultSlowdown(w: Window): number {
  const g = w.geometry;
  if (g.rotating && Number.isFinite(g.revolutionNs)) return clampSlowdown(4e9 / g.revolutionNs);
  return clampSlowdown(60e9 / Math.max(1, w.endNs - w.fromNs));
}
