// Kernel 6.18's per-task plugging (src/engine/iosched/plug-task.ts) against
// LINUX-SCHEDULERS.md §9.1 and the kernel's blk_add_rq_to_plug / blk_attempt_plug_merge /
// blk_mq_flush_plug_list; the event sequences are the ones the shared linux-6.18 traces
// show (mq-deadline: Q G P U 1 I D; none: Q G P … U n D, no I).
import { describe, expect, it } from 'vitest';
import { PLUG_MAX_REQUESTS } from '../../src/engine/iosched/plug-task';
import type { FixedRequest } from '../../src/engine/scenario/types';
import { loadScenario } from '../../src/engine/scenario/load';
import { actions, loadedIosched, runProcs, type BlockRun } from '../helpers/mq-run';
import { rd, wr } from '../helpers/traced-run';

const MS = 1e6;

const run = (iosched: string, requests: FixedRequest[], o: BlockRun = {}) =>
  runProcs(iosched, [requests], o);

describe('kernel 6.18: each process plugs its own submissions', () => {
  it('one sync read under mq-deadline: Q G P U1 I D C — no queue plug, no unplug timer', () => {
    const r = run('mq-deadline', [rd(1000, 0)]);
    expect(actions(r.trace)).toEqual(['Q', 'G', 'P', 'U1', 'I', 'D', 'C']);
    const u = r.trace.find((e) => e.action === 'U')!;
    expect(u.pid).toBe(r.trace[0]!.pid); // the process unplugs itself, not kblockd
    expect(r.d[0]!.tNs).toBe(0);
  });

  it('a batch of four random reads at one instant under none: Q G ×4 in one plug, U4, then D without I', () => {
    // a device of four tags: without a scheduler each request holds a driver tag, and a
    // queue depth of 1 would let one exist at a time (tags-mq.test.ts)
    const r = run('none', [rd(585608, 0), rd(48656, 0), rd(1121192, 0), rd(1619264, 0)], {
      queueDepth: 4,
    });
    const seq = actions(r.trace).filter((a) => a !== 'C');
    expect(seq).toEqual(['Q', 'G', 'P', 'Q', 'G', 'Q', 'G', 'Q', 'G', 'U4', 'D', 'D', 'D', 'D']);
    // they leave the plug in submission order
    expect(r.d.map((e) => e.sector)).toEqual([585608, 48656, 1121192, 1619264]);
  });

  it('blk_attempt_plug_merge: contiguous writes of one submission merge in the plug though the disk is idle', () => {
    const writes = [wr(8000, 0), wr(8008, 0), wr(8016, 0), wr(7992, 0)];
    const r = run('mq-deadline', writes);
    expect(actions(r.trace).filter((a) => a !== 'C')).toEqual([
      'Q',
      'G',
      'P',
      'Q',
      'M',
      'Q',
      'M',
      'Q',
      'F',
      'U1',
      'I',
      'D',
    ]);
    expect(r.d[0]).toMatchObject({ sector: 7992, nSectors: 32, tNs: 0 });
    // 2.6.32 gathers them too, behind its queue plug — and dispatches on the 3 ms unplug timer
    const old = run('mq-deadline', writes, { kernel: '2.6.32' });
    expect(old.d).toHaveLength(1);
    expect(old.d[0]!.tNs).toBe(3 * MS);
  });

  it('only the newest request in the plug is a merge candidate', () => {
    // 8000 then 9000, then 8008 (contiguous with the first, not the newest): its own request
    const r = run('mq-deadline', [wr(8000, 0), wr(9000, 0), wr(8008, 0)]);
    expect(r.trace.filter((e) => e.action === 'M' || e.action === 'F')).toHaveLength(0);
    expect(r.trace.filter((e) => e.action === 'G')).toHaveLength(3);
    // inside the scheduler (after the flush) deadline's own merging may still join them
  });

  it(`a plug holding ${PLUG_MAX_REQUESTS} requests is flushed before the next joins, and a new plug begins (P)`, () => {
    const many = Array.from({ length: PLUG_MAX_REQUESTS + 3 }, (_, k) => wr(100_000 + k * 64, 0));
    // queue depth 32: 2 × 32 = 64 scheduler tags, room for all 35 (tags-mq.ts)
    const r = run('mq-deadline', many, { queueDepth: 32 });
    const plugs = actions(r.trace).filter((a) => a === 'P' || a.startsWith('U'));
    expect(plugs).toEqual(['P', `U${PLUG_MAX_REQUESTS}`, 'P', 'U3']);
  });

  it('a request of 128 KiB flushes the plug before the next request joins', () => {
    // queue depth 2: four scheduler tags, room for the three requests
    const r = run('mq-deadline', [wr(100_000, 0, 128), wr(200_000, 0), wr(300_000, 0)], {
      queueDepth: 2,
    });
    const plugs = actions(r.trace).filter((a) => a === 'P' || a.startsWith('U'));
    expect(plugs).toEqual(['P', 'U1', 'P', 'U2']);
  });

  it('a process about to sleep for a tag flushes its plug first (UT), and the wait is not traced', () => {
    // nr_requests 4: blk-mq's one tag pool has no batching allowance (2.6's pool gave this
    // process six, tags-mq.ts): four requests, then the fifth bio waits
    const eight = Array.from({ length: 8 }, (_, k) => wr(100_000 + k * 64, 0));
    const r = run('mq-deadline', eight, { queue: { nr_requests: 4 } });
    const seq = actions(r.trace);
    // four Gs, then the fifth bio flushes the plug (UT4) and sleeps; the later bios of the
    // list find no tag either (their waits are not traced)
    expect(seq.slice(0, 19).join(' ')).toBe('Q G P Q G Q G Q G Q UT4 I I I I D Q Q Q');
    // each completion frees one tag and wakes one sleeper (mq-deadline's wake batch is 1):
    // its G comes at that C, its request goes through a plug of its own
    const gs = r.trace.filter((e) => e.action === 'G');
    const cs = r.trace.filter((e) => e.action === 'C');
    expect(gs.slice(4).map((e) => e.tNs)).toEqual(cs.slice(0, 4).map((e) => e.tNs));
    expect(seq).not.toContain('S');
    // every write completes in the end
    expect(r.trace.filter((e) => e.action === 'C')).toHaveLength(8);
  });

  it('is deterministic and leaves the 2.6 kernels as they were (no P by the process in 2.6)', () => {
    const reqs = [rd(1000, 0), rd(5000, 0.5), wr(9000, 1)];
    expect(run('mq-deadline', reqs).trace).toEqual(run('mq-deadline', reqs).trace);
    const old = actions(run('deadline', [rd(1000, 0)], { kernel: '2.6.32' }).trace);
    expect(old).toEqual(['Q', 'G', 'P', 'I', 'D', 'C']);
  });

  it('a scenario file’s mq-deadline runs on 6.18 unless it names a kernel; the 2.6 schedulers on 2.6.32', () => {
    const kernelOf = (iosched: Record<string, unknown>) => loadedIosched(iosched).kernel;
    expect(kernelOf({ name: 'mq-deadline' })).toBe('6.18');
    expect(kernelOf({ name: 'mq-deadline', kernel: '2.6.32' })).toBe('2.6.32');
    expect(kernelOf({ name: 'deadline' })).toBe('2.6.32');
    expect(kernelOf({ name: 'cfq', kernel: '6.18' })).toBe('6.18');
    // `--set iosched.kernel=6.18` arrives as the number 6.18
    expect(kernelOf({ name: 'deadline', kernel: 6.18 })).toBe('6.18');
  });

  it('blk_start_plug … blk_finish_plug over several issues: bios a process submits apart in time merge in its plug, flushed after the last', () => {
    // a replayed trace's Qs between one P and its U (jbd2's commit blocks, 0.5 µs apart):
    // the task was submitting, not sleeping, so its plug stayed open between them
    const apart = [wr(8000, 0), wr(8008, 0.0005), wr(8016, 0.001), wr(8024, 0.0015)];
    const held = apart.map((r, k) => (k < apart.length - 1 ? { ...r, plugged: true } : r));
    const r = run('mq-deadline', held, { queueDepth: 4 });
    expect(actions(r.trace).filter((a) => a !== 'C')).toEqual([
      'Q',
      'G',
      'P',
      'Q',
      'M',
      'Q',
      'M',
      'Q',
      'M',
      'U1',
      'I',
      'D',
    ]);
    // flushed at the last bio's issue, not at the first's
    expect(r.d).toHaveLength(1);
    expect(r.d[0]).toMatchObject({ sector: 8000, nSectors: 32 });
    expect(r.d[0]!.tNs).toBeCloseTo(0.0015 * MS, 6);
    // without the hold each issue is a submission of its own: flushed at once and, on an
    // idle device, dispatched before the next bio could join it
    const alone = run('mq-deadline', apart, { queueDepth: 4 });
    expect(alone.d.map((e) => e.nSectors)).toEqual([8, 8, 8, 8]);
    expect(alone.trace.filter((e) => e.action === 'M')).toHaveLength(0);
    // the 2.6 block layer has no per-task plug: the hold means nothing there
    expect(run('deadline', held, { kernel: '2.6.32' }).trace).toEqual(
      run('deadline', apart, { kernel: '2.6.32' }).trace,
    );
  });

  it('a held plug still obeys its limits: at 32 requests it is flushed (U, then P) and the submission goes on', () => {
    const many = Array.from({ length: PLUG_MAX_REQUESTS + 3 }, (_, k) => ({
      ...wr(100_000 + k * 64, k * 0.001),
      plugged: k < PLUG_MAX_REQUESTS + 2,
    }));
    const r = run('mq-deadline', many, { queueDepth: 32 });
    const plugs = r.trace.filter((e) => e.action === 'P' || e.action === 'U');
    expect(plugs.map((e) => (e.action === 'U' ? `U${e.count}` : 'P'))).toEqual([
      'P',
      `U${PLUG_MAX_REQUESTS}`,
      'P',
      'U3',
    ]);
    // the first flush when the 33rd joins, the last after the 35th's issue
    expect(plugs[1]!.tNs).toBeCloseTo(PLUG_MAX_REQUESTS * 0.001 * MS, 6);
    expect(plugs[3]!.tNs).toBeCloseTo((PLUG_MAX_REQUESTS + 2) * 0.001 * MS, 6);
  });

  it('a held plug must be released by an issue on the clock: not on the last entry, not before one that waits for a completion', () => {
    const load = (requests: unknown[]) => () =>
      loadScenario(
        {
          name: 'k',
          iosched: { name: 'mq-deadline' },
          workload: { processes: [{ name: 'p', requests }] },
        },
        'k.json',
      );
    const w = (extra: Record<string, unknown>) => ({
      sector: 8,
      sizeKiB: 4,
      op: 'write',
      ...extra,
    });
    expect(load([w({ atMs: 0, plugged: true }), w({ gapMs: 0.001 })])).not.toThrow();
    expect(load([w({ atMs: 0 }), w({ atMs: 1, plugged: true })])).toThrow(
      /requests\.1\.plugged: .*the last one/,
    );
    expect(load([w({ atMs: 0, plugged: true }), w({ thinkTimeMs: 1, afterDone: 0 })])).toThrow(
      /requests\.0\.plugged: .*waits for a completion/,
    );
  });
});
