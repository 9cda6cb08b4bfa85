// The 2.6.32 request pool (LINUX-SCHEDULERS.md §1.3) rule by rule, after block/blk-core.c's
// get_request, get_request_wait, ioc_set_batching, ioc_batching and __freed_request: small
// fixed scenarios with noop (no policy of its own), nr_requests 4 and scattered sectors, so
// nothing merges. The general pool tests are in block-layer.test.ts (§1.3).
import { describe, expect, it } from 'vitest';
import type { TraceEvent, TraceSink } from '../../src/engine/events';
import { runScenario } from '../../src/engine/run';
import type { FixedRequest } from '../../src/engine/scenario/types';
import { proc, scenario } from '../helpers/scenario';

const MS = 1e6;

/** One 4 KiB I/O: [sector, atMs]. */
type Io = [number, number];

/** Sectors far apart: no two requests merge. */
const far = (k: number) => k * 100000;

/** One process per list, each issuing its I/Os at their times; nr_requests 4, noop. */
function run(procs: Io[][], opts: { op?: 'read' | 'write'; preset?: string } = {}) {
  const events: TraceEvent[] = [];
  const sink: TraceSink = { trace: (e) => events.push(e), service() {}, decision() {} };
  const processes = procs.map((ios, i) =>
    proc({
      name: `p${i}`,
      requests: ios.map(([sector, atMs]): FixedRequest => ({
        sector,
        sizeKiB: 4,
        op: opts.op ?? 'write',
        atMs,
        thinkTimeMs: null,
      })),
    }),
  );
  const { summary } = runScenario(
    scenario({ iosched: 'noop', queue: { nr_requests: 4 }, preset: opts.preset, processes }),
    { sink },
  );
  /** The first G or S of the bio at this sector, and its time in ms. */
  const fate = (sector: number) => {
    const e = events.find((x) => x.sector === sector && (x.action === 'G' || x.action === 'S'))!;
    return { action: e.action, ms: e.tNs / MS };
  };
  return { events, summary, fate };
}

/** p0 fills the pool at 0 ms: its 4th request reaches nr_requests and makes it a batcher. */
const fill: Io[] = [1, 2, 3, 4].map((k) => [far(k), 0]);

describe('§1.3 the request pool: get_request, ioc_set_batching, ioc_batching', () => {
  it('get_request refuses a request only at the limit, not because other processes sleep for one', () => {
    // p1 comes at 1 ms to the full pool, is no batcher and sleeps (S). p0, the batcher, asks
    // again at 2 ms: it gets a request (its 5th, past nr_requests) although p1 sleeps; the
    // kernel has no rule that makes a process queue up behind the sleepers.
    const r = run([[...fill, [far(5), 2]], [[far(6), 1]]]);
    expect(r.fate(far(6))).toEqual({ action: 'S', ms: 1 });
    expect(r.fate(far(5))).toEqual({ action: 'G', ms: 2 });
    expect(r.summary.requests.iosCompleted).toBe(6);
  });

  it('ioc_set_batching leaves a running batch alone: filling the pool again does not restart it', () => {
    // p0 becomes a batcher at 0 ms (BLK_BATCH_TIME 20 ms). The first completion (17.1 ms)
    // frees the pool below the limit; p0's request at 18 ms fills it again. p0 is still a
    // batcher then, so ioc_set_batching gives it no fresh batch (32 requests, 20 ms from
    // 18 ms): at 25 ms its batch time is up, and at the full pool it sleeps.
    const r = run([[...fill, [far(5), 18], [far(6), 25]]]);
    const firstC = r.events.find((e) => e.action === 'C')!.tNs / MS;
    expect(firstC).toBeGreaterThan(0);
    expect(firstC).toBeLessThan(18);
    expect(r.fate(far(5))).toEqual({ action: 'G', ms: 18 });
    expect(r.fate(far(6))).toEqual({ action: 'S', ms: 25 });
    expect(r.summary.requests.iosCompleted).toBe(6);
  });

  it('ioc_batching: the batch counts down only at the limit, not for requests taken below it', () => {
    // On the SSD reads complete in 0.1 ms. p0 fills the pool at 0 ms (a batcher, one of its
    // BLK_BATCH_REQ = 32 used), then takes 32 more requests one by one below nr_requests
    // (1…16.5 ms): get_request looks the io_context up only at the limit, so none of them
    // counts. At 18 ms p1 fills the pool (p1's batch, the pool marked full); p0 asks at
    // 18.001 ms, within its 20 ms and with its batch not used up, and gets a request.
    const spaced: Io[] = Array.from({ length: 32 }, (_, k) => [far(10 + k), 1 + 0.5 * k]);
    const p1: Io[] = [50, 51, 52, 53].map((k) => [far(k), 18]);
    const r = run([[...fill, ...spaced, [far(90), 18.001]], p1], { op: 'read', preset: 'ssd' });
    // below the limit: each of p0's spaced reads completed before the next was asked for
    for (const [sector, atMs] of spaced) {
      expect(r.fate(sector)).toEqual({ action: 'G', ms: atMs });
      const c = r.events.find((e) => e.sector === sector && e.action === 'C')!;
      expect(c.tNs / MS).toBeLessThan(atMs + 0.5);
    }
    expect(r.fate(far(90))).toEqual({ action: 'G', ms: 18.001 });
    expect(r.events.filter((e) => e.action === 'S')).toHaveLength(0);
  });

  // get_request_wait's loop (a woken sleeper that still finds no request sleeps again, at
  // the tail) has no test: here __freed_request wakes the sleeper and it tries again at
  // once, with the pool one below nr_requests and no longer full, so it always succeeds.
  // In the kernel another process may take the request before the sleeper runs.
});
