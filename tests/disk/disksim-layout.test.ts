// DiskSim layout g1 as diskmodel computes it: for each validation drive, Spindle's
// LBN → (cylinder, head, sector) and the sector's angle equal diskmodel's own
// dm_translate_ltop and dm_pbn_skew (tests/data/disksim-ref/layout-*.txt.gz, made by
// running DiskSim 4.0) — mapping schemes 0 and 1 (serpentine), sparing schemes 1 (spare
// tracks, slipped tracks), 3 (spare sectors per track) and 9 (spare sectors per zone,
// slipped sectors), zones that leave a cylinder out, and the skews.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readDiskSim } from '../../src/engine/disk/disksim/reader';
import {
  contiguousRun,
  geometryOf,
  lbnToPhys,
  physToLbn,
  sectorAngle,
  type PhysAddr,
} from '../../src/engine/disk/geometry';
import { DEV_DRIVES, filesIn, VALIDATION_DIR } from '../helpers/disksim';

const ref = (name: string): string =>
  gunzipSync(readFileSync(new URL(`../data/disksim-ref/${name}`, import.meta.url))).toString();

describe.each(DEV_DRIVES)('layout of $stem against diskmodel', (drive) => {
  const disk = readDiskSim(`${drive.stem}.parv`, filesIn(VALIDATION_DIR()));
  const g = geometryOf(disk.params);
  const lines = ref(`layout-${drive.model}.txt.gz`).trim().split('\n');

  it("holds diskmodel's block count (the sum over its zones)", () => {
    expect(lines[0]).toBe(`sectors ${g.totalLbns}`);
  });

  it('maps every sampled LBN to the same cylinder, head, sector and angle', () => {
    const p: PhysAddr = { zone: 0, cylinder: 0, head: 0, sector: 0 };
    let checked = 0;
    for (const line of lines.slice(1)) {
      const [lbn, cyl, head, sector, angle] = line.split(' ').map(Number) as [
        number,
        number,
        number,
        number,
        number,
      ];
      lbnToPhys(g, lbn, p);
      expect([p.cylinder, p.head, p.sector], `LBN ${lbn}`).toEqual([cyl, head, sector]);
      // diskmodel's angles are 32-bit fixed point: equal within one part in 10^6
      const d = Math.abs(sectorAngle(g, p) - angle);
      expect(Math.min(d, 1 - d), `angle of LBN ${lbn}`).toBeLessThan(1e-6);
      // and back again
      expect(physToLbn(g, p.cylinder, p.head, p.sector)).toBe(lbn);
      checked++;
    }
    expect(checked).toBeGreaterThan(300);
  });

  it('a contiguous run ends where the next LBN is not the next sector of the track', () => {
    const p: PhysAddr = { zone: 0, cylinder: 0, head: 0, sector: 0 };
    const q: PhysAddr = { zone: 0, cylinder: 0, head: 0, sector: 0 };
    for (let lbn = 7; lbn < g.totalLbns - 1; lbn += 104_729) {
      lbnToPhys(g, lbn, p);
      const run = contiguousRun(g, lbn, p);
      expect(run).toBeGreaterThan(0);
      const last = lbnToPhys(g, lbn + run - 1, q);
      expect([last.cylinder, last.head, last.sector]).toEqual([
        p.cylinder,
        p.head,
        p.sector + run - 1,
      ]);
      if (lbn + run < g.totalLbns) {
        lbnToPhys(g, lbn + run, q);
        const next = q.cylinder === p.cylinder && q.head === p.head && q.sector === p.sector + run;
        expect(next, `LBN ${lbn + run} follows on the same track`).toBe(false);
      }
    }
  });
});

describe('sparing scheme 7 (sectors at the end, no spares) against diskmodel', () => {
  // cheetah9LP.model with "Sparing scheme used = 7" and no spares, as IBM's 18ES model is
  const dir = VALIDATION_DIR();
  const model = readFileSync(`${dir}/cheetah9LP.model`, 'utf8')
    .replace('Sparing scheme used = 9', 'Sparing scheme used = 7')
    .replace(/Number of spares = \d+/g, 'Number of spares = 0');
  const disk = readDiskSim('cheetah9LP.parv', filesIn(dir, { 'cheetah9LP.model': model }));
  const g = geometryOf(disk.params);
  const lines = ref('layout-cheetah9LP-scheme7.txt.gz').trim().split('\n');

  it('lays every sampled LBN where diskmodel does, at the same angle', () => {
    expect(lines[0]).toBe(`sectors ${g.totalLbns}`);
    const p: PhysAddr = { zone: 0, cylinder: 0, head: 0, sector: 0 };
    for (const line of lines.slice(1)) {
      const [lbn, cyl, head, sector, angle] = line.split(' ').map(Number) as [
        number,
        number,
        number,
        number,
        number,
      ];
      lbnToPhys(g, lbn, p);
      expect([p.cylinder, p.head, p.sector], `LBN ${lbn}`).toEqual([cyl, head, sector]);
      const d = Math.abs(sectorAngle(g, p) - angle);
      expect(Math.min(d, 1 - d)).toBeLessThan(1e-6);
    }
  });

  it('refuses scheme 7 with spare sectors per cylinder, naming file and line', () => {
    const withSpares = model.replace('Number of spares = 0', 'Number of spares = 4');
    const line = withSpares.slice(0, withSpares.indexOf('Number of spares = 4')).split('\n').length;
    expect(() =>
      readDiskSim('cheetah9LP.parv', filesIn(dir, { 'cheetah9LP.model': withSpares })),
    ).toThrow(new RegExp(`^cheetah9LP\\.model:${line}: sparing scheme 7 with spare sectors`));
  });
});
