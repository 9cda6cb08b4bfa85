// Disk layout (src/engine/disk/geometry.ts; DISK-MODEL.md §1.4, §1.7): LBN ↔ physical
// round trips for every preset, the sectors that hold no LBN, the HP C2247A's exact counts,
// and sector angles against DiskSim's skew formula.
import { describe, expect, it } from 'vitest';
import {
  buildGeometry,
  lbnToPhys,
  physToLbn,
  sectorAngle,
  trackStartAngle,
  type Geometry,
  type PhysAddr,
  type Zone,
} from '../../src/engine/disk/geometry';
import { getPreset, presetNames } from '../../src/engine/disk/presets/index';
import type { DiskParams } from '../../src/engine/disk/params';
import { createRng, nextFloat } from '../../src/engine/sim/rng';

function preset(name: string): DiskParams {
  const p = getPreset(name);
  if (!p) throw new Error(`no preset ${name}`);
  return p;
}

function geometryOf(name: string): Geometry {
  const p = preset(name);
  return buildGeometry(p.surfaces, p.cylinders, p.zones);
}

function phys(g: Geometry, lbn: number): PhysAddr {
  return lbnToPhys(g, lbn, { zone: 0, cylinder: 0, head: 0, sector: 0 });
}

/** Zone-relative physical track number of a zone-relative (slip-free) track number. */
function physicalTrack(z: Zone, logicalTrack: number): number {
  let t = logicalTrack;
  for (const s of z.slips) if (s <= t) t++;
  return t;
}

/** Tracks in a zone, and the physical track holding its last LBN (slips past it are in the spares). */
function zoneTracks(g: Geometry, z: Zone): { tracks: number; lastDataTrack: number } {
  const tracks = (z.lastCylinder - z.firstCylinder + 1) * g.surfaces;
  const spares =
    (tracks * z.sectorsPerTrack - z.emptyFrontSectors - z.lbnCount) / z.sectorsPerTrack;
  return { tracks, lastDataTrack: physicalTrack(z, tracks - spares - 1) };
}

function trackAddr(g: Geometry, z: Zone, track: number): { cylinder: number; head: number } {
  return { cylinder: z.firstCylinder + Math.floor(track / g.surfaces), head: track % g.surfaces };
}

describe.each(presetNames())('preset %s: LBN ↔ physical', (name) => {
  const g = geometryOf(name);

  it('round-trips the first, last and random LBNs of every zone', () => {
    const rng = createRng(7, `geometry-${name}`);
    for (const z of g.zones) {
      const lbns = [
        z.firstLbn,
        z.firstLbn + 1,
        z.firstLbn + z.lbnCount - 2,
        z.firstLbn + z.lbnCount - 1,
      ];
      for (let i = 0; i < 200; i++) lbns.push(z.firstLbn + Math.floor(nextFloat(rng) * z.lbnCount));
      for (const lbn of lbns) {
        const p = phys(g, lbn);
        expect(p.zone).toBe(z.index);
        expect(p.cylinder).toBeGreaterThanOrEqual(z.firstCylinder);
        expect(p.cylinder).toBeLessThanOrEqual(z.lastCylinder);
        expect(physToLbn(g, p.cylinder, p.head, p.sector)).toBe(lbn);
      }
    }
  });

  it('maps the zone edges where the layout says', () => {
    for (const z of g.zones) {
      // The first LBN sits just after the empty front.
      const first = phys(g, z.firstLbn);
      const front = physicalTrack(z, Math.floor(z.emptyFrontSectors / z.sectorsPerTrack));
      expect(first).toEqual({
        zone: z.index,
        ...trackAddr(g, z, front),
        sector: z.emptyFrontSectors % z.sectorsPerTrack,
      });
      // The last LBN ends a whole track: the spares are whole tracks, and each slip before
      // the end pushes the data one track further into them.
      const { tracks, lastDataTrack } = zoneTracks(g, z);
      expect(
        Number.isInteger(
          (tracks * z.sectorsPerTrack - z.emptyFrontSectors - z.lbnCount) / z.sectorsPerTrack,
        ),
      ).toBe(true);
      const last = phys(g, z.firstLbn + z.lbnCount - 1);
      expect(last).toEqual({
        zone: z.index,
        ...trackAddr(g, z, lastDataTrack),
        sector: z.sectorsPerTrack - 1,
      });
    }
  });

  it('round-trips around every slipped track, and the LBN after the slip skips it', () => {
    for (const z of g.zones) {
      const { lastDataTrack } = zoneTracks(g, z);
      for (const slip of z.slips) {
        const before = trackAddr(g, z, slip - 1);
        const lastBefore = physToLbn(g, before.cylinder, before.head, z.sectorsPerTrack - 1);
        if (slip > lastDataTrack + 1) {
          // A slip among the unused spares (the C2247A has two) moves nothing.
          expect(lastBefore).toBe(-1);
          continue;
        }
        expect(lastBefore).toBeGreaterThanOrEqual(0);
        for (
          let lbn = Math.max(0, lastBefore - 2);
          lbn <= Math.min(g.totalLbns - 1, lastBefore + 3);
          lbn++
        ) {
          const p = phys(g, lbn);
          expect(physToLbn(g, p.cylinder, p.head, p.sector)).toBe(lbn);
        }
        if (slip === lastDataTrack + 1) {
          // Right after the zone's data: the next LBN opens the next zone.
          expect(lastBefore).toBe(z.firstLbn + z.lbnCount - 1);
          continue;
        }
        // The next LBN after the slipped track's predecessor is on the track after the slip
        // (no preset slips two tracks in a row).
        expect(z.slips).not.toContain(slip + 1);
        expect(phys(g, lastBefore + 1)).toEqual({
          zone: z.index,
          ...trackAddr(g, z, slip + 1),
          sector: 0,
        });
      }
    }
  });

  it('gives −1 for empty-front, slipped and spare sectors', () => {
    for (const z of g.zones) {
      const spt = z.sectorsPerTrack;
      if (z.emptyFrontSectors > 0) {
        const t = trackAddr(g, z, 0);
        expect(physToLbn(g, t.cylinder, t.head, 0)).toBe(-1);
        const e = z.emptyFrontSectors - 1;
        const te = trackAddr(g, z, physicalTrack(z, Math.floor(e / spt)));
        expect(physToLbn(g, te.cylinder, te.head, e % spt)).toBe(-1);
      }
      for (const slip of z.slips) {
        const t = trackAddr(g, z, slip);
        for (const s of [0, 1, spt >> 1, spt - 1])
          expect(physToLbn(g, t.cylinder, t.head, s)).toBe(-1);
      }
      // Every track after the last data track is a spare (or a slip among them).
      const { tracks, lastDataTrack } = zoneTracks(g, z);
      const unused = tracks - 1 - lastDataTrack;
      for (let k = 0; k < unused; k += Math.max(1, Math.floor(unused / 7))) {
        const t = trackAddr(g, z, lastDataTrack + 1 + k);
        expect(physToLbn(g, t.cylinder, t.head, 0)).toBe(-1);
        expect(physToLbn(g, t.cylinder, t.head, spt - 1)).toBe(-1);
      }
    }
  });

  it('rejects LBNs outside the disk', () => {
    expect(() => phys(g, -1)).toThrow(RangeError);
    expect(() => phys(g, g.totalLbns)).toThrow(RangeError);
    expect(physToLbn(g, g.cylinders, 0, 0)).toBe(-1);
  });
});

describe('HP C2247A layout (DiskSim hp_c2247a_validate.model, DISK-MODEL.md §1.7)', () => {
  const g = geometryOf('hp-c2247a');

  it('holds exactly 2,054,864 LBNs, 664,800 of them in zone 0', () => {
    expect(g.totalLbns).toBe(2054864);
    expect(g.zones[0]!.lbnCount).toBe(664800);
    // (559 cylinders × 13 tracks − 325 spares) × 96 − 1632 empty = 664,800.
    expect((559 * 13 - 325) * 96 - 1632).toBe(664800);
  });

  it('puts LBN 0 at cylinder 1, head 4, sector 0 (17 empty tracks at the front)', () => {
    expect(phys(g, 0)).toEqual({ zone: 0, cylinder: 1, head: 4, sector: 0 });
    expect(1632 / 96).toBe(17);
    expect(physToLbn(g, 1, 3, 95)).toBe(-1);
  });

  it('skips slipped track 468 of zone 0', () => {
    // Track 467 is cylinder 35, head 12; track 468 (cylinder 36, head 0) is slipped.
    const lastBefore = physToLbn(g, 35, 12, 95);
    expect(lastBefore).toBe((467 - 17) * 96 + 95);
    expect(physToLbn(g, 36, 0, 0)).toBe(-1);
    expect(phys(g, lastBefore + 1)).toEqual({ zone: 0, cylinder: 36, head: 1, sector: 0 });
  });
});

describe("sector angles: DiskSim's frac((offset + (head + (surfaces−1)·c)·trackSkew + c·cylSkew + sector)/spt)", () => {
  const hp = geometryOf('hp-c2247a');
  const at = (g: Geometry, zone: number, cylinder: number, head: number, sector: number): number =>
    sectorAngle(g, { zone, cylinder, head, sector });

  it('matches hand-computed HP C2247A cases', () => {
    // zone 0 (offset 0, track skew 14, cyl skew 32, 96 spt), cylinder 0, head 0, sector 0 → 0.
    expect(at(hp, 0, 0, 0, 0)).toBe(0);
    // zone 0, c = 1, head 4, sector 0: (0 + (4 + 12)·14 + 32 + 0)/96 = 256/96 → 64/96.
    expect(at(hp, 0, 1, 4, 0)).toBeCloseTo(64 / 96, 12);
    // zone 1 (offset 14, 13, 30, 92 spt) starts at cylinder 559; cylinder 560 is c = 1:
    // head 2, sector 5: (14 + (2 + 12)·13 + 30 + 5)/92 = 231/92 → 47/92.
    expect(at(hp, 1, 560, 2, 5)).toBeCloseTo(47 / 92, 12);
    // zone 7 (offset 30, 9, 19, 56 spt), cylinder 2050 is c = 256, head 12, sector 55:
    // (30 + (12 + 12·256)·9 + 256·19 + 55)/56 = (30 + 27756 + 4864 + 55)/56 = 32705/56 → 1/56.
    expect(at(hp, 7, 2050, 12, 55)).toBeCloseTo(1 / 56, 12);
    // zone 5 (offset 0, 11, 24, 72 spt), cylinder 1194 is c = 0, head 7, sector 70:
    // (0 + 7·11 + 0 + 70)/72 = 147/72 → 3/72.
    expect(at(hp, 5, 1194, 7, 70)).toBeCloseTo(3 / 72, 12);
  });

  it('matches hand-computed teaching-disk cases', () => {
    const t = geometryOf('teaching');
    // zone 0 (offset 0, track skew 2, cyl skew 3, 16 spt, 2 surfaces): c = 2, head 1,
    // sector 3: (0 + (1 + 1·2)·2 + 2·3 + 3)/16 = 15/16.
    expect(at(t, 0, 2, 1, 3)).toBeCloseTo(15 / 16, 12);
    // zone 1 (offset 8, 1, 3, 12 spt) starts at cylinder 5; cylinder 9 is c = 4, head 0,
    // sector 11: (8 + (0 + 4)·1 + 4·3 + 11)/12 = 35/12 → 11/12.
    expect(at(t, 1, 9, 0, 11)).toBeCloseTo(11 / 12, 12);
  });

  it('agrees with the formula at random sectors of every preset', () => {
    const rng = createRng(11, 'angles');
    for (const name of presetNames()) {
      const g = geometryOf(name);
      for (let i = 0; i < 100; i++) {
        const z = g.zones[Math.floor(nextFloat(rng) * g.zones.length)]!;
        const cylinder =
          z.firstCylinder + Math.floor(nextFloat(rng) * (z.lastCylinder - z.firstCylinder + 1));
        const head = Math.floor(nextFloat(rng) * g.surfaces);
        const sector = Math.floor(nextFloat(rng) * z.sectorsPerTrack);
        const c = cylinder - z.firstCylinder;
        const n =
          z.firstSectorOffset +
          (head + (g.surfaces - 1) * c) * z.trackSkew +
          c * z.cylinderSkew +
          sector;
        const want = (n % z.sectorsPerTrack) / z.sectorsPerTrack;
        expect(at(g, z.index, cylinder, head, sector)).toBeCloseTo(want, 12);
        expect(trackStartAngle(g, z, cylinder, head)).toBeCloseTo(
          ((n - sector) % z.sectorsPerTrack) / z.sectorsPerTrack,
          12,
        );
      }
    }
  });
});
