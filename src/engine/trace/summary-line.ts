// blkparse's own lines that are not events (parse-line.ts): its end-of-run summary block
// (LINUX-SCHEDULERS.md §6.6) — `CPU0 (7,0):` / `Total (7,0):` headers, the
// ` Reads Queued:   1463,  5852KiB\t Writes Queued: …` rows of fields, `Throughput (R/W):`,
// `Events (7,0): … entries` and `Skips:` — and the `Input file … added` notes before the
// events.

import { isDigit, type Codes } from './codes';

/** One line of blkparse's end-of-run summary block (§6.6). */
export type SummaryLine =
  | { kind: 'header'; scope: string; dev: string }
  | { kind: 'fields'; fields: SummaryField[] }
  | { kind: 'throughput'; read: number; write: number; raw: string }
  | { kind: 'events'; dev: string; entries: number; skips?: number }
  | { kind: 'skips'; raw: string };

export interface SummaryField {
  /** as printed: "Reads Queued", "Write Merges", "Read depth", "IO unplugs", … */
  name: string;
  count: number;
  /** KiB as blkparse meant it: the printed number × 1000 per suffix step (README item 13) */
  kib?: number;
  /** the size as printed ("4163MiB") when a suffix beyond KiB made it a lower bound */
  printed?: string;
}

/** The line s (codes in b, its first non-blank at i) as a line of blkparse's summary
 * block, 'skip' for an `Input file … added` note, or null when it is neither. */
export function summaryLine(s: string, b: Codes, i: number): SummaryLine | 'skip' | null {
  const c = b[i]!;
  if (c === 67 /* C */ || c === 84 /* T */) {
    const m = /^(CPU\d+|Total) \(([^)]*)\):\s*$/.exec(s.slice(i));
    if (m) return { kind: 'header', scope: m[1]!, dev: m[2]! };
  }
  if (s.startsWith('Throughput', i)) {
    const m = /^Throughput \(R\/W\): ([\d,]+)KiB\/s \/ ([\d,]+)KiB\/s/.exec(s.slice(i));
    if (m) {
      return {
        kind: 'throughput',
        read: num(m[1]!),
        write: num(m[2]!),
        raw: s.slice(i + 18).trim(),
      };
    }
  }
  if (s.startsWith('Events', i)) {
    const m = /^Events \(([^)]*)\): ([\d,]+) entries(?:, ([\d,]+) skips)?/.exec(s.slice(i));
    if (m) {
      const summary: SummaryLine = { kind: 'events', dev: m[1]!, entries: num(m[2]!) };
      if (m[3] !== undefined) summary.skips = num(m[3]);
      return summary;
    }
  }
  if (s.startsWith('Skips:', i)) return { kind: 'skips', raw: s.slice(i + 6).trim() };
  if (s.startsWith('Input file ', i) && s.endsWith(' added')) return 'skip';
  const fields = summaryFields(s);
  return fields ? { kind: 'fields', fields } : null;
}

const num = (t: string): number => Number(t.replace(/,/g, ''));

const SUMMARY_NAMES = new Set([
  'Reads Queued',
  'Writes Queued',
  'Read Dispatches',
  'Write Dispatches',
  'Reads Requeued',
  'Writes Requeued',
  'Reads Completed',
  'Writes Completed',
  'Read Merges',
  'Write Merges',
  'Read depth',
  'Write depth',
  'IO unplugs',
  'Timer unplugs',
  'PC Reads Queued',
  'PC Writes Queued',
  'PC Read Disp.',
  'PC Write Disp.',
  'PC Reads Req.',
  'PC Writes Req.',
  'PC Reads Compl.',
  'PC Writes Compl.',
  'Allocation wait',
  'Dispatch wait',
  'Completion wait',
]);
/** the longest name in SUMMARY_NAMES ("PC Writes Compl.", "Write Dispatches"): a longer run
 * of name characters before a ':' is no field of blkparse's */
const MAX_NAME = 16;
const STEP: Record<string, number> = { K: 1, M: 1e3, G: 1e6, P: 1e9 };

/**
 * ` Reads Queued:   1463,  5852KiB\t Writes Queued: …` → its fields, or null. One pass over
 * the line, no regular expression: a line is fields `Name: count` or `Name: count, sizeXiB`
 * separated by blanks, every name one of blkparse's; anything else is not a summary row.
 * (A backtracking pattern took minutes on a 64 KB line of letters — issue 20 item 1.)
 */
function summaryFields(s: string): SummaryField[] | null {
  if (s.indexOf(':') < 0) return null;
  const out: SummaryField[] = [];
  const n = s.length;
  let i = blanks(s, 0);
  while (i < n) {
    const start = i;
    while (i < n && i - start <= MAX_NAME && isNameChar(s.charCodeAt(i))) i++;
    if (s.charCodeAt(i) !== 58 /* : */) return null;
    const name = s.slice(start, i);
    if (!SUMMARY_NAMES.has(name)) return null;
    i = blanks(s, i + 1);
    const count = grouped(s, i);
    if (count === null || i === start + name.length + 1) return null;
    const f: SummaryField = { name, count: num(s.slice(i, count)) };
    i = count;
    // `, sizeXiB`
    if (s.charCodeAt(i) === 44 /* , */) {
      const at = blanks(s, i + 1);
      const end = grouped(s, at);
      const unit = end === null ? '' : s[end]!;
      if (end === null || at === i + 1 || !(unit in STEP) || !s.startsWith('iB', end + 1))
        return null;
      f.kib = num(s.slice(at, end)) * STEP[unit]!;
      if (unit !== 'K') f.printed = `${s.slice(at, end)}${unit}iB`;
      i = end + 3;
    }
    out.push(f);
    const next = blanks(s, i);
    if (next === i && i < n) return null; // no blank before the next field
    i = next;
  }
  return out.length > 0 ? out : null;
}

/** letters, '.', and the spaces between a name's words */
const isNameChar = (c: number): boolean =>
  (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 46 || c === 32;

/** past the blanks (spaces, tabs, CR) at i */
function blanks(s: string, i: number): number {
  for (let c = s.charCodeAt(i); c === 32 || c === 9 || c === 13; c = s.charCodeAt(++i));
  return i;
}

/** the end of a number with thousands separators (`1463`, `8,763`) at i, or null */
function grouped(s: string, i: number): number | null {
  let k = i;
  while (isDigit(s.charCodeAt(k))) k++;
  if (k === i) return null;
  // `,ddd` groups: a comma followed by exactly three digits and no fourth
  while (
    s.charCodeAt(k) === 44 &&
    isDigit(s.charCodeAt(k + 1)) &&
    isDigit(s.charCodeAt(k + 2)) &&
    isDigit(s.charCodeAt(k + 3)) &&
    !isDigit(s.charCodeAt(k + 4))
  )
    k += 4;
  return k;
}
