// One line of blkparse text (LINUX-SCHEDULERS.md §6) → a parsed event, a line of blkparse's
// end-of-run summary block, something to skip, or a problem with its reason. Pure and
// allocation-light: it runs in the browser's worker and in the CLI at hundreds of MB/s.
//
// Layouts read (each real tool output, see tests/trace):
//   blkparse default   `  7,0    1       42     0.000012345 27608  Q   R 585608 + 8 [fio]`
//     with the cgroup column of newer blkparse  `… 39952 1,0  m   N bfq …`
//   ftrace blk_classic `  7,0    1     0.000012345 27608  Q   R 585608 + 8 [fio]` (no sequence)
//   ftrace default     `   fio-27608  [001] d..1.   123.456789: 7,0    Q   R 585608 + 8 [fio]`
// Payloads: `sector + n [comm]`, `[comm]`, `sector + n [error]`, `sector [error]`,
// `[comm] count` (U/UT), `sector + n <- (maj,min) from` (A), `sector / split [comm]` (X),
// SCSI pass-through `bytes (cdb ..) [comm]` and `(cdb ..) [error]`, `-t` elapsed `(ns)`,
// and `m` message text.
//
// This file sorts a line to its reader: event-line.ts (blkparse's layouts; common-line.ts
// its fast path), ftrace-line.ts (ftrace's default layout), summary-line.ts (the summary
// block); action-payload.ts and payload-fields.ts read what follows an event's columns,
// parsed-event.ts makes the event.

import { codesOf, skipWs } from './codes';
import { parseEventLine } from './event-line';
import { ftraceLine } from './ftrace-line';
import type { ParsedEvent } from './parsed-event';
import { summaryLine, type SummaryLine } from './summary-line';

export { fillCodes, type Codes } from './codes';
export { ACTIONS, actionIndex, type ParsedAction } from './actions';
export { parseEventLine } from './event-line';
export { newEvent, type LineFormat, type ParsedEvent } from './parsed-event';
export type { SummaryField, SummaryLine } from './summary-line';

export type LineResult =
  | { kind: 'event'; event: ParsedEvent }
  | { kind: 'summary'; summary: SummaryLine }
  | { kind: 'skip' }
  | { kind: 'problem'; reason: string };

const SKIP: LineResult = { kind: 'skip' };
const problem = (reason: string): LineResult => ({ kind: 'problem', reason });

/** Parse one line (no line terminator). `line` is its 1-based number. */
export function parseLine(s: string, line: number): LineResult {
  const b = codesOf(s);
  const r = parseEventLine(s, b, 0, s.length, line);
  if (r !== null) return typeof r === 'string' ? problem(r) : { kind: 'event', event: r };
  const i = skipWs(b, 0, s.length);
  if (i >= s.length || b[i]! === 35 /* # */) return SKIP; // blank, ftrace header, comment
  const ev = ftraceLine(s, b, line);
  if (ev !== null) return typeof ev === 'string' ? problem(ev) : { kind: 'event', event: ev };
  const summary = summaryLine(s, b, i);
  if (summary === 'skip') return SKIP;
  return summary !== null ? { kind: 'summary', summary } : problem('not a blkparse line');
}
