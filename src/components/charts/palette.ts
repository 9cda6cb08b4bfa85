// The charts' colours and number formats. One colour per process everywhere (colors.ts); in
// compare mode a chart overlays runs, and then a colour per run (UI.md, compare mode).
import { format } from 'd3-format';
import { processColour } from '../colors';

/** Runs overlaid in compare mode: apart from the process and phase hues. */
export const RUN_COLOURS = ['#212529', '#7048e8', '#0c8599', '#c2255c'];
/** A whole run's line when processes have their own colours. */
export const ALL_COLOUR = '#212529';

export function seriesColour(nRuns: number, run: number, proc: number): string {
  if (nRuns > 1) return RUN_COLOURS[run % RUN_COLOURS.length]!;
  return proc < 0 ? ALL_COLOUR : processColour(proc);
}

/** The time axis in ms, or in s for runs of 10 s and more. */
export function timeAxis(endMs: number): { label: string; format: (ms: number) => string } {
  if (endMs >= 10_000) {
    const f = format('~g');
    return { label: 'simulated time (s)', format: (ms) => f(ms / 1000) };
  }
  return { label: 'simulated time (ms)', format: format('~g') };
}

const sig = format('.3~r');
const whole = format(',.0f');

/** "12.3 ms" / "0.412 ms" / "100 ms" / "1,235 ms" / "12.5 s" */
export function ms(v: number): string {
  if (v >= 10_000) return `${sig(v / 1000)} s`;
  return v >= 1000 ? `${whole(v)} ms` : `${sig(v)} ms`;
}

export function num(v: number): string {
  return v >= 100 ? format(',.0f')(v) : sig(v);
}

export function pct(v: number): string {
  return `${(v * 100).toFixed(1)}%`;
}

const si = format('~s');
const plain = format('~g');

/** Axis ticks: 0.25, 40, 1.5M (SI prefixes only from a thousand up: never "250m"). */
export function tick(v: number): string {
  return Math.abs(v) >= 1000 ? si(v) : plain(v);
}

/** A process's name, with the run's label in compare mode. */
export function seriesName(
  labels: readonly string[],
  names: readonly string[][],
  run: number,
  proc: number,
) {
  const p = proc < 0 ? 'all' : (names[run]?.[proc] ?? `proc ${proc}`);
  return labels.length > 1 ? `${labels[run]}${proc < 0 ? '' : ` · ${p}`}` : p;
}
