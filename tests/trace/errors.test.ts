// Errors that help (issue 4, item 2): unreadable lines are counted, reported with their
// numbers and quoted, and never stop the parse; whole inputs that are not blkparse text —
// binary blktrace files, empty input, UTF-16, a truncated gzip — get one clear message.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseLine } from '../../src/engine/trace/parse-line';
import { parseTraceText, TraceParser, type ParseReport } from '../../src/engine/trace/parse';
import { dataBytes } from '../helpers/data';
import { ROOT, spindle } from '../cli/run-cli';

const NONE = dataBytes('linux-6.18', 'none_randread_4k', 'trace.txt.gz');
const GOOD = '  7,0    1        1     0.000000000 27608  Q   R 585608 + 8 [fio]';
const tmp = (): string => mkdtempSync(join(tmpdir(), 'spindle-parse-'));

const reason = (line: string): string => {
  const r = parseLine(line, 1);
  return r.kind === 'problem' ? r.reason : `(${r.kind})`;
};

describe('unreadable lines', () => {
  it('are counted, the first five kept with line numbers and quoted, and the parse goes on', () => {
    const lines = [GOOD];
    for (let k = 0; k < 8; k++)
      lines.push(`garbage ${k}`, GOOD.replace('0.000000000', `0.00000000${k}`));
    const r = parseTraceText(lines.join('\n'));
    expect(r.malformed).toBe(8);
    expect(r.events).toBe(9);
    expect(r.problems).toHaveLength(5);
    expect(r.problems[0]).toEqual({ line: 2, text: 'garbage 0', reason: 'not a blkparse line' });
    expect(r.problems.map((p) => p.line)).toEqual([2, 4, 6, 8, 10]);
  });

  it('absurd numbers: sector overflow, negative sizes, a size beyond a 32-bit byte count', () => {
    expect(
      reason('  7,0    1        1     0.000000000 27608  Q   R 99999999999999999999 + 8 [fio]'),
    ).toMatch(/sector overflow/);
    expect(
      reason('  7,0    1        1     0.000000000 27608  Q   R 9007199254740990 + 8 [fio]'),
    ).toMatch(/sector overflow/);
    expect(reason('  7,0    1        1     0.000000000 27608  Q   R 100 + -8 [fio]')).toMatch(
      /negative size/,
    );
    expect(reason('  7,0    1        1     0.000000000 27608  Q   R -100 + 8 [fio]')).toMatch(
      /negative/,
    );
    expect(reason('  7,0    1        1     0.000000000 27608  Q   R 100 + 99999999 [fio]')).toMatch(
      /size overflow/,
    );
    expect(
      reason('  7,0    1        1 99999999999999999.000000000 27608  Q   R 1 + 8 [fio]'),
    ).toMatch(/time stamp too large/);
    expect(reason('  7,0    1        1     0.000000000 27608  Z   R 1 + 8 [fio]')).toMatch(
      /unknown action "Z"/,
    );
    expect(reason('  7,0    1        1     0.000000000 27608  Q  XYZ 1 + 8 [fio]')).toMatch(
      /bad RWBS/,
    );
    expect(reason('  7,0    1        1     0.000000000 27608  C   R 1 + 8 [zero]')).toMatch(
      /error/,
    );
  });

  it('a 10 MB line is reported as too long and skipped without being held', () => {
    const p = new TraceParser();
    p.feed(GOOD + '\n');
    const big = 'x'.repeat(1 << 20);
    for (let k = 0; k < 10; k++) p.feed(big);
    p.feed('\n' + GOOD.replace('585608', '1') + '\n');
    const { report, fatal } = p.end();
    expect(fatal).toBeNull();
    expect(report.events).toBe(2);
    expect(report.malformed).toBe(1);
    expect(report.problems[0]!.line).toBe(2);
    expect(report.problems[0]!.reason).toMatch(/line too long \(10485760 characters/);
    expect(report.problems[0]!.text.length).toBeLessThanOrEqual(121);
  });
});

describe('inputs that are not blkparse text', () => {
  const cases: Array<[string, string | Buffer, RegExp]> = [
    ['empty', '', /the input is empty/],
    ['blank lines only', '\n\n  \n', /no blkparse event lines/],
    [
      'a binary blktrace file',
      Buffer.concat([Buffer.from([0x07, 0x74, 0x61, 0x65]), Buffer.alloc(60, 0)]),
      /binary blktrace file.*run blkparse on it first/,
    ],
    ['UTF-16 text', Buffer.from('\uFEFF' + GOOD + '\n', 'utf16le'), /UTF-16.*convert it to UTF-8/],
    [
      'prose',
      'Dear diary,\ntoday I traced a disk.\n',
      /no blkparse event lines: .*line 1: not a blkparse line/,
    ],
  ];
  it.each(cases)('%s: one clear message on stderr, exit 1', async (_what, content, pattern) => {
    const f = join(tmp(), 'input');
    writeFileSync(f, content);
    const r = await spindle(['parse', f, '--json']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(pattern);
  });

  it('a truncated gzip file says so', async () => {
    const f = join(tmp(), 'cut.txt.gz');
    const gz = gzipSync(NONE);
    writeFileSync(f, gz.subarray(0, gz.length >> 1));
    const r = await spindle(['parse', f, '--json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/gzip file is truncated/);
  });

  it('standard input with -', () => {
    const r = spawnSync(process.execPath, ['bin/spindle.mjs', 'parse', '-', '--json'], {
      cwd: ROOT,
      input: NONE,
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout) as ParseReport;
    expect(report.reads.completed).toEqual({ count: 8192, kib: 32768 });
  });
});
