// SPTF straight from the drive's queue (issue 19: one walk instead of gather-then-pick) must
// choose what pickAndStart's first pass plus pickNext chose: the same candidates (eligible
// by now, destages only when asked), the same request, ties to the earlier one.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileDisk } from '../../src/engine/disk/compile';
import { pickNext, type DiskPick } from '../../src/engine/disk/disk-scheduler';
import { newSptfChoice, sptfFromQueue } from '../../src/engine/disk/sptf-queue';
import { locate } from '../../src/engine/disk/mechanics';
import { getPreset } from '../../src/engine/disk/presets';
import {
  allocRequest,
  createRequestTable,
  requestAt,
  type IoRequest,
} from '../../src/engine/request';

const disk = compileDisk(getPreset('hp-c2247a')!);
const total = disk.geometry.totalLbns;

describe('sptfFromQueue chooses as gathering the candidates then pickNext', () => {
  const cand = fc.record({
    sector: fc.oneof(fc.integer({ min: 0, max: total - 8 }), fc.integer({ min: 0, max: 2000 })),
    write: fc.boolean(),
    internal: fc.boolean(),
    ageNs: fc.integer({ min: 0, max: 2e9 }),
    readyNs: fc.integer({ min: -1e6, max: 3e7 }),
    // eligible now, or later (its command overhead not over yet)
    eligibleNs: fc.oneof(fc.constant(0), fc.integer({ min: -1e6, max: 1e6 })),
  });
  it.each(['sptf', 'asptf'] as const)('%s: 3,000 random queues of 1 to 64', (name) => {
    fc.assert(
      fc.property(
        fc.array(cand, { minLength: 1, maxLength: 64 }),
        fc.integer({ min: 0, max: total - 1 }),
        fc.double({ min: 1e6, max: 1e11, noNaN: true }),
        fc.boolean(),
        fc.boolean(),
        (cands, armLbn, now, withInternal, lastWriteAtFirst) => {
          const table = createRequestTable();
          const queue = cands.map((c, k) => {
            const rq = allocRequest(table, k, 0, 0, c.write, !c.write, c.sector, 8, 0);
            locate(disk, rq);
            rq.internal = c.internal;
            rq.dispatchedNs = now - c.ageNs;
            rq.dataReadyNs = now + c.readyNs;
            rq.eligibleNs = now + c.eligibleNs;
            return rq.slot;
          });
          // an exact tie with the first request, later in the queue
          const c0 = cands[0]!;
          const twin = allocRequest(table, 99, 0, 0, c0.write, !c0.write, c0.sector, 8, 0);
          locate(disk, twin);
          Object.assign(twin, {
            internal: c0.internal,
            dispatchedNs: now - c0.ageNs,
            dataReadyNs: now + c0.readyNs,
            eligibleNs: now + c0.eligibleNs,
          });
          queue.push(twin.slot);
          const at = allocRequest(table, 100, 0, 0, false, true, armLbn, 8, 0);
          locate(disk, at);
          const arm = { cylinder: at.cylinder, head: at.head, nextLbn: 0 };
          const lastWriteEnd = lastWriteAtFirst ? cands[0]!.sector : -1;

          // pickAndStart's first pass, then pickNext
          const candidates: IoRequest[] = [];
          const where: number[] = [];
          queue.forEach((slot, i) => {
            const rq = requestAt(table, slot);
            if (rq.eligibleNs > now || (rq.internal && !withInternal)) return;
            candidates.push(rq);
            where.push(i);
          });
          const out: DiskPick = { index: 0, rule: 'only-candidate', estimatesNs: [] };
          const qp = newSptfChoice();
          const got = sptfFromQueue(
            disk,
            name === 'asptf',
            table,
            queue,
            withInternal,
            arm,
            lastWriteEnd,
            now,
            6,
            qp,
          );
          expect(qp.candidates).toBe(candidates.length);
          if (candidates.length === 0) {
            expect(got).toBe(-1);
            return;
          }
          const pick = pickNext(
            disk,
            name,
            candidates,
            candidates.length,
            arm,
            lastWriteEnd,
            now,
            6,
            out,
            false,
          );
          expect(got).toBe(where[pick.index]);
        },
      ),
      { numRuns: 3000, seed: 19 },
    );
  });
});
