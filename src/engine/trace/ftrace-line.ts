// ftrace's default layout of a block event (parse-line.ts):
// `   fio-27608  [001] d..1.   123.456789: 7,0    Q   R 585608 + 8 [fio]` — the task, PID,
// CPU, flags and clock before the device; then the action and its payload as blkparse
// prints them (action-payload.ts).

import { actionAndPayload } from './action-payload';
import { MAX_CPU, hasComma, skipWs, time, tokenEnd, type Codes } from './codes';
import { CPU_TOO_LARGE } from './event-line';
import { newEvent, type ParsedEvent } from './parsed-event';
import { setLineStart } from './payload-fields';

const FTRACE =
  /^\s*(.*?)-(\d+)\s+(?:\(\s*[\d-]+\)\s+)?\[(\d+)\]\s+(?:\S+\s+)?(\d+\.\d+):\s+(\d+,\d+)\s+(.*)$/;

/** The line s (codes in b) in ftrace's layout → the event, or the reason it is unreadable;
 * null when s is not in that layout. */
export function ftraceLine(s: string, b: Codes, line: number): ParsedEvent | string | null {
  if (s.indexOf(']') <= 0 || s.indexOf(': ') <= 0) return null;
  const m = FTRACE.exec(s);
  if (!m) return null;
  const tNs = time(new TextEncoder().encode(m[4]), 0, m[4]!.length); // digits and a dot: ASCII
  if (tNs < 0) return 'time stamp too large';
  const n = s.length;
  const rest = m[6]!;
  let i = n - rest.length;
  let j = tokenEnd(b, i, n);
  let cgroup: string | undefined;
  if (hasComma(b, i, j)) {
    cgroup = s.slice(i, j);
    i = skipWs(b, j, n);
    j = tokenEnd(b, i, n);
  }
  setLineStart(0);
  const cpu = Number(m[3]);
  if (cpu > MAX_CPU) return CPU_TOO_LARGE;
  const ev = newEvent(line, 'ftrace', m[5]!, cpu, -1, tNs, Number(m[2]), cgroup);
  return actionAndPayload(s, b, i, j, n, ev);
}
