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
  const mbps = (s: Sweep, name: string) =>
    s.runs.find((r) => r.settings['iosched.name'] === name)!.summary.throughput.mbps;
  beforeAll(async () => {
    const vary = ['--vary', `iosched.name=${SCHEDULERS.join(',')}`, '--json'];
    [withCache, without, big] = await Promise.all([
      spindleJson<Sweep>(['sweep', FILE, ...vary]),
      spindleJson<Sweep>(['sweep', FILE, '--set', 'workload.pageCache=null', ...vary]),
      spindleJson<RunSummary>([
        'run',
        FILE,
        '--set',
        'workload.pageCache.memoryMiB=1024',
        '--json',
      ]),
    ]);
  });

  it('the disk’s writes all come from the flusher: the fio threads’ writes are absorbed by the cache', () => {
    const s = withCache.runs[0]!.summary;
    const flusher = s.processes.find((p) => p.name === 'flush-8:0')!;
    expect(flusher.completed).toBe(s.requests.iosCompleted);
    for (const p of s.processes.filter((x) => x.name.startsWith('rand-write-'))) {
      expect(p.completed).toBe(0);
      expect(p.cached!.ops).toBeGreaterThan(0);
    }
  });

  it('the threads write only as fast as writeback cleans, once dirty_ratio (20% of 64 MiB) is reached', () => {
    const pc = withCache.runs[0]!.summary.pageCache!;
    const limit = (0.2 * 64 * 1024) / 4;
    expect(pc.pagesDirtied).toBeGreaterThan(limit);
    expect(pc.pagesDirtied - pc.pagesWritten).toBeLessThanOrEqual(limit + 4);
  });

  it('with the page cache every I/O scheduler gives the same throughput (within 1%)', () => {
    const xs = SCHEDULERS.map((n) => mbps(withCache, n));
    expect(Math.max(...xs) / Math.min(...xs)).toBeLessThan(1.01);
  });

  it('without it (the writes in fio’s order) every scheduler is slower, noop and CFQ by a quarter', () => {
    // Measured: with the cache 0.84 MB/s for all four; without it deadline 0.66, anticipatory
    // 0.67, CFQ 0.61, noop 0.61 (0.72 of the cached figure). Before 2.6.32's get_request was
    // modelled as the kernel has it (a process refused only at the limit, not behind the
    // sleepers), noop fell to 0.30 and CFQ to 0.46.
    for (const n of SCHEDULERS) expect(mbps(without, n)).toBeLessThan(0.9 * mbps(withCache, n));
    for (const n of ['noop', 'cfq']) {
      expect(mbps(without, n)).toBeLessThan(0.75 * mbps(withCache, n));
      for (const m of ['deadline', 'anticipatory'])
        expect(mbps(without, n)).toBeLessThan(mbps(without, m));
    }
  });

  it('more memory sorts better: with 1 GiB writeback is over three times as fast as with 64 MiB', () => {
    expect(big.throughput.mbps).toBeGreaterThan(3 * mbps(withCache, 'deadline'));
  });
});
