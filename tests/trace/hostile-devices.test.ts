// Issue 20 item 2: memory and time must not grow with the number of device numbers. 100,000
// one-line devices took 36 s and 3.4 GB in the CLI (234 MB of JSON), and the page's reader
// failed on 10,000. The first MAX_DEVICES devices are read in full detail, the rest counted
// into the totals, and the report says so (src/engine/trace/device-table.ts).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_DEVICES } from '../../src/engine/trace/device-table';
import { TraceParser, type ParseReport } from '../../src/engine/trace/parse';
import { readTraceText } from '../../src/engine/trace/replay-source';
import { spindle } from '../cli/run-cli';

const DEVICES = 100_000;
/** one Q of 4 KiB on each of `n` device numbers, the busiest real device (8,0) last */
function manyDevices(n: number): string {
  const out: string[] = [];
  for (let k = 0; k < n; k++)
    out.push(
      `  ${1000 + (k >> 8)},${k & 255}  0  ${k + 1}  0.${String(k).padStart(9, '0')}  1  Q  R 0 + 8 [dd]`,
    );
  return out.join('\n') + '\n';
}
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

describe('many device numbers', () => {
  const text = manyDevices(DEVICES);

  it(`${DEVICES.toLocaleString('en-US')} one-line devices: ${MAX_DEVICES} in detail, the rest counted, in bounded time and memory`, () => {
    global.gc?.();
    const heap0 = process.memoryUsage().heapUsed;
    const t0 = cpuMs();
    const p = new TraceParser();
    for (let i = 0; i < text.length; i += 1 << 20) p.feed(text.slice(i, i + (1 << 20)));
    const { report, fatal } = p.end();
    const ms = cpuMs() - t0;
    const heapMb = (process.memoryUsage().heapUsed - heap0) / 1e6;
    expect(fatal).toBeNull();
    expect(report.events).toBe(DEVICES);
    expect(report.devices).toHaveLength(MAX_DEVICES);
    expect(Object.keys(report.perDevice)).toHaveLength(MAX_DEVICES);
    // every Q is in the totals, whichever device it was on
    expect(report.reads.queued).toEqual({ count: DEVICES, kib: 4 * DEVICES });
    expect(report.cpus['CPU0']!.reads.queued.count).toBe(DEVICES);
    expect(report.otherDevices).toMatchObject({
      devices: DEVICES - MAX_DEVICES,
      more: false,
      events: DEVICES - MAX_DEVICES,
    });
    expect(report.otherDevices!.note).toMatch(
      /^99,936 more device numbers \(99,936 events\) are counted in the totals only/,
    );
    // btt's rows are the detailed devices' (one Q each)
    expect(report.btt.q2q.n).toBeLessThan(MAX_DEVICES);
    expect(JSON.stringify(report).length).toBeLessThan(1_000_000);
    expect(ms).toBeLessThan(5_000);
    expect(heapMb).toBeLessThan(300);
  }, 60_000);

  it('the page’s reader (replay’s collector) keeps the same devices', () => {
    const reading = readTraceText(manyDevices(10_000));
    expect(reading.devices.size).toBe(MAX_DEVICES);
    expect(reading.report.devices).toEqual([...reading.devices.keys()].sort(devOrder));
    expect(reading.report.otherDevices?.devices).toBe(10_000 - MAX_DEVICES);
  });

  it('`spindle parse` says it, and --device still reads any one device in detail', async () => {
    const f = join(mkdtempSync(join(tmpdir(), 'spindle-devices-')), 'many.txt');
    writeFileSync(f, manyDevices(5_000));
    const plain = await spindle(['parse', f]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain(
      '4,936 more device numbers (4,936 events) are counted in the totals only',
    );
    const one = await spindle(['parse', f, '--device', '1019,135', '--json']);
    expect(one.code).toBe(0);
    const r = JSON.parse(one.stdout) as ParseReport;
    expect(r.perDevice['1019,135']!.reads.queued.count).toBe(1);
  }, 60_000);
});

function devOrder(a: string, b: string): number {
  const [am, an] = a.split(',').map(Number) as [number, number];
  const [bm, bn] = b.split(',').map(Number) as [number, number];
  return am - bm || an - bn;
}
