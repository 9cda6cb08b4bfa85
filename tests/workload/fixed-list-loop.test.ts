// A fixed list's closed-loop entries (workload.ts, scenario/process.ts): gapMs — issued this
// long after the previous entry was issued, whatever has completed (a burst stays a burst);
// afterDone + thinkTimeMs — issued this long after that earlier entry completes, and not
// before the previous entry is issued. The traced service time (serviceMs) makes every
// completion exact.
import { describe, expect, it } from 'vitest';
import '../../src/engine/iosched/registry';
import { parseScenarioText } from '../../src/engine/scenario/load';
import type { FixedRequest } from '../../src/engine/scenario/types';
import { proc, scenario } from '../helpers/scenario';
import { tracedRun } from '../helpers/traced-run';

const rq = (sector: number, timing: Partial<FixedRequest>, serviceMs = 5): FixedRequest => ({
  sector,
  sizeKiB: 4,
  op: 'read',
  atMs: 0,
  thinkTimeMs: null,
  serviceMs,
  ...timing,
});

/** each bio's Q and C time, ms, in list order (the sectors are the list's order) */
function run(requests: FixedRequest[], queueDepth = 8) {
  const { trace } = tracedRun(
    scenario({
      iosched: 'noop',
      queueDepth,
      processes: [proc({ name: 'p', requests })],
    }),
  );
  const at = (a: string) =>
    requests.map((r) => trace.find((e) => e.action === a && e.sector === r.sector)!.tNs / 1e6);
  return { q: at('Q'), c: at('C') };
}

describe('fixed list: gapMs and afterDone', () => {
  it('gapMs: issued after the previous issue, with earlier requests still in flight', () => {
    const { q, c } = run([
      rq(1000, { atMs: 0 }),
      rq(2000, { gapMs: 0 }),
      rq(3000, { gapMs: 1 }),
      rq(4000, { gapMs: 0.5 }),
    ]);
    expect(q).toEqual([0, 0, 1, 1.5]);
    // all four in flight together: none completes before the last is issued
    expect(Math.min(...c)).toBeGreaterThan(1.5);
  });

  it('afterDone: issued thinkTimeMs after that entry completes, not after any completion', () => {
    const { q, c } = run([
      rq(1000, { atMs: 0 }, 2),
      rq(2000, { gapMs: 0 }, 6),
      rq(3000, { thinkTimeMs: 1, afterDone: 1 }),
    ]);
    expect(c[0]).toBeLessThan(c[1]!);
    expect(q[2]).toBeCloseTo(c[1]! + 1, 9); // entry 0's earlier completion does not count
  });

  it('afterDone: not before the previous entry is issued', () => {
    const { q, c } = run([
      rq(1000, { atMs: 0 }, 1),
      rq(2000, { gapMs: 3 }),
      rq(3000, { thinkTimeMs: 0.5, afterDone: 0 }),
    ]);
    expect(c[0]! + 0.5).toBeLessThan(3);
    expect(q[2]).toBe(3); // entry 0 done long before, but entry 1 is issued at 3
  });

  it('afterDone: waits for an entry still in flight, and counts from one already done', () => {
    const { q, c } = run([
      rq(1000, { atMs: 0 }, 4),
      rq(2000, { gapMs: 1 }, 1),
      rq(3000, { thinkTimeMs: 0, afterDone: 0 }),
      rq(4000, { thinkTimeMs: 5, afterDone: 1 }),
    ]);
    expect(q[2]).toBeCloseTo(c[0]!, 9);
    // entry 1 completed before entry 2 was issued: entry 3 still goes 5 ms after it
    expect(c[1]).toBeLessThan(q[2]!);
    expect(q[3]).toBeCloseTo(c[1]! + 5, 9);
    expect(q[3]).toBeGreaterThan(q[2]!);
  });
});

const list = (requests: Array<Record<string, unknown>>) =>
  JSON.stringify({
    name: 'r',
    iosched: { name: 'noop' },
    workload: {
      processes: [{ name: 'p', requests: requests.map((r) => ({ sizeKiB: 4, op: 'read', ...r })) }],
    },
  });

describe('fixed list: gapMs and afterDone are checked', () => {
  it('are carried when given', () => {
    const s = parseScenarioText(
      list([
        { sector: 0, atMs: 0 },
        { sector: 8, gapMs: 2 },
        { sector: 16, thinkTimeMs: 1, afterDone: 0 },
      ]),
      'r.json',
    );
    const r = s.workload.processes[0]!.requests!;
    expect(r[1]).toMatchObject({ gapMs: 2, thinkTimeMs: null });
    expect(r[2]).toMatchObject({ thinkTimeMs: 1, afterDone: 0 });
    expect(r[0]).not.toHaveProperty('afterDone');
  });

  it('an afterDone must point to an earlier entry', () => {
    expect(() =>
      parseScenarioText(
        list([
          { sector: 0, atMs: 0 },
          { sector: 8, thinkTimeMs: 1, afterDone: 1 },
        ]),
        'r.json',
      ),
    ).toThrow(
      /requests\.1\.afterDone: must point to an earlier request of the list \(0 to 0\) \(got 1\)/,
    );
    expect(() =>
      parseScenarioText(list([{ sector: 0, thinkTimeMs: 1, afterDone: 0 }]), 'r.json'),
    ).toThrow(/requests\.0\.afterDone: must point to an earlier request of the list/);
    expect(() =>
      parseScenarioText(
        list([
          { sector: 0, atMs: 0 },
          { sector: 8, thinkTimeMs: 1, afterDone: -1 },
        ]),
        'r.json',
      ),
    ).toThrow(/requests\.1\.afterDone: must be the index of an earlier request of the list/);
  });

  it('an afterDone needs thinkTimeMs; gapMs excludes atMs and thinkTimeMs and the first entry', () => {
    expect(() =>
      parseScenarioText(
        list([
          { sector: 0, atMs: 0 },
          { sector: 8, afterDone: 0 },
        ]),
        'r.json',
      ),
    ).toThrow(/requests\.1\.afterDone: needs "thinkTimeMs"/);
    expect(() =>
      parseScenarioText(
        list([
          { sector: 0, atMs: 0 },
          { sector: 8, gapMs: 1, thinkTimeMs: 1 },
        ]),
        'r.json',
      ),
    ).toThrow(/requests\.1\.gapMs: give one of "atMs", "thinkTimeMs" and "gapMs"/);
    expect(() => parseScenarioText(list([{ sector: 0, gapMs: 1 }]), 'r.json')).toThrow(
      /requests\.0\.gapMs: is the time after the previous request was issued/,
    );
  });
});
