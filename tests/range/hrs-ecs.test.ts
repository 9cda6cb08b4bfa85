// HRS and ECS placement rules (DISK-MODEL.md §5), checked against each other and against
// the mechanics' own positioning of every single start.
import { describe, expect, it } from 'vitest';
import { buildPieces, addUsed, createRangeState } from '../../src/engine/disk/range';
import {
  newPlacement,
  placeCheap,
  placeEcs,
  placeHrs,
  trackCount,
  type PlaceInput,
} from '../../src/engine/disk/range-place';
import { positionTo, seekTimeNs, type Positioning } from '../../src/engine/disk/mechanics';
import type { RangePieceRecord } from '../../src/engine/events';
import { createRng, nextInt, nextFloat } from '../../src/engine/sim/rng';
import { C2247A } from './helpers';

const d = C2247A;
const total = d.geometry.totalLbns;

/** A random situation: arm, instant, data readiness, ranges, some used blocks. */
function situation(seed: number) {
  const rng = createRng(seed, 'hrs-test');
  const align = [1, 8][nextInt(rng, 2)]!;
  const n = align === 1 ? 1 + nextInt(rng, 8) : 8;
  const base = nextInt(rng, total - 200_000);
  const ranges = Array.from({ length: 1 + nextInt(rng, 3) }, () => {
    const begin = base + nextInt(rng, 100_000);
    return { begin, end: begin + n + nextInt(rng, 900) };
  });
  const st = createRangeState(seed);
  for (let k = 0; k < 5; k++) {
    const r = ranges[nextInt(rng, ranges.length)]!;
    const lo = r.begin + nextInt(rng, r.end - r.begin);
    addUsed(st, lo, lo + nextInt(rng, 40) + 1);
  }
  const startNs = nextFloat(rng) * 1e9;
  const inp: PlaceInput = {
    arm: { cylinder: nextInt(rng, d.geometry.cylinders), head: nextInt(rng, 13) },
    startNs,
    dataReadyNs: startNs + (nextFloat(rng) < 0.5 ? 0 : nextFloat(rng) * 5e6),
    lastWriteEnd: -1,
    nSectors: n,
    align,
  };
  const rw = { ranges, align, barrier: false };
  return { st, inp, rw, pieces: buildPieces(d, rw, n) };
}

/** The exhaustive answer: positionTo for every free start (what SPTF over the expansion does). */
function exhaustive(s: ReturnType<typeof situation>): number {
  const pos: Positioning = { seekNs: 0, rotationNs: 0 };
  let best = Infinity;
  for (const p of s.pieces)
    for (let a = p.first; a <= p.last; a += s.inp.align) {
      let free = true;
      for (let i = 0; i < s.st.usedLo.length; i++)
        if (s.st.usedLo[i]! < a + s.inp.nSectors && s.st.usedHi[i]! > a) free = false;
      if (!free) continue;
      positionTo(
        d,
        s.inp.startNs,
        s.inp.arm.cylinder,
        s.inp.arm.head,
        a,
        true,
        s.inp.dataReadyNs,
        d.minWriteSeekNs,
        pos,
      );
      best = Math.min(best, pos.seekNs + pos.rotationNs);
    }
  return best;
}

describe('HRS and ECS choose the same positioning as trying every start', () => {
  it('HRS = full ECS = exhaustive over 300 random situations (lists, multi-track ranges, used blocks)', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const s = situation(seed);
      const want = exhaustive(s);
      const h = placeHrs(d, s.st, s.pieces, s.inp, Infinity, newPlacement(), null);
      const e = placeEcs(d, s.st, s.pieces, s.inp, 0, Infinity, newPlacement(), null);
      const cost = (p: typeof h) => (p.lbn < 0 ? Infinity : p.seekNs + p.rotationNs);
      if (want === Infinity) {
        expect([h.lbn, e.lbn]).toEqual([-1, -1]); // every start in use
      } else {
        expect(cost(h)).toBeCloseTo(want, 3);
        expect(cost(e)).toBeCloseTo(want, 3);
      }
      // HRS makes at most one estimate per track (W_HR ≤ ⌈S/T⌉ per write)
      expect(h.estimates).toBeLessThanOrEqual(trackCount(s.pieces));
    }
  });

  it('full ECS makes one estimate per free start (W_EC = S per write)', () => {
    const st = createRangeState(1);
    const rw = { ranges: [{ begin: 1015872, end: 1015872 + 88 * 3 }], align: 8, barrier: false };
    const pieces = buildPieces(d, rw, 8);
    const inp: PlaceInput = {
      arm: { cylinder: 0, head: 0 },
      startNs: 0,
      dataReadyNs: 0,
      lastWriteEnd: -1,
      nSectors: 8,
      align: 8,
    };
    expect(placeEcs(d, st, pieces, inp, 0, Infinity, newPlacement(), null).estimates).toBe(33);
    addUsed(st, 1015872, 1015872 + 16);
    expect(placeEcs(d, st, pieces, inp, 0, Infinity, newPlacement(), null).estimates).toBe(31);
  });
});

describe('a list of many small ranges (a file system’s free extents)', () => {
  /** A track-dense situation: a 300-block stretch, about half its blocks listed. */
  function fragmented(seed: number) {
    const rng = createRng(seed, 'fragmented');
    const base = 1015872 + 8 * nextInt(rng, 20_000);
    const ranges: Array<{ begin: number; end: number }> = [];
    for (let b = 0; b < 300; b++) {
      if (nextFloat(rng) < 0.5) continue;
      const s = base + 8 * b;
      const last = ranges[ranges.length - 1];
      if (last && last.end === s) last.end = s + 8;
      else ranges.push({ begin: s, end: s + 8 });
    }
    const st = createRangeState(seed);
    const r = ranges[nextInt(rng, ranges.length)]!;
    addUsed(st, r.begin, r.end);
    const startNs = nextFloat(rng) * 1e9;
    const inp: PlaceInput = {
      arm: { cylinder: 860 + nextInt(rng, 20), head: nextInt(rng, 13) },
      startNs,
      dataReadyNs: startNs,
      lastWriteEnd: -1,
      nSectors: 8,
      align: 8,
    };
    const rw = { ranges, align: 8, barrier: false };
    return { st, inp, rw, pieces: buildPieces(d, rw, 8) };
  }
  it('HRS visits each track once (all its pieces: one landing, one estimate) and still matches trying every start', () => {
    for (let seed = 1; seed <= 100; seed++) {
      const s = fragmented(seed);
      const want = exhaustive(s);
      const rec: RangePieceRecord[] = [];
      const h = placeHrs(d, s.st, s.pieces, s.inp, Infinity, newPlacement(), rec);
      expect(h.seekNs + h.rotationNs).toBeCloseTo(want, 3);
      expect(s.pieces.length).toBeGreaterThan(trackCount(s.pieces)); // several pieces a track
      expect(new Set(rec.map((r) => `${r.cylinder}:${r.head}`)).size).toBe(rec.length);
      expect(h.estimates).toBe(rec.filter((r) => !r.pruned).length);
      // a track's record spans its pieces; its best start is one of theirs
      for (const r of rec) {
        const on = s.pieces.filter((p) => p.cylinder === r.cylinder && p.head === r.head);
        expect(r.firstSector).toBe(Math.min(...on.map((p) => p.first)));
        expect(r.lastSector).toBe(Math.max(...on.map((p) => p.last)));
        if (r.sector >= 0)
          expect(on.some((p) => r.sector >= p.first && r.sector <= p.last)).toBe(true);
      }
    }
  });
});

describe('one track’s worth of 4 KiB blocks (claims.test.ts: why it leaves ~12% of the rotation)', () => {
  // zone 2: 88 sectors (11 blocks) a track, track skew 13 sectors; 1015872 is sector 0 of
  // cylinder 867, head 4, and head 5's track follows on the same cylinder
  const track = 1015872;
  const sectorNs = d.revolutionNs / 88;
  /** HRS's rotation for a landing at each of 880 instants of a revolution (arm elsewhere). */
  function waits(begin: number, align: number): { mean: number; max: number; estimates: number } {
    const pieces = buildPieces(
      d,
      { ranges: [{ begin, end: begin + 88 }], align, barrier: false },
      8,
    );
    let sum = 0;
    let max = 0;
    let estimates = 0;
    for (let k = 0; k < 880; k++) {
      const inp: PlaceInput = {
        arm: { cylinder: 100, head: 3 },
        startNs: (k * d.revolutionNs) / 880,
        dataReadyNs: 0,
        lastWriteEnd: -1,
        nSectors: 8,
        align,
      };
      const p = placeHrs(d, createRangeState(1), pieces, inp, Infinity, newPlacement(), null);
      sum += p.rotationNs;
      max = Math.max(max, p.rotationNs);
      estimates += p.estimates;
    }
    return { mean: sum / 880 / sectorNs, max: max / sectorNs, estimates: estimates / 880 };
  }
  it('exactly one track, 4 KiB starts: the wait to the next block boundary, 4 sectors on average (half a block), under 8', () => {
    const w = waits(track, 8);
    expect(w.mean).toBeGreaterThan(3.9);
    expect(w.mean).toBeLessThan(4.1);
    expect(w.max).toBeLessThan(8);
  });
  it('a track’s size starting mid-track, sector starts: the two pieces leave the next track’s skew uncovered (13 sectors, and the one the last start writes)', () => {
    const w = waits(track + 40, 1);
    expect(w.max).toBeGreaterThan(13.5);
    expect(w.max).toBeLessThan(14);
    expect(w.estimates).toBe(2); // one estimate for each track
  });
  it('S = T on a track boundary: HRS one estimate, full ECS eleven (a tenth or less)', () => {
    const pieces = buildPieces(
      d,
      { ranges: [{ begin: track, end: track + 88 }], align: 8, barrier: false },
      8,
    );
    const inp: PlaceInput = {
      arm: { cylinder: 100, head: 3 },
      startNs: 0,
      dataReadyNs: 0,
      lastWriteEnd: -1,
      nSectors: 8,
      align: 8,
    };
    const st = createRangeState(1);
    expect(placeHrs(d, st, pieces, inp, Infinity, newPlacement(), null).estimates).toBe(1);
    expect(placeEcs(d, st, pieces, inp, 0, Infinity, newPlacement(), null).estimates).toBe(11);
  });
});

describe('HRS rules', () => {
  it('inside the range: the next block under the head, at the seek cost and less than a block of rotation', () => {
    // a whole track of starts: wherever the head lands, a start is at most one block away
    const st = createRangeState(1);
    const rw = { ranges: [{ begin: 1015872, end: 1015872 + 88 }], align: 8, barrier: false };
    const pieces = buildPieces(d, rw, 8);
    const blockNs = (8 / 88) * d.revolutionNs;
    for (let k = 0; k < 50; k++) {
      const inp: PlaceInput = {
        arm: { cylinder: 100, head: 3 },
        startNs: k * 1.37e6,
        dataReadyNs: 0,
        lastWriteEnd: -1,
        nSectors: 8,
        align: 8,
      };
      const p = placeHrs(d, st, pieces, inp, Infinity, newPlacement(), null);
      expect(p.rotationNs).toBeLessThan(blockNs + 1e-6);
      expect(p.seekNs).toBe(d.seekNs[867 - 100]! + d.writeSettleNs);
    }
  });

  it('outside the range: the wait is the rotation to the range’s first block', () => {
    const st = createRangeState(1);
    const rw = { ranges: [{ begin: 1015872 + 40, end: 1015872 + 48 }], align: 8, barrier: false };
    const pieces = buildPieces(d, rw, 8);
    const inp: PlaceInput = {
      arm: { cylinder: 100, head: 3 },
      startNs: 0,
      dataReadyNs: 0,
      lastWriteEnd: -1,
      nSectors: 8,
      align: 8,
    };
    const p = placeHrs(d, st, pieces, inp, Infinity, newPlacement(), null);
    const pos: Positioning = { seekNs: 0, rotationNs: 0 };
    positionTo(d, 0, 100, 3, 1015872 + 40, true, 0, d.minWriteSeekNs, pos);
    expect(p.lbn).toBe(1015872 + 40);
    expect(p.rotationNs).toBeCloseTo(pos.rotationNs, 6);
  });

  it('prunes the tracks whose seek alone is no better than the best so far', () => {
    for (let seed = 1; seed <= 100; seed++) {
      const s = situation(seed);
      const rec: RangePieceRecord[] = [];
      const p = placeHrs(d, s.st, s.pieces, s.inp, Infinity, newPlacement(), rec);
      expect(rec.length).toBeLessThanOrEqual(s.pieces.length);
      const best = p.lbn < 0 ? Infinity : p.seekNs + p.rotationNs;
      // the tracks the scan never reached: their seek alone could not beat the best
      const reached = new Set(rec.map((r) => `${r.cylinder}:${r.head}`));
      expect(reached.size).toBe(rec.length); // each track once
      for (const pc of s.pieces)
        if (!reached.has(`${pc.cylinder}:${pc.head}`))
          expect(
            seekTimeNs(d, s.inp.arm.cylinder, s.inp.arm.head, pc.cylinder, pc.head, true),
          ).toBeGreaterThanOrEqual(best);
      for (const r of rec) {
        if (r.pruned) {
          expect(r.rotationNs).toBeNull();
          expect(r.seekNs).toBeGreaterThanOrEqual(best);
        } else if (r.sector >= 0) {
          expect(r.seekNs + r.rotationNs!).toBeGreaterThanOrEqual(best - 1e-6);
        }
      }
      expect(p.estimates).toBe(rec.filter((r) => !r.pruned).length);
    }
  });

  it('a limit (another command’s cost) prunes a write that cannot beat it', () => {
    const s = situation(7);
    const p = placeHrs(d, s.st, s.pieces, s.inp, 0, newPlacement(), null);
    expect(p.lbn).toBe(-1);
    expect(p.estimates).toBe(0);
  });
});

describe('ECS with k targets equally spaced around a track', () => {
  it('expands at most k starts per track, one in each k-th of the track', () => {
    const st = createRangeState(1);
    const rw = { ranges: [{ begin: 1015872, end: 1015872 + 88 * 4 }], align: 8, barrier: false };
    const pieces = buildPieces(d, rw, 8);
    const inp: PlaceInput = {
      arm: { cylinder: 0, head: 0 },
      startNs: 0,
      dataReadyNs: 0,
      lastWriteEnd: -1,
      nSectors: 8,
      align: 8,
    };
    for (const k of [1, 2, 4, 8]) {
      const rec: RangePieceRecord[] = [];
      const p = placeEcs(d, st, pieces, inp, k, Infinity, newPlacement(), rec);
      expect(p.estimates).toBe(k * pieces.length);
      // the chosen start sits at the start of its slot (the first start at or after j·spt/k)
      const off = p.lbn - pieces[0]!.trackLbn;
      const within = off % 88;
      const slot = Math.floor((within * k) / 88);
      expect(within).toBe(Math.ceil(Math.ceil((slot * 88) / k) / 8) * 8);
    }
  });
});

describe('the cheap disk', () => {
  it('"first" takes the first free start of the first range that has one', () => {
    const st = createRangeState(1);
    const rw = {
      ranges: [
        { begin: 100, end: 140 },
        { begin: 500, end: 600 },
      ],
      align: 8,
      barrier: false,
    };
    expect(placeCheap(st, rw, 8, false)).toBe(104);
    addUsed(st, 100, 140);
    expect(placeCheap(st, rw, 8, false)).toBe(504);
    addUsed(st, 500, 600);
    expect(placeCheap(st, rw, 8, false)).toBe(-1);
  });

  it('"random" draws over all starts, reproducibly for a seed', () => {
    const rw = {
      ranges: [
        { begin: 0, end: 800 },
        { begin: 8000, end: 8800 },
      ],
      align: 8,
      barrier: false,
    };
    const draw = (seed: number) => {
      const st = createRangeState(seed);
      return Array.from({ length: 200 }, () => placeCheap(st, rw, 8, true));
    };
    const a = draw(1);
    expect(draw(1)).toEqual(a);
    expect(draw(2)).not.toEqual(a);
    expect(a.every((s) => s % 8 === 0 && ((s >= 0 && s <= 792) || (s >= 8000 && s <= 8792)))).toBe(
      true,
    );
    const second = a.filter((s) => s >= 8000).length;
    expect(second).toBeGreaterThan(60);
    expect(second).toBeLessThan(140);
  });
});
