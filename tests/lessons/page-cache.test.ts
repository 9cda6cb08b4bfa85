// The page-cache lesson (public/scenarios/page-cache.json): its claims, through the real
// CLI on the committed scenario file.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunSummary } from '../../src/engine/summary';
import { SCENARIOS, spindleJson } from '../cli/run-cli';

vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

interface Sweep {
  runs: Array<{ settings: Record<string, string | number | null>; summary: RunSummary }>;
}
const FILE = `${SCENARIOS}/page-cache.json`;
const SCHEDULERS = ['noop', 'deadline', 'anticipatory', 'cfq'];

describe('lesson: the page cache sorts buffered random writes', () => {
  let withCache: Sweep;
  let without: Sweep;
  let big: RunSummary;
  let cfqSlowFifo: RunSummary;
  let modern: RunSummary;
  const mbps = (s: Sweep, name: string) =>
    s.runs.find((r) => r.settings['iosched.name'] === name)!.summary.throughput.mbps;
  beforeAll(async () => {
    const vary = ['--vary', `iosched.name=${SCHEDULERS.join(',')}`, '--json'];
    [withCache, without, big, cfqSlowFifo, modern] = await Promise.all([
      spindleJson<Sweep>(['sweep', FILE, ...vary]),
      spindleJson<Sweep>(['sweep', FILE, '--set', 'workload.pageCache=null', ...vary]),
      spindleJson<RunSummary>([
        'run',
        FILE,
        '--set',
        'workload.pageCache.memoryMiB=1024',
        '--json',
      ]),
      spindleJson<RunSummary>([
        'run',
        FILE,
        '--set',
        'iosched.name=cfq',
        '--set',
        'iosched.tunables.fifo_expire_async=5000',
        '--json',
      ]),
      spindleJson<RunSummary>([
        'run',
        FILE,
        '--set',
        'iosched.kernel=6.18',
        '--set',
        'iosched.name=mq-deadline',
        '--json',
      ]),
    ]);
  });

  it('the disk’s writes all come from writeback — on 2.6.32 most of them from the threads themselves, over their dirty limit (balance_dirty_pages); on 6.18 all from the flusher (IO-less throttling)', () => {
    // Measured (noop): rand-write-0…3 1,077, 1,102, 0 and 776 pages, flush-8:0 1,039 (1,076
    // for rand-write-0 while a clean file forgot its writeback_index; before that 1,000,
    // 1,032, 8, 768 and 1,031 while a pass's pages were chosen when it began, one file a
    // pass). The flusher writes 1,024 pages a chunk across files, looking their pages up as
    // it goes, each going under writeback only as its bio is sent; while the flusher sleeps
    // for a request the pages it has not reached are still dirty, so the threads find the
    // dirty pages alone over their limit and write back themselves, each its own file
    // (before pages were sent one by one: the flusher 3,320, rand-write-0 768). On 6.18
    // (mq-deadline): the flusher all 4,333 (4,197 while its passes were one file of up to
    // 1,024 pages from the front of the list, without 6.18's list rules; 4,011 with a pass's
    // pages chosen when it began; 4,098 while 6.18's writers were held until under
    // dirty_ratio).
    const s = withCache.runs[0]!.summary;
    const flusher = s.processes.find((p) => p.name === 'flush-8:0')!;
    const threads = s.processes.filter((x) => x.name.startsWith('rand-write-'));
    const byThreads = threads.reduce((n, p) => n + p.completed, 0);
    expect(flusher.completed + byThreads).toBe(s.requests.iosCompleted);
    expect(s.pageCache!.pagesWrittenByWriters).toBe(byThreads); // 4 KiB pages, one a bio
    expect(byThreads).toBeGreaterThan(flusher.completed);
    for (const p of threads) expect(p.cached!.ops).toBeGreaterThan(0);
    const f = modern.processes.find((p) => p.name === 'flush-8:0')!;
    expect(modern.pageCache!.pagesWrittenByWriters).toBe(0);
    expect(f.completed).toBe(modern.requests.iosCompleted);
  });

  it('the threads write only as fast as writeback cleans, once near dirty_ratio (20% of 64 MiB): checked every ratelimit_pages (512) copied, they pass it by less than that', () => {
    // Measured: dirty or under writeback at the end 3,203–3,621 pages (noop 3,203; CFQ
    // 3,492; anticipatory 3,621; 3,210–3,493, noop 3,359, with a pass's pages chosen when it
    // began; 3,351 and 3,485 before the flusher did background writeback only when a
    // writer's balance_dirty_pages asked) against the 3,276 of dirty_ratio
    for (const r of withCache.runs) {
      const pc = r.summary.pageCache!;
      const limit = (0.2 * 64 * 1024) / 4;
      expect(pc.pagesDirtied).toBeGreaterThan(limit);
      expect(pc.pagesDirtied - pc.pagesWritten).toBeLessThanOrEqual(limit + 512);
    }
  });

  it('with the page cache noop, deadline and anticipatory come within 5% of each other; CFQ a third less, its async requests expiring after 250 ms', () => {
    // Measured: noop 0.818, deadline 0.852, anticipatory 0.835, CFQ 0.544 MB/s (noop 0.786,
    // deadline 0.815, anticipatory 0.800, CFQ 0.546, within 4%, while a pass's pages were
    // chosen when it began, one file a pass; 0.823–0.837 and 0.683 while each page went
    // under writeback with its whole pass). CFQ: the threads' writeback and the flusher's
    // share its one async queue; fifo_expire_async (250 ms; deadline's write_expire is 5 s)
    // starts each slice with the oldest, in another file.
    const xs = ['noop', 'deadline', 'anticipatory'].map((n) => mbps(withCache, n));
    expect(Math.max(...xs) / Math.min(...xs)).toBeLessThan(1.05);
    expect(mbps(withCache, 'cfq')).toBeLessThan(0.75 * Math.min(...xs));
    // with deadline's 5 s CFQ is with the others (measured 0.849; 0.802 before)
    expect(cfqSlowFifo.throughput.mbps).toBeGreaterThan(0.98 * Math.min(...xs));
  });

  it('without it (the writes in fio’s order) noop, deadline and anticipatory are slower, noop by a fifth; CFQ is faster, its one async queue no longer shared with writeback', () => {
    // Measured: without the cache deadline 0.66, anticipatory 0.67, CFQ 0.61, noop 0.61
    // (0.75 of its cached 0.82; CFQ 1.12 of its 0.54; 0.77 of 0.79 and 1.12 of 0.55 with a
    // pass's pages chosen when it began).
    for (const n of ['noop', 'deadline', 'anticipatory'])
      expect(mbps(without, n)).toBeLessThan(0.9 * mbps(withCache, n));
    expect(mbps(without, 'noop')).toBeLessThan(0.8 * mbps(withCache, 'noop'));
    expect(mbps(without, 'cfq')).toBeGreaterThan(1.05 * mbps(withCache, 'cfq'));
    for (const n of ['noop', 'cfq'])
      for (const m of ['deadline', 'anticipatory'])
        expect(mbps(without, n)).toBeLessThan(mbps(without, m));
  });

  it('on kernel 6.18 the threads only pause (IO-less balance_dirty_pages, since 3.2) and writeback is faster than 2.6.32’s deadline', () => {
    // Measured: mq-deadline on 6.18 0.887 MB/s, deadline on 2.6.32 0.852 (6.18 0.860 while
    // its flusher's passes were one file of up to 1,024 pages, without 6.18's list rules;
    // 0.821 and 0.815 with a pass's pages chosen when it began; 6.18 0.839 while its writers
    // were held until under dirty_ratio)
    expect(modern.throughput.mbps).toBeGreaterThan(mbps(withCache, 'deadline'));
  });

  it('more memory sorts better: with 1 GiB writeback is over three times as fast as with 64 MiB', () => {
    // Measured: 3.73 MB/s with 1 GiB (the threads write 13,568 of its 18,211 pages
    // themselves), 0.852 with 64 MiB (deadline); 3.50 (12,767 of 17,108) and 0.815 with a
    // pass's pages chosen when it began; 4.24 while each page went under writeback with its
    // whole pass
    expect(big.throughput.mbps).toBeGreaterThan(3 * mbps(withCache, 'deadline'));
  });
});
