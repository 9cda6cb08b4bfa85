// The queue's nomerges setting as Linux's sysfs has it (queue-settings.ts): 0 every merge;
// 1 (QUEUE_FLAG_NOXMERGES) the scheduler's merges only through the one-hit cache (elv_merge)
// — 6.18's plug merge and Kyber's list merge are not the elevator's and go on; 2
// (QUEUE_FLAG_NOMERGES) no merging at all: elv_merge returns at once, and
// blk_mq_attempt_bio_merge tries neither the plug nor the scheduler, so no M or F, and
// blk_add_rq_to_plug's 128 KiB flush (a rule for merging) is off.
import { describe, expect, it } from 'vitest';
import '../../src/engine/iosched/registry';
import type { FixedRequest } from '../../src/engine/scenario/types';
import { actions, runProcs, type BlockRun } from '../helpers/mq-run';
import { proc, scenario } from '../helpers/scenario';
import { BUSY, rd, tracedRun, wr } from '../helpers/traced-run';

const merges = (r: ReturnType<typeof tracedRun>) =>
  r.trace.filter((e) => e.action === 'M' || e.action === 'F').length;

/** one process per request, each issued at its own time (2.6.32 unless told) */
const separate = (iosched: string, requests: FixedRequest[], o: BlockRun = {}) =>
  runProcs(
    iosched,
    requests.map((r) => [r]),
    { kernel: '2.6.32', ...o },
  );

describe('nomerges 2: no merging at all', () => {
  it('kernel 2.6.32: not even the one-hit cache (nomerges 1 still uses it)', () => {
    const adjacent = [wr(0, 0), wr(8, 0.1), wr(16, 0.2)];
    const one = separate('noop', adjacent, { queue: { nomerges: 1 } });
    expect(merges(one)).toBe(2);
    for (const iosched of ['noop', 'deadline', 'cfq', 'anticipatory']) {
      const none = separate(iosched, adjacent, { queue: { nomerges: 2 } });
      expect(merges(none)).toBe(0);
      expect(none.d.map((e) => [e.sector, e.nSectors])).toEqual([
        [0, 8],
        [8, 8],
        [16, 8],
      ]);
    }
    // a front merge (F) through the cache too
    const front = separate('noop', [wr(8, 0), wr(0, 0.1)], { queue: { nomerges: 2 } });
    expect(merges(front)).toBe(0);
    expect(front.d).toHaveLength(2);
  });

  it('kernel 6.18: no plug merge (nomerges 1 keeps it: blk_attempt_plug_merge is not elv_merge)', () => {
    const oneSubmission = [wr(8000, 0), wr(8008, 0), wr(8016, 0), wr(7992, 0)];
    const one = runProcs('mq-deadline', [oneSubmission], { queue: { nomerges: 1 } });
    expect(merges(one)).toBe(3);
    expect(one.d).toHaveLength(1);
    for (const iosched of ['mq-deadline', 'none', 'bfq', 'kyber']) {
      const none = runProcs(iosched, [oneSubmission], {
        queue: { nomerges: 2 },
        queueDepth: 4,
      });
      expect(merges(none)).toBe(0);
      expect(none.trace.filter((e) => e.action === 'G')).toHaveLength(4);
      expect(none.d).toHaveLength(4);
    }
  });

  it("kernel 6.18: no merge in the scheduler's sort list or Kyber's domain list (nomerges 1: Kyber's goes on)", () => {
    // separate processes (separate plugs) behind a busy disk: their requests wait in the
    // scheduler, where the next one's bio would join them
    const waiting = (iosched: string, nomerges: number) =>
      tracedRun(
        scenario({
          iosched,
          kernel: '6.18',
          queue: { nomerges },
          processes: [
            proc({ name: 'busy', requests: [BUSY] }),
            proc({ name: 'a', requests: [rd(100_000, 1)] }),
            proc({ name: 'b', requests: [rd(100_008, 2)] }),
            proc({ name: 'c', requests: [rd(99_992, 3)] }),
          ],
        }),
      );
    expect(merges(waiting('mq-deadline', 0))).toBe(2);
    expect(merges(waiting('kyber', 1))).toBe(2);
    for (const iosched of ['mq-deadline', 'kyber', 'bfq']) {
      const r = waiting(iosched, 2);
      expect(merges(r)).toBe(0);
      expect(r.d).toHaveLength(4);
    }
  });

  it('kernel 6.18: a 128 KiB request no longer flushes the plug (the size rule is for merging)', () => {
    const big = [wr(100_000, 0, 128), wr(200_000, 0), wr(300_000, 0)];
    const plugs = (nomerges: number) =>
      actions(runProcs('mq-deadline', [big], { queue: { nomerges }, queueDepth: 2 }).trace).filter(
        (a) => a === 'P' || a.startsWith('U'),
      );
    expect(plugs(0)).toEqual(['P', 'U1', 'P', 'U2']);
    expect(plugs(2)).toEqual(['P', 'U3']);
  });
});
