// The reader for the line as blkparse prints nearly all of them (event-line.ts's fast path).
import { ACTION_OF } from './actions';
import { RWBS_LETTER, intern, type Codes } from './codes';
import type { ParsedEvent } from './parsed-event';

/**
 * The line as blkparse prints nearly all of them — `maj,min cpu seq sec.ns pid action rwbs`
 * then `sector + n [comm]` (`[error]` on C and R), a flush's `[comm]` or `sector [error]`,
 * a split's `sector / sector [comm]` (X), `[comm]` (P, U), `[comm] count` (U) or a message
 * (m) — read into `ev` in one pass with no call on its way: true when the line is exactly
 * that shape and sound. Any other line (tabs, a cgroup column, ftrace's layout, remaps,
 * pass-through, `-t`, an overflow, a mistake) gives false, having decided nothing:
 * eventLine then reads it from the start, and says what is wrong with it. So this
 * reader only needs to recognise the common shape, never to explain a bad line; what it
 * accepts, eventLine would read alike (tests/trace, and the same events on every shared
 * trace and on mutated lines). The short texts an event repeats are found by a number that
 * encodes their text exactly (see TextCache), checked inline: no string is compared or cut
 * on a hit.
 */
export function commonLine(
  s: string,
  b: Codes,
  i: number,
  n: number,
  line: number,
  ev: ParsedEvent,
): boolean {
  const t = texts;
  // The module's tables and limits read once, as locals, and codes.ts's limits as literals
  // (tests/trace/common-line.test.ts holds them equal): the CLI's bundle loads these modules
  // lazily, which turns their constants into variables, and compiled code reloads and checks
  // a variable at every use — in the loops below, at every character (issue 19).
  const letters = RWBS_LETTER;
  const actionOf = ACTION_OF;
  const sized = ACTION_HAS_SIZE;
  const slotMask = TEXT_SLOTS - 1;
  const maxExact = Number.MAX_SAFE_INTEGER; // MAX_EXACT
  const maxCpu = 65_535; // MAX_CPU
  const maxSectors = 0xffffffff / 512; // MAX_SECTORS
  const rwbsMax = 8; // RWBS_MAX
  const key12Max = 8; // the longest device whose key is exact (TextCache)
  const key128Max = 7; // the longest command whose key is exact (TextCache)
  // the device "maj,min", read as base-12 digits (1–10, the comma 11) for its key
  const d0 = i;
  let c = b[i]!;
  let key = 0;
  do {
    key = key * 12 + (c - 47);
    c = b[++i]!;
  } while (c >= 48 && c <= 57);
  if (c !== 44) return false;
  c = b[++i]!;
  if (c < 48 || c > 57) return false;
  key = key * 12 + 11;
  do {
    key = key * 12 + (c - 47);
    c = b[++i]!;
  } while (c >= 48 && c <= 57);
  if (c !== 32) return false;
  let dev: string;
  if (key === t.devKey && i - d0 <= key12Max) dev = t.dev;
  else {
    dev = intern(s, b, d0, i);
    t.devKey = i - d0 <= key12Max ? key : -1;
    t.dev = dev;
  }
  // CPU, sequence number: digits, each after blanks and before a blank
  i = pastBlanks(b, i);
  c = b[i]!;
  if (c < 48 || c > 57) return false;
  let cpu = 0;
  do {
    cpu = cpu * 10 + (c - 48);
    c = b[++i]!;
  } while (c >= 48 && c <= 57);
  if (c !== 32) return false;
  i = pastBlanks(b, i);
  c = b[i]!;
  if (c < 48 || c > 57) return false;
  let seq = 0;
  do {
    seq = seq * 10 + (c - 48);
    c = b[++i]!;
  } while (c >= 48 && c <= 57);
  if (c !== 32) return false;
  // the time: seconds, a dot, 1 to 9 digits of fraction
  i = pastBlanks(b, i);
  c = b[i]!;
  if (c < 48 || c > 57) return false;
  let sec = 0;
  do {
    sec = sec * 10 + (c - 48);
    c = b[++i]!;
  } while (c >= 48 && c <= 57);
  if (c !== 46) return false;
  const f0 = i + 1;
  // blkparse's nine digits and a blank at once; any other fraction digit by digit
  let frac = f0 + 9 < n && b[f0 + 9] === 32 ? nanoseconds(b, f0) : -1;
  if (frac >= 0) i = f0 + 9;
  else {
    frac = 0;
    c = b[++i]!;
    while (c >= 48 && c <= 57) {
      frac = frac * 10 + (c - 48);
      c = b[++i]!;
    }
    if (c !== 32 || i === f0 || i - f0 > 9) return false;
    for (let d = i - f0; d < 9; d++) frac *= 10;
  }
  const tNs = sec * 1e9 + frac;
  // the PID
  i = pastBlanks(b, i);
  c = b[i]!;
  if (c < 48 || c > 57) return false;
  let pid = 0;
  do {
    pid = pid * 10 + (c - 48);
    c = b[++i]!;
  } while (c >= 48 && c <= 57);
  if (c !== 32) return false;
  if (cpu > maxCpu || seq > maxExact || sec > maxExact || tNs > maxExact || pid > maxExact)
    return false;
  // the action: one letter, or UT
  i = pastBlanks(b, i);
  c = b[i]!;
  const code0 = c;
  let action = actionOf[c]!;
  if (action === null) return false;
  c = b[++i]!;
  if (c === 84 && code0 === 85) {
    action = 'UT';
    c = b[++i]!;
  }
  if (c !== 32) return false;
  // RWBS: 1 to RWBS_MAX letters, read as base-11 digits for its key
  i = pastBlanks(b, i);
  c = b[i]!;
  const r0 = i;
  key = 0;
  for (let l = letters[c]!; l > 0; l = letters[b[++i]!]!) key = key * 11 + l;
  if (i === r0 || i - r0 > rwbsMax || (i < n && b[i] !== 32)) return false;
  const slot = key & slotMask;
  let rwbs = t.rwbs[slot]!;
  if (t.rwbsKey[slot] !== key) {
    rwbs = intern(s, b, r0, i);
    t.rwbsKey[slot] = key;
    t.rwbs[slot] = rwbs;
  }
  const first = b[r0]! === 70 /* F */ ? (i > r0 + 1 ? b[r0 + 1]! : -1) : b[r0]!;
  const write = first === 87 /* W */ || first === 68; /* D */
  // the payload, after the one space blkparse prints
  if (i < n) i++;
  let sector = -1;
  let size = 0;
  let comm: string | undefined;
  let error: number | undefined;
  let count: number | undefined;
  let message: string | undefined;
  let split: number | undefined;
  if (code0 === 109 /* m */) {
    // trim() only when an end may be a blank (a printable ASCII character at each is not)
    message = s.slice(i, n);
    if (i < n && (b[i]! < 33 || b[i]! > 126 || b[n - 1]! < 33 || b[n - 1]! > 126))
      message = message.trim();
  } else {
    while (b[i] === 32) i++;
    let open = i; // the `[`
    let close = n - 1; // the line's last `]`
    c = b[i]!;
    if (code0 === 80 /* P */ || code0 === 85 /* U */) {
      if (c !== 91) return false;
      c = b[close]!;
      if (c !== 93) {
        // U's count after the bracket: `[comm] count`
        if (code0 !== 85 || c < 48 || c > 57) return false;
        let k = close;
        while (b[k - 1]! >= 48 && b[k - 1]! <= 57) k--;
        close = k - 2;
        if (b[k - 1] !== 32 || b[close] !== 93 || close <= open) return false;
        count = 0;
        for (; k < n; k++) count = count * 10 + (b[k]! - 48);
        if (count > maxExact) return false;
      } else if (close <= open) return false;
    } else {
      // `sector + n [comm]`: Q G I D M F S B, and C R with [error]; also a flush's
      // `[comm]` (Q…B) and `sector [error]` (C R), and a split's `sector / sector [comm]` (X)
      const completion = code0 === 67 /* C */ || code0 === 82; /* R */
      if (c === 91) {
        // C and R with no sector are pass-through completions
        if (sized[code0] !== 1 || completion) return false;
      } else {
        if (c < 48 || c > 57 || (sized[code0] !== 1 && code0 !== 88)) return false;
        sector = 0;
        do {
          sector = sector * 10 + (c - 48);
          c = b[++i]!;
        } while (c >= 48 && c <= 57);
        if (c !== 32 || sector > maxExact) return false;
        c = b[i + 1]!;
        if (c === 91 && completion) i++;
        else {
          // the size after ` + `, or X's second sector after ` / `
          if (c !== (code0 === 88 ? 47 /* / */ : 43) /* + */ || b[i + 2] !== 32) return false;
          i += 3;
          c = b[i]!;
          if (c < 48 || c > 57) return false;
          let v = 0;
          do {
            v = v * 10 + (c - 48);
            c = b[++i]!;
          } while (c >= 48 && c <= 57);
          if (c !== 32) return false;
          i++;
          if (code0 === 88) {
            if (v > maxExact) return false;
            split = v;
          } else {
            // a size of 0 is a pass-through request's; overflows are eventLine's to report
            if (v === 0 || v > maxSectors || sector + v > maxExact) return false;
            size = v;
          }
        }
        open = i;
      }
      if (b[open] !== 91 || b[close] !== 93 || close <= open) return false;
      if (code0 === 67 /* C */ || code0 === 82 /* R */) {
        let k = open + 1;
        const neg = b[k] === 45; /* - */
        if (neg) k++;
        if (k === close) return false;
        let v = 0;
        for (; k < close; k++) {
          c = b[k]!;
          if (c < 48 || c > 57) return false;
          v = v * 10 + (c - 48);
        }
        if (v > maxExact) return false;
        error = neg ? -v : v;
      }
    }
    if (error === undefined) {
      // the command, read as base-128 digits (printable ASCII, at most key128Max) for its
      // key; −1: no key (too long, or another character)
      key = close - open - 1 <= key128Max ? 0 : -1;
      let h = 0;
      for (let k = open + 1; k < close && key >= 0; k++) {
        c = b[k]!;
        if (c < 32 || c > 126) {
          key = -1;
          break;
        }
        key = key * 128 + c;
        h = (h * 31 + c) & slotMask;
      }
      if (key >= 0 && t.commKey[h] === key) comm = t.comm[h]!;
      else {
        comm = intern(s, b, open + 1, close);
        if (key >= 0) {
          t.commKey[h] = key;
          t.comm[h] = comm;
        }
      }
    }
  }
  ev.line = line;
  ev.format = 'blkparse';
  ev.dev = dev;
  ev.cpu = cpu;
  ev.seq = seq;
  ev.tNs = tNs;
  ev.pid = pid;
  ev.action = action;
  ev.rwbs = rwbs;
  ev.write = write;
  ev.sector = sector;
  ev.nSectors = size;
  ev.cgroup = undefined;
  ev.comm = comm;
  ev.error = error;
  ev.count = count;
  ev.message = message;
  ev.splitSector = split;
  ev.remapDev = undefined;
  ev.remapSector = undefined;
  ev.pc = undefined;
  ev.elapsedNs = undefined;
  return true;
}

/** Past the blank at i and any after it: the index of the next other character. Two at a
 * time: blkparse pads its columns with blanks, and a loop checks the array, its bounds and
 * for interrupts at every turn (issue 19). */
function pastBlanks(b: Codes, i: number): number {
  while (b[i + 1] === 32) {
    if (b[i + 2] !== 32) return i + 2;
    i += 2;
  }
  return i + 1;
}

/** The nine digits at b[i, i + 9) as a number, or −1 when they are not all digits: the
 * nanoseconds blkparse prints (%09lu), read without a loop — a loop checks the array, its
 * bounds and for interrupts at every digit (issue 19). */
function nanoseconds(b: Codes, i: number): number {
  const d0 = b[i]! - 48;
  const d1 = b[i + 1]! - 48;
  const d2 = b[i + 2]! - 48;
  const d3 = b[i + 3]! - 48;
  const d4 = b[i + 4]! - 48;
  const d5 = b[i + 5]! - 48;
  const d6 = b[i + 6]! - 48;
  const d7 = b[i + 7]! - 48;
  const d8 = b[i + 8]! - 48;
  // a digit is 0–9; anything else is below 0 or above 9 once 48 is taken off
  if ((d0 | d1 | d2 | d3 | d4 | d5 | d6 | d7 | d8) < 0) return -1;
  if (d0 > 9 || d1 > 9 || d2 > 9 || d3 > 9 || d4 > 9 || d5 > 9 || d6 > 9 || d7 > 9 || d8 > 9)
    return -1;
  const high = (((d0 * 10 + d1) * 10 + d2) * 10 + d3) * 10 + d4;
  return high * 10_000 + ((d5 * 10 + d6) * 10 + d7) * 10 + d8;
}

/** the actions whose payload is `sector + n [comm]` ([error] for C and R), by character code */
const ACTION_HAS_SIZE = new Uint8Array(256);
for (const a of 'QGIDMFSBCR') ACTION_HAS_SIZE[a.charCodeAt(0)] = 1;

/** Texts that commonLine found, by a number that encodes their text exactly: a device
 * `maj,min` in base 12 (digits 1–10, the comma 11), RWBS in base 11 (its letters' numbers,
 * RWBS_LETTER), a command of printable ASCII in base 128 — no digit is 0, so the number is
 * the text's alone while it is exact: a device of at most 8 characters (12^8, a 32-bit
 * integer), a command of at most 7 (128^7 = 2^49, below 2^53). One device, and small
 * direct-mapped tables for RWBS and commands: a collision costs only a miss (intern). */
class TextCache {
  devKey = -1;
  dev = '';
  readonly rwbsKey = new Float64Array(TEXT_SLOTS).fill(-1);
  readonly rwbs: string[] = new Array<string>(TEXT_SLOTS).fill('');
  readonly commKey = new Float64Array(TEXT_SLOTS).fill(-1);
  readonly comm: string[] = new Array<string>(TEXT_SLOTS).fill('');
}
const TEXT_SLOTS = 64;
const texts = new TextCache();
