// The other layouts: the kernel's ftrace `blk` tracer text (default and blk_classic),
// several devices in one file (listed; --device picks one), chunk boundaries anywhere,
// CRLF, and gzip input through the CLI.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseLine } from '../../src/engine/trace/parse-line';
import { parseTraceText, TraceParser, type ParseReport } from '../../src/engine/trace/parse';
import { plainCopy } from '../helpers/data';
import { spindle, spindleJson } from '../cli/run-cli';

const NONE = plainCopy('linux-6.18', 'none_randread_4k', 'trace.txt.gz');

// blk_log_action(): "%3d,%-3d %2s %3s " after ftrace's "comm-pid [cpu] flags time: " prefix
const FTRACE = `# tracer: blk
#
#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION
#              | |         |   |||||     |         |
             fio-27608   [001] .....   512.000010: 7,0    Q   R 585608 + 8 [fio]
             fio-27608   [001] .....   512.000016: 7,0    G   R 585608 + 8 [fio]
             fio-27608   [001] .....   512.000018: 7,0    P   N [fio]
             fio-27608   [001] .....   512.000025: 7,0    U   N [fio] 1
   kworker/1:1H-kblockd-58      [001] d..1.   512.000027: 7,0    D   R 585608 + 8 [kworker/1:1H]
          <idle>-0       [000] d.h1.   512.000230: 7,0    C   R 585608 + 8 [0]
             fio-27608   [001] .....   512.000300: 7,0    m   N bfq27608S allocated
`;
// blk_log_action_classic(): "%3d,%-3d %2d %5d.%09lu %5u %2s %3s " — no sequence column
const CLASSIC = `  7,0    1   512.000010000 27608  Q   R 585608 + 8 [fio]
  7,0    1   512.000016000 27608  G   R 585608 + 8 [fio]
  7,0    1   512.000027000    58  D   R 585608 + 8 [kworker/1:1H]
  7,0    0   512.000230000     0  C   R 585608 + 8 [0]
`;

describe('ftrace blk tracer text', () => {
  it('default layout: task-pid, [cpu], flags, time, then device, action, RWBS, payload', () => {
    const r = parseTraceText(FTRACE);
    expect(r.malformed).toBe(0);
    expect(r.formats).toEqual(['ftrace']);
    expect(r.actions).toMatchObject({ Q: 1, G: 1, P: 1, U: 1, D: 1, C: 1, m: 1 });
    expect(r.reads.completed).toEqual({ count: 1, kib: 4 });
    expect(r.btt.q2c).toMatchObject({ n: 1 });
    expect(r.btt.q2c.avg).toBeCloseTo(0.00022, 9);
    const d = parseLine(
      '   kworker/1:1H-kblockd-58      [001] d..1.   512.000027: 7,0    D   R 585608 + 8 [kworker/1:1H]',
      9,
    );
    expect(d).toMatchObject({
      kind: 'event',
      event: { pid: 58, cpu: 1, tNs: 512_000_027_000, seq: -1 },
    });
  });

  it('blk_classic layout: no sequence numbers', () => {
    const r = parseTraceText(CLASSIC);
    expect(r.malformed).toBe(0);
    expect(r.formats).toEqual(['ftrace-classic']);
    expect(r.btt.d2c).toMatchObject({ n: 1 });
    expect(r.btt.d2c.avg).toBeCloseTo(0.000203, 9);
  });
});

describe('several devices in one file', () => {
  const two = (): string => {
    const a = readFileSync(NONE, 'utf8').split('\n').slice(0, 400);
    const b = a.map((l) => l.replace(/^ {2}7,0 {3}/, '  8,16  '));
    return [...a, ...b].join('\n') + '\n';
  };

  it('lists every device and sums them by default; --device picks one', () => {
    const all = parseTraceText(two());
    expect(all.devices).toEqual(['7,0', '8,16']);
    expect(all.device).toBe('all');
    const one = parseTraceText(two(), { device: '8,16' });
    expect(one.devices).toEqual(['7,0', '8,16']);
    expect(one.device).toBe('8,16');
    expect(Object.keys(one.perDevice)).toEqual(['8,16']);
    expect(all.reads.queued.count).toBe(2 * one.reads.queued.count);
    expect(all.perDevice['7,0']!.reads).toEqual(all.perDevice['8,16']!.reads);
    expect(all.btt.q2c.n).toBe(2 * one.btt.q2c.n);
  });

  it('spindle parse --device 8,16, and a clear error for a device not in the trace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spindle-parse-'));
    const f = join(dir, 'two.txt');
    writeFileSync(f, two());
    const r = await spindleJson<ParseReport>(['parse', f, '--device', '8,16', '--json']);
    expect(r.device).toBe('8,16');
    const bad = await spindle(['parse', f, '--device', '8,32', '--json']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--device 8,32: not in the trace \(devices: 7,0 8,16\)/);
  });
});

describe('streaming', () => {
  it('any chunk boundary and CRLF line ends give the same figures', () => {
    const text = readFileSync(NONE, 'utf8').slice(0, 200_000);
    const whole = parseTraceText(text);
    for (const size of [1, 7, 4096]) {
      const p = new TraceParser();
      const t = size === 7 ? text.replace(/\n/g, '\r\n') : text;
      for (let i = 0; i < t.length; i += size) p.feed(t.slice(i, i + size));
      const { report } = p.end();
      expect(report.reads).toEqual(whole.reads);
      expect(report.btt).toEqual(whole.btt);
      expect(report.lines).toBe(whole.lines);
    }
  });

  it('gzip input through the CLI, by name and by magic bytes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spindle-parse-'));
    const gz = gzipSync(readFileSync(NONE));
    writeFileSync(join(dir, 't.txt.gz'), gz);
    writeFileSync(join(dir, 'noext'), gz);
    const plain = await spindleJson<ParseReport>(['parse', NONE, '--json']);
    for (const f of ['t.txt.gz', 'noext']) {
      const r = await spindleJson<ParseReport>(['parse', join(dir, f), '--json']);
      expect(r.reads).toEqual(plain.reads);
      expect(r.btt).toEqual(plain.btt);
    }
  }, 60_000); // three CLI runs on a 3 MB trace
});
