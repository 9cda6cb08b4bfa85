// Shortcuts on the drive's hot path (issue 19): each must give what the long way gives,
// bit for bit, or the figures of a run would change with its speed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileDisk } from '../../src/engine/disk/compile';
import { buildGeometry, trackStartAngle } from '../../src/engine/disk/geometry';
import { lbnToPhys } from '../../src/engine/disk/geometry';
import { mediaTransfer, newTransferEnd } from '../../src/engine/disk/mechanics';
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
