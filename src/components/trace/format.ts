// Numbers for the trace view: counts with thousands separators, milliseconds from btt's
// seconds, fixed decimals that stay readable from microseconds to seconds.
const counts = new Intl.NumberFormat('en-US');

export function count(n: number): string {
  return counts.format(n);
}

/** a duration in ms, with enough decimals to see microseconds */
export function ms(x: number): string {
  if (!Number.isFinite(x)) return '—';
  const a = Math.abs(x);
  if (a >= 1000) return counts.format(Math.round(x));
  if (a >= 100) return x.toFixed(1);
  if (a >= 1) return x.toFixed(3);
  return x.toFixed(4);
}

/** btt's seconds as ms */
export function secMs(s: number): string {
  return ms(s * 1000);
}

export function pct(f: number): string {
  return `${(f * 100).toFixed(1)}%`;
}

export function fixed(x: number, digits: number): string {
  return Number.isFinite(x) ? x.toFixed(digits) : '—';
}

/** fixed decimals with thousands separators (rates: 112,073.9) */
export function grouped(x: number, digits: number): string {
  if (!Number.isFinite(x)) return '—';
  return x.toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}
