// The drive's range bookkeeping: per-track pieces and the blocks used since a barrier.
import { describe, expect, it } from 'vitest';
import {
  addUsed,
  buildPieces,
  createRangeState,
  forgetUsed,
  isFree,
  nextFreeStart,
  releaseToUsed,
  reserve,
  takeRangeWrite,
} from '../../src/engine/disk/range';
import { lbnToPhys } from '../../src/engine/disk/geometry';
import { C2247A } from './helpers';

const addr = { zone: 0, cylinder: 0, head: 0, sector: 0 };

describe('per-track pieces (HRS: split ranges into per-track pieces)', () => {
  const cases = [
    {
      name: 'a range inside one track',
      ranges: [{ begin: 1015880, end: 1015920 }],
      align: 8,
      n: 8,
    },
    { name: 'a multi-track range', ranges: [{ begin: 1015800, end: 1016800 }], align: 8, n: 8 },
    {
      name: 'a list of ranges, sector-aligned, in two zones',
      ranges: [
        { begin: 5, end: 400 },
        { begin: 2_000_000, end: 2_000_300 },
      ],
      align: 1,
      n: 3,
    },
  ];
  for (const c of cases) {
    it(`${c.name}: the pieces hold every aligned start exactly once, each on its track`, () => {
      const pieces = buildPieces(C2247A, { ranges: c.ranges, align: c.align, barrier: false }, c.n);
      const got: number[] = [];
      for (const p of pieces) {
        for (let s = p.first; s <= p.last; s += c.align) {
          got.push(s);
          const a = lbnToPhys(C2247A.geometry, s, addr);
          expect([a.cylinder, a.head, s - a.sector]).toEqual([p.cylinder, p.head, p.trackLbn]);
        }
      }
      const want: number[] = [];
      for (const r of c.ranges)
        for (let s = Math.ceil(r.begin / c.align) * c.align; s + c.n <= r.end; s += c.align)
          want.push(s);
      expect(got).toEqual(want);
    });
  }

  it('a 100-block range in zone 2 (88 sectors a track) spans 10 tracks', () => {
    const pieces = buildPieces(
      C2247A,
      { ranges: [{ begin: 1015872, end: 1015872 + 800 }], align: 8, barrier: false },
      8,
    );
    expect(pieces.length).toBe(Math.ceil(800 / 88));
  });
});

describe('blocks used since the last barrier', () => {
  it('a start overlapping a used or a reserved block is skipped', () => {
    const st = createRangeState(1);
    addUsed(st, 16, 24);
    reserve(st, 3, 40, 8);
    expect(nextFreeStart(st, 8, 8, 8, 100)).toBe(8);
    expect(nextFreeStart(st, 16, 8, 8, 100)).toBe(24);
    expect(nextFreeStart(st, 12, 8, 1, 100)).toBe(24); // 12..19 overlaps 16..23
    expect(nextFreeStart(st, 40, 8, 8, 100)).toBe(48);
    expect(nextFreeStart(st, 40, 8, 8, 47)).toBe(-1);
    expect(isFree(st, 32, 8)).toBe(true);
    expect(isFree(st, 36, 8)).toBe(false);
  });

  it('used intervals merge when they touch or overlap', () => {
    const st = createRangeState(1);
    addUsed(st, 10, 20);
    addUsed(st, 30, 40);
    addUsed(st, 20, 30);
    addUsed(st, 50, 60);
    addUsed(st, 5, 12);
    expect([st.usedLo, st.usedHi]).toEqual([
      [5, 50],
      [40, 60],
    ]);
  });

  it('a write on the media moves from reserved to used; a barrier forgets used, not reserved', () => {
    const st = createRangeState(1);
    reserve(st, 1, 0, 8);
    reserve(st, 2, 8, 8);
    releaseToUsed(st, 1);
    expect(isFree(st, 0, 8)).toBe(false);
    st.byBio[4] = { ranges: [{ begin: 0, end: 64 }], align: 8, barrier: true };
    const rw = takeRangeWrite(st, 4);
    expect(rw?.barrier).toBe(true);
    expect(st.byBio[4]).toBeNull();
    expect(isFree(st, 0, 8)).toBe(true); // completed: forgotten
    expect(isFree(st, 8, 8)).toBe(false); // placed, still in flight: kept
    forgetUsed(st);
    expect(isFree(st, 8, 8)).toBe(false);
  });
});
