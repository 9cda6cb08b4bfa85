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

import { ACTION_OF, type ParsedAction } from './actions';
import { commonLine } from './common-line';
import {
  MAX_EXACT,
  MAX_SECTORS,
  RWBS_LETTER,
  RWBS_MAX,
  closeParen,
  code,
  codesOf,
  devComma,
  hasComma,
  intern,
  isDigit,
  isSpace,
  readTime,
  readUint,
  skipWs,
  time,
  tokEnd,
  tokenEnd,
  uint,
  type Codes,
} from './codes';

export { fillCodes, type Codes } from './codes';
export { ACTIONS, actionIndex, type ParsedAction } from './actions';

export type LineFormat = 'blkparse' | 'ftrace-classic' | 'ftrace';

export interface ParsedEvent {
  /** 1-based line number in the input */
  line: number;
  format: LineFormat;
  /** "maj,min" as printed (the target device for A) */
  dev: string;
  cpu: number;
  /** per-CPU sequence number; 0 on message lines; −1 when the layout has none */
  seq: number;
  /** time since the start of the trace (ftrace: the clock's value), integer nanoseconds */
  tNs: number;
  pid: number;
  /** the `ino,gen` cgroup column of newer blkparse, when printed */
  cgroup?: string;
  action: ParsedAction;
  rwbs: string;
  /** blkparse's direction (the WRITE category bit): W or D (discard) main letter */
  write: boolean;
  /** −1 when the line prints none (plug lines, an empty flush `Q FWS [sync]`) */
  sector: number;
  /** 512-byte blocks; 0 when none printed */
  nSectors: number;
  /** process name in brackets (not on C/R, which carry the error) */
  comm?: string;
  /** C/R: the error value in brackets (0 = success) */
  error?: number;
  /** U/UT: the number of requests flushed */
  count?: number;
  /** m: the message text */
  message?: string;
  /** X: the sector where the second part starts */
  splitSector?: number;
  /** A: where the bio came from */
  remapDev?: string;
  remapSector?: number;
  /** SCSI pass-through (pc) request: bytes (I/D/Q) and the command bytes as printed */
  pc?: { bytes: number; cdb: string };
  /** `blkparse -t`: the elapsed time printed in parentheses, ns */
  elapsedNs?: number;
}

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

export type LineResult =
  | { kind: 'event'; event: ParsedEvent }
  | { kind: 'summary'; summary: SummaryLine }
  | { kind: 'skip' }
  | { kind: 'problem'; reason: string };

const SKIP: LineResult = { kind: 'skip' };
const problem = (reason: string): LineResult => ({ kind: 'problem', reason });

/** Where the line being parsed starts in s. The `]` closing a command is the line's last
 * one, wherever it is (as blkparse's own reader takes it), and the search stops here. */
let lineStart = 0;

/** the action code of s[i, j) as one of the ACTIONS strings, or null */
function actionAt(b: Codes, i: number, j: number): ParsedAction | null {
  if (j - i === 1) return ACTION_OF[b[i]!]!;
  return j - i === 2 && b[i]! === 85 && b[i + 1]! === 84 ? 'UT' : null;
}

/** blkparse's direction: the main letter (after an optional leading F = flush) is W, or D
 * (discard is a write op); everything else (R, N: plug lines, empty flushes FN) reads. */
function isWrite(b: Codes, i: number, j: number): boolean {
  let c = b[i]!;
  if (c === 70 /* F */) c = code(b, i + 1, j);
  return c === 87 || c === 68;
}

/** Parse one line (no line terminator). `line` is its 1-based number. */
export function parseLine(s: string, line: number): LineResult {
  const b = codesOf(s);
  const r = parseEventLine(s, b, 0, s.length, line);
  if (r !== null) return typeof r === 'string' ? problem(r) : { kind: 'event', event: r };
  const i = skipWs(b, 0, s.length);
  if (i >= s.length || b[i]! === 35 /* # */) return SKIP; // blank, ftrace header, comment
  return otherLine(s, b, i, line);
}

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
  lineStart = from;
  const ev = into ?? newEvent(line, 'blkparse', '', 0, 0, 0, 0, undefined);
  if (commonLine(s, b, i, to, line, ev)) return ev;
  return eventLine(s, b, i, to, line, into);
}

/** The columns of a blkparse line from the device (a digit at i0) to the action. One pass,
 * numbers read as their digits go by. */
function eventLine(
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
  if (k === i || (k < n && !isSpace(b[k]!)) || cpu > MAX_EXACT)
    return 'no CPU column after the device';
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

const NOT_A_DEVICE = 'does not start with a device "major,minor"';

/** newEvent's values, written into an existing event (every field, in the same order) */
function refill(
  ev: ParsedEvent,
  line: number,
  format: LineFormat,
  dev: string,
  cpu: number,
  seq: number,
  tNs: number,
  pid: number,
  cgroup: string | undefined,
): ParsedEvent {
  ev.line = line;
  ev.format = format;
  ev.dev = dev;
  ev.cpu = cpu;
  ev.seq = seq;
  ev.tNs = tNs;
  ev.pid = pid;
  ev.action = 'm';
  ev.rwbs = '';
  ev.write = false;
  ev.sector = -1;
  ev.nSectors = 0;
  ev.cgroup = cgroup;
  ev.comm = undefined;
  ev.error = undefined;
  ev.count = undefined;
  ev.message = undefined;
  ev.splitSector = undefined;
  ev.remapDev = undefined;
  ev.remapSector = undefined;
  ev.pc = undefined;
  ev.elapsedNs = undefined;
  return ev;
}

export function newEvent(
  line: number,
  format: LineFormat,
  dev: string,
  cpu: number,
  seq: number,
  tNs: number,
  pid: number,
  cgroup: string | undefined,
): ParsedEvent {
  return {
    line,
    format,
    dev,
    cpu,
    seq,
    tNs,
    pid,
    action: 'm', // set by actionAndPayload
    rwbs: '',
    write: false,
    sector: -1,
    nSectors: 0,
    // every field present from the start: one object shape for all events (fast property access)
    cgroup,
    comm: undefined,
    error: undefined,
    count: undefined,
    message: undefined,
    splitSector: undefined,
    remapDev: undefined,
    remapSector: undefined,
    pc: undefined,
    elapsedNs: undefined,
  };
}

/** The action, RWBS and payload at s[i…n) into `ev`: the event, or the reason it is unreadable. */
function actionAndPayload(
  s: string,
  b: Codes,
  i: number,
  j: number,
  n: number,
  ev: ParsedEvent,
): ParsedEvent | string {
  const action = actionAt(b, i, j);
  if (action === null) {
    return j > i
      ? `unknown action "${s.slice(i, j).slice(0, 12)}"`
      : 'the line ends before the action';
  }
  // RWBS: 1 to RWBS_MAX letters, then a blank or the line's end
  i = skipWs(b, j, n);
  j = i;
  while (RWBS_LETTER[b[j]!]! > 0) j++;
  if (j === i || j - i > RWBS_MAX || (j < n && !isSpace(b[j]!))) {
    j = tokenEnd(b, i, n);
    return j > i ? `bad RWBS "${s.slice(i, Math.min(j, i + 12))}"` : 'no RWBS after the action';
  }
  ev.action = action;
  ev.rwbs = intern(s, b, i, j);
  ev.write = isWrite(b, i, j);
  // blkparse prints one space after RWBS; the payload is the rest
  const p = j < n ? j + 1 : j;
  const why = payload(s, b, p, n, ev);
  return why === null ? ev : why;
}

/** Fill the payload fields of `ev` from s[p, n); null, or the reason it is unreadable. */
function payload(s: string, b: Codes, p: number, n: number, ev: ParsedEvent): string | null {
  switch (ev.action) {
    case 'm':
      ev.message = s.slice(p, n).trim();
      return null;
    case 'P':
      return bracketComm(s, b, skipWs(b, p, n), n, ev, false);
    case 'U':
    case 'UT': {
      const i = skipWs(b, p, n);
      const close = bracketEnd(b, i, n);
      if (close < 0) return 'no [command] on an unplug line';
      ev.comm = intern(s, b, i + 1, close);
      const k = skipWs(b, close + 1, n);
      const e = trimEnd(b, p, n);
      if (k < e) {
        const count = uint(b, k, e);
        if (count < 0) return 'the unplug count is not a number';
        ev.count = count;
      }
      return null;
    }
    case 'A': {
      let i = skipWs(b, p, n);
      const r = sectorPlus(b, i, n, ev);
      if (typeof r === 'string') return r;
      i = skipWs(b, r, n);
      if (code(b, i, n) !== 60 || code(b, i + 1, n) !== 45)
        return 'a remap without "<- (maj,min) sector"';
      i = skipWs(b, i + 2, n);
      const close = closeParen(b, i, n);
      if (code(b, i, n) !== 40 || close < 0) return 'a remap without "(maj,min)"';
      if (devComma(b, i + 1, close) < 0) return 'a remap source that is not "(maj,min)"';
      ev.remapDev = intern(s, b, i + 1, close);
      i = skipWs(b, close + 1, n);
      const from = uint(b, i, trimEnd(b, p, n));
      if (from === -2) return 'sector overflow: beyond 2^53';
      if (from < 0) return 'a remap without the original sector';
      ev.remapSector = from;
      return null;
    }
    case 'X': {
      let i = skipWs(b, p, n);
      let j = tokenEnd(b, i, n);
      const a = uint(b, i, j);
      if (a === -2) return 'sector overflow: beyond 2^53';
      if (a < 0) return 'a split without "sector / sector"';
      i = skipWs(b, j, n);
      if (code(b, i, n) !== 47) return 'a split without "/"';
      i = skipWs(b, i + 1, n);
      j = tokenEnd(b, i, n);
      const second = uint(b, i, j);
      if (second === -2) return 'sector overflow: beyond 2^53';
      if (second < 0) return 'a split without the second sector';
      ev.sector = a;
      ev.splitSector = second;
      return bracketComm(s, b, skipWs(b, j, n), n, ev, false);
    }
    case 'C':
    case 'R': {
      let i = skipWs(b, p, n);
      if (i >= n) return 'a completion without [error]';
      const c = b[i]!;
      if (c === 40 /* ( */ || c === 91 /* [ */) {
        // pass-through completion: `(cdb ..) [error]` or just `[error]`
        if (c === 40) {
          const close = closeParen(b, i, n);
          if (close < 0) return 'an unclosed "(" in a completion';
          ev.pc = { bytes: 0, cdb: s.slice(i + 1, close) };
          i = skipWs(b, close + 1, n);
        } else ev.pc = { bytes: 0, cdb: '' };
        return bracketComm(s, b, i, n, ev, true);
      }
      if (sizedBracket(s, b, i, n, ev, true)) return null;
      const r = sectorPlus(b, i, n, ev);
      if (typeof r === 'string') return r;
      return elapsedThenBracket(s, b, skipWs(b, r, n), n, ev, true);
    }
    default: {
      // Q G I D M F S B
      const i = skipWs(b, p, n);
      if (i >= n) return 'the line ends before [command]';
      const c = b[i]!;
      if (c === 91) return bracketComm(s, b, i, n, ev, false);
      if (c === 40) return elapsedThenBracket(s, b, i, n, ev, false);
      if (sizedBracket(s, b, i, n, ev, false)) return null;
      const r = sectorPlus(b, i, n, ev);
      if (typeof r === 'string') return r;
      if (ev.nSectors === 0 && ev.sector >= 0) return passThrough(s, b, r, n, ev);
      return elapsedThenBracket(s, b, skipWs(b, r, n), n, ev, false);
    }
  }
}

/** The common payload `sector + n [comm]` (`[error]` when `error`) at i, read in one pass:
 * true when the line is just that and sound; false leaves the line to the general reader
 * (sectorPlus and what follows it), which reads it again from i and says what is wrong. */
function sizedBracket(
  s: string,
  b: Codes,
  i: number,
  n: number,
  ev: ParsedEvent,
  error: boolean,
): boolean {
  let c = b[i]!;
  if (!isDigit(c)) return false;
  let sector = 0;
  do {
    sector = sector * 10 + (c - 48);
    c = b[++i]!;
  } while (isDigit(c));
  if (c !== 32 || b[i + 1] !== 43 /* + */ || b[i + 2] !== 32) return false;
  i += 3;
  c = b[i]!;
  if (!isDigit(c)) return false;
  let size = 0;
  do {
    size = size * 10 + (c - 48);
    c = b[++i]!;
  } while (isDigit(c));
  // a size of 0 is a pass-through request's; overflows are the general reader's to report
  if (size === 0 || size > MAX_SECTORS || sector + size > MAX_EXACT) return false;
  if (c !== 32 || b[i + 1] !== 91 /* [ */) return false;
  if (bracketComm(s, b, i + 1, n, ev, error) !== null) return false;
  ev.sector = sector;
  ev.nSectors = size;
  return true;
}

/** `bytes (cdb ..) [comm]` or `bytes [comm]`: a SCSI pass-through request (the number read
 * as the sector is its byte count); k is just past that number. */
function passThrough(s: string, b: Codes, k: number, n: number, ev: ParsedEvent): string | null {
  const bytes = ev.sector;
  ev.sector = -1;
  k = skipWs(b, k, n);
  let cdb = '';
  if (code(b, k, n) === 40) {
    const close = closeParen(b, k, n);
    if (close < 0) return 'an unclosed "(" in a pass-through line';
    cdb = s.slice(k + 1, close);
    k = skipWs(b, close + 1, n);
  }
  ev.pc = { bytes, cdb };
  return bracketComm(s, b, k, n, ev, false);
}

/** the end of s[from, n) without trailing blanks */
function trimEnd(b: Codes, from: number, n: number): number {
  let e = n;
  while (e > from && isSpace(b[e - 1]!)) e--;
  return e;
}

/** the index of the line's last `]` when a `[` is at i, else −1 */
function bracketEnd(b: Codes, i: number, n: number): number {
  if (code(b, i, n) !== 91) return -1;
  for (let k = n - 1; k >= lineStart; k--) if (b[k]! === 93) return k;
  return -1;
}

/** `[comm]` (or `[error]` when `error`) at i, the last thing on the line. */
function bracketComm(
  s: string,
  b: Codes,
  i: number,
  n: number,
  ev: ParsedEvent,
  error: boolean,
): string | null {
  const close = bracketEnd(b, i, n);
  if (close < 0) return error ? 'no [error] at the end of a completion' : 'no [command] at the end';
  if (error) {
    let k = i + 1;
    const neg = code(b, k, n) === 45;
    if (neg) k++;
    const v = uint(b, k, close);
    if (v < 0) return 'the [error] of a completion is not a number';
    ev.error = neg ? -v : v;
  } else ev.comm = intern(s, b, i + 1, close);
  return null;
}

/** `(elapsed)` of blkparse -t (optional), then the bracket. */
function elapsedThenBracket(
  s: string,
  b: Codes,
  i: number,
  n: number,
  ev: ParsedEvent,
  error: boolean,
): string | null {
  if (code(b, i, n) === 40) {
    const close = closeParen(b, i, n);
    if (close < 0) return 'an unclosed "("';
    const v = uint(b, skipWs(b, i + 1, n), close);
    if (v >= 0) ev.elapsedNs = v;
    i = skipWs(b, close + 1, n);
  }
  return bracketComm(s, b, i, n, ev, error);
}

/** `sector` or `sector + n` at i: the index after it, or the reason it is unreadable. */
function sectorPlus(b: Codes, i: number, n: number, ev: ParsedEvent): number | string {
  const sector = readUint(b, i, n);
  let j = tokEnd;
  if (sector === -2) return 'sector overflow: beyond 2^53';
  if (sector < 0) {
    return code(b, i, n) === 45 ? 'a negative sector or size' : 'no sector number';
  }
  ev.sector = sector;
  const k = skipWs(b, j, n);
  if (code(b, k, n) === 43 /* + */) {
    const a = skipWs(b, k + 1, n);
    const nb = readUint(b, a, n);
    j = tokEnd;
    if (nb === -2 || nb > MAX_SECTORS) return 'size overflow: more blocks than a 32-bit byte count';
    if (nb < 0) return code(b, a, n) === 45 ? 'a negative size' : 'no block count after "+"';
    if (sector + nb > MAX_EXACT) return 'sector overflow: beyond 2^53';
    ev.nSectors = nb;
  }
  return j;
}

// ---- lines that are not blkparse's default event lines ----

const FTRACE =
  /^\s*(.*?)-(\d+)\s+(?:\(\s*[\d-]+\)\s+)?\[(\d+)\]\s+(?:\S+\s+)?(\d+\.\d+):\s+(\d+,\d+)\s+(.*)$/;

function otherLine(s: string, b: Codes, i: number, line: number): LineResult {
  const c = b[i]!;
  // ftrace's default layout: `comm-pid [cpu] flags time: maj,min act rwbs payload`
  if (s.indexOf(']') > 0 && s.indexOf(': ') > 0) {
    const m = FTRACE.exec(s);
    if (m) return ftraceLine(s, b, m, line);
  }
  if (c === 67 /* C */ || c === 84 /* T */) {
    const m = /^(CPU\d+|Total) \(([^)]*)\):\s*$/.exec(s.slice(i));
    if (m) return { kind: 'summary', summary: { kind: 'header', scope: m[1]!, dev: m[2]! } };
  }
  if (s.startsWith('Throughput', i)) {
    const m = /^Throughput \(R\/W\): ([\d,]+)KiB\/s \/ ([\d,]+)KiB\/s/.exec(s.slice(i));
    if (m) {
      return {
        kind: 'summary',
        summary: {
          kind: 'throughput',
          read: num(m[1]!),
          write: num(m[2]!),
          raw: s.slice(i + 18).trim(),
        },
      };
    }
  }
  if (s.startsWith('Events', i)) {
    const m = /^Events \(([^)]*)\): ([\d,]+) entries(?:, ([\d,]+) skips)?/.exec(s.slice(i));
    if (m) {
      const summary: SummaryLine = { kind: 'events', dev: m[1]!, entries: num(m[2]!) };
      if (m[3] !== undefined) summary.skips = num(m[3]);
      return { kind: 'summary', summary };
    }
  }
  if (s.startsWith('Skips:', i))
    return { kind: 'summary', summary: { kind: 'skips', raw: s.slice(i + 6).trim() } };
  if (s.startsWith('Input file ', i) && s.endsWith(' added')) return SKIP;
  const fields = summaryFields(s);
  if (fields) return { kind: 'summary', summary: { kind: 'fields', fields } };
  return problem('not a blkparse line');
}

function ftraceLine(s: string, b: Codes, m: RegExpExecArray, line: number): LineResult {
  const tNs = time(new TextEncoder().encode(m[4]), 0, m[4]!.length); // digits and a dot: ASCII
  if (tNs < 0) return problem('time stamp too large');
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
  lineStart = 0;
  const ev = newEvent(line, 'ftrace', m[5]!, Number(m[3]), -1, tNs, Number(m[2]), cgroup);
  const r = actionAndPayload(s, b, i, j, n, ev);
  return typeof r === 'string' ? problem(r) : { kind: 'event', event: r };
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
