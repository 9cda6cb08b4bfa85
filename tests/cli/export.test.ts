// `spindle export --format blkparse`: every line in blkparse's default layout, and one
// Q, D and C per completed request.
import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../../src/engine/summary';
import { SCENARIOS, spindle, spindleJson } from './run-cli';

/**
 * blkparse's default line, column for column: "%3d,%-3d %2d %8d %5d.%09lu %5d %2s %3s "
 * (device, CPU, sequence, seconds.nanoseconds, pid, action, RWBS), then the payload:
 * `sector + n [comm]` for Q/G/I/D, `sector + n [error]` for C.
 */
const LINE =
  /^([ \d]{2}\d),(\d[ \d]{2}) ([ \d]\d) ([ \d]{7}\d) ([ \d]{4}\d)\.(\d{9}) ([ \d]{4}\d) ([ A-Z]{2}) ([ A-Z]{3}) (\d+) \+ (\d+) \[([^\]]+)\]$/;

describe('the blkparse line pattern', () => {
  it('matches real blkparse output (Linux 6.18, fio)', () => {
    expect('  7,0    1        1     0.000000000 27608  Q   R 585608 + 8 [fio]').toMatch(LINE);
    expect('  7,0    1        7     0.000143276    22  C  RS 939496 + 8 [0]').toMatch(LINE);
    expect('259,0    0      123    12.000143276     0  D  WS 939496 + 256 [kworker/0:1H]').toMatch(
      LINE,
    );
  });
});

async function exportLines(args: string[]): Promise<string[]> {
  const r = await spindle(['export', ...args]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(r.stdout.endsWith('\n')).toBe(true);
  return r.stdout.slice(0, -1).split('\n');
}

function counts(lines: string[]): Record<string, number> {
  const c: Record<string, number> = {};
  for (const l of lines) {
    const a = LINE.exec(l)![8]!.trim();
    c[a] = (c[a] ?? 0) + 1;
  }
  return c;
}

describe('spindle export --format blkparse', () => {
  it('disk.py -a 7,30,8: the exact lines', async () => {
    const lines = await exportLines([
      `${SCENARIOS}/ostep-fifo-vs-satf.json`,
      '--format',
      'blkparse',
    ]);
    for (const l of lines) expect(l).toMatch(LINE);
    expect(lines[0]).toBe('  8,0    0        1     0.000000000  1000  Q   R 7 + 1 [diskpy]');
    // Queue depth 3: all three go to the drive at once.
    expect(lines[11]).toBe('  8,0    0       12     0.000000000  1000  D   R 8 + 1 [diskpy]');
    const completions = lines.filter((l) => LINE.exec(l)![8]!.trim() === 'C');
    expect(completions).toEqual([
      // disk.py: 7 after 15 rotation + 30 transfer; 30 after a seek of 80; 8 one turn later
      '  8,0    0       13     0.045000000     0  C   R 7 + 1 [0]',
      '  8,0    0       14     0.375000000     0  C   R 30 + 1 [0]',
      '  8,0    0       15     0.795000000     0  C   R 8 + 1 [0]',
    ]);
    expect(counts(lines)).toEqual({ Q: 3, G: 3, I: 3, D: 3, C: 3 });
  });

  it.each(['seek-rotate-transfer.json', 'ostep-fifo-vs-satf.json'])(
    '%s: Q, D and C counts equal the completed count; sequence numbers run 1, 2, 3 …',
    async (file) => {
      const path = `${SCENARIOS}/${file}`;
      const summary = await spindleJson<RunSummary>(['run', path, '--json']);
      const lines = await exportLines([path, '--format=blkparse']);
      const c = counts(lines);
      expect(c.Q).toBe(summary.requests.completed);
      expect(c.D).toBe(summary.requests.completed);
      expect(c.C).toBe(summary.requests.completed);
      lines.forEach((l, i) => expect(Number(LINE.exec(l)![4])).toBe(i + 1));
      // The last completion is the run's simulated time.
      const last = LINE.exec(lines.at(-1)!)!;
      expect(Number(`${last[5]!.trim()}.${last[6]}`) * 1000).toBeCloseTo(
        summary.simulatedTimeMs,
        6,
      );
    },
  );

  it('a random workload: times never go back, writes print W, --set and --seed apply', async () => {
    const args = [`${SCENARIOS}/c2247a-block-group-writes.json`, '--format', 'blkparse'];
    const lines = await exportLines([...args, '--set', 'stop.requests=50', '--seed', '3']);
    let t = 0;
    for (const l of lines) {
      const m = LINE.exec(l)!;
      expect(m[9]!.trim()).toBe('W');
      const s = Number(`${m[5]!.trim()}.${m[6]}`);
      expect(s).toBeGreaterThanOrEqual(t);
      t = s;
    }
    expect(counts(lines).C).toBe(50);
    const other = await exportLines([...args, '--set', 'stop.requests=50', '--seed', '4']);
    expect(other).not.toEqual(lines);
  });
});
