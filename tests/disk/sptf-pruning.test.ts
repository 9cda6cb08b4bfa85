// SPTF / ASPTF prune by a lower bound (issue 19): a candidate whose seek alone costs no less
// than the best so far is not given its rotational estimate. The pick must be the one the
// full search makes — the same index, ties to the earlier candidate — on every queue.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileDisk } from '../../src/engine/disk/compile';
import { pickNext, type DiskPick } from '../../src/engine/disk/disk-scheduler';
import { locate, positionFor } from '../../src/engine/disk/mechanics';
import { getPreset } from '../../src/engine/disk/presets';
import { allocRequest, createSlotTable, type IoRequest } from '../../src/engine/request';

const disk = compileDisk(getPreset('hp-c2247a')!);
const total = disk.geometry.totalLbns;
const table = createSlotTable<IoRequest>();

interface Cand {
  sector: number;
  write: boolean;
  ageNs: number;
  readyNs: number;
}

function request(c: Cand, nowNs: number): IoRequest {
  const rq = allocRequest(table, 0, 0, 0, c.write, !c.write, c.sector, 8, 0);
  locate(disk, rq);
  rq.dispatchedNs = nowNs - c.ageNs;
  rq.dataReadyNs = nowNs + c.readyNs;
  return rq;
}

const out = (): DiskPick => ({ index: -1, rule: 'only-candidate', estimatesNs: [] });

describe('SPTF pruning picks what the full search picks', () => {
  const cand = fc.record({
    // anywhere, or on the first tracks (the arm is often there too): close races
    sector: fc.oneof(fc.integer({ min: 0, max: total - 8 }), fc.integer({ min: 0, max: 2000 })),
    write: fc.boolean(),
    ageNs: fc.integer({ min: 0, max: 2e9 }),
    readyNs: fc.integer({ min: -1e6, max: 3e7 }),
  });
  it.each(['sptf', 'asptf'] as const)('%s: 3,000 random queues of 1 to 64', (name) => {
    fc.assert(
      fc.property(
        fc.array(cand, { minLength: 1, maxLength: 64 }),
        fc.oneof(fc.integer({ min: 0, max: total - 1 }), fc.integer({ min: 0, max: 2000 })),
        fc.double({ min: 0, max: 1e11, noNaN: true }),
        fc.boolean(),
        (cands, armLbn, now, lastWriteAtFirst) => {
          const arm = { cylinder: 0, head: 0, nextLbn: 0 };
          const at = request({ sector: armLbn, write: false, ageNs: 0, readyNs: 0 }, now);
          arm.cylinder = at.cylinder;
          arm.head = at.head;
          const rqs = cands.map((c) => request(c, now));
          // a duplicate of the first candidate: an exact tie, which the earlier one wins
          rqs.push(request(cands[0]!, now));
          const lastWriteEnd = lastWriteAtFirst ? rqs[0]!.sector : -1;
          const args = [disk, name, rqs, rqs.length, arm, lastWriteEnd, now, 6] as const;
          const full = pickNext(...args, out(), true); // estimates for all: no pruning
          const pruned = pickNext(...args, out(), false);
          expect(pruned.index).toBe(full.index);
          expect(pruned.rule).toBe(full.rule);
          // and the full search's estimates are positionFor's, candidate by candidate
          const pos = { seekNs: 0, rotationNs: 0 };
          full.estimatesNs.forEach((e, i) => {
            positionFor(disk, now, arm, rqs[i]!, lastWriteEnd, pos);
            expect(e).toBe(pos.seekNs + pos.rotationNs);
          });
        },
      ),
      { numRuns: 3000, seed: 19 },
    );
  });
});
