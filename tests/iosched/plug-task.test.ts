// Kernel 6.18's per-task plugging (src/engine/iosched/plug-task.ts) against
// LINUX-SCHEDULERS.md §9.1 and the kernel's blk_add_rq_to_plug / blk_attempt_plug_merge /
// blk_mq_flush_plug_list; the event sequences are the ones the shared linux-6.18 traces
// show (mq-deadline: Q G P U 1 I D; none: Q G P … U n D, no I).
import { describe, expect, it } from 'vitest';
import { PLUG_MAX_REQUESTS } from '../../src/engine/iosched/plug-task';
import type { FixedRequest } from '../../src/engine/scenario/types';
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
});
