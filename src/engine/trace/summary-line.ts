// blkparse's own lines that are not events (parse-line.ts): its end-of-run summary block
// (LINUX-SCHEDULERS.md §6.6) — `CPU0 (7,0):` / `Total (7,0):` headers, the
// ` Reads Queued:   1463,  5852KiB\t Writes Queued: …` rows of fields, `Throughput (R/W):`,
// `Events (7,0): … entries` and `Skips:` — and the `Input file … added` notes before the
// events.

import type { Codes } from './codes';

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

const FIELD =
  /([A-Z][A-Za-z.]*(?: [A-Za-z.]+)*):\s+(\d+(?:,\d{3})*)(?:,\s+(\d+(?:,\d{3})*)([KMGP])iB)?/g;
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
const STEP: Record<string, number> = { K: 1, M: 1e3, G: 1e6, P: 1e9 };

/** ` Reads Queued:   1463,  5852KiB\t Writes Queued: …` → its fields, or null. */
function summaryFields(s: string): SummaryField[] | null {
  if (s.indexOf(':') < 0) return null;
  const out: SummaryField[] = [];
  FIELD.lastIndex = 0;
  for (let m = FIELD.exec(s); m; m = FIELD.exec(s)) {
    const name = m[1]!;
    if (!SUMMARY_NAMES.has(name)) return null;
    const f: SummaryField = { name, count: num(m[2]!) };
    if (m[3] !== undefined) {
      const unit = m[4]!;
      f.kib = num(m[3]) * STEP[unit]!;
      if (unit !== 'K') f.printed = `${m[3]}${unit}iB`;
    }
    out.push(f);
  }
  return out.length > 0 ? out : null;
}
