// A DiskSim `dm_disk` block (the `.model` file: diskmodel's mechanics and layout) →
// the geometry and mechanics part of a Spindle DiskParams. After diskmodel's
// mech_g1.modspec, layout_g1.modspec, layout_g1_load.c (DISK-MODEL.md §1.3, §1.4).
import type { LbnMapping, SeekCurve, SparingScheme, ZoneSpec } from '../params';
import { BlockReader, DiskSimReadError, show, type Unapplied } from './block-reader';
import type { FileSource, Value } from './syntax';

export interface ModelPart {
  surfaces: number;
  cylinders: number;
  rpm: number;
  zones: ZoneSpec[];
  mapping: LbnMapping;
  sparing: SparingScheme;
  seek: SeekCurve;
  headSwitchMs: number;
  writeSettleMs: number;
}

const MAPPINGS: Record<number, LbnMapping> = {
  0: 'conventional',
  1: 'serpentine',
  2: 'serpentine-even',
};

/** DiskSim sparing scheme numbers Spindle lays out (layout_g1.h dm_layout_g1_spare_t). */
const SPARING: Record<number, SparingScheme> = {
  0: 'tracks', // no sparing: a track layout with no spare tracks
  1: 'tracks',
  3: 'sectors-per-track',
  // 7 (sectors at the end, DiskSim's sectpercyl code): with no spares per cylinder each
  // slip pushes the LBNs after it on by a sector to the zone's end — scheme 9's layout
  // with the slips as its spare sectors (checked against diskmodel)
  7: 'sectors-per-zone',
  9: 'sectors-per-zone',
};

export function readModel(r: BlockReader, files: FileSource, notes: Unapplied[]): ModelPart {
  if (r.block.type !== 'dm_disk') {
    throw new DiskSimReadError(
      r.block.pos,
      `a disk model must be a dm_disk block, not ${r.block.type}`,
    );
  }
  const surfaces = r.num('Number of data surfaces');
  const cylinders = r.num('Number of cylinders');
  const mechBlock = r.block_('Mechanical Model');
  const layoutBlock = r.block_('Layout Model');
  const mech = readMech(new BlockReader(mechBlock, notes), files);
  const layout = readLayout(new BlockReader(layoutBlock, notes), surfaces, notes);
  // The zones decide where the arm can go: DiskSim does not check them against "Number of
  // cylinders" (the C2490A's last zone ends one past it), Spindle takes the zones' extent.
  const zonesEnd = layout.zones[layout.zones.length - 1]!.lastCylinder + 1;
  if (zonesEnd !== cylinders) {
    r.noteParam(
      r.param('Number of cylinders')!,
      `the zones run to cylinder ${zonesEnd - 1}; Spindle uses ${zonesEnd} cylinders`,
    );
  }
  // DiskSim replaces "Block count" by the sum over the zones (layout_g1_load.c checknumblocks).
  const blocks = r.param('Block count');
  const total = layout.zones.reduce((s, z) => s + zoneLbns(z, surfaces, layout.sparing), 0);
  if (blocks && (blocks.value.kind !== 'number' || blocks.value.v !== total)) {
    r.noteParam(
      blocks,
      `the zones hold ${total} blocks; DiskSim (layout_g1_load.c) and Spindle use the zones' count`,
    );
  }
  r.finish();
  return { surfaces, cylinders: zonesEnd, ...mech, ...layout };
}

/** LBNs a zone holds (layout_g1_load.c dm_layout_g1_compute_blksinband). */
export function zoneLbns(z: ZoneSpec, surfaces: number, sparing: SparingScheme): number {
  const tracks = (z.lastCylinder - z.firstCylinder + 1) * surfaces;
  const physical = tracks * z.sectorsPerTrack - z.emptyFrontSectors;
  switch (sparing) {
    case 'tracks':
      return physical - z.spareTracks * z.sectorsPerTrack;
    case 'sectors-per-track':
      return physical - (z.sparesPerTrack ?? 0) * tracks;
    case 'sectors-per-zone':
      return physical - (z.spareSectors ?? 0);
  }
}

function readMech(
  r: BlockReader,
  files: FileSource,
): Pick<ModelPart, 'rpm' | 'seek' | 'headSwitchMs' | 'writeSettleMs'> {
  if (r.block.type !== 'dm_mech_g1') {
    throw new DiskSimReadError(
      r.block.pos,
      `mechanical model ${r.block.type} is not one Spindle reads (only dm_mech_g1)`,
    );
  }
  const access = r.param('Access time type');
  if (access && show(access.value) !== 'trackSwitchPlusRotation') {
    r.noteParam(
      access,
      'Spindle always computes seek and rotation exactly (trackSwitchPlusRotation)',
    );
  }
  r.note('Constant access time', 'used only with Access time type = constant');
  const type = r.word('Seek type');
  let seek: SeekCurve;
  // Parameters each seek type leaves unused are read so they are not reported as unknown.
  r.ignore('Average seek time', 'Single cylinder seek time', 'Full strobe seek time');
  r.ignore('Constant seek time', 'Full seek curve', 'First ten seek times');
  r.ignore('HPL seek equation values');
  const hplValues = (): [number, number, number, number, number, number] => {
    const v = r.numbers('HPL seek equation values');
    if (v.length !== 6) {
      const p = r.param('HPL seek equation values')!;
      throw new DiskSimReadError(
        p.pos,
        `"HPL seek equation values" needs 6 numbers, not ${v.length}`,
      );
    }
    return v as [number, number, number, number, number, number];
  };
  switch (type) {
    case 'constant':
      seek = { type: 'constant', ms: r.num('Constant seek time') };
      break;
    case 'linear':
      // DiskSim 4.0's "linear" (mech_g1_seektime.c seek_3pt_line) sets numcyls to the
      // distance itself, so 1 cylinder costs the single-cylinder time and every longer
      // seek the full-strobe time. Spindle reproduces that exactly, not the intended line.
      seek = {
        type: 'hplplus10',
        firstTen: [r.num('Single cylinder seek time')],
        v: [0, 0, 0, r.num('Full strobe seek time'), 0, -1],
      };
      break;
    case 'curve':
      seek = {
        type: 'curve',
        singleMs: r.num('Single cylinder seek time'),
        averageMs: r.num('Average seek time'),
        fullMs: r.num('Full strobe seek time'),
      };
      break;
    case 'hpl':
      seek = { type: 'hpl', v: hplValues() };
      break;
    case 'hplplus10': {
      const firstTen = r.numbers('First ten seek times');
      if (firstTen.length !== 10) {
        const p = r.param('First ten seek times')!;
        throw new DiskSimReadError(
          p.pos,
          `"First ten seek times" needs 10 numbers, not ${firstTen.length}`,
        );
      }
      seek = { type: 'hplplus10', firstTen, v: hplValues() };
      break;
    }
    case 'extracted': {
      const p = r.param('Full seek curve');
      if (!p || p.value.kind !== 'word') {
        throw new DiskSimReadError(
          r.block.pos,
          'Seek type extracted needs "Full seek curve" (a file)',
        );
      }
      seek = { type: 'extracted', points: readSeekFile(p.value.v, files, p.value) };
      break;
    }
    default: {
      const p = r.param('Seek type')!;
      throw new DiskSimReadError(p.pos, `unknown Seek type "${type}"`);
    }
  }
  const rpm = r.num('Rotation speed (in rpms)');
  r.expect(
    'Percent error in rpms',
    0,
    'Spindle turns every disk at exactly its rpm (the DiskSim manual advises against the error)',
  );
  const out = {
    rpm,
    seek,
    headSwitchMs: r.num('Head switch time'),
    writeSettleMs: r.num('Add. write settling delay'),
  };
  r.finish();
  return out;
}

/** An extracted seek curve: "Seek distances measured: n", then n lines "dist, ms". */
export function readSeekFile(name: string, files: FileSource, at: Value): Array<[number, number]> {
  const text = files(name);
  if (text === undefined) {
    throw new DiskSimReadError(at.pos, `seek curve file "${name}" not found`);
  }
  const lines = text.split(/\r?\n/);
  const head = /^\s*Seek distances measured:\s*(\d+)/.exec(lines[0] ?? '');
  if (!head) {
    throw new DiskSimReadError({ file: name, line: 1 }, 'expected "Seek distances measured: N"');
  }
  const n = Number(head[1]);
  const points: Array<[number, number]> = [];
  for (let i = 1; i < lines.length && points.length < n; i++) {
    const line = lines[i]!.trim();
    if (!line) continue;
    const m = /^(\d+)\s*,\s*([-+]?[\d.]+(?:[eE][-+]?\d+)?)/.exec(line);
    if (!m)
      throw new DiskSimReadError(
        { file: name, line: i + 1 },
        `expected "distance, ms", found "${line}"`,
      );
    const d = Number(m[1]);
    if (points.length > 0 && d <= points[points.length - 1]![0]) {
      throw new DiskSimReadError({ file: name, line: i + 1 }, `distances must increase (${d})`);
    }
    points.push([d, Number(m[2])]);
  }
  if (points.length !== n) {
    throw new DiskSimReadError(
      { file: name, line: lines.length },
      `${n} distances announced, ${points.length} found`,
    );
  }
  return points;
}

function readLayout(
  r: BlockReader,
  surfaces: number,
  notes: Unapplied[],
): Pick<ModelPart, 'zones' | 'mapping' | 'sparing'> {
  if (r.block.type !== 'dm_layout_g1') {
    throw new DiskSimReadError(
      r.block.pos,
      `layout ${r.block.type} is not one Spindle reads yet (only dm_layout_g1)`,
    );
  }
  const mapNo = r.num('LBN-to-PBN mapping scheme');
  const mapping = MAPPINGS[mapNo];
  if (!mapping) {
    throw new DiskSimReadError(
      r.param('LBN-to-PBN mapping scheme')!.pos,
      `unknown LBN-to-PBN mapping scheme ${mapNo}`,
    );
  }
  const spareNo = r.num('Sparing scheme used');
  const sparing = SPARING[spareNo];
  if (!sparing) {
    throw new DiskSimReadError(
      r.param('Sparing scheme used')!.pos,
      `Sparing scheme used = ${spareNo} is not one Spindle lays out (it reads 0, 1, 3, 7 and 9)`,
    );
  }
  r.ignore('Rangesize for sparing'); // used only by scheme 8
  const unitsParam = r.param('Skew units');
  const layoutUnits = unitsParam ? show(unitsParam.value) : 'sectors';
  const zones = r.list('Zones').map((v, i) => {
    if (v.kind !== 'block' || v.block.type !== 'dm_layout_g1_zone') {
      throw new DiskSimReadError(v.pos, `zone ${i}: expected a dm_layout_g1_zone block`);
    }
    return readZone(new BlockReader(v.block, notes), spareNo, layoutUnits, surfaces);
  });
  zones.forEach((z, i) => {
    const prev = zones[i - 1];
    // Zones may leave a cylinder out (the Cheetah 9LP's one between each two: no LBN maps there),
    // but must not overlap or run backwards.
    if (z.firstCylinder <= (prev ? prev.lastCylinder : -1) || z.lastCylinder < z.firstCylinder) {
      throw new DiskSimReadError(
        r.block.pos,
        `zone ${i}: cylinders ${z.firstCylinder}–${z.lastCylinder} overlap the zone before or run backwards`,
      );
    }
  });
  if (zones.length === 0) throw new DiskSimReadError(r.block.pos, 'no zones');
  r.finish();
  return { zones, mapping, sparing };
}

function readZone(
  r: BlockReader,
  spareNo: number,
  layoutUnits: string,
  surfaces: number,
): ZoneSpec {
  const spt = r.num('Blocks per track');
  const unitsParam = r.param('Skew units');
  const units = unitsParam ? show(unitsParam.value) : layoutUnits;
  // Sectors are truncated to whole sectors ((int)d · sector_width in layout_g1_zone.modspec);
  // revolutions are kept as a fraction of the track.
  const skew = (name: string): number => {
    const d = r.num(name, 0);
    return units === 'revolutions' ? d * spt : Math.trunc(d);
  };
  const spares = r.num('Number of spares');
  const slips = r.numbers('slips', true);
  const defects = r.list('defects', true);
  if (defects.length > 0) {
    r.note(
      'defects',
      'remapped defects are not modelled: each LBN stays where the mapping puts it',
    );
  }
  const zone: ZoneSpec = {
    firstCylinder: r.num('First cylinder number'),
    lastCylinder: r.num('Last cylinder number'),
    sectorsPerTrack: spt,
    firstSectorOffset: skew('Offset of first block'),
    emptyFrontSectors: r.num('Empty space at zone front'),
    trackSkew: skew('Skew for track switch'),
    cylinderSkew: skew('Skew for cylinder switch'),
    spareTracks: spareNo === 1 ? spares : 0,
    slips: spareNo === 1 ? slips : [],
  };
  if (spareNo === 3) {
    zone.sparesPerTrack = spares;
    zone.sectorSlips = slips;
  } else if (spareNo === 9) {
    zone.spareSectors = spares;
    zone.sectorSlips = slips;
  } else if (spareNo === 7) {
    if (spares !== 0) {
      const p = r.param('Number of spares')!;
      throw new DiskSimReadError(
        p.pos,
        'sparing scheme 7 with spare sectors per cylinder is not one Spindle lays out (only with 0 spares)',
      );
    }
    zone.spareSectors = slips.length;
    zone.sectorSlips = slips;
  } else if (spareNo === 0 && slips.length > 0) {
    r.note('slips', 'sparing scheme 0 ignores slips (as DiskSim does)');
  }
  void surfaces;
  r.finish();
  return zone;
}
