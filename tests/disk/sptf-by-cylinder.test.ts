// SPTF walks the drive's queue by cylinder, outward from the arm, and stops where no seek
// can beat its best (issue 19). The rule: the choice is the full search's — sptfFromQueue's,
// itself checked against pickNext (sptf-from-queue.test.ts) — on every queue: the same
// request, ties to the one that came first, the same count of candidates, the same
// positioning (a read's from the index's copies of its head, angle and eligibility). The floor it stops by must be a floor: the C2247A's seek curve is not monotone
// (6 cylinders take 4.65 ms, 7 take 4.52): a walk that stops by the raw curve misses a
// request (the 'can fail' tests), as one whose floor is too high does on random queues.
// The index the walk reads: queue-index.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileDisk, type CompiledDisk } from '../../src/engine/disk/compile';
import { angleAt, positionFor, seekTimeNs } from '../../src/engine/disk/mechanics';
import { getPreset } from '../../src/engine/disk/presets';
import {
  createCylinderIndex,
  dequeue,
  fileNew,
  type IndexedQueue,
} from '../../src/engine/disk/queue-index';
import {
  newSptfChoice,
  sptfByCylinder,
  sptfFromQueue,
  usedPositioning,
} from '../../src/engine/disk/sptf-queue';
import {
  allocRequest,
  createRequestTable,
  requestAt,
  type RequestTable,
} from '../../src/engine/request';
import type { ArmState } from '../../src/engine/disk/disk-scheduler';

const disk = compileDisk(getPreset('hp-c2247a')!);

/** The walk over `drive`'s queue, destages left out and no write streaming: its choice's slot. */
const walkFrom = (
  d: CompiledDisk,
  table: RequestTable,
  drive: IndexedQueue,
  arm: ArmState,
  now: number,
  choice = newSptfChoice(),
): number => sptfByCylinder(d, table, drive.queue, drive.byCylinder!, false, arm, -1, now, choice);
const cylinders = disk.params.cylinders;
const surfaces = disk.params.surfaces;
const width = 1 << createCylinderIndex(cylinders).shift;

// Requests near the arm, on few angles: close races and exact ties, across buckets too.
const cand = fc.record({
  offset: fc.oneof(
    fc.integer({ min: -12, max: 12 }),
    fc.integer({ min: -400, max: 400 }),
    fc.integer({ min: -cylinders, max: cylinders }),
  ),
  /** or at an edge of the arm's bucket or the next one out: [bucket, -1 last cylinder
   * before it | 0 first in it] */
  edge: fc.option(fc.tuple(fc.constantFrom(0, 1), fc.constantFrom(-1, 0)), {
    nil: null,
    freq: 3,
  }),
  head: fc.integer({ min: 0, max: surfaces - 1 }),
  angle: fc.oneof(
    fc.constantFrom(0, 0.125, 0.25, 0.5, 0.75),
    fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
  ),
  /** or just after the head arrives over it: a rotation of 0 to 0.3 ms, costs close to the
   * seeks (where a wrong floor shows) and equal across equal seeks */
  slack: fc.oneof(
    fc.constant(-1),
    fc.constant(0),
    fc.double({ min: 0, max: 0.03, noNaN: true }),
    // or just gone by as the head arrives: a whole revolution's wait, or none
    // (rotationalWaitNs's ANGLE_EPSILON takes it as on time)
    fc.constantFrom(-1e-12, -1e-10, -2e-9),
  ),
  sector: fc.integer({ min: 0, max: 7 }),
  write: fc.boolean(),
  internal: fc.boolean(),
  ageNs: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 2e9 })),
  readyNs: fc.integer({ min: -1e6, max: 3e7 }),
  // eligible now, or later (its command overhead not over yet)
  eligibleNs: fc.oneof(fc.constant(0), fc.integer({ min: -1e6, max: 1e6 })),
  /** leaves the queue before the decision (another was started) */
  leaves: fc.boolean(),
});

const decision = fc.record({
  cands: fc.array(cand, { minLength: 1, maxLength: 40 }),
  // anywhere, or just inside a bucket's edge (the walk's stopping points)
  armCylinder: fc.oneof(
    fc.integer({ min: 0, max: cylinders - 1 }),
    fc
      .tuple(fc.integer({ min: 1, max: 15 }), fc.integer({ min: -9, max: 8 }))
      .map(([k, o]) => Math.min(cylinders - 1, k * width + o)),
  ),
  armHead: fc.integer({ min: 0, max: surfaces - 1 }),
  // up to a day of simulated time (a long run's decisions: a few hours)
  now: fc.oneof(
    fc.double({ min: 1e6, max: 1e11, noNaN: true }),
    fc.double({ min: 1e11, max: 9e13, noNaN: true }),
  ),
  withInternal: fc.boolean(),
  lastWriteAtFirst: fc.boolean(),
  filedAfter: fc.integer({ min: -1, max: 40 }),
});
type Decision = typeof decision extends fc.Arbitrary<infer T> ? T : never;

/** Both walks on one queue; whether they agree (and, if asked, throws with the detail). */
function agree(d: CompiledDisk, x: Decision, strict: boolean): boolean {
  const table = createRequestTable();
  const drive: IndexedQueue = { queue: [], byCylinder: createCylinderIndex(cylinders) };
  const place = (c: Decision['cands'][number], id: number, mirrored = false) => {
    const rq = allocRequest(table, id, 0, 0, c.write, !c.write, c.sector, 8, 0, c.internal);
    let cyl = x.armCylinder + c.offset;
    if (c.edge !== null) cyl = (Math.floor(x.armCylinder / width) + c.edge[0]) * width + c.edge[1];
    if (mirrored) cyl = 2 * x.armCylinder - cyl; // as far the other way
    rq.cylinder = Math.max(0, Math.min(cylinders - 1, cyl));
    rq.head = c.head;
    rq.angle = c.angle;
    if (c.slack > -1) {
      const seek = seekTimeNs(d, x.armCylinder, x.armHead, rq.cylinder, rq.head, false);
      const at = angleAt(d, x.now + seek) + c.slack;
      rq.angle = at - Math.floor(at);
      rq.write = false;
    }
    rq.dispatchedNs = x.now - c.ageNs;
    rq.dataReadyNs = x.now + c.readyNs;
    rq.eligibleNs = x.now + c.eligibleNs;
    drive.queue.push(rq.slot);
    // those before already filed by an earlier walk, the later ones not yet
    if (id === x.filedAfter) fileNew(drive.byCylinder!, table, drive.queue);
    return rq;
  };
  const rqs = x.cands.map((c, k) => place(c, k));
  // exact ties with the first request, later in the queue: on its cylinder, and (reads on
  // time, on the same head) as far the other way
  place(x.cands[0]!, 99);
  place(x.cands[0]!, 98, true);
  // some leave (as the mechanism starts them), from anywhere in the queue
  x.cands.forEach((c, k) => {
    if (c.leaves && drive.queue.length > 1) {
      dequeue(drive, drive.queue.indexOf(rqs[k]!.slot), rqs[k]!);
    }
  });
  const arm = { cylinder: x.armCylinder, head: x.armHead, nextLbn: 0 };
  const lastWriteEnd = x.lastWriteAtFirst ? x.cands[0]!.sector : -1;
  const full = newSptfChoice();
  const walk = newSptfChoice();
  const args = [table, drive.queue] as const;
  const wantIndex = sptfFromQueue(
    d,
    false,
    ...args,
    x.withInternal,
    arm,
    lastWriteEnd,
    x.now,
    6,
    full,
  );
  // the walk by cylinder answers with the slot, the queue walk with its index
  const want = wantIndex >= 0 ? drive.queue[wantIndex]! : -1;
  const got = sptfByCylinder(
    d,
    ...args,
    drive.byCylinder!,
    x.withInternal,
    arm,
    lastWriteEnd,
    x.now,
    walk,
  );
  if (strict) {
    expect(walk.candidates).toBe(full.candidates);
    expect(got).toBe(want);
    // the choice's positioning, as startService would work it out (used in its place)
    expect(walk.positioned).toBe(full.positioned);
    for (const o of [full, walk]) {
      if (!o.positioned) continue;
      const rq = requestAt(table, got);
      const p = positionFor(d, x.now, arm, rq, lastWriteEnd, { seekNs: 0, rotationNs: 0 });
      expect([o.slot, o.seekNs, o.rotationNs]).toEqual([rq.slot, p.seekNs, p.rotationNs]);
    }
  }
  return got === want && walk.candidates === full.candidates;
}

describe('SPTF by cylinder chooses what the full search chooses', () => {
  it('6,000 random queues (ties, destages, late and departed requests)', () => {
    fc.assert(
      fc.property(decision, (x) => {
        agree(disk, x, true);
      }),
      { numRuns: 6000, seed: 19 },
    );
  });

  it('2,000 more on a platter that starts turned, with a head switch slower than short seeks', () => {
    // the walk works a read's positioning out itself: every term of it must count
    const turned: CompiledDisk = { ...disk, initialAngle: 0.3, headSwitchNs: 4e6 };
    fc.assert(
      fc.property(decision, (x) => {
        agree(turned, x, true);
      }),
      { numRuns: 2000, seed: 20 },
    );
  });

  it('the floor it stops by is no more than any seek of that distance or more', () => {
    const floor = disk.seekFloorNs;
    for (let dist = 0; dist < cylinders; dist++) {
      if (dist > 0) expect(floor[dist]).toBeGreaterThanOrEqual(floor[dist - 1]!);
      expect(floor[dist]).toBeLessThanOrEqual(disk.seekNs[dist]!);
      for (const write of [false, true]) {
        expect(seekTimeNs(disk, 0, 0, dist, 1, write)).toBeGreaterThanOrEqual(floor[dist]!);
        expect(seekTimeNs(disk, 0, 0, dist, 0, write)).toBeGreaterThanOrEqual(floor[dist]!);
      }
    }
    // and the reason it is not the curve itself
    expect(disk.seekNs[6]!).toBeGreaterThan(disk.seekNs[7]!);
    expect(floor[6]).toBe(disk.seekNs[7]);
  });

  it('can fail: a walk stopping by the raw seek curve misses a request past a bucket edge', () => {
    // The arm 6 cylinders short of a bucket edge; A in its bucket, 5 cylinders off (4.27 ms
    // seek, 0.3 ms rotation); B past the edge, 7 off (4.52 ms, 0.02 ms): B is the quicker.
    // By the raw curve the next bucket is 4.65 ms away (6 cylinders), more than A's cost:
    // that walk stops before it sees B.
    const now = 1e9;
    const table = createRequestTable();
    const edge = 2 * width;
    const arm = { cylinder: edge - 6, head: 0, nextLbn: 0 };
    const at = (cylinder: number, rotationNs: number) => {
      const rq = allocRequest(table, cylinder, 0, 0, false, true, 0, 8, 0);
      rq.cylinder = cylinder;
      rq.head = 0;
      rq.eligibleNs = 0;
      const seek = seekTimeNs(disk, arm.cylinder, 0, cylinder, 0, false);
      rq.angle = angleAt(disk, now + seek + rotationNs);
      return rq;
    };
    const drive: IndexedQueue = { queue: [], byCylinder: createCylinderIndex(cylinders) };
    const a = at(edge - 11, 0.3e6);
    const b = at(edge + 1, 0.02e6);
    drive.queue.push(a.slot, b.slot);
    const pick = (d: CompiledDisk) => walkFrom(d, table, drive, arm, now);
    const full = sptfFromQueue(
      disk,
      false,
      table,
      drive.queue,
      false,
      arm,
      -1,
      now,
      6,
      newSptfChoice(),
    );
    expect(drive.queue[full]).toBe(b.slot);
    expect(pick(disk)).toBe(b.slot);
    expect(pick({ ...disk, seekFloorNs: disk.seekNs })).toBe(a.slot);
  });

  it('can fail: the random queues catch a floor set too high', () => {
    const high: CompiledDisk = { ...disk, seekFloorNs: disk.seekFloorNs.map((s) => s * 1.05) };
    const found = fc.check(
      fc.property(decision, (x) => agree(high, x, false)),
      { numRuns: 6000, seed: 19 },
    );
    expect(found.failed).toBe(true);
  });
});

describe('startService takes the walk’s positioning only where it is the one it would work out', () => {
  // The walk is given the drive's last write end; startService passes it for a write and −1
  // for a read, whose positioning does not depend on it (no minimum seek)
  it.each([
    ['read', false],
    ['write', true],
  ])(
    'a %s choice: the same request, instant and arm (a write: and last write end): once; else no',
    (_, write) => {
      const table = createRequestTable();
      const drive: IndexedQueue = { queue: [], byCylinder: createCylinderIndex(cylinders) };
      for (let k = 0; k < 16; k++) {
        const rq = allocRequest(table, k, 0, 0, write, !write, 1000 * k, 8, 0);
        rq.cylinder = (k * 131) % cylinders;
        rq.head = k % surfaces;
        rq.angle = (k * 0.37) % 1;
        rq.eligibleNs = 0;
        rq.dataReadyNs = 2e9;
        drive.queue.push(rq.slot);
      }
      const arm = { cylinder: 700, head: 3, nextLbn: 0 };
      const now = 2e9;
      const lastWrite = 5000; // the drive's: request 5 would append to it
      const choice = newSptfChoice();
      const chosen = sptfByCylinder(
        disk,
        table,
        drive.queue,
        drive.byCylinder!,
        false,
        arm,
        lastWrite,
        now,
        choice,
      );
      const rq = requestAt(table, chosen);
      const other = requestAt(table, drive.queue[drive.queue[0] === chosen ? 1 : 0]!);
      const served = write ? lastWrite : -1; // what startService passes
      const want = positionFor(disk, now, arm, rq, served, { seekNs: 0, rotationNs: 0 });
      const pos = { seekNs: -1, rotationNs: -1 };
      const take = (r = rq, a = arm, t = now, w = served) =>
        usedPositioning({ ...choice }, r, a, t, w, pos);
      expect(take(other)).toBe(false);
      expect(take(rq, { ...arm, cylinder: arm.cylinder + 1 })).toBe(false);
      expect(take(rq, { ...arm, head: arm.head + 1 })).toBe(false);
      expect(take(rq, arm, now + 1)).toBe(false);
      if (write) {
        // another last write: the write's minimum seek may differ
        expect(take(rq, arm, now, lastWrite + 1)).toBe(false);
        expect(take(rq, arm, now, -1)).toBe(false);
      }
      expect(pos).toEqual({ seekNs: -1, rotationNs: -1 });
      if (!write) {
        // a read: whatever the last write, the walk's positioning is positionFor's
        expect(take(rq, arm, now, lastWrite + 1)).toBe(true);
        expect(pos).toEqual(want);
        expect(positionFor(disk, now, arm, rq, lastWrite, { seekNs: 0, rotationNs: 0 })).toEqual(
          want,
        );
        pos.seekNs = pos.rotationNs = -1;
      }
      expect(usedPositioning(choice, rq, arm, now, served, pos)).toBe(true);
      expect(pos).toEqual(want);
      expect(usedPositioning(choice, rq, arm, now, served, pos)).toBe(false); // once
    },
  );
});
