// Shortcuts on the drive's hot path (issue 19): each must give what the long way gives,
// bit for bit, or the figures of a run would change with its speed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileDisk } from '../../src/engine/disk/compile';
import {
  buildGeometry,
  surfaceOrder,
  trackStartAngle,
  type Geometry,
  type Zone,
} from '../../src/engine/disk/geometry';
import type { LbnMapping, SparingScheme, ZoneSpec } from '../../src/engine/disk/params';
import { lbnToPhys } from '../../src/engine/disk/geometry';
import { mediaTransfer, newTransferEnd, transferOnTrack } from '../../src/engine/disk/mechanics';
import { getPreset, presetNames } from '../../src/engine/disk/presets';

const rotating = presetNames()
  .map((name) => getPreset(name)!)
  .filter((p) => !p.ssd && !p.fitted && p.zones.length > 0);

describe('a track start angle looked up is the one computed', () => {
  it.each(rotating.map((p) => [p.name, p] as const))(
    '%s: its tracks, asked in two orders',
    (_, p) => {
      const make = () => buildGeometry(p.surfaces, p.cylinders, p.zones, p.mapping, p.sparing);
      const forward = make();
      const backward = make();
      // every track of the small drives; of the large ones a spread of some 20,000
      let all = 0;
      forward.zones.forEach(
        (z) => (all += (z.lastCylinder - z.firstCylinder + 1) * forward.surfaces),
      );
      const stride = Math.max(1, Math.floor(all / 20_000)) | 1;
      const tracks: Array<[number, number, number]> = [];
      let k = 0;
      forward.zones.forEach((z, zi) => {
        for (let c = z.firstCylinder; c <= z.lastCylinder; c++)
          for (let h = 0; h < forward.surfaces; h++)
            if (k++ % stride === 0) tracks.push([zi, c, h]);
      });
      const a = tracks.map(([zi, c, h]) => trackStartAngle(forward, forward.zones[zi]!, c, h));
      const b = tracks
        .slice()
        .reverse()
        .map(([zi, c, h]) => trackStartAngle(backward, backward.zones[zi]!, c, h))
        .reverse();
      expect(b).toEqual(a);
      // and asked again, from the table
      tracks.forEach(([zi, c, h], i) =>
        expect(trackStartAngle(forward, forward.zones[zi]!, c, h)).toBe(a[i]),
      );
    },
  );
});

/** The start angle as DiskSim's g1 layout computes it, written out apart from geometry.ts:
 * the skew summed, one slip at a time, then its remainder over the sectors per track. */
function referenceAngle(g: Geometry, z: Zone, cylinder: number, head: number): number {
  const c = cylinder - z.firstCylinder;
  const order = g.mapping === 0 ? head : surfaceOrder(g, z, cylinder, head);
  let skew =
    z.firstSectorOffset +
    c * ((g.surfaces - 1) * z.trackSkew + z.cylinderSkew) +
    order * z.trackSkew;
  const spt = z.sectorsPerTrack;
  if (z.sparing === 1) {
    for (const slip of z.sectorSlips) if (slip < (c * g.surfaces + head) * spt) skew++;
  }
  return (((skew % spt) + spt) % spt) / spt;
}

describe('a track start angle from the remainder tables is the one computed', () => {
  it.each(rotating.map((p) => [p.name, p] as const))('%s: every track', (_, p) => {
    const g = buildGeometry(p.surfaces, p.cylinders, p.zones, p.mapping, p.sparing);
    g.zones.forEach((z) => {
      for (let c = z.firstCylinder; c <= z.lastCylinder; c += c - z.firstCylinder < 64 ? 1 : 7)
        for (let h = 0; h < g.surfaces; h++)
          expect(trackStartAngle(g, z, c, h)).toBe(referenceAngle(g, z, c, h));
    });
  });

  it('random zones: skews negative, large, fractional; serpentine; slipped sectors', () => {
    const skew = fc.oneof(
      fc.integer({ min: -500, max: 500 }),
      fc.integer({ min: -1e9, max: 1e9 }),
      fc.double({ min: -50, max: 50, noNaN: true }),
      fc.constantFrom(0.5, -1.5, 2.25),
    );
    fc.assert(
      fc.property(
        fc.record({
          surfaces: fc.integer({ min: 1, max: 24 }),
          cylinders: fc.integer({ min: 1, max: 60 }),
          spt: fc.oneof(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 1200 })),
          firstSectorOffset: skew,
          trackSkew: skew,
          cylinderSkew: skew,
          mapping: fc.constantFrom<LbnMapping>('conventional', 'serpentine', 'serpentine-even'),
          sparing: fc.constantFrom<SparingScheme>(
            'tracks',
            'sectors-per-track',
            'sectors-per-zone',
          ),
          /** slipped sectors, as fractions of the zone's: many before some tracks, more than
           * a track's sectors on small tracks */
          slips: fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), {
            maxLength: 60,
          }),
          firstCylinder: fc.integer({ min: 0, max: 3 }),
        }),
        (x) => {
          const spec: ZoneSpec = {
            firstCylinder: x.firstCylinder,
            lastCylinder: x.firstCylinder + x.cylinders - 1,
            sectorsPerTrack: x.spt,
            firstSectorOffset: x.firstSectorOffset,
            emptyFrontSectors: 0,
            trackSkew: x.trackSkew,
            cylinderSkew: x.cylinderSkew,
            spareTracks: 0,
            slips: [],
            sparesPerTrack: x.sparing === 'sectors-per-track' ? 1 : 0,
            spareSectors: 0,
            sectorSlips: x.slips.map((f) => Math.floor(f * x.cylinders * x.surfaces * x.spt)),
          };
          // a zone in front, so the one under test does not start at cylinder 0
          const front: ZoneSpec = { ...spec, firstCylinder: 0, lastCylinder: x.firstCylinder - 1 };
          const specs = x.firstCylinder > 0 ? [front, spec] : [spec];
          const g = buildGeometry(x.surfaces, spec.lastCylinder + 1, specs, x.mapping, x.sparing);
          const z = g.zones[g.zones.length - 1]!;
          for (let c = z.firstCylinder; c <= z.lastCylinder; c++)
            for (let h = 0; h < g.surfaces; h++)
              expect(trackStartAngle(g, z, c, h)).toBe(referenceAngle(g, z, c, h));
        },
      ),
      { numRuns: 400, seed: 19 },
    );
  });
});

describe('a read-ahead stream cannot be over before n − 1 sector times (prefetchFinished)', () => {
  it.each(rotating.map((p) => [p.name, p] as const))('%s: 2,000 random streams', (_, p) => {
    const d = compileDisk(p);
    const total = d.geometry.totalLbns;
    const out = newTransferEnd();
    const at = { zone: 0, cylinder: 0, head: 0, sector: 0 };
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: total - 2 }),
        fc.integer({ min: 2, max: 4000 }),
        fc.double({ min: 0, max: 1e12, noNaN: true }),
        (lbn, want, startNs) => {
          const n = Math.min(want, total - lbn);
          if (n < 2) return;
          const bound = startNs + (n - 1) * d.minSectorNs * (1 - 1e-6);
          lbnToPhys(d.geometry, lbn, at);
          const full = mediaTransfer(d, lbn, n, startNs, false, out, Infinity, null, 0, at);
          expect(full.endNs).toBeGreaterThan(bound);
          const cut = mediaTransfer(d, lbn, n, startNs, false, out, bound, null, 0, at);
          expect(cut.sectors).toBeLessThan(n);
        },
      ),
      { numRuns: 2000, seed: 19 },
    );
  });
});

describe("an LBN's zone and track looked up are the ones searched", () => {
  /** The last zone starting at or before lbn, by a scan (zoneOfLbn's table stands for it). */
  function zoneScan(g: Geometry, lbn: number): number {
    let zi = 0;
    g.zones.forEach((z, i) => {
      if (z.firstLbn <= lbn) zi = i;
    });
    return zi;
  }
  it.each(rotating.map((p) => [p.name, p] as const))(
    '%s: zone boundaries, chunk boundaries and a spread of LBNs',
    (_, p) => {
      const g = buildGeometry(p.surfaces, p.cylinders, p.zones, p.mapping, p.sparing);
      const chunk = 1 / g.zoneChunkScale;
      const lbns = new Set<number>([0, g.totalLbns - 1]);
      for (const z of g.zones)
        for (const d of [-1, 0, 1]) lbns.add(z.firstLbn + d).add(z.firstLbn + z.lbnCount + d);
      for (let c = 0; c < g.zoneByChunk.length; c++)
        for (const d of [-1, 0, 1]) lbns.add(c * chunk + d);
      const stride = Math.max(1, Math.floor(g.totalLbns / 20_000)) | 1;
      for (let l = 0; l < g.totalLbns; l += stride) lbns.add(l);
      const addr = { zone: 0, cylinder: 0, head: 0, sector: 0 };
      for (const lbn of lbns) {
        if (lbn < 0 || lbn >= g.totalLbns) continue;
        lbnToPhys(g, lbn, addr);
        expect(addr.zone).toBe(zoneScan(g, lbn));
        const z = g.zones[addr.zone]!;
        if (z.slipsByLogical === null) continue;
        // the track from the table is the one the slips, passed one by one, give
        const logical = Math.floor((lbn - z.firstLbn + z.emptyFrontSectors) / z.sectorsPerTrack);
        let track = logical;
        for (const slip of z.slips) if (slip <= track) track++;
        const order = track - Math.floor(track / g.surfaces) * g.surfaces;
        expect(addr.cylinder).toBe(z.firstCylinder + Math.floor(track / g.surfaces));
        expect(addr.head).toBe(surfaceOrder(g, z, addr.cylinder, order));
      }
    },
  );
  it('random track-spared zones: the slip table, filled by ranges, gives the tracks the slips give one by one', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 2, max: 60 }),
        fc.integer({ min: 1, max: 40 }),
        // slipped tracks, as fractions of the zone's: repeats, the first and last track too
        fc.array(
          fc.oneof(
            fc.constantFrom(0, 0.5, 0.999),
            fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
          ),
          { minLength: 1, maxLength: 30 },
        ),
        fc.integer({ min: 0, max: 5 }),
        (surfaces, cylinders, spt, fractions, spareTracks) => {
          const tracks = surfaces * cylinders;
          const slips = fractions.map((f) => Math.floor(f * tracks)).sort((a, b) => a - b);
          const spec: ZoneSpec = {
            firstCylinder: 0,
            lastCylinder: cylinders - 1,
            sectorsPerTrack: spt,
            firstSectorOffset: 0,
            emptyFrontSectors: 0,
            trackSkew: 0,
            cylinderSkew: 0,
            spareTracks: Math.min(spareTracks + slips.length, tracks - 1),
            slips,
            sparesPerTrack: 0,
            spareSectors: 0,
            sectorSlips: [],
          };
          const g = buildGeometry(surfaces, cylinders, [spec], 'conventional', 'tracks');
          const z = g.zones[0]!;
          if (g.totalLbns === 0) return;
          expect(z.slipsByLogical).not.toBeNull();
          const addr = { zone: 0, cylinder: 0, head: 0, sector: 0 };
          for (let lbn = 0; lbn < g.totalLbns; lbn += spt) {
            lbnToPhys(g, lbn, addr);
            let track = Math.floor(lbn / spt);
            for (const slip of z.slips) if (slip <= track) track++;
            expect(addr.cylinder * surfaces + addr.head).toBe(track);
          }
        },
      ),
      { numRuns: 300, seed: 19 },
    );
  });
});

describe('a transfer on one track (transferOnTrack) is the one mediaTransfer works out', () => {
  it.each(rotating.map((p) => [p.name, p] as const))('%s: 3,000 random transfers', (_, p) => {
    const d = compileDisk(p);
    const total = d.geometry.totalLbns;
    const short = newTransferEnd();
    const long = newTransferEnd();
    const at = { zone: 0, cylinder: 0, head: 0, sector: 0 };
    let taken = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: total - 1 }),
        fc.integer({ min: 1, max: 600 }),
        fc.double({ min: 0, max: 1e12, noNaN: true }),
        // cut: never, inside the transfer, or before it starts
        fc.oneof(fc.constant(Infinity), fc.double({ min: -1e6, max: 5e7, noNaN: true })),
        fc.integer({ min: 0, max: 700 }),
        (lbn, want, startNs, cutAfter, markSectors) => {
          const n = Math.min(want, total - lbn);
          const untilNs = startNs + cutAfter;
          lbnToPhys(d.geometry, lbn, at);
          if (!transferOnTrack(d, at, lbn, n, startNs, short, untilNs, markSectors)) return;
          taken++;
          mediaTransfer(d, lbn, n, startNs, false, long, untilNs, null, markSectors, at);
          expect({ ...short }).toEqual({ ...long });
        },
      ),
      { numRuns: 3000, seed: 19 },
    );
    // the shortcut is taken often enough for the comparison to mean something
    expect(taken).toBeGreaterThan(300);
  });
});
