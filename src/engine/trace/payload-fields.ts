// The readers of the fields an event line carries after its RWBS (action-payload.ts):
// `sector + n`, `[comm]` or `[error]`, `-t`'s `(elapsed)`, a SCSI pass-through's
// `bytes (cdb ..)`. Each reads s[i, n) (codes in b, codes.ts) into the event and gives the
// index after what it read (sectorPlus), whether it read the line (sizedBracket), or null
// or the reason the field is unreadable (the rest); trimEnd and bracketEnd find ends.

import {
  MAX_EXACT,
  MAX_SECTORS,
  closeParen,
  code,
  intern,
  isDigit,
  isSpace,
  readUint,
  skipWs,
  tokEnd,
  uint,
  type Codes,
} from './codes';
import type { ParsedEvent } from './parsed-event';

/** Where the line being parsed starts in s. The `]` closing a command is the line's last
 * one, wherever it is (as blkparse's own reader takes it), and the search stops here. */
let lineStart = 0;

/** Say where the line about to be parsed starts in s (bracketEnd's lower bound). */
export function setLineStart(from: number): void {
  lineStart = from;
}

/** `sector` or `sector + n` at i: the index after it, or the reason it is unreadable. */
export function sectorPlus(b: Codes, i: number, n: number, ev: ParsedEvent): number | string {
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

/** The common payload `sector + n [comm]` (`[error]` when `error`) at i, read in one pass:
 * true when the line is just that and sound; false leaves the line to the general reader
 * (sectorPlus and what follows it), which reads it again from i and says what is wrong. */
export function sizedBracket(
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
export function passThrough(
  s: string,
  b: Codes,
  k: number,
  n: number,
  ev: ParsedEvent,
): string | null {
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

/** `[comm]` (or `[error]` when `error`) at i, the last thing on the line. */
export function bracketComm(
  s: string,
  b: Codes,
  i: number,
  n: number,
  ev: ParsedEvent,
  error: boolean,
): string | null {
  const close = bracketEnd(b, i, n);
  if (close < 0) return error ? 'no [error] at the end of a completion' : 'no [command] at the end';
  const after = skipWs(b, close + 1, n);
  if (after < trimEnd(b, after, n)) return afterBracket(s, after, n);
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
export function elapsedThenBracket(
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

/** Text after the line's last `]`: blkparse prints nothing there (a U's count is read
 * apart), so it is a damaged line, not a field to drop. */
export function afterBracket(s: string, i: number, n: number): string {
  const t = s.slice(i, Math.min(n, i + 24)).trimEnd();
  return `text after the closing "]": "${t}${n - i > 24 ? '…' : ''}"`;
}

/** the end of s[from, n) without trailing blanks */
export function trimEnd(b: Codes, from: number, n: number): number {
  let e = n;
  while (e > from && isSpace(b[e - 1]!)) e--;
  return e;
}

/** the index of the line's last `]` when a `[` is at i, else −1 */
export function bracketEnd(b: Codes, i: number, n: number): number {
  if (code(b, i, n) !== 91) return -1;
  for (let k = n - 1; k >= lineStart; k--) if (b[k]! === 93) return k;
  return -1;
}
