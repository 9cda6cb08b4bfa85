// The drive's queue by cylinder (src/engine/disk/queue-index.ts, issue 19): SPTF's walk
// outward from the arm reads it (sptf-by-cylinder.test.ts). Requests are filed in their
// cylinders' buckets as they join the queue, lazily, with copies of what a read's estimate
// is made from, and leave it as the mechanism starts them, by index or by slot.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileDisk } from '../../src/engine/disk/compile';
import { getPreset } from '../../src/engine/disk/presets';
import {
  bucketOf,
  createCylinderIndex,
  dequeue,
  dequeueSlot,
  fileNew,
  INTERNAL,
  WRITE,
  type CylinderIndex,
  type IndexedQueue,
} from '../../src/engine/disk/queue-index';
import { allocRequest, createRequestTable, freeRequest, requestAt } from '../../src/engine/request';

const disk = compileDisk(getPreset('hp-c2247a')!);
const cylinders = disk.params.cylinders;
const surfaces = disk.params.surfaces;

/** The index's buckets, followed link by link (checking the links back): [bucket, slot]. */
function listed(ix: CylinderIndex): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  ix.first.forEach((head, b) => {
    let back = -1 - b;
    for (let s = head; s >= 0; s = ix.next[s]!) {
      expect(ix.prev[s]).toBe(back);
      out.push([b, s]);
      back = s;
    }
  });
  return out;
}

describe('the queue by cylinder', () => {
  it('files the queue’s requests in their cylinders’ buckets, and lets go of those leaving', () => {
    const op = fc.oneof(
      fc.record({
        join: fc.integer({ min: 0, max: cylinders - 1 }),
        internal: fc.boolean(),
        write: fc.boolean(),
      }),
      fc.record({ leave: fc.nat(), bySlot: fc.boolean() }),
      fc.constant('walk' as const),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), (ops) => {
        const table = createRequestTable();
        const drive: IndexedQueue = { queue: [], byCylinder: createCylinderIndex(cylinders) };
        const ix = drive.byCylinder!;
        for (const o of ops) {
          if (o === 'walk') fileNew(ix, table, drive.queue);
          else if ('join' in o) {
            // slots are reused, as the drive's are
            const rq = allocRequest(table, 0, 0, 0, o.write, !o.write, 0, 8, 0, o.internal);
            rq.cylinder = o.join;
            rq.head = o.join % surfaces;
            rq.angle = o.join / cylinders;
            rq.eligibleNs = o.join;
            drive.queue.push(rq.slot);
          } else if (drive.queue.length > 0) {
            const i = o.leave % drive.queue.length;
            const rq = requestAt(table, drive.queue[i]!);
            const rest = drive.queue.filter((_, j) => j !== i);
            // by its index, or by its slot alone (SPTF's choice by cylinder): the same
            if (o.bySlot) dequeueSlot(drive, rq);
            else dequeue(drive, i, rq);
            expect(drive.queue).toEqual(rest);
            freeRequest(table, rq);
          }
          // the queue's first `filed` requests, each in its bucket, and no other
          const filed = listed(ix).map(([b, s]) => {
            const rq = requestAt(table, s);
            expect(ix.cylinder[s]).toBe(rq.cylinder);
            // the copies a read's estimate is made from
            expect([ix.head[s], ix.angle[s], ix.eligibleNs[s], ix.kind[s]]).toEqual([
              rq.head,
              rq.angle,
              rq.eligibleNs,
              (rq.write ? WRITE : 0) | (rq.internal ? INTERNAL : 0),
            ]);
            expect(bucketOf(ix, ix.cylinder[s]!)).toBe(b);
            return s;
          });
          const prefix = drive.queue.slice(0, ix.filed);
          expect(ix.filed).toBeLessThanOrEqual(drive.queue.length);
          expect(filed.sort((a, b) => a - b)).toEqual(prefix.sort((a, b) => a - b));
          expect(ix.internal).toBe(prefix.filter((s) => requestAt(table, s).internal).length);
          expect(ix.writes).toBe(prefix.filter((s) => requestAt(table, s).write).length);
          for (const s of prefix) {
            expect(requestAt(table, s).eligibleNs).toBeLessThanOrEqual(ix.eligibleByNs);
          }
          // filed in queue order: SPTF's ties go by these numbers
          for (let i = 1; i < ix.filed; i++) {
            expect(ix.seq[drive.queue[i]!]!).toBeGreaterThan(ix.seq[drive.queue[i - 1]!]!);
          }
        }
      }),
      { numRuns: 500, seed: 19 },
    );
  });

  it('lets go of a range write placed elsewhere as it was chosen', () => {
    const table = createRequestTable();
    const drive: IndexedQueue = { queue: [], byCylinder: createCylinderIndex(cylinders) };
    const a = allocRequest(table, 1, 0, 0, true, false, 0, 8, 0);
    const b = allocRequest(table, 2, 0, 0, true, false, 0, 8, 0);
    a.cylinder = 10;
    b.cylinder = 1500;
    drive.queue.push(a.slot, b.slot);
    fileNew(drive.byCylinder!, table, drive.queue);
    a.cylinder = 2000; // commitPlacement located it again
    dequeue(drive, 0, a);
    expect(drive.queue).toEqual([b.slot]);
    expect(listed(drive.byCylinder!)).toEqual([[bucketOf(drive.byCylinder!, 1500), b.slot]]);
  });
});
