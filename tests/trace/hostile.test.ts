// Hostile inputs to the trace reader (issue 20): each defect found by fuzzing, with the input
// that showed it. Items 1 (a line's time), 8 (malformed lines read silently) and 9 (the NUL
// verdict); many devices (item 2) are in hostile-devices.test.ts, the fuzz in fuzz.test.ts.
import { describe, expect, it } from 'vitest';
import { parseLine } from '../../src/engine/trace/parse-line';
import { parseTraceText } from '../../src/engine/trace/parse';

/** the fastest of three parses of one line, ms (the machine is shared: the best is the cost) */
function lineMs(line: string): number {
  let best = Infinity;
  for (let k = 0; k < 3; k++) {
    const t0 = performance.now();
    parseLine(line, 1);
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

describe('item 1: no line takes long to read (the summary row reader is linear)', () => {
  // a backtracking pattern for `Name: count` took ~8 s on the first and ~4 s on the second
  const lines: Record<string, string> = {
    '65,000 letters then ":"': 'P'.repeat(65_000) + ':',
    '"Aa " 21,000 times then ":"': 'Aa '.repeat(21_000) + ':',
    'a summary name, then 65,000 letters': ' Reads Queued: ' + 'A'.repeat(65_000) + ':',
    'words and dots': 'A. b '.repeat(13_000) + ':',
  };
  for (const [what, line] of Object.entries(lines)) {
    it(`${what}: under 50 ms, and an unreadable line`, () => {
      expect(lineMs(line)).toBeLessThan(50);
      expect(parseLine(line, 1).kind).toBe('problem');
    });
  }

  it('blkparse’s summary rows still read, thousands separators and all', () => {
    const r = parseLine(
      ' Reads Queued:       8,763,  352,192KiB\t Writes Queued:         195,   29,228MiB',
      1,
    );
    expect(r).toEqual({
      kind: 'summary',
      summary: {
        kind: 'fields',
        fields: [
          { name: 'Reads Queued', count: 8763, kib: 352192 },
          { name: 'Writes Queued', count: 195, kib: 29228000, printed: '29,228MiB' },
        ],
      },
    });
    const depth = parseLine(
      ' Read depth:             0               Write depth:            20',
      1,
    );
    expect(depth.kind === 'summary' && depth.summary.kind === 'fields').toBe(true);
    // a name that is not blkparse's, or text between fields, is no summary row
    expect(parseLine(' Reads Queued:  1, 4KiB junk Writes Queued: 2', 1).kind).toBe('problem');
    expect(parseLine(' Bogus Field:  1', 1).kind).toBe('problem');
  });
});

const Q = '  7,0    1        1     0.000000000 27608  Q   R 585608 + 8 [fio]';
const C = '  7,0    1        2     0.000614589    22  C   R 585608 + 8 [0]';

describe('item 8: a damaged line is counted unreadable with its reason, never half read', () => {
  it('text after the closing "]"', () => {
    const r = parseTraceText([Q, `${Q} extra field`, C].join('\n'));
    expect(r.events).toBe(2);
    expect(r.malformed).toBe(1);
    expect(r.problems[0]).toMatchObject({
      line: 2,
      reason: 'text after the closing "]": "extra field"',
    });
  });

  it('a count after P (only U and UT print one)', () => {
    const p = '  7,0    1        3     0.000000100 27608  P   N [fio] 5';
    expect(parseLine(p, 1)).toEqual({ kind: 'problem', reason: 'text after the closing "]": "5"' });
    // U's count is read
    const u = parseLine('  7,0    1        4     0.000000200 27608  U   N [fio] 5', 1);
    expect(u.kind === 'event' && u.event.count).toBe(5);
  });

  it('a blkparse line that lost a column is not read as ftrace’s blk_classic (no phantom CPU)', () => {
    const lost = '  7,0    1123     0.000614589    22  C   R 1844696 + 8 [0]';
    const r = parseTraceText([Q, lost, C].join('\n'));
    expect(r.malformed).toBe(1);
    expect(r.problems[0]!.reason).toMatch(/^a column is missing: this file's lines are blkparse's/);
    expect(Object.keys(r.cpus)).toEqual(['CPU1']);
    expect(r.formats).toEqual(['blkparse']);
    // and the other way round: a blk_classic file with a line of blkparse's
    const classic = '  7,0    1     0.000000000 27608  Q   R 585608 + 8 [fio]';
    const r2 = parseTraceText([classic, Q].join('\n'));
    expect(r2.formats).toEqual(['ftrace-classic']);
    expect(r2.problems[0]!.reason).toMatch(/^a column too many/);
  });
});

describe('item 9: a NUL byte is judged the same wherever it is', () => {
  const named = Q.replace('[fio]', '[f\u0000io]');
  const lines = (at: number): string => {
    const out: string[] = [];
    for (let k = 1; k <= 300; k++)
      out.push(k === at ? named : Q.replace('0.000000000', `0.${String(k).padStart(9, '0')}`));
    return out.join('\n') + '\n';
  };

  it('a NUL in a process name on line 1 or line 201: that line is unreadable, the rest read', () => {
    for (const at of [1, 201]) {
      const r = parseTraceText(lines(at));
      expect(r.fatal, `line ${at}`).toBeNull();
      expect(r.events).toBe(299);
      expect(r.malformed).toBe(1);
      expect(r.problems[0]).toMatchObject({
        line: at,
        reason: 'a NUL byte at column 63: binary data inside a line of text',
      });
    }
  });

  it('all zero bytes are called that, not UTF-16', () => {
    const r = parseTraceText('\u0000'.repeat(10_000));
    expect(r.fatal).toMatch(/^the input is nothing but zero bytes \(NUL\)/);
  });

  it('UTF-16 and binary are still recognised, by what most of the sample is', () => {
    const utf16 = Buffer.from(Q + '\n' + C + '\n', 'utf16le').toString('latin1');
    expect(parseTraceText(utf16).fatal).toMatch(/UTF-16/);
    const bin = Array.from({ length: 4096 }, (_, k) => String.fromCharCode((k * 7) % 32)).join('');
    expect(parseTraceText(bin).fatal).toMatch(/^the input is binary, not blkparse text/);
  });
});
