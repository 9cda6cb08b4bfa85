// Numbers with units, for people.
export function formatNs(ns: number): string {
  const a = Math.abs(ns);
  if (a >= 1e9) return `${(ns / 1e9).toFixed(3)} s`;
  if (a >= 1e6) return `${(ns / 1e6).toFixed(a >= 1e8 ? 1 : 3)} ms`;
  if (a >= 1e3) return `${(ns / 1e3).toFixed(1)} µs`;
  return `${ns.toFixed(0)} ns`;
}

/** "1 ms of disk time = 20 ms on screen" for a slowdown of 20; "100× real time (1 s of disk
 * time = 10 ms on screen)" for 0.01. */
export function formatRate(slowdown: number): string {
  if (slowdown < 1 / 1.5)
    return `${trim(1 / slowdown)}× real time (1 s of disk time = ${trim(slowdown * 1000)} ms on screen)`;
  if (slowdown < 1.5) return 'real time';
  const screenPerDiskMs = slowdown; // ms on screen per ms of disk time
  if (screenPerDiskMs >= 1000)
    return `1 ms of disk time = ${trim(screenPerDiskMs / 1000)} s on screen`;
  return `1 ms of disk time = ${trim(screenPerDiskMs)} ms on screen`;
}

function trim(x: number): string {
  return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2);
}

const ORDINAL_RULES = new Intl.PluralRules('en-US', { type: 'ordinal' });
const ORDINAL_SUFFIX: Record<string, string> = { one: 'st', two: 'nd', few: 'rd', other: 'th' };
/** 1st, 2nd, 3rd, 4th, 11th, 22nd … */
export function ordinal(n: number): string {
  return `${n}${ORDINAL_SUFFIX[ORDINAL_RULES.select(n)] ?? 'th'}`;
}
