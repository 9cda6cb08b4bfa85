// The fast path for blkparse's usual line (common-line.ts) decides nothing of its own: a
// line it reads, eventLine (event-line.ts) reads into the same event, and a line eventLine
// refuses, it refuses too. Checked on every line of the shared traces, at each of the limits
// it writes as literals (issue 19), and on mutated lines.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_CPU, MAX_EXACT, MAX_SECTORS, RWBS_MAX, codesOf } from '../../src/engine/trace/codes';
import { commonLine } from '../../src/engine/trace/common-line';
import { eventLine } from '../../src/engine/trace/event-line';
import { newEvent, type ParsedEvent } from '../../src/engine/trace/parsed-event';
import { setLineStart } from '../../src/engine/trace/payload-fields';
import { dataText } from '../helpers/data';

/** Both readings of a line that starts with a digit (after blanks), as parseEventLine makes
 * them: the fast path's event (null: it declined) and eventLine's event or reason; null for
 * any other line (neither reads it). */
function readings(line: string): { fast: ParsedEvent | null; full: ParsedEvent | string } | null {
  const i = line.search(/[^ \t]/);
  if (i < 0 || !/[0-9]/.test(line[i]!)) return null;
  const fast = newEvent(0, 'blkparse', '', 0, 0, 0, 0, undefined);
  const took = commonLine(line, codesOf(line), i, line.length, 7, fast);
  setLineStart(0);
  const full = eventLine(line, codesOf(line), i, line.length, 7, null);
  return { fast: took ? fast : null, full };
}

/** The fast path agrees with eventLine on `line`; returns whether it read the line. */
function agrees(line: string): boolean {
  return agreesOn(line, readings(line));
}

function agreesOn(line: string, r: ReturnType<typeof readings>): boolean {
  if (r === null || r.fast === null) return false;
  const { fast, full } = r;
  // field by field (quick), and expect's report on a difference
  const same =
    typeof full !== 'string' &&
    (Object.keys(fast) as (keyof ParsedEvent)[]).every((k) => fast[k] === full[k]);
  if (!same) expect(full, line).toEqual(fast);
  return true;
}

const TRACES = [
  ['linux-6.18', 'none_randread_4k', 'trace.txt.gz'],
  ['linux-6.18', 'mq-deadline_ext4_smallfiles_fsync', 'trace.txt.gz'],
  ['linux-6.18', 'kyber_seqread_1m_split', 'trace.txt.gz'],
  ['linux-6.18', 'bfq_randrw7030_jobs4', 'trace.txt.gz'],
  ['public', 'modern-fio-sde.txt'],
  ['public', 'cfq-messages.txt'],
  ['public', 'blktrace-doc-2006-kjournald.txt'],
];

describe('commonLine reads as eventLine does', () => {
  it('every line of the shared traces (and nearly all of blkparse’s are its to read)', () => {
    for (const parts of TRACES) {
      let read = 0;
      let events = 0;
      for (const line of dataText(...parts).split('\n')) {
        const r = readings(line);
        if (agreesOn(line, r)) read++;
        if (r !== null && typeof r.full !== 'string') events++;
      }
      // blkparse's own traces: the fast path takes nearly every event line
      if (parts[0] === 'linux-6.18') expect(read, parts.join('/')).toBeGreaterThan(0.9 * events);
    }
  });

  it('at each limit: the last value it reads, the first it leaves to eventLine', () => {
    const line = (cpu: string, seq: string, time: string, pid: string, rest: string): string =>
      `  8,0 ${cpu} ${seq} ${time} ${pid}  ${rest}`;
    const ok = (s: string): void => expect(agrees(s), s).toBe(true);
    const left = (s: string): void => {
      expect(readings(s)?.fast, s).toBeNull();
    };
    const q = 'Q   R 100 + 8 [fio]';
    ok(line(String(MAX_CPU), '1', '0.000000001', '1', q));
    left(line(String(MAX_CPU + 1), '1', '0.000000001', '1', q));
    ok(line('0', String(MAX_EXACT), '0.000000001', '1', q));
    left(line('0', '9007199254740993', '0.000000001', '1', q));
    ok(line('0', '1', '0.000000001', String(MAX_EXACT), q));
    left(line('0', '1', '0.000000001', '9007199254740993', q));
    ok(line('0', '1', '9007199.254740991', '1', q));
    left(line('0', '1', '9007199.254740993', '1', q));
    // the fraction: blkparse's nine digits, fewer, a non-digit among nine, ten
    for (const time of ['1.000000001', '12.5', '3.123456', '4.12345678', '5.999999999'])
      ok(line('0', '1', time, '1', q));
    for (const time of ['1.12345678x', '1.1234x6789', '1.-23456789', '1.1234567890', '1.'])
      left(line('0', '1', time, '1', q));
    ok(line('0', '1', '0.1', '1', `Q ${'R'.repeat(RWBS_MAX)} 100 + 8 [fio]`));
    left(line('0', '1', '0.1', '1', `Q ${'R'.repeat(RWBS_MAX + 1)} 100 + 8 [fio]`));
    const most = Math.floor(MAX_SECTORS);
    ok(line('0', '1', '0.1', '1', `Q R 100 + ${most} [fio]`));
    left(line('0', '1', '0.1', '1', `Q R 100 + ${most + 1} [fio]`));
    ok(line('0', '1', '0.1', '1', `Q R ${MAX_EXACT - 8} + 8 [fio]`));
    left(line('0', '1', '0.1', '1', `Q R ${MAX_EXACT - 7} + 8 [fio]`));
    ok(line('0', '1', '0.1', '1', `X R 100 / ${MAX_EXACT} [fio]`));
    left(line('0', '1', '0.1', '1', `X R 100 / 9007199254740993 [fio]`));
    ok(line('0', '1', '0.1', '1', `C R 100 + 8 [${-MAX_EXACT}]`));
    left(line('0', '1', '0.1', '1', `C R 100 + 8 [-9007199254740993]`));
    ok(line('0', '1', '0.1', '1', `U N [fio] ${MAX_EXACT}`));
    left(line('0', '1', '0.1', '1', `U N [fio] 9007199254740993`));
    // the command cache's exact keys: 7 characters, and a longer one read as itself
    ok(line('0', '1', '0.1', '1', 'Q R 100 + 8 [abcdefg]'));
    ok(line('0', '1', '0.1', '1', 'Q R 100 + 8 [abcdefgh]'));
    ok(line('0', '1', '0.1', '1', 'Q R 100 + 8 [abcdefgh]'));
    // any number of blanks between the columns (they are skipped two at a time)
    for (let k = 1; k <= 6; k++) {
      const gap = ' '.repeat(k);
      ok(['  8,0', '1', '42', '0.000012345', '27608', 'Q', 'R', '585608 + 8 [fio]'].join(gap));
    }
    // a device of 8 characters (an exact key) and of 9
    ok('  1234,567 0 1 0.1 1  Q R 100 + 8 [fio]');
    ok('  1234,5678 0 1 0.1 1  Q R 100 + 8 [fio]');
  });

  it('mutated lines (fixed seed)', () => {
    const seeds = TRACES.slice(0, 4).flatMap((parts) =>
      dataText(...parts)
        .split('\n')
        .filter((_, k) => k % 211 === 0),
    );
    const edit = fc.tuple(
      fc.nat(),
      fc.constantFrom(...' 0123456789,.+-/[]QGIDCMFPUTXRSBmNWA\t', '99999999999999999999'),
      fc.boolean(),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...seeds),
        fc.array(edit, { minLength: 1, maxLength: 3 }),
        (s, edits) => {
          let line = s;
          for (const [at, text, insert] of edits) {
            const k = at % (line.length + 1);
            line = line.slice(0, k) + text + line.slice(insert ? k : k + 1);
          }
          agrees(line);
        },
      ),
      { seed: 20_261_129, numRuns: 20_000 },
    );
  });
});
