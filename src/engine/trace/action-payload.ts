// What follows the columns of an event line, in every layout (event-line.ts, ftrace-line.ts):
// the action, the RWBS, and the payload each action prints (LINUX-SCHEDULERS.md §6), read
// into the event with the field readers of payload-fields.ts.

import { ACTION_OF, type ParsedAction } from './actions';
import {
  RWBS_LETTER,
  RWBS_MAX,
  closeParen,
  code,
  devComma,
  intern,
  isSpace,
  skipWs,
  tokenEnd,
  uint,
  type Codes,
} from './codes';
import type { ParsedEvent } from './parsed-event';
import {
  bracketComm,
  bracketEnd,
  elapsedThenBracket,
  passThrough,
  sectorPlus,
  sizedBracket,
  trimEnd,
} from './payload-fields';

/** The action, RWBS and payload at s[i…n) into `ev`: the event, or the reason it is unreadable. */
export function actionAndPayload(
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
