// The 2.6 block layer's generic rules (LINUX-SCHEDULERS.md §1), one test per rule, on
// small hand-built scenarios through the real engine with noop (no policy of its own).
import { describe, expect, it } from 'vitest';
import type { TraceEvent, TraceSink } from '../../src/engine/events';
import { runScenario } from '../../src/engine/run';
import type { FixedRequest } from '../../src/engine/scenario/types';
import { proc, scenario } from '../helpers/scenario';

const MS = 1e6;

/** One process per entry, each issuing one I/O: [sector, KiB, op, atMs, sync?]. */
type Io = [number, number, 'read' | 'write', number, boolean?];

function run(
  ios: Io[],
  opts: {
    queue?: Record<string, number>;
    kernel?: '2.6.32' | '2.6.16';
    iosched?: string;
    queueDepth?: number;
  } = {},
) {
  const events: TraceEvent[] = [];
  const sink: TraceSink = { trace: (e) => events.push(e), service() {}, decision() {} };
  const processes = ios.map(([sector, kib, op, atMs, sync], i) => {
    const requests: FixedRequest[] = [{ sector, sizeKiB: kib, op, atMs, thinkTimeMs: null }];
    return proc({ name: `p${i}`, requests, sync: sync ?? null });
  });
  const { summary } = runScenario(
    scenario({
      iosched: opts.iosched ?? 'noop',
      queue: opts.queue ?? {},
      kernel: opts.kernel ?? '2.6.32',
      queueDepth: opts.queueDepth ?? 1,
      processes,
    }),
    { sink },
  );
  const of = (a: string) => events.filter((e) => e.action === a);
  return { events, summary, of, actions: events.map((e) => e.action).join('') };
}

describe('§1.4 merging', () => {
  it('one-hit cache: a bio that starts where the last request ends is back-merged (M)', () => {
    const r = run([
      [0, 4, 'write', 0],
      [8, 4, 'write', 0.1],
    ]);
    expect(r.of('M')).toHaveLength(1);
    expect(r.of('D')).toHaveLength(1);
    expect(r.of('D')[0]).toMatchObject({ sector: 0, nSectors: 16 });
    expect(r.summary.requests.backMerges).toBe(1);
  });

  it('one-hit cache: a bio that ends where the last request starts is front-merged (F)', () => {
    const r = run([
      [8, 4, 'write', 0],
      [0, 4, 'write', 0.1],
    ]);
    expect(r.of('F')).toHaveLength(1);
    expect(r.of('D')[0]).toMatchObject({ sector: 0, nSectors: 16 });
  });

  it('back-merge hash: found by end sector when the one-hit cache holds another request', () => {
    // 0+8 is the cached request; 1000+8 is only in the hash; 1008 back-merges into it.
    const r = run([
      [0, 4, 'write', 0],
      [1000, 4, 'write', 0.1],
      [1008, 4, 'write', 0.2],
    ]);
    expect(r.of('M')).toHaveLength(1);
    expect(r.of('M')[0]!.sector).toBe(1008);
    expect(r.of('D').map((e) => [e.sector, e.nSectors])).toEqual([
      [0, 8],
      [1000, 16],
    ]);
  });

  it('nomerges = 1: only the one-hit cache is used', () => {
    const r = run(
      [
        [0, 4, 'write', 0],
        [1000, 4, 'write', 0.1],
        [1008, 4, 'write', 0.2],
      ],
      { queue: { nomerges: 1 } },
    );
    expect(r.of('M')).toHaveLength(0);
    expect(r.of('D')).toHaveLength(3);
  });

  it('kernel 2.6.16: noop merges only back-to-back arrivals (no generic back-merge hash)', () => {
    const r = run(
      [
        [0, 4, 'write', 0],
        [1000, 4, 'write', 0.1],
        [1008, 4, 'write', 0.2],
      ],
      { kernel: '2.6.16' },
    );
    expect(r.of('M')).toHaveLength(0);
    const backToBack = run(
      [
        [0, 4, 'write', 0],
        [8, 4, 'write', 0.1],
      ],
      { kernel: '2.6.16' },
    );
    expect(backToBack.of('M')).toHaveLength(1);
  });

  it('noop has no front-merge hook: a front merge needs the one-hit cache', () => {
    const r = run([
      [100, 4, 'write', 0],
      [8, 4, 'write', 0.1],
      [0, 4, 'write', 0.2],
    ]);
    expect(r.of('F')).toHaveLength(0);
    expect(r.of('D')).toHaveLength(3);
  });

  it('max_sectors: a merge that would pass max_sectors_kb is refused, the bio gets its own request', () => {
    const r = run(
      [
        [0, 4, 'write', 0],
        [8, 4, 'write', 0.1],
      ],
      { queue: { max_sectors_kb: 4 } },
    );
    expect(r.of('M')).toHaveLength(0);
    expect(r.of('G')).toHaveLength(2);
  });

  it('merges only within one direction', () => {
    const r = run([
      [0, 4, 'write', 0],
      [8, 4, 'read', 0.1, false],
    ]);
    expect(r.of('M')).toHaveLength(0);
  });

  it('request–request merge: a back merge that closes the gap joins the next request', () => {
    // 0+8 and 16+8 pending; 8+8 back-merges into 0+8, which then meets 16+8 (noop: FIFO
    // neighbours). One request of 24 sectors, two G, one M, no trace of the second merge.
    const r = run([
      [0, 4, 'write', 0],
      [16, 4, 'write', 0.1],
      [8, 4, 'write', 0.2],
    ]);
    expect(r.of('G')).toHaveLength(2);
    expect(r.of('M')).toHaveLength(1);
    expect(r.of('D').map((e) => [e.sector, e.nSectors])).toEqual([[0, 24]]);
    expect(r.summary.requests.iosCompleted).toBe(3);
    expect(r.summary.requests.completed).toBe(1);
  });

  it('merging is not tried when the queue is empty', () => {
    // The first write is dispatched at once (a sync read unplugs); the second arrives to an
    // empty scheduler while the first is in the drive: no merge, though it is contiguous.
    const r = run([
      [0, 4, 'read', 0],
      [8, 4, 'read', 0.1],
    ]);
    expect(r.of('M')).toHaveLength(0);
    expect(r.of('D')).toHaveLength(2);
  });
});

describe('§1.6 plugging', () => {
  it('an async write into an empty queue plugs it (P); the unplug timer fires after 3 ms (UT, U)', () => {
    const r = run([[0, 4, 'write', 0]]);
    expect(r.actions.startsWith('QGPI')).toBe(true);
    const ut = r.of('T')[0]!;
    const u = r.of('U')[0]!;
    expect(ut.tNs).toBeCloseTo(3 * MS, 6);
    expect(u.tNs).toBeCloseTo(3 * MS, 6);
    expect(u.count).toBe(1);
    expect(r.of('D')[0]!.tNs).toBeCloseTo(3 * MS, 6);
  });

  it('unplug_delay sets the timer', () => {
    const r = run([[0, 4, 'write', 0]], { queue: { unplug_delay: 10 } });
    expect(r.of('D')[0]!.tNs).toBeCloseTo(10 * MS, 6);
  });

  it('a sync bio unplugs at once, with no trace event', () => {
    const r = run([[0, 4, 'read', 0]]);
    expect(r.of('P')).toHaveLength(1);
    expect(r.of('U')).toHaveLength(0);
    expect(r.of('D')[0]!.tNs).toBe(0);
  });

  it('unplug_thresh: the fourth queued request unplugs the queue, with no trace event', () => {
    const r = run([
      [0, 4, 'write', 0],
      [1000, 4, 'write', 0.1],
      [2000, 4, 'write', 0.2],
      [3000, 4, 'write', 0.3],
    ]);
    expect(r.of('U')).toHaveLength(0);
    expect(r.of('D')[0]!.tNs).toBeCloseTo(0.3 * MS, 6);
  });

  it('while plugged, bios gather: 16 contiguous 4 KiB writes become one request (#Q/#D = 16)', () => {
    const ios: Io[] = Array.from({ length: 16 }, (_, i) => [i * 8, 4, 'write', i * 0.1] as Io);
    const r = run(ios);
    expect(r.of('D')).toHaveLength(1);
    expect(r.of('D')[0]).toMatchObject({ sector: 0, nSectors: 128 });
    expect(r.summary.requests.mergeRatio).toBe(16);
  });

  it('an SSD with tagged queueing is never plugged', () => {
    const events: TraceEvent[] = [];
    runScenario(
      scenario({
        iosched: 'noop',
        preset: 'ssd',
        queueDepth: 32,
        processes: [
          proc({ requests: [{ sector: 0, sizeKiB: 4, op: 'write', atMs: 0, thinkTimeMs: null }] }),
        ],
      }),
      { sink: { trace: (e) => events.push(e), service() {}, decision() {} } },
    );
    expect(events.some((e) => e.action === 'P')).toBe(false);
    expect(events.find((e) => e.action === 'D')!.tNs).toBe(0);
  });
});

describe('§1.3 the request pool (nr_requests)', () => {
  it('a process that finds no free request sleeps (S) and gets one when a request is freed', () => {
    // nr_requests 4: one in the drive, the rest wait; scattered writes cannot merge.
    const ios: Io[] = Array.from({ length: 12 }, (_, i) => [i * 10000, 4, 'write', 0.01 * i] as Io);
    const r = run(ios, { queue: { nr_requests: 4 } });
    expect(r.of('S').length).toBeGreaterThan(0);
    // Every bio got a request in the end, once, and completed.
    expect(r.of('G')).toHaveLength(12);
    expect(r.of('C')).toHaveLength(12);
    expect(r.summary.requests.iosCompleted).toBe(12);
    // Never more requests allocated than 3/2 × nr_requests per class.
    let live = 0;
    let peak = 0;
    for (const e of r.events) {
      if (e.action === 'G') peak = Math.max(peak, ++live);
      if (e.action === 'C') live--;
    }
    expect(peak).toBeLessThanOrEqual(6);
  });

  it('the allocation that fills the pool succeeds; later processes sleep', () => {
    // nr_requests 4: the 4th allocation reaches the limit (its process becomes the
    // batcher); the 5th process finds the pool full and sleeps.
    const ios: Io[] = Array.from({ length: 6 }, (_, i) => [i * 10000, 4, 'write', 0] as Io);
    const r = run(ios, { queue: { nr_requests: 4 } });
    const firstSleep = r.events.findIndex((e) => e.action === 'S');
    expect(r.events.slice(0, firstSleep).filter((e) => e.action === 'G')).toHaveLength(4);
  });

  it('a batcher may allocate past nr_requests, up to 3/2 × nr_requests', () => {
    // One process queues 8 scattered writes at once: it fills the pool, becomes the
    // batcher, and goes on to 6 = 3/2 × 4 requests before it too must sleep.
    const requests: FixedRequest[] = Array.from({ length: 8 }, (_, i) => ({
      sector: i * 10000,
      sizeKiB: 4,
      op: 'write' as const,
      atMs: 0,
      thinkTimeMs: null,
    }));
    const events: TraceEvent[] = [];
    runScenario(
      scenario({ iosched: 'noop', queue: { nr_requests: 4 }, processes: [proc({ requests })] }),
      { sink: { trace: (e) => events.push(e), service() {}, decision() {} } },
    );
    const firstSleep = events.findIndex((e) => e.action === 'S');
    expect(events.slice(0, firstSleep).filter((e) => e.action === 'G')).toHaveLength(6);
    expect(events.filter((e) => e.action === 'C')).toHaveLength(8);
  });
});

describe('§1.5 requeue', () => {
  it('a write-back drive with a full buffer refuses (QUEUE FULL): D then R, the request goes again later', () => {
    const events: TraceEvent[] = [];
    const requests: FixedRequest[] = Array.from({ length: 12 }, (_, i) => ({
      sector: i * 20000,
      sizeKiB: 16,
      op: 'write' as const,
      atMs: 0,
      thinkTimeMs: null,
    }));
    const { summary } = runScenario(
      scenario({
        iosched: 'noop',
        cache: 'write-back',
        queueDepth: 4,
        overrides: { cache: { writeBufferSectors: 64 } },
        processes: [proc({ requests, sync: true })],
      }),
      { sink: { trace: (e) => events.push(e), service() {}, decision() {} } },
    );
    const requeued = events.filter((e) => e.action === 'R');
    expect(requeued.length).toBeGreaterThan(0);
    // Each R comes right after that request's D (the kernel traces D before the device
    // answers), and the request is dispatched again later.
    events.forEach((e, i) => {
      if (e.action !== 'R') return;
      const previous = events
        .slice(0, i)
        .reverse()
        .find((x) => x.rq === e.rq)!;
      expect(previous).toMatchObject({ action: 'D', tNs: e.tNs });
      expect(events.slice(i + 1).some((x) => x.action === 'D' && x.rq === e.rq)).toBe(true);
    });
    // Nothing lost: every write completes exactly once.
    expect(events.filter((e) => e.action === 'C')).toHaveLength(12);
    expect(summary.drive.queueFullRefusals).toBe(requeued.length);
  });
});

describe('§1.5 the dispatch queue and the pull model', () => {
  it('requests go to the device only while it has free tags; each is dispatched once', () => {
    const ios: Io[] = Array.from({ length: 20 }, (_, i) => [i * 5000, 4, 'read', 0] as Io);
    const r = run(ios, { queueDepth: 4 });
    expect(r.of('D')).toHaveLength(20);
    let inDevice = 0;
    for (const e of r.events) {
      if (e.action === 'D') inDevice++;
      if (e.action === 'C') inDevice--;
      expect(inDevice).toBeLessThanOrEqual(4);
    }
  });
});

describe('a trace-timed device (replay)', () => {
  it('completes each request exactly its given service time after dispatch', () => {
    const events: TraceEvent[] = [];
    const requests: FixedRequest[] = [
      { sector: 0, sizeKiB: 4, op: 'read', atMs: 0, thinkTimeMs: null, serviceMs: 0.25 },
      { sector: 900000, sizeKiB: 4, op: 'read', atMs: 0.1, thinkTimeMs: null, serviceMs: 7 },
      {
        sector: 16,
        sizeKiB: 4,
        op: 'write',
        atMs: 0.2,
        thinkTimeMs: null,
        serviceMs: 1.5,
        sync: true,
      },
    ];
    runScenario(scenario({ iosched: 'noop', queueDepth: 4, processes: [proc({ requests })] }), {
      sink: { trace: (e) => events.push(e), service() {}, decision() {} },
    });
    const d2c = new Map<number, number>();
    for (const e of events) {
      if (e.action === 'D') d2c.set(e.rq, -e.tNs);
      if (e.action === 'C') d2c.set(e.rq, d2c.get(e.rq)! + e.tNs);
    }
    expect([...d2c.values()].map((ns) => ns / MS)).toEqual(
      [0.25, 7, 1.5].map((x) => expect.closeTo(x, 9)),
    );
    // The per-request sync flag: the write is sync, so it unplugs at once.
    expect(events.find((e) => e.action === 'D' && e.sector === 16)!.tNs).toBeCloseTo(0.2 * MS, 3);
  });
});
