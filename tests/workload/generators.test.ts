// The named workload generators (issue 7 item 4): each family's stream has the parameters
// its source gives (the comments in src/engine/workload/generators/*.ts say which), runs
// from a scenario file's `generator` key, and is deterministic.
import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/engine/sim/rng';
import { loadScenario } from '../../src/engine/scenario/load';
import { runScenario } from '../../src/engine/run';
import type { TraceSink } from '../../src/engine/events';
import { fio, FIO_JOBS, type FioSpec } from '../../src/engine/workload/generators/fio';
import { ffsb, FFSB_THREADS, type FfsbSpec } from '../../src/engine/workload/generators/ffsb';
import { postmark, type PostmarkSpec } from '../../src/engine/workload/generators/postmark';
import { kbuild, type KbuildSpec } from '../../src/engine/workload/generators/kbuild';
import { tpcb, type TpcbSpec } from '../../src/engine/workload/generators/tpcb';
import type { GenFamily, Step } from '../../src/engine/workload/generators/types';
import { resolveGenerator, type RawGenerator } from '../../src/engine/scenario/generator-schema';
import { ONE_THREAD_ENV } from '../helpers/gen-env';

const env = ONE_THREAD_ENV;

/** n operations' steps from a family, with a fixed seed */
function steps<S>(family: GenFamily<S, unknown>, raw: RawGenerator, ops: number): Step[] {
  const spec = resolveGenerator(raw) as S;
  const rng = createRng(7, 'test');
  const st = family.init(spec, env, rng);
  const out: Step[] = [];
  for (let i = 0; i < ops; i++) family.next(spec, st, env, rng, out);
  return out;
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const max = (xs: number[]) => xs.reduce((a, b) => Math.max(a, b), -Infinity);
const min = (xs: number[]) => xs.reduce((a, b) => Math.min(a, b), Infinity);
const reads = (s: Step[]) => s.filter((x) => !x.write);

describe('fio jobs (Bautista et al.)', () => {
  const job = (j: FioSpec['job'], n = 4000) =>
    steps(fio as GenFamily<FioSpec, unknown>, { kind: 'fio', job: j }, n);

  it('seq-read sends 128 KiB read-ahead windows, one after another', () => {
    const s = job('seq-read', 50);
    expect(s.every((x) => !x.write && x.sync && x.nSectors === 256)).toBe(true);
    for (let i = 1; i < s.length; i++) expect(s[i]!.sector).toBe(s[i - 1]!.sector + 256);
  });
  it('seq-write sends sequential 4 KiB async pages (for the scheduler to merge)', () => {
    const s = job('seq-write', 50);
    expect(s.every((x) => x.write && !x.sync && x.nSectors === 8)).toBe(true);
    for (let i = 1; i < s.length; i++) expect(s[i]!.sector).toBe(s[i - 1]!.sector + 8);
  });
  it('rand-read and rand-write are 4 KiB, 4 KiB-aligned, spread over the file', () => {
    for (const j of ['rand-read', 'rand-write'] as const) {
      const s = job(j);
      expect(s.every((x) => x.nSectors === 8 && x.sector % 8 === 0)).toBe(true);
      expect(s.every((x) => x.write === (j === 'rand-write'))).toBe(true);
      expect(mean(s.map((x) => x.sector))).toBeGreaterThan(0.45 * env.regionSectors);
      expect(mean(s.map((x) => x.sector))).toBeLessThan(0.55 * env.regionSectors);
    }
  });
  it('oltp: 8 KiB pages, 70% reads, writes the thread waits for', () => {
    const s = job('oltp');
    expect(s.every((x) => x.nSectors === 16 && x.sync)).toBe(true);
    expect(reads(s).length / s.length).toBeCloseTo(0.7, 1);
  });
  it("file-server: iometer's block-size mix (mean 11.08 KiB) and 80% reads", () => {
    const s = job('file-server', 20000);
    expect(reads(s).length / s.length).toBeCloseTo(0.8, 1);
    expect(mean(s.map((x) => x.nSectors / 2))).toBeGreaterThan(10);
    expect(mean(s.map((x) => x.nSectors / 2))).toBeLessThan(12.2);
    expect(s.filter((x) => x.nSectors === 8).length / s.length).toBeCloseTo(0.6, 1);
  });
  it('all six jobs exist', () => {
    expect([...FIO_JOBS].sort()).toEqual(
      ['file-server', 'oltp', 'rand-read', 'rand-write', 'seq-read', 'seq-write'].sort(),
    );
  });
});

describe('FFSB profiles (Heger & Quinn)', () => {
  const prof = (p: FfsbSpec['profile'], n = 5000) =>
    steps(ffsb as GenFamily<FfsbSpec, unknown>, { kind: 'ffsb', profile: p }, n);
  it('8 threads by default', () => {
    expect(
      ffsb.defaultThreads(resolveGenerator({ kind: 'ffsb', profile: 'mixed' }) as FfsbSpec),
    ).toBe(FFSB_THREADS);
    expect(FFSB_THREADS).toBe(8);
  });
  it('seq-read reads 40 MB files in 4 KiB steps, start to end', () => {
    const s = prof('seq-read', 40 * 256 + 3);
    expect(s.every((x) => !x.write && x.nSectors === 8)).toBe(true);
    // a whole file (40 MiB = 10240 blocks) in order, then another file from its start
    for (let i = 1; i < 10240; i++) expect(s[i]!.sector).toBe(s[i - 1]!.sector + 8);
    expect((s[10240]!.sector - 2048) % (40 * 2048)).toBe(0);
  });
  it('seq-write writes 100 MB files in 4 KiB async pages', () => {
    const s = prof('seq-write', 100);
    expect(s.every((x) => x.write && !x.sync && x.nSectors === 8)).toBe(true);
  });
  it('mixed is 60% reads, 30% writes, 10% metadata', () => {
    const s = prof('mixed', 20000);
    const meta = s.filter((x) => x.write && x.sync).length / s.length;
    const w = s.filter((x) => x.write && !x.sync).length / s.length;
    expect(reads(s).length / s.length).toBeCloseTo(0.6, 1);
    expect(w).toBeCloseTo(0.3, 1);
    expect(meta).toBeCloseTo(0.1, 1);
  });
});

describe('Postmark with a file-system personality (Riska et al.)', () => {
  // the I/O steps (a delete's `drop` step sends nothing)
  const pm = (config: PostmarkSpec['config'], fs: PostmarkSpec['fs'], n = 2000) =>
    steps(postmark as GenFamily<PostmarkSpec, unknown>, { kind: 'postmark', config, fs }, n).filter(
      (x) => !x.drop,
    );
  it('ext3 and ReiserFS send 4 KiB writes; ext2 and XFS send large ones', () => {
    for (const fs of ['ext3', 'reiserfs'] as const)
      expect(
        max(
          pm('LL', fs)
            .filter((x) => x.write)
            .map((x) => x.nSectors),
        ),
      ).toBe(8);
    for (const fs of ['ext2', 'xfs'] as const)
      expect(
        max(
          pm('LL', fs)
            .filter((x) => x.write)
            .map((x) => x.nSectors),
        ),
      ).toBeGreaterThan(128);
  });
  it('journaling adds writes: ext3 writes more blocks than ext2 for the same transactions', () => {
    const blocks = (s: Step[]) => s.filter((x) => x.write).reduce((a, x) => a + x.nSectors, 0);
    expect(blocks(pm('SS', 'ext3'))).toBeGreaterThan(1.1 * blocks(pm('SS', 'ext2')));
    expect(blocks(pm('SS', 'xfs'))).toBeGreaterThan(blocks(pm('SS', 'ext2')));
  });
  it('ext3 writes metadata in its files’ block group, just before their data; ReiserFS in tree nodes near the file', () => {
    const meta = (fs: PostmarkSpec['fs']) =>
      pm('SS', fs, 500).filter((x) => x.write && x.nSectors === 8);
    // the journal (32 MiB) first, then the group's metadata for 2000 slots: two bitmaps,
    // 63 blocks of 128-byte inodes, 12 blocks of 24-byte directory entries; then the data
    const journal = 32 * 2048;
    const area = (2 + 63 + 12) * 8;
    const inArea = (x: Step) => x.sector >= journal && x.sector < journal + area;
    const e3 = meta('ext3');
    const share = (s: Step[]) => s.filter(inArea).length / s.length;
    expect(share(e3)).toBeGreaterThan(0.25);
    expect(share(meta('reiserfs'))).toBeLessThan(share(e3) - 0.2);
  });
  it('small files stay under 10 KiB; large files reach past 64 KiB; a large working set spreads wider', () => {
    const small = reads(pm('SS', 'ext2'));
    expect(max(small.map((x) => x.nSectors))).toBeLessThanOrEqual(24);
    expect(max(reads(pm('LS', 'ext2')).map((x) => x.nSectors))).toBe(256);
    const spread = (s: Step[]) =>
      max(reads(s).map((x) => x.sector)) - min(reads(s).map((x) => x.sector));
    expect(spread(pm('SL', 'ext2'))).toBeGreaterThan(5 * spread(pm('SS', 'ext2')));
  });
});

describe('kernel builds and TPC-B', () => {
  it('2 builds: 19 ms between requests overall; 4 builds: 12 ms', () => {
    const k2 = resolveGenerator({ kind: 'kbuild', builds: 2 }) as KbuildSpec;
    const k4 = resolveGenerator({ kind: 'kbuild', builds: 4 }) as KbuildSpec;
    expect(kbuild.openMeanMs(k2, 2)! / 2).toBe(19);
    expect(kbuild.openMeanMs(k4, 4)! / 4).toBe(12);
  });
  it('a TPC-B transaction reads an account page and waits for its log write', () => {
    const s = steps(tpcb as GenFamily<TpcbSpec, unknown>, { kind: 'tpcb' }, 1000);
    expect(reads(s).length).toBe(1000);
    expect(s.filter((x) => x.write && x.sync && x.nSectors === 8).length).toBe(1000);
  });
});

describe('generators in scenarios', () => {
  const scen = (generator: object, extra: object = {}, seed = 1) =>
    loadScenario(
      {
        name: 'g',
        seed,
        iosched: { name: 'cfq' },
        workload: { processes: [{ name: 'g', generator, ...extra }] },
        stop: { timeMs: 3000 },
      },
      'g.json',
    );
  it('the thread count comes from the generator unless count is given', () => {
    expect(scen({ kind: 'ffsb', profile: 'mixed' }).workload.processes[0]!.count).toBe(8);
    expect(
      scen({ kind: 'ffsb', profile: 'mixed' }, { count: 2 }).workload.processes[0]!.count,
    ).toBe(2);
  });
  it('unknown jobs and pattern keys are errors naming the key', () => {
    expect(() => scen({ kind: 'fio', job: 'nope' })).toThrow(/generator\.job: must be one of/);
    expect(() => scen({ kind: 'fio', job: 'oltp' }, { op: 'write' })).toThrow(
      /processes\.0\.op: does not apply to a process with a "generator"/,
    );
    expect(() => scen({ kind: 'zfs' })).toThrow(/generator/);
  });
  it('same seed, same run; another seed, another run', () => {
    const g = { kind: 'postmark', config: 'SL', fs: 'ext3' };
    const a = runScenario(scen(g)).summary;
    const b = runScenario(scen(g)).summary;
    const c = runScenario(scen(g, {}, 2)).summary;
    expect(b).toEqual(a);
    expect(c.latencyMs.q2c.mean).not.toBe(a.latencyMs.q2c.mean);
  });
  it('a closed thread waits for its sync bios; buffered writes do not hold it', () => {
    // oltp: one sync request in flight per thread (iodepth 1) — never more Qs than Cs + 4
    const events: Array<{ action: string; proc: number }> = [];
    const sink: TraceSink = {
      trace: (e) => {
        events.push({ action: e.action, proc: e.proc });
      },
      service: () => {},
      decision: () => {},
    };
    runScenario(scen({ kind: 'fio', job: 'oltp' }), { sink });
    let out = 0;
    let peak = 0;
    for (const e of events) {
      if (e.action === 'Q') out++;
      if (e.action === 'C') out--;
      peak = Math.max(peak, out);
    }
    expect(peak).toBe(4);
    // seq-write: async pages pile up far past one per thread (merged into large requests)
    const w = runScenario(scen({ kind: 'fio', job: 'seq-write' })).summary;
    expect(w.requests.mergeRatio).toBeGreaterThan(8);
  });
  it('a buffered writer sleeps with a bio that found no free request (get_request_wait): nothing more until it has one', () => {
    // rand-write, one thread, nr_requests 8: each 4 KiB page needs a request of its own
    const s = scen({ kind: 'fio', job: 'rand-write' }, { count: 1 });
    s.iosched.queue = { nr_requests: 8 };
    const events: Array<{ action: string; bio: number; tNs: number }> = [];
    const sink: TraceSink = {
      trace: (e) => {
        events.push({ action: e.action, bio: e.bio ?? -1, tNs: e.tNs });
      },
      service: () => {},
      decision: () => {},
    };
    runScenario(s, { sink });
    const sleeps = events.filter((e) => e.action === 'S');
    expect(sleeps.length).toBeGreaterThan(10);
    for (const sl of sleeps) {
      // from the S to the G that gives the same bio its request, the thread queues nothing
      const from = events.indexOf(sl);
      const woke = events.findIndex((e, i) => i > from && e.action === 'G' && e.bio === sl.bio);
      const until = woke < 0 ? events.length : woke;
      expect(events.slice(from + 1, until).some((e) => e.action === 'Q')).toBe(false);
    }
    // so the writer is held at the pool: bios in flight stay within 3/2 × nr_requests + 1
    let out = 0;
    let peak = 0;
    for (const e of events) {
      if (e.action === 'Q') out++;
      if (e.action === 'C') out--;
      peak = Math.max(peak, out);
    }
    expect(peak).toBeLessThanOrEqual(13);
  });
  it('buffered writers wait at the dirty threshold (vm.dirty_ratio of memory), all threads together', async () => {
    const { DIRTY_LIMIT_SECTORS } = await import('../../src/engine/workload/generators/runtime');
    // 20% of 1 GiB in sectors
    expect(DIRTY_LIMIT_SECTORS).toBe(419430.4);
    // seq-write's pages merge (no request each), so only the threshold holds them: 4 threads
    // on a slow disk never have more buffered sectors in flight than it
    const s = scen({ kind: 'fio', job: 'seq-write' });
    s.iosched.queue = { nr_requests: 8192 };
    const bios = new Map<number, number[]>();
    let dirty = 0;
    let peak = 0;
    const sink: TraceSink = {
      trace: (e) => {
        if (e.action === 'Q') dirty += e.nSectors;
        else if (e.action === 'G' || e.action === 'M' || e.action === 'F')
          bios.set(e.rq, [...(bios.get(e.rq) ?? []), e.nSectors]);
        else if (e.action === 'C') for (const n of bios.get(e.rq) ?? []) dirty -= n;
        peak = Math.max(peak, dirty);
      },
      service: () => {},
      decision: () => {},
    };
    runScenario(s, { sink });
    expect(peak).toBeGreaterThan(0.9 * DIRTY_LIMIT_SECTORS);
    // each of the 4 threads may have one 4 KiB page on its way when the threshold is met
    expect(peak).toBeLessThanOrEqual(DIRTY_LIMIT_SECTORS + 4 * 8);
  });
  it('startMs and durationMs bound when a generator issues', () => {
    const first: number[] = [];
    const last: number[] = [];
    const sink = {
      trace: (e: { action: string; tNs: number }) => {
        if (e.action !== 'Q') return;
        if (first.length === 0) first.push(e.tNs);
        last[0] = e.tNs;
      },
      service: () => {},
      decision: () => {},
    } as unknown as TraceSink;
    runScenario(scen({ kind: 'fio', job: 'rand-read', startMs: 500, durationMs: 1000 }), { sink });
    expect(first[0]! / 1e6).toBeGreaterThanOrEqual(500);
    expect(last[0]! / 1e6).toBeLessThan(1500);
    expect(last[0]! / 1e6).toBeGreaterThan(1300);
  });
});
