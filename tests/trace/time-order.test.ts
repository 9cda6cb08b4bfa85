// Time-sorted per device (issue 4, item 1): events that arrive out of time order — per-CPU
// text pasted together, edited lines — are put back in place within a bounded window per
// device (time-order.ts); what arrives later than the window is counted, never dropped.
import { describe, expect, it } from 'vitest';
import { newEvent, type ParsedEvent } from '../../src/engine/trace/parse-line';
import { parseTraceText } from '../../src/engine/trace/parse';
import { readTraceText } from '../../src/engine/trace/replay-source';
import { TimeOrder } from '../../src/engine/trace/time-order';
import { dataText } from '../helpers/data';

const EVENT_TIME = /^\s*\d+,\d+\s+\d+\s+\d+\s+(\d+\.\d+)\s/;

/** Moves lines later by up to `maxJump` positions (fixed seed), only past strictly later
 * events: sorting by time then restores exactly the original text's order. */
function displace(text: string, maxJump: number, seed = 7): { text: string; moved: number } {
  const lines = text.split('\n');
  const time = (l: string): number | null => {
    const m = EVENT_TIME.exec(l);
    return m === null ? null : Number(m[1]);
  };
  let s = seed;
  const rand = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) as number;
  let moved = 0;
  for (let i = 0; i + maxJump < lines.length; i += 1 + Math.floor(rand() * 20)) {
    const t = time(lines[i]!);
    if (t === null) continue;
    const jump = 1 + Math.floor(rand() * maxJump);
    let ok = true;
    for (let k = 1; k <= jump && ok; k++) {
      const u = time(lines[i + k]!);
      ok = u !== null && u > t;
    }
    if (!ok) continue;
    const [line] = lines.splice(i, 1);
    lines.splice(i + jump, 0, line!);
    moved++;
    i += jump;
  }
  return { text: lines.join('\n'), moved };
}

const withoutOrder = <T extends { reordered: number }>(r: T): Omit<T, 'reordered'> => {
  const { reordered: _, ...rest } = r;
  return rest;
};

describe('time order per device', () => {
  for (const name of ['mq-deadline_ext4_smallfiles_fsync', 'none_randread_4k']) {
    const text = dataText('linux-6.18', name, 'trace.txt.gz');
    const shuffled = displace(text, 40);

    it(`${name}: lines up to 40 events late give the same summary, btt figures and replay requests`, () => {
      expect(shuffled.moved).toBeGreaterThan(1000);
      const a = parseTraceText(text);
      const b = parseTraceText(shuffled.text);
      expect(a.reordered).toBe(0);
      expect(a.timeReversals).toBe(0);
      expect(b.reordered).toBeGreaterThanOrEqual(shuffled.moved);
      expect(b.timeReversals).toBe(0);
      expect(withoutOrder(b)).toEqual(withoutOrder(a));

      const ra = readTraceText(text);
      const rb = readTraceText(shuffled.text);
      expect(rb.report.reordered).toBe(b.reordered);
      for (const [dev, d] of ra.devices) {
        const e = rb.devices.get(dev)!;
        // the same requests with the same times; only the lines they came from moved
        const strip = (x: unknown) => JSON.stringify(x, (k, v) => (k === 'line' ? undefined : v));
        expect(strip(e)).toBe(strip(d));
      }
    });
  }

  const ev = (dev: string, tNs: number, line: number): ParsedEvent => {
    const e = newEvent(line, 'blkparse', dev, 0, line, tNs, 1, undefined);
    e.action = 'Q';
    return e;
  };
  const collect = (hold: number, reuse: boolean) => {
    const out: Array<[string, number, number]> = [];
    const order = new TimeOrder(
      {
        event: (e) => {
          out.push([e.dev, e.tNs, e.line]);
        },
        summary: () => {
          out.push(['summary', -1, -1]);
        },
      },
      reuse,
      hold,
    );
    return { out, order };
  };

  it('an event later than the window is passed on as it came and counted as late', () => {
    const { out, order } = collect(2, false);
    for (const [t, line] of [
      [10, 1],
      [20, 2],
      [30, 3],
      [40, 4],
      [15, 5], // 10 and 20 are released already: too late
      [35, 6], // within the window: put before 40
    ] as const)
      order.event(ev('8,0', t, line));
    order.flush();
    expect(out.map(([, t]) => t)).toEqual([10, 20, 15, 30, 35, 40]);
    expect(order.stats).toEqual({ reordered: 1, late: 1 });
  });

  it('equal times keep their order of arrival; devices are ordered separately; a summary line flushes', () => {
    const { out, order } = collect(8, true);
    order.event(ev('8,0', 5, 1));
    order.event(ev('8,16', 1, 2)); // another device: earlier, but not "late" for 8,0
    order.event(ev('8,0', 5, 3));
    order.event(ev('8,0', 3, 4));
    order.summary({} as never, 5);
    order.event(ev('8,0', 6, 6));
    order.event(ev('8,0', 2, 7)); // after a summary block a pasted trace starts afresh
    order.event(ev('8,0', 1, 8));
    order.flush();
    const dev0 = out.filter(([d]) => d === '8,0').map(([, , line]) => line);
    expect(dev0).toEqual([4, 1, 3, 8, 7, 6]);
    expect(out.findIndex(([d]) => d === 'summary')).toBe(4);
    expect(order.stats).toEqual({ reordered: 3, late: 0 });
  });
});
