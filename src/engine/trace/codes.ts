// The character-level scanners of the trace parser (parse-line.ts): every one reads b[i, n),
// the character codes of a text s, index for index, in a byte array — reading a Uint8Array
// is several times faster than s.charCodeAt, whose cost depends on how the engine happens to
// hold the string. A line may be a stretch of a larger chunk (the feeder passes the chunk
// and the line's bounds, so no line is copied), and n is the line's end. Strings are cut
// from s only for what an event keeps (intern).

/** Sectors beyond 2^53 cannot be held exactly (the kernel's are u64). */
export const MAX_EXACT = Number.MAX_SAFE_INTEGER;

/** The largest CPU number read: a trace's per-CPU figures are kept per number, and Linux's
 * NR_CPUS is far below this (a larger one is a damaged line, not 100,000 CPUs' tables). */
export const MAX_CPU = 65_535;

/** A sector count beyond a 32-bit byte count cannot come from the kernel (bytes is u32). */
export const MAX_SECTORS = 0xffffffff / 512;

/** the RWBS letters of every era (§6.3): F flush/FUA, D discard, W, R, N, A ahead, S sync,
 * M meta, B barrier (pre-2.6.36), E secure erase (ftrace's DE) — by character code, each
 * letter's number 1–10 (a digit of commonLine's RWBS key), 0 for any other character */
export const RWBS_LETTER = new Uint8Array(256);
'FDWRNASMBE'.split('').forEach((c, k) => (RWBS_LETTER[c.charCodeAt(0)] = k + 1));
/** no RWBS is longer */
export const RWBS_MAX = 8;

/** Character codes of a text, index for index: ASCII as is, every other character as 128
 * (the parser only ever compares codes with ASCII ones, so any non-ASCII code reads alike). */
export type Codes = Uint8Array;

const encoder = new TextEncoder();

/** Fill `out` (longer than s) with the codes of s, and a 0 after them (a sentinel: scanners
 * for blanks stop there). */
export function fillCodes(s: string, out: Codes): void {
  const r = encoder.encodeInto(s, out);
  if (r.read !== s.length || r.written !== s.length) {
    // not all ASCII (one byte each): character by character
    for (let k = 0; k < s.length; k++) {
      const c = s.charCodeAt(k);
      out[k] = c < 128 ? c : 128;
    }
  }
  out[s.length] = 0;
}

let scratch: Codes = new Uint8Array(256);
/** the codes of one line, in a buffer reused from line to line */
export function codesOf(s: string): Codes {
  if (scratch.length <= s.length)
    scratch = new Uint8Array(Math.max(s.length + 1, scratch.length * 2));
  fillCodes(s, scratch);
  return scratch;
}

// (function declarations, not arrow functions in constants: the CLI's bundle loads this
// module lazily, which would make the constants variables, checked at every call)
export function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
export function isSpace(c: number): boolean {
  return c === 32 || c === 9;
}

/** the character code at i, or −1 past the line's end (never the next line's text) */
export function code(b: Codes, i: number, n: number): number {
  return i < n ? b[i]! : -1;
}
/** past the blanks at i; needs no bound: the code at the line's end n is never a blank (the
 * line's newline or CR, or the 0 fillCodes puts after a text), and no caller passes i > n */
export function skipWs(b: Codes, i: number, _n: number): number {
  while (isSpace(b[i]!)) i++;
  return i;
}
export function tokenEnd(b: Codes, i: number, n: number): number {
  while (i < n && !isSpace(b[i]!)) i++;
  return i;
}
/** the index of the first `)` in s[i, n), or −1 (a loop: indexOf would search the chunk) */
export function closeParen(b: Codes, i: number, n: number): number {
  for (; i < n; i++) if (b[i]! === 41) return i;
  return -1;
}

/** Unsigned decimal in s[i, j): the value, −1 if not all digits (or empty), −2 if too big. */
export function uint(b: Codes, i: number, j: number): number {
  if (i >= j) return -1;
  let v = 0;
  for (let k = i; k < j; k++) {
    const c = b[k]!;
    if (c < 48 || c > 57) return -1;
    v = v * 10 + (c - 48);
  }
  return v > MAX_EXACT ? -2 : v;
}

export function hasComma(b: Codes, i: number, j: number): boolean {
  for (let k = i; k < j; k++) if (b[k]! === 44) return true;
  return false;
}

/** "maj,min" in s[i, j): the comma's index, or −1. */
export function devComma(b: Codes, i: number, j: number): number {
  let comma = -1;
  for (let k = i; k < j; k++) {
    const c = b[k]!;
    if (c === 44) {
      if (comma >= 0) return -1;
      comma = k;
    } else if (!isDigit(c)) return -1;
  }
  return comma > i && comma < j - 1 ? comma : -1;
}

/** "sec.frac" in s[i, j) → integer ns (a fraction of 1 to 9 digits), −1 if not a time, −2
 * if too large. One pass: the seconds' digits up to the dot, then the fraction's. */
export function time(b: Codes, i: number, j: number): number {
  let k = i;
  let sec = 0;
  for (; k < j; k++) {
    const c = b[k]!;
    if (c === 46) break;
    if (c < 48 || c > 57) return -1;
    sec = sec * 10 + (c - 48);
  }
  if (k === j) return -1; // no dot
  if (k === i) return -1; // no seconds
  if (sec > MAX_EXACT) return -2;
  const fracLen = j - k - 1;
  if (fracLen < 1 || fracLen > 9) return -1;
  let frac = 0;
  for (k++; k < j; k++) {
    const c = b[k]!;
    if (c < 48 || c > 57) return -1;
    frac = frac * 10 + (c - 48);
  }
  for (let d = fracLen; d < 9; d++) frac *= 10;
  const ns = sec * 1e9 + frac;
  return ns > MAX_EXACT ? -2 : ns;
}

/** Where the token read by readUint or readTime ends (a second result, kept here so that
 * the hot path returns plain numbers). */
export let tokEnd = 0;

/** The token at i as uint(): its value, −1 or −2; tokEnd = its end. One pass over digits. */
export function readUint(b: Codes, i: number, n: number): number {
  let v = 0;
  let k = i;
  for (; k < n; k++) {
    const c = b[k]!;
    if (c < 48 || c > 57) break;
    v = v * 10 + (c - 48);
  }
  if (k < n && !isSpace(b[k]!)) {
    tokEnd = tokenEnd(b, k, n); // a non-digit inside the token
    return -1;
  }
  tokEnd = k;
  if (k === i) return -1;
  return v > MAX_EXACT ? -2 : v;
}

/** The token at i as time(): ns, −1 or −2; tokEnd = its end. One pass. */
export function readTime(b: Codes, i: number, n: number): number {
  let k = i;
  let sec = 0;
  for (; k < n; k++) {
    const c = b[k]!;
    if (c < 48 || c > 57) break;
    sec = sec * 10 + (c - 48);
  }
  if (k === i || k >= n || b[k] !== 46) {
    tokEnd = tokenEnd(b, k, n); // no seconds, or no dot
    return -1;
  }
  const dot = k;
  let frac = 0;
  for (k++; k < n; k++) {
    const c = b[k]!;
    if (c < 48 || c > 57) break;
    frac = frac * 10 + (c - 48);
  }
  if (k < n && !isSpace(b[k]!)) {
    tokEnd = tokenEnd(b, k, n); // a non-digit in the fraction
    return sec > MAX_EXACT ? -2 : -1;
  }
  tokEnd = k;
  if (sec > MAX_EXACT) return -2;
  const fracLen = k - dot - 1;
  if (fracLen < 1 || fracLen > 9) return -1;
  for (let d = fracLen; d < 9; d++) frac *= 10;
  const ns = sec * 1e9 + frac;
  return ns > MAX_EXACT ? -2 : ns;
}

/** An interning cache for the short strings every line repeats (device, RWBS, command):
 * equal text gives the same string, so a line allocates none of them and comparisons
 * downstream are by reference. Direct-mapped and of fixed size, so memory stays bounded;
 * a cached string is a copy, never a view that would keep a whole chunk alive. */
const INTERN_SLOTS = 512;
const INTERN_MAX = 40;
const interned: string[] = new Array<string>(INTERN_SLOTS).fill('');
/** each slot's string as codes (INTERN_MAX per slot) and its length, −1 when empty: a hit is
 * checked byte against byte, without reading the string */
const internedCodes = new Uint8Array(INTERN_SLOTS * INTERN_MAX);
const internedLen = new Int32Array(INTERN_SLOTS).fill(-1);

/**
 * The text as the engine's one copy of it, the copy it keeps of a property name (V8 calls
 * it internalized): compiled code compares two such strings with === by reference, where
 * for other strings it calls a comparison of their text — and the summary compares every
 * event's device and command with the last event's (issue 19: 1.7% of a parse's
 * instructions). Only for the texts intern caches: a miss pays an object and a lookup.
 */
function internalized(text: string): string {
  return Object.keys({ [text]: 0 })[0]!;
}

export function intern(s: string, b: Codes, i: number, j: number): string {
  const len = j - i;
  if (len <= 0) return '';
  if (len > INTERN_MAX) return s.slice(i, j);
  // a cheap hash (length, first, middle and last character): a collision costs only a miss
  const h = len ^ (b[i]! << 2) ^ (b[(i + j) >> 1]! << 4) ^ (b[j - 1]! << 6);
  const slot = (h ^ (h >>> 9)) & (INTERN_SLOTS - 1);
  const at = slot * INTERN_MAX;
  if (internedLen[slot] === len) {
    let k = 0;
    while (k < len && internedCodes[at + k] === b[i + k]) k++;
    if (k === len) return interned[slot]!;
  }
  // concatenating then slicing makes a fresh flat string: a plain slice of ≥ 13 characters
  // would be a view into the chunk and keep all of it alive while cached
  const copy = internalized((' ' + s.slice(i, j)).slice(1));
  // a text with a non-ASCII character is not cached: its codes (128) would match another's
  let ascii = true;
  for (let k = 0; k < len; k++) {
    const c = b[i + k]!;
    if (c >= 128) ascii = false;
    internedCodes[at + k] = c;
  }
  internedLen[slot] = ascii ? len : -1;
  interned[slot] = copy;
  return copy;
}
