// blkparse's event lines, in its default layout and ftrace's blk_classic one (parse-line.ts):
// the columns from the device to the action — `maj,min cpu [seq] sec.ns pid [ino,gen]` —
// then the action and its payload (action-payload.ts). The line as blkparse prints nearly
// all of them goes through commonLine (common-line.ts) first, in one pass.

import { actionAndPayload } from './action-payload';
import { commonLine } from './common-line';
import {
  MAX_CPU,
  MAX_EXACT,
  hasComma,
  intern,
  isDigit,
  isSpace,
  readTime,
  skipWs,
  tokEnd,
  tokenEnd,
  type Codes,
} from './codes';
import { newEvent, refill, type LineFormat, type ParsedEvent } from './parsed-event';
import { setLineStart } from './payload-fields';

/**
 * The fast path for blkparse's own event lines: s[from, to) (no terminator) → the event, or
 * the reason the line is unreadable, or null when the line does not start with a digit
 * (blank, comment, ftrace's layout, the summary block: parseLine reads those).
 * With `into`, that object is refilled and returned instead of a new one (for a consumer
 * that keeps nothing of an event beyond its call).
 * b[to] must be the line's terminator (LF, or CR before it) or the 0 that fillCodes puts
 * after a text: never a digit or a blank, so the scans for those stop there unbounded.
 */
export function parseEventLine(
  s: string,
  b: Codes,
  from: number,
  to: number,
  line: number,
  into: ParsedEvent | null = null,
): ParsedEvent | string | null {
  const i = skipWs(b, from, to);
  if (i >= to || !isDigit(b[i]!)) return null;
  const ev = into ?? newEvent(line, 'blkparse', '', 0, 0, 0, 0, undefined);
  if (commonLine(s, b, i, to, line, ev)) return ev;
  setLineStart(from); // where the search for the line's last `]` stops (commonLine needs none)
  return eventLine(s, b, i, to, line, into);
}

/** The columns of a blkparse line from the device (a digit at i0) to the action. One pass,
 * numbers read as their digits go by. Exported for tests: the reading commonLine must agree
 * with. */
export function eventLine(
  s: string,
  b: Codes,
  i0: number,
  n: number,
  line: number,
  into: ParsedEvent | null,
): ParsedEvent | string {
  // "maj,min": digits, a comma, digits, then a blank or the line's end
  let i = i0 + 1;
  while (isDigit(b[i]!)) i++;
  if (b[i] !== 44 || !isDigit(b[i + 1]!)) return NOT_A_DEVICE;
  i += 2;
  while (isDigit(b[i]!)) i++;
  if (i < n && !isSpace(b[i]!)) return NOT_A_DEVICE;
  const dev = intern(s, b, i0, i);
  // the CPU
  i = skipWs(b, i, n);
  let k = i;
  let cpu = 0;
  for (let c = b[k]!; isDigit(c); c = b[++k]!) cpu = cpu * 10 + (c - 48);
  if (k === i || (k < n && !isSpace(b[k]!))) return 'no CPU column after the device';
  if (cpu > MAX_CPU) return CPU_TOO_LARGE;
  // blkparse prints a sequence number (all digits), then the time; ftrace's blk_classic only
  // the time ("sec.frac")
  i = skipWs(b, k, n);
  let seq = 0;
  k = i;
  for (let c = b[k]!; isDigit(c); c = b[++k]!) seq = seq * 10 + (c - 48);
  let format: LineFormat = 'blkparse';
  let tNs: number;
  if (k > i && (k === n || isSpace(b[k]!))) {
    if (seq > MAX_EXACT) return 'no sequence number or time after the CPU';
    tNs = readTime(b, skipWs(b, k, n), n);
  } else {
    seq = -1;
    format = 'ftrace-classic';
    tNs = readTime(b, i, n);
    if (tNs === -1) return 'no sequence number or time after the CPU';
  }
  if (tNs === -2) return 'time stamp too large';
  if (tNs < 0) return 'no time stamp "seconds.nanoseconds"';
  // the PID
  i = skipWs(b, tokEnd, n);
  k = i;
  let pid = 0;
  for (let c = b[k]!; isDigit(c); c = b[++k]!) pid = pid * 10 + (c - 48);
  if (k === i || (k < n && !isSpace(b[k]!)) || pid > MAX_EXACT)
    return 'no PID after the time stamp';
  // newer blkparse's cgroup column "ino,gen", then the action
  i = skipWs(b, k, n);
  let j = tokenEnd(b, i, n);
  let cgroup: string | undefined;
  if (hasComma(b, i, j)) {
    cgroup = s.slice(i, j);
    i = skipWs(b, j, n);
    j = tokenEnd(b, i, n);
  }
  const ev =
    into === null
      ? newEvent(line, format, dev, cpu, seq, tNs, pid, cgroup)
      : refill(into, line, format, dev, cpu, seq, tNs, pid, cgroup);
  return actionAndPayload(s, b, i, j, n, ev);
}

export const CPU_TOO_LARGE = `CPU number over ${MAX_CPU} (Linux's NR_CPUS is far smaller)`;
const NOT_A_DEVICE = 'does not start with a device "major,minor"';
