// A trace from a disk larger than the simulated one (replay-addresses.ts): the regions it
// touches are packed onto the disk in order, each request at its offset in its region, so
// sector order, sequential runs and merges are what the trace had.
import { describe, expect, it } from 'vitest';
import {
  mapSector,
  packAddresses,
  unmapSector,
  type AddressMap,
} from '../../src/engine/trace/replay-addresses';
import type { ReplayReport } from '../../src/engine/trace/replay';
import { spindleJson } from '../cli/run-cli';
import { dataPath } from '../helpers/data';

const GIB = 2 ** 21; // sectors
const DISK = 976_773_168; // sata-7200-500g

const packed = (extents: Array<[number, number]>, disk = DISK): AddressMap => {
  const m = packAddresses(
    extents.map(([sector, nSectors]) => ({ sector, nSectors })),
    disk,
  );
  if (typeof m === 'string') throw new Error(m);
  return m;
};

describe('packing a larger disk’s addresses', () => {
  it('leaves a trace that fits as traced', () => {
    const m = packed([
      [0, 8],
      [DISK - 8, 8],
    ]);
    expect(m.packed).toBe(false);
    expect(mapSector(m, DISK - 8)).toBe(DISK - 8);
  });

  it('packs touched 1 GiB regions in order, offsets kept, runs across adjacent regions contiguous', () => {
    const far = 3_700 * GIB; // past 1.8 TiB
    const extents: Array<[number, number]> = [
      [5 * GIB + 100, 8],
      [far + GIB - 8, 16], // crosses into the next region: both are touched
      [far + 40, 8],
      [1_000 * GIB, 256],
    ];
    const m = packed(extents);
    expect(m.packed).toBe(true);
    expect(m.regionSectors).toBe(GIB);
    expect(m.regions).toEqual([5, 1000, 3700, 3701]);
    const mapped = extents.map(([s]) => mapSector(m, s));
    expect(mapped).toEqual([100, 3 * GIB - 8, 2 * GIB + 40, GIB]);
    // the run over the region boundary stays contiguous: its end maps to start + length
    expect(mapSector(m, far + GIB + 8)).toBe(mapSector(m, far + GIB - 8) + 16);
    // order of any two traced sectors is kept, and the simulated sector maps back
    const sectors = extents.map(([s]) => s).sort((a, b) => a - b);
    for (let i = 1; i < sectors.length; i++)
      expect(mapSector(m, sectors[i]!)).toBeGreaterThan(mapSector(m, sectors[i - 1]!));
    for (const [s] of extents) expect(unmapSector(m, mapSector(m, s))).toBe(s);
    expect(m.note).toContain('4 regions of 1024 MiB');
  });

  it('uses smaller regions when the 1 GiB ones do not fit, and refuses what cannot fit at all', () => {
    const disk = 64 * GIB;
    // 100 scattered requests over 4 TiB: 100 GiB of 1 GiB regions, 50 GiB of 512 MiB ones
    const spread: Array<[number, number]> = Array.from({ length: 100 }, (_, k) => [
      k * 40 * GIB,
      8,
    ]);
    const m = packed(spread, disk);
    expect(m.regionSectors).toBe(GIB / 2);
    expect(m.regions).toHaveLength(100);
    const tooMuch: Array<[number, number]> = Array.from({ length: 70_000 }, (_, k) => [
      k * 2 * 2048,
      8,
    ]);
    expect(
      packAddresses(
        tooMuch.map(([sector, nSectors]) => ({ sector, nSectors })),
        64 * 2048,
      ),
    ).toMatch(/choose a larger disk with --disk/);
  });

  it('spindle replay of a 2 TB disk’s trace on the 500 GB default says how it packed it', async () => {
    const r = await spindleJson<ReplayReport>([
      'replay',
      dataPath('public', 'modern-fio-sde.txt'),
      '--scheduler',
      'deadline',
      '--json',
    ]);
    expect(r.addresses).toMatchObject({ packed: true, regions: 2, diskSectors: DISK });
    expect(r.addresses.tracedEndSector).toBeGreaterThan(DISK);
    expect(r.simulated.perBio.count).toBe(r.requests.replayed);
  });
});
