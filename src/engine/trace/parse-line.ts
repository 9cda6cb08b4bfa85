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

/** Action codes as blkparse prints them (`UT` is the timer/schedule unplug). */
export type ParsedAction =
  'Q' | 'G' | 'I' | 'D' | 'C' | 'M' | 'F' | 'P' | 'U' | 'UT' | 'X' | 'A' | 'R' | 'S' | 'B' | 'm';

export const ACTIONS: readonly ParsedAction[] = [
  'Q',
  'G',
  'I',
  'D',
  'C',
  'M',
  'F',
  'P',
  'U',
  'UT',
  'X',
  'A',
  'R',
  'S',
  'B',
  'm',
];

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

/** Sectors beyond 2^53 cannot be held exactly (the kernel's are u64). */
const MAX_EXACT = Number.MAX_SAFE_INTEGER;
/** A sector count beyond a 32-bit byte count cannot come from the kernel (bytes is u32). */
const MAX_SECTORS = 0xffffffff / 512;

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isSpace = (c: number): boolean => c === 32 || c === 9;

function skipWs(s: string, i: number): number {
  while (i < s.length && isSpace(s.charCodeAt(i))) i++;
  return i;
}
function tokenEnd(s: string, i: number): number {
  while (i < s.length && !isSpace(s.charCodeAt(i))) i++;
  return i;
}

/** Unsigned decimal in s[i, j): the value, −1 if not all digits (or empty), −2 if too big. */
function uint(s: string, i: number, j: number): number {
  if (i >= j) return -1;
  let v = 0;
  for (let k = i; k < j; k++) {
    const c = s.charCodeAt(k);
    if (c < 48 || c > 57) return -1;
    v = v * 10 + (c - 48);
  }
  return v > MAX_EXACT ? -2 : v;
}

function hasComma(s: string, i: number, j: number): boolean {
  for (let k = i; k < j; k++) if (s.charCodeAt(k) === 44) return true;
  return false;
}

/** "maj,min" in s[i, j): the comma's index, or −1. */
function devComma(s: string, i: number, j: number): number {
  let comma = -1;
  for (let k = i; k < j; k++) {
    const c = s.charCodeAt(k);
    if (c === 44) {
      if (comma >= 0) return -1;
      comma = k;
    } else if (!isDigit(c)) return -1;
  }
  return comma > i && comma < j - 1 ? comma : -1;
}

/** "sec.frac" in s[i, j) → integer ns (a fraction of 1 to 9 digits), or −1. */
function time(s: string, i: number, j: number): number {
  let dot = -1;
  for (let k = i; k < j; k++) {
    if (s.charCodeAt(k) === 46) {
      dot = k;
      break;
    }
  }
  if (dot < 0) return -1;
  const sec = uint(s, i, dot);
  if (sec === -2) return -2;
  const fracLen = j - dot - 1;
  if (sec < 0 || fracLen < 1 || fracLen > 9) return -1;
  let frac = uint(s, dot + 1, j);
  if (frac < 0) return -1;
  for (let k = fracLen; k < 9; k++) frac *= 10;
  const ns = sec * 1e9 + frac;
  return ns > MAX_EXACT ? -2 : ns;
}

const ACTION_SET = new Set<string>(ACTIONS);
/** the RWBS letters of every era (§6.3): F flush/FUA, D discard, W, R, N, A ahead, S sync,
 * M meta, B barrier (pre-2.6.36), E secure erase (ftrace's DE) */
function validRwbs(s: string, i: number, j: number): boolean {
  if (i >= j || j - i > 8) return false;
  for (let k = i; k < j; k++) {
    switch (s.charCodeAt(k)) {
      case 70: // F
      case 68: // D
      case 87: // W
      case 82: // R
      case 78: // N
      case 65: // A
      case 83: // S
      case 77: // M
      case 66: // B
      case 69: // E
        break;
      default:
        return false;
    }
  }
  return true;
}

/** blkparse's direction: the main letter (after an optional leading F = flush) is W, or D
 * (discard is a write op); everything else (R, N: plug lines, empty flushes FN) reads. */
function isWrite(s: string, i: number): boolean {
  let c = s.charCodeAt(i);
  if (c === 70 /* F */) c = s.charCodeAt(i + 1);
  return c === 87 || c === 68;
}

/** Parse one line (no line terminator). `line` is its 1-based number. */
export function parseLine(s: string, line: number): LineResult {
  const n = s.length;
  const i = skipWs(s, 0);
  if (i >= n) return SKIP;
  const c0 = s.charCodeAt(i);
  if (isDigit(c0)) {
    const e1 = tokenEnd(s, i);
    const comma = devComma(s, i, e1);
    if (comma > 0) return eventLine(s, i, e1, line);
    return problem('does not start with a device "major,minor"');
  }
  if (c0 === 35 /* # */) return SKIP; // ftrace header and comments
  return otherLine(s, i, line);
}

function eventLine(s: string, i0: number, e0: number, line: number): LineResult {
  const dev = s.slice(i0, e0);
  // the columns between the device and the action: cpu [seq] time pid [cgroup]
  let i = skipWs(s, e0);
  let j = tokenEnd(s, i);
  const cpu = uint(s, i, j);
  if (cpu < 0) return problem('no CPU column after the device');
  i = skipWs(s, j);
  j = tokenEnd(s, i);
  let seq = -1;
  let format: LineFormat = 'ftrace-classic';
  let tNs = time(s, i, j);
  if (tNs === -1) {
    seq = uint(s, i, j);
    if (seq < 0) return problem('no sequence number or time after the CPU');
    format = 'blkparse';
    i = skipWs(s, j);
    j = tokenEnd(s, i);
    tNs = time(s, i, j);
  }
  if (tNs === -2) return problem('time stamp too large');
  if (tNs < 0) return problem('no time stamp "seconds.nanoseconds"');
  i = skipWs(s, j);
  j = tokenEnd(s, i);
  const pid = uint(s, i, j);
  if (pid < 0) return problem('no PID after the time stamp');
  i = skipWs(s, j);
  j = tokenEnd(s, i);
  let cgroup: string | undefined;
  if (hasComma(s, i, j)) {
    cgroup = s.slice(i, j);
    i = skipWs(s, j);
    j = tokenEnd(s, i);
  }
  return actionAndPayload(s, i, j, line, {
    format,
    dev,
    cpu,
    seq,
    tNs,
    pid,
    cgroup,
  });
}

interface Head {
  format: LineFormat;
  dev: string;
  cpu: number;
  seq: number;
  tNs: number;
  pid: number;
  cgroup: string | undefined;
}

function actionAndPayload(s: string, i: number, j: number, line: number, h: Head): LineResult {
  const action = s.slice(i, j);
  if (!ACTION_SET.has(action)) {
    return problem(
      j > i ? `unknown action "${action.slice(0, 12)}"` : 'the line ends before the action',
    );
  }
  i = skipWs(s, j);
  j = tokenEnd(s, i);
  if (!validRwbs(s, i, j)) {
    return problem(
      j > i ? `bad RWBS "${s.slice(i, Math.min(j, i + 12))}"` : 'no RWBS after the action',
    );
  }
  const rwbs = s.slice(i, j);
  const ev: ParsedEvent = {
    line,
    format: h.format,
    dev: h.dev,
    cpu: h.cpu,
    seq: h.seq,
    tNs: h.tNs,
    pid: h.pid,
    action: action as ParsedAction,
    rwbs,
    write: isWrite(s, i),
    sector: -1,
    nSectors: 0,
    // every field present from the start: one object shape for all events (fast property access)
    cgroup: h.cgroup,
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
  // blkparse prints one space after RWBS; the payload is the rest
  const p = j < s.length ? j + 1 : j;
  const why = payload(s, p, ev);
  return why === null ? { kind: 'event', event: ev } : problem(why);
}

/** Fill the payload fields of `ev` from s[p…]; null, or the reason it is unreadable. */
function payload(s: string, p: number, ev: ParsedEvent): string | null {
  const n = s.length;
  switch (ev.action) {
    case 'm':
      ev.message = s.slice(p).trim();
      return null;
    case 'P':
      return bracketComm(s, skipWs(s, p), ev, false);
    case 'U':
    case 'UT': {
      const i = skipWs(s, p);
      const close = bracketEnd(s, i);
      if (close < 0) return 'no [command] on an unplug line';
      ev.comm = s.slice(i + 1, close);
      const k = skipWs(s, close + 1);
      const e = trimEnd(s);
      if (k < e) {
        const count = uint(s, k, e);
        if (count < 0) return 'the unplug count is not a number';
        ev.count = count;
      }
      return null;
    }
    case 'A': {
      let i = skipWs(s, p);
      const r = sectorPlus(s, i, ev);
      if (typeof r === 'string') return r;
      i = skipWs(s, r);
      if (s.charCodeAt(i) !== 60 || s.charCodeAt(i + 1) !== 45)
        return 'a remap without "<- (maj,min) sector"';
      i = skipWs(s, i + 2);
      const close = s.indexOf(')', i);
      if (s.charCodeAt(i) !== 40 || close < 0) return 'a remap without "(maj,min)"';
      if (devComma(s, i + 1, close) < 0) return 'a remap source that is not "(maj,min)"';
      ev.remapDev = s.slice(i + 1, close);
      i = skipWs(s, close + 1);
      const from = uint(s, i, trimEnd(s));
      if (from === -2) return 'sector overflow: beyond 2^53';
      if (from < 0) return 'a remap without the original sector';
      ev.remapSector = from;
      return null;
    }
    case 'X': {
      let i = skipWs(s, p);
      let j = tokenEnd(s, i);
      const a = uint(s, i, j);
      if (a === -2) return 'sector overflow: beyond 2^53';
      if (a < 0) return 'a split without "sector / sector"';
      i = skipWs(s, j);
      if (s.charCodeAt(i) !== 47) return 'a split without "/"';
      i = skipWs(s, i + 1);
      j = tokenEnd(s, i);
      const b = uint(s, i, j);
      if (b === -2) return 'sector overflow: beyond 2^53';
      if (b < 0) return 'a split without the second sector';
      ev.sector = a;
      ev.splitSector = b;
      return bracketComm(s, skipWs(s, j), ev, false);
    }
    case 'C':
    case 'R': {
      let i = skipWs(s, p);
      if (i >= n) return 'a completion without [error]';
      const c = s.charCodeAt(i);
      if (c === 40 /* ( */ || c === 91 /* [ */) {
        // pass-through completion: `(cdb ..) [error]` or just `[error]`
        if (c === 40) {
          const close = s.indexOf(')', i);
          if (close < 0) return 'an unclosed "(" in a completion';
          ev.pc = { bytes: 0, cdb: s.slice(i + 1, close) };
          i = skipWs(s, close + 1);
        } else ev.pc = { bytes: 0, cdb: '' };
        return bracketComm(s, i, ev, true);
      }
      const r = sectorPlus(s, i, ev);
      if (typeof r === 'string') return r;
      return elapsedThenBracket(s, skipWs(s, r), ev, true);
    }
    default: {
      // Q G I D M F S B
      const i = skipWs(s, p);
      if (i >= n) return 'the line ends before [command]';
      if (s.charCodeAt(i) === 91) return bracketComm(s, i, ev, false);
      if (s.charCodeAt(i) === 40) return elapsedThenBracket(s, i, ev, false);
      const r = sectorPlus(s, i, ev);
      if (typeof r === 'string') return r;
      if (ev.nSectors === 0 && ev.sector >= 0) {
        // `bytes (cdb ..) [comm]` or `bytes [comm]`: a SCSI pass-through request
        const bytes = ev.sector;
        ev.sector = -1;
        let k = skipWs(s, r);
        let cdb = '';
        if (s.charCodeAt(k) === 40) {
          const close = s.indexOf(')', k);
          if (close < 0) return 'an unclosed "(" in a pass-through line';
          cdb = s.slice(k + 1, close);
          k = skipWs(s, close + 1);
        }
        ev.pc = { bytes, cdb };
        return bracketComm(s, k, ev, false);
      }
      return elapsedThenBracket(s, skipWs(s, r), ev, false);
    }
  }
}

function trimEnd(s: string): number {
  let e = s.length;
  while (e > 0 && isSpace(s.charCodeAt(e - 1))) e--;
  return e;
}

/** the index of the `]` closing a `[` at i, or −1 */
function bracketEnd(s: string, i: number): number {
  if (s.charCodeAt(i) !== 91) return -1;
  return s.lastIndexOf(']');
}

/** `[comm]` (or `[error]` when `error`) at i, the last thing on the line. */
function bracketComm(s: string, i: number, ev: ParsedEvent, error: boolean): string | null {
  const close = bracketEnd(s, i);
  if (close < 0) return error ? 'no [error] at the end of a completion' : 'no [command] at the end';
  if (error) {
    let k = i + 1;
    const neg = s.charCodeAt(k) === 45;
    if (neg) k++;
    const v = uint(s, k, close);
    if (v < 0) return 'the [error] of a completion is not a number';
    ev.error = neg ? -v : v;
  } else ev.comm = s.slice(i + 1, close);
  return null;
}

/** `(elapsed)` of blkparse -t (optional), then the bracket. */
function elapsedThenBracket(s: string, i: number, ev: ParsedEvent, error: boolean): string | null {
  if (s.charCodeAt(i) === 40) {
    const close = s.indexOf(')', i);
    if (close < 0) return 'an unclosed "("';
    const v = uint(s, skipWs(s, i + 1), close);
    if (v >= 0) ev.elapsedNs = v;
    i = skipWs(s, close + 1);
  }
  return bracketComm(s, i, ev, error);
}

/** `sector` or `sector + n` at i: the index after it, or the reason it is unreadable. */
function sectorPlus(s: string, i: number, ev: ParsedEvent): number | string {
  let j = tokenEnd(s, i);
  const sector = uint(s, i, j);
  if (sector === -2) return 'sector overflow: beyond 2^53';
  if (sector < 0) {
    return s.charCodeAt(i) === 45 ? 'a negative sector or size' : 'no sector number';
  }
  ev.sector = sector;
  const k = skipWs(s, j);
  if (s.charCodeAt(k) === 43 /* + */) {
    const a = skipWs(s, k + 1);
    j = tokenEnd(s, a);
    const nb = uint(s, a, j);
    if (nb === -2 || nb > MAX_SECTORS) return 'size overflow: more blocks than a 32-bit byte count';
    if (nb < 0) return s.charCodeAt(a) === 45 ? 'a negative size' : 'no block count after "+"';
    if (sector + nb > MAX_EXACT) return 'sector overflow: beyond 2^53';
    ev.nSectors = nb;
  }
  return j;
}

// ---- lines that are not blkparse's default event lines ----

const FTRACE =
  /^\s*(.*?)-(\d+)\s+(?:\(\s*[\d-]+\)\s+)?\[(\d+)\]\s+(?:\S+\s+)?(\d+\.\d+):\s+(\d+,\d+)\s+(.*)$/;

function otherLine(s: string, i: number, line: number): LineResult {
  const c = s.charCodeAt(i);
  // ftrace's default layout: `comm-pid [cpu] flags time: maj,min act rwbs payload`
  if (s.indexOf(']') > 0 && s.indexOf(': ') > 0) {
    const m = FTRACE.exec(s);
    if (m) return ftraceLine(s, m, line);
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

function ftraceLine(s: string, m: RegExpExecArray, line: number): LineResult {
  const tNs = time(m[4]!, 0, m[4]!.length);
  if (tNs < 0) return problem('time stamp too large');
  const rest = m[6]!;
  const restAt = s.length - rest.length;
  let i = restAt;
  let j = tokenEnd(s, i);
  let cgroup: string | undefined;
  if (hasComma(s, i, j)) {
    cgroup = s.slice(i, j);
    i = skipWs(s, j);
    j = tokenEnd(s, i);
  }
  return actionAndPayload(s, i, j, line, {
    format: 'ftrace',
    dev: m[5]!,
    cpu: Number(m[3]),
    seq: -1,
    tNs,
    pid: Number(m[2]),
    cgroup,
  });
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
