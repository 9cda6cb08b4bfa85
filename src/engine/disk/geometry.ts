// Disk layout: logical block numbers (LBNs, 512-byte sectors) ↔ physical
// (cylinder, head, sector) and the angle at which each sector starts.
// After DiskSim's layout g1 with mapping scheme 0 (conventional: every track of a
// cylinder, then the next cylinder) and sparing scheme 1 (spare tracks at each
// zone's end). DISK-MODEL.md §1.4, §1.7.
import type { ZoneSpec } from './params';

export interface Zone {
  index: number;
  firstCylinder: number;
  lastCylinder: number;
  sectorsPerTrack: number;
  /** the zone's first LBN and how many LBNs it holds */
  firstLbn: number;
  lbnCount: number;
  /** data positions start after the empty front area */
  emptyFrontSectors: number;
  /** slipped tracks, zone-relative track numbers, ascending */
  slips: number[];
  /**
   * For LBN → track: a logical track t passes slip i (moves one track on) when
   * slips[i] − i ≤ t, checking slips in order and stopping at the first it does not pass.
   * slipLimits[i] is the running maximum of slips[j] − j (j ≤ i), ascending, so the
   * slips passed are the limits ≤ t: a binary search gives the same count as that scan.
   */
  slipLimits: number[];
  firstSectorOffset: number;
  trackSkew: number;
  cylinderSkew: number;
}

export interface Geometry {
  surfaces: number;
  cylinders: number;
  zones: Zone[];
  totalLbns: number;
}

/** A physical address. `zone` indexes Geometry.zones. */
export interface PhysAddr {
  zone: number;
  cylinder: number;
  head: number;
  sector: number;
}

export function buildGeometry(surfaces: number, cylinders: number, specs: ZoneSpec[]): Geometry {
  const zones: Zone[] = [];
  let lbn = 0;
  specs.forEach((z, index) => {
    const tracks = (z.lastCylinder - z.firstCylinder + 1) * surfaces;
    // Slipped tracks use up spare tracks, so the LBN count is the physical count
    // less the empty front and the spare tracks (DiskSim's blksinband).
    const lbnCount = (tracks - z.spareTracks) * z.sectorsPerTrack - z.emptyFrontSectors;
    const slips = [...z.slips].sort((a, b) => a - b);
    const slipLimits: number[] = [];
    slips.forEach((slip, i) => slipLimits.push(Math.max(slip - i, slipLimits[i - 1] ?? -Infinity)));
    zones.push({
      index,
      firstCylinder: z.firstCylinder,
      lastCylinder: z.lastCylinder,
      sectorsPerTrack: z.sectorsPerTrack,
      firstLbn: lbn,
      lbnCount,
      emptyFrontSectors: z.emptyFrontSectors,
      slips,
      slipLimits,
      firstSectorOffset: z.firstSectorOffset,
      trackSkew: z.trackSkew,
      cylinderSkew: z.cylinderSkew,
    });
    lbn += lbnCount;
  });
  return { surfaces, cylinders, zones, totalLbns: lbn };
}

export function zoneOfLbn(g: Geometry, lbn: number): Zone {
  const zones = g.zones;
  let lo = 0;
  let hi = zones.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (zones[mid]!.firstLbn <= lbn) lo = mid;
    else hi = mid - 1;
  }
  return zones[lo]!;
}

/** The throw lives apart: lbnToPhys stays small enough for V8 to inline on the hot path. */
function badLbn(g: Geometry, lbn: number): never {
  throw new RangeError(`LBN ${lbn} outside 0…${g.totalLbns - 1}`);
}

/** LBN → physical address, written into `out` (no allocation on the hot path). The drive
 * keeps a located request's address, so the hot path looks up each LBN about once. */
export function lbnToPhys(g: Geometry, lbn: number, out: PhysAddr): PhysAddr {
  if (!(lbn >= 0 && lbn < g.totalLbns)) badLbn(g, lbn);
  const z = zoneOfLbn(g, lbn);
  // DiskSim g1_ltop_trackspare: count the empty front, then skip slipped tracks.
  const x = lbn - z.firstLbn + z.emptyFrontSectors;
  const spt = z.sectorsPerTrack;
  const logicalTrack = Math.floor(x / spt);
  const track = logicalTrack + slipsPassed(z.slipLimits, logicalTrack);
  // Remainders by subtraction: one division each for track and cylinder, not two
  // (exact: LBNs are whole numbers).
  const cylInZone = Math.floor(track / g.surfaces);
  out.zone = z.index;
  out.cylinder = z.firstCylinder + cylInZone;
  out.head = track - cylInZone * g.surfaces;
  out.sector = x - logicalTrack * spt;
  return out;
}

/** How many slipped tracks logical track t moves past (see Zone.slipLimits). */
function slipsPassed(limits: number[], t: number): number {
  let lo = 0;
  let hi = limits.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (limits[mid]! <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Physical address → LBN, or −1 for an empty-front, slipped or spare sector. */
export function physToLbn(g: Geometry, cylinder: number, head: number, sector: number): number {
  const z = g.zones.find((zz) => cylinder >= zz.firstCylinder && cylinder <= zz.lastCylinder);
  if (!z || sector < 0 || sector >= z.sectorsPerTrack) return -1;
  let track = (cylinder - z.firstCylinder) * g.surfaces + head;
  for (let i = z.slips.length - 1; i >= 0; i--) {
    const slip = z.slips[i]!;
    if (track === slip) return -1;
    if (track > slip) track--;
  }
  const rel = track * z.sectorsPerTrack + sector - z.emptyFrontSectors;
  return rel >= 0 && rel < z.lbnCount ? z.firstLbn + rel : -1;
}

/**
 * The angle (fraction of a revolution, [0, 1)) at which sector 0 of a track starts.
 * Skew accumulates from the zone's first track: each head switch adds the track skew,
 * each move to the next cylinder the cylinder skew, so a transfer running on from one
 * track's last sector finds the next track's first sector just after the switch.
 */
export function trackStartAngle(g: Geometry, z: Zone, cylinder: number, head: number): number {
  const cylInZone = cylinder - z.firstCylinder;
  const skew =
    z.firstSectorOffset +
    cylInZone * ((g.surfaces - 1) * z.trackSkew + z.cylinderSkew) +
    head * z.trackSkew;
  const spt = z.sectorsPerTrack;
  return (((skew % spt) + spt) % spt) / spt;
}

/** The angle at which a sector starts, fraction of a revolution in [0, 1). */
export function sectorAngle(g: Geometry, a: PhysAddr): number {
  const z = g.zones[a.zone]!;
  const angle = trackStartAngle(g, z, a.cylinder, a.head) + a.sector / z.sectorsPerTrack;
  return angle >= 1 ? angle - 1 : angle;
}
