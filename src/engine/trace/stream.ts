// The streaming side of the parser: text arrives in chunks of any size (a file read, a
// network stream, a DecompressionStream), lines may be split across chunks, and one line is
// never held beyond `maxLineLength` characters — so a 1 GB trace, or a 10 MB line, parses
// in bounded memory. Each complete line goes through parseLine; events and summary lines go
// to the sink, unreadable lines are counted and the first few kept with their numbers.
import {
  fillCodes,
  newEvent,
  parseEventLine,
  parseLine,
  type Codes,
  type LineFormat,
  type ParsedEvent,
  type SummaryLine,
} from './parse-line';

export interface TraceSink {
  /** With reuseEvents, a sink that keeps the event it is handed returns another object
   * (one it no longer needs) for the feeder to fill next; otherwise it returns nothing. */
  event(e: ParsedEvent): ParsedEvent | void;
  summary(s: SummaryLine, line: number): void;
}

export interface Problem {
  line: number;
  /** the line as read (cut to 120 characters) */
  text: string;
  reason: string;
}

export interface FeedStats {
  lines: number;
  events: number;
  malformed: number;
  /** the first MAX_PROBLEMS unreadable lines */
  problems: Problem[];
  /** a reason the input as a whole cannot be read (binary, wrong encoding, empty) */
  fatal: string | null;
  /** characters read */
  chars: number;
  /** lines of blkparse's summary block */
  summaryLines: number;
  /** blank lines, comments, `Input file … added`: lines = events + summaryLines + skipped + malformed */
  skipped: number;
}

export const MAX_PROBLEMS = 5;
/** a larger chunk is read in windows of this size: the codes of a window are still in the
 * processor's cache when its lines are parsed (1 MiB windows measured ~1.3x slower), and
 * the code buffer stays this small */
const WINDOW = 1 << 16;
/** no blkparse line comes near this; a longer one is reported and skipped, not held */
export const DEFAULT_MAX_LINE = 64 * 1024;
const QUOTE = 120;

export class TraceFeeder {
  readonly stats: FeedStats = {
    lines: 0,
    events: 0,
    malformed: 0,
    problems: [],
    fatal: null,
    chars: 0,
    summaryLines: 0,
    skipped: 0,
  };
  private pending = '';
  /** characters of the current line dropped because it is too long */
  private overlong = 0;
  private started = false;
  /** blkparse's layout or ftrace's blk_classic, from the first such event line (layoutClash) */
  private layout: LineFormat | null = null;
  /** the character codes of the text being scanned (parse-line.ts), reused chunk to chunk */
  private codes: Codes = new Uint8Array(0);

  /** the one event refilled line after line, when the sink keeps no event (else null) */
  private scratch: ParsedEvent | null;

  /** `reuseEvents`: the sink keeps nothing of an event beyond its call (TraceSummary) or
   * hands back a spare for the one it keeps (TimeOrder), so one event object is refilled
   * for every line instead of a new one each (less garbage). */
  constructor(
    private readonly sink: TraceSink,
    private readonly maxLineLength = DEFAULT_MAX_LINE,
    reuseEvents = false,
  ) {
    this.scratch = reuseEvents ? newEvent(0, 'blkparse', '', 0, 0, 0, 0, undefined) : null;
  }

  feed(chunk: string): void {
    if (!this.admit(chunk)) return;
    for (let at = 0; at < chunk.length; at += WINDOW)
      this.scan(chunk.length <= WINDOW ? chunk : chunk.slice(at, at + WINDOW), null);
  }

  /**
   * A chunk known to be ASCII, with its bytes: `codes[i]` is `text.charCodeAt(i)` for every
   * i. The bytes are already the codes the scanners read, so the text is not re-encoded
   * (fillCodes) — the CLI reads a file's ASCII chunks this way, skipping the UTF-8 decoder
   * and the encoder (issue 19: the round trip was a fifth of `spindle parse`'s time).
   */
  feedAscii(text: string, codes: Uint8Array): void {
    if (this.admit(text)) this.scan(text, codes);
  }

  /** Count a chunk in; false if the input is refused (now or before) or the chunk empty. */
  private admit(chunk: string): boolean {
    if (this.stats.fatal !== null || chunk.length === 0) return false;
    this.stats.chars += chunk.length;
    if (!this.started) {
      this.started = true;
      const why = sniff(chunk);
      if (why !== null) {
        this.stats.fatal = why;
        return false;
      }
    }
    return true;
  }

  /** `codes`: the chunk's codes when the caller has them, else null (filled here). */
  private scan(chunk: string, codes: Codes | null): void {
    let from = 0;
    let nl = chunk.indexOf('\n');
    if (nl < 0) {
      this.hold(chunk);
      return;
    }
    // the line begun in an earlier chunk
    if (this.pending.length > 0 || this.overlong > 0) {
      this.hold(chunk.slice(0, nl));
      this.flushPending();
      from = nl + 1;
      nl = chunk.indexOf('\n', from);
    }
    if (nl < 0) {
      if (from < chunk.length) this.hold(chunk.slice(from));
      return;
    }
    from = this.lines(chunk, codes ?? this.codesOf(chunk), from, nl);
    if (from < chunk.length) this.hold(chunk.slice(from));
  }

  /** The complete lines of `chunk` from `from` (nl: the first newline): returns where the
   * unfinished last line starts. The hot loop, alone in its method: V8 compiles it while it
   * runs (on-stack replacement), and code after it that had never run would bail out of the
   * compiled loop at every chunk. */
  private lines(chunk: string, codes: Codes, from: number, nl: number): number {
    let nul = chunk.indexOf('\u0000', from); // -1 in any text file: one search per chunk
    while (nl >= 0) {
      if (nl - from > this.maxLineLength) this.tooLong(chunk.slice(from, from + QUOTE), nl - from);
      else if (nul >= 0 && nul < nl) this.nulLine(chunk.slice(from, nl), nul - from);
      else this.line(chunk, codes, from, nl);
      from = nl + 1;
      if (nul >= 0 && nul < from) nul = chunk.indexOf('\u0000', from);
      nl = chunk.indexOf('\n', from); // a native search: several times faster than a loop here
    }
    return from;
  }

  /** The input is complete: the last line may lack its newline. */
  end(): FeedStats {
    if (this.stats.fatal === null) {
      if (this.pending.length > 0 || this.overlong > 0) this.flushPending();
      if (this.stats.chars === 0) this.stats.fatal = 'the input is empty';
      else if (this.stats.events === 0 && this.stats.summaryLines === 0) {
        const first = this.stats.problems[0];
        this.stats.fatal =
          first !== undefined
            ? `no blkparse event lines: none of the ${this.stats.lines} lines is a trace event (line ${first.line}: ${first.reason}: "${first.text}")`
            : 'no blkparse event lines in the input (only blank or comment lines)';
      }
    }
    return this.stats;
  }

  private hold(part: string): void {
    if (this.overlong > 0) {
      this.overlong += part.length;
      return;
    }
    if (this.pending.length + part.length > this.maxLineLength) {
      this.overlong = this.pending.length + part.length;
      this.pending = (this.pending + part.slice(0, QUOTE)).slice(0, QUOTE);
      return;
    }
    this.pending += part;
  }

  private flushPending(): void {
    const text = this.pending;
    this.pending = '';
    if (this.overlong > 0) {
      const len = this.overlong;
      this.overlong = 0;
      this.tooLong(text, len);
    } else {
      const nul = text.indexOf('\u0000');
      if (nul >= 0) this.nulLine(text, nul);
      else this.line(text, this.codesOf(text), 0, text.length);
    }
  }

  /** A line with a NUL byte in it: binary data where text was, counted wherever it is (the
   * whole input is refused only when its start is mostly binary: sniff). */
  private nulLine(text: string, at: number): void {
    this.stats.lines++;
    this.bad(
      text.replaceAll('\u0000', '\u2400'),
      `a NUL byte at column ${at + 1}: binary data inside a line of text`,
    );
  }

  /** The layout the file's first blkparse-style event line had: blkparse's (with a sequence
   * number after the CPU) or ftrace's blk_classic (without). A later line of the other one
   * lost or gained a column — one tool wrote the file — and is not read as the other
   * layout, which would make the sequence number a CPU. */
  private layoutClash(format: LineFormat): string | null {
    if (format !== 'blkparse' && format !== 'ftrace-classic') return null;
    if (this.layout === null) this.layout = format;
    if (format === this.layout) return null;
    return format === 'ftrace-classic'
      ? "a column is missing: this file's lines are blkparse's (CPU, then a sequence number, then the time); this one has a single number between the device and the time"
      : "a column too many: this file's lines are ftrace's blk_classic (CPU, then the time); this one has two numbers between the device and the time";
  }

  /** the codes of `text`, in the reused buffer (grown to the largest window or line held) */
  private codesOf(text: string): Codes {
    if (this.codes.length <= text.length) this.codes = new Uint8Array(text.length + 1);
    fillCodes(text, this.codes);
    return this.codes;
  }

  private tooLong(start: string, length: number): void {
    this.stats.lines++;
    this.bad(
      start,
      `line too long (${length} characters; no blkparse line exceeds ${this.maxLineLength})`,
    );
  }

  /** One complete line, buf[from, to): blkparse's event lines (nearly all of a trace) are
   * read in place; only the rest (summary block, ftrace layout, comments) is cut out. */
  private line(buf: string, codes: Codes, from: number, to: number): void {
    const line = ++this.stats.lines;
    if (to > from && codes[to - 1] === 13) to--; // CRLF
    const ev = parseEventLine(buf, codes, from, to, line, this.scratch);
    if (ev === null) this.otherLine(buf.slice(from, to), line);
    else if (typeof ev === 'string') this.bad(buf.slice(from, to), ev);
    else if (ev.format !== this.layout && this.layoutClash(ev.format) !== null)
      this.bad(buf.slice(from, to), this.layoutClash(ev.format)!);
    else {
      this.stats.events++;
      const spare = this.sink.event(ev);
      if (spare) this.scratch = spare;
    }
  }

  private otherLine(text: string, line: number): void {
    const r = parseLine(text, line);
    switch (r.kind) {
      case 'event': {
        const clash = this.layoutClash(r.event.format);
        if (clash !== null) {
          this.bad(text, clash);
          break;
        }
        this.stats.events++;
        this.sink.event(r.event);
        break;
      }
      case 'summary':
        this.stats.summaryLines++;
        this.sink.summary(r.summary, line);
        break;
      case 'problem':
        this.bad(text, r.reason);
        break;
      case 'skip':
        this.stats.skipped++;
        break;
    }
  }

  private bad(text: string, reason: string): void {
    this.stats.malformed++;
    if (this.stats.problems.length < MAX_PROBLEMS) {
      this.stats.problems.push({
        line: this.stats.lines,
        text: text.length > QUOTE ? text.slice(0, QUOTE) + '…' : text,
        reason,
      });
    }
  }
}

/** Reasons the whole input is not blkparse text, from its first chunk: decided on the whole
 * sample (its first 4,096 characters) by what most of it is, never by one byte — a stray NUL
 * in a line is that line's problem (nulLine), wherever the line is. */
export function sniff(chunk: string): string | null {
  const head = chunk.slice(0, 4096);
  // blktrace's binary records start with the magic 0x65617407 (either byte order)
  if (head.startsWith('\u0007tae') || head.startsWith('eat\u0007')) {
    return 'this is a binary blktrace file (per-CPU *.blktrace.N): run blkparse on it first, e.g. `blkparse -i <device> > trace.txt`, and parse the text';
  }
  const n = head.length;
  // NULs at even and at odd places, other control characters, undecodable bytes
  let nulEven = 0;
  let nulOdd = 0;
  let control = 0;
  let bad = 0;
  for (let i = 0; i < n; i++) {
    const c = head.charCodeAt(i);
    if (c === 0) {
      if (i & 1) nulOdd++;
      else nulEven++;
    } else if (c === 0xfffd) bad++;
    else if (c < 32 && c !== 9 && c !== 10 && c !== 13) control++;
  }
  const nul = nulEven + nulOdd;
  if (nul === n) {
    return `the input is nothing but zero bytes (NUL): the file was never written, or was zero-filled${n === 4096 ? ' (at least its first 4,096 bytes)' : ''}`;
  }
  const utf16 =
    (head.startsWith('\uFEFF') && n > 1 && head.charCodeAt(1) === 0) ||
    head.startsWith('\uFFFE') ||
    head.startsWith('\uFFFD\uFFFD') ||
    // ASCII text as UTF-16: every other character a NUL, the ones between not
    (n >= 8 &&
      Math.max(nulEven, nulOdd) >= 0.9 * (n / 2) &&
      Math.min(nulEven, nulOdd) <= 0.1 * (n / 2));
  if (utf16 && nul > 0) {
    return 'the input is UTF-16 text (every other byte is 0): convert it to UTF-8 or ASCII first (e.g. `iconv -f UTF-16 -t UTF-8`)';
  }
  // binary: a tenth of the sample is NULs and control characters that text never has
  if ((nul + control) * 10 >= n) {
    if (head.includes('# tracer: blk'))
      return 'this is ftrace binary output (trace_options bin): read it with blkparse (after converting to blktrace files) or capture the text output (trace_options nobin)';
    return `the input is binary, not blkparse text (${Math.round((100 * (nul + control)) / n)}% of its first ${n} bytes are NULs and control characters; a binary blktrace file needs \`blkparse -i <device>\` first; a compressed file needs a .gz name)`;
  }
  if (bad > 16 && bad * 20 > n) {
    return 'the input is not UTF-8 or ASCII text (many undecodable bytes): is it compressed or in another encoding?';
  }
  if (head.charCodeAt(0) === 0x1f && head.charCodeAt(1) === 0xfffd) {
    return 'the input looks gzip-compressed: give it a .gz name, or gunzip it first';
  }
  return null;
}
