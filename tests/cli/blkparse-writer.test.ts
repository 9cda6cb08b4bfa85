// src/engine/trace/blkparse-writer.ts: blkparse's default columns, RWBS, payloads, time.
import { describe, expect, it } from 'vitest';
import type { BlkAction, TraceEvent } from '../../src/engine/events';
import { BlkparseWriter, formatTime } from '../../src/engine/trace/blkparse-writer';

function ev(action: BlkAction, more: Partial<TraceEvent> = {}): TraceEvent {
  return {
    tNs: 0,
    action,
    rq: 0,
    pid: 1000,
    proc: 0,
    sector: 8,
    nSectors: 8,
    write: false,
    sync: true,
    ...more,
  };
}

function lines(events: TraceEvent[], options = {}): string[] {
  const out: string[] = [];
  const w = new BlkparseWriter((l) => out.push(l), { nameOf: () => 'reader', ...options });
  for (const e of events) w.trace(e);
  expect(w.lines).toBe(out.length);
  return out;
}

describe('BlkparseWriter', () => {
  it("writes the brief's example line exactly", () => {
    expect(lines([ev('Q')])).toEqual([
      '  8,0    0        1     0.000000000  1000  Q   R 8 + 8 [reader]',
    ]);
  });

  it('numbers events from 1; C lines carry pid 0 and the error value', () => {
    const out = lines([
      ev('Q'),
      ev('G'),
      ev('I'),
      ev('D', { tNs: 1500 }),
      ev('C', { tNs: 12_345_678_901.4 }),
    ]);
    expect(out).toEqual([
      '  8,0    0        1     0.000000000  1000  Q   R 8 + 8 [reader]',
      '  8,0    0        2     0.000000000  1000  G   R 8 + 8 [reader]',
      '  8,0    0        3     0.000000000  1000  I   R 8 + 8 [reader]',
      '  8,0    0        4     0.000001500  1000  D   R 8 + 8 [reader]',
      '  8,0    0        5    12.345678901     0  C   R 8 + 8 [0]',
    ]);
  });

  it('RWBS: W for an async write, WS for a sync one, R for any read', () => {
    const out = lines([
      ev('Q', { write: true, sync: false }),
      ev('Q', { write: true, sync: true }),
      ev('Q', { write: false, sync: false }),
    ]);
    expect(out.map((l) => l.slice(45, 48))).toEqual(['  W', ' WS', '  R']);
  });

  it('plug, unplug, timer unplug and message lines', () => {
    const out = lines([
      ev('P'),
      ev('U', { message: '4' }),
      ev('T', { message: '1' }),
      ev('m', { message: 'cfq1000 slice expired t=0' }),
    ]);
    expect(out).toEqual([
      '  8,0    0        1     0.000000000  1000  P   N [reader]',
      '  8,0    0        2     0.000000000  1000  U   N [reader] 4',
      '  8,0    0        3     0.000000000  1000 UT   N [reader] 1',
      '  8,0    0        0     0.000000000     0  m   N cfq1000 slice expired t=0',
    ]);
  });

  it('wide values widen the line as printf does; device and CPU are options', () => {
    const out = lines([ev('D', { sector: 123456789, nSectors: 256, pid: 123456, tNs: 123456e9 })], {
      major: 259,
      minor: 12,
      cpu: 3,
    });
    expect(out).toEqual([
      '259,12   3        1 123456.000000000 123456  D   R 123456789 + 256 [reader]',
    ]);
  });

  it('formats simulated time (float ns) as seconds and 9 digits of nanoseconds', () => {
    expect(formatTime(0)).toBe('    0.000000000');
    expect(formatTime(795e6)).toBe('    0.795000000');
    expect(formatTime(999_999_999.6)).toBe('    1.000000000');
    expect(formatTime(62_529_600_000.25)).toBe('   62.529600000');
  });
});
