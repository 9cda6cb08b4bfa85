// Disk layout: logical block numbers (LBNs, 512-byte sectors) ↔ physical
// (cylinder, head, sector) and the angle at which each sector starts.
// After DiskSim's layout g1 (layout_g1.c): mapping schemes 0 (conventional: every track
// of a cylinder, then the next cylinder), 1 and 2 (serpentine); sparing schemes 1 (spare
// tracks at each zone's end, slipped tracks), 3 (spare sectors at each track's end,
// slipped sectors) and 9 (spare sectors at the zone's end, slipped sectors).
// DISK-MODEL.md §1.4, §1.7.
import type { LbnMapping, SparingScheme, ZoneSpec } from './params';

/** Zone.sparing: numbers, so the hot path compares small integers. */
export const SPARE_TRACKS = 0;
export const SPARE_PER_TRACK = 1;
export const SPARE_PER_ZONE = 2;
const SPARING_CODE: Record<SparingScheme, number> = {
  tracks: SPARE_TRACKS,
  'sectors-per-track': SPARE_PER_TRACK,
  'sectors-per-zone': SPARE_PER_ZONE,
};
const MAPPING_CODE: Record<LbnMapping, number> = {
  conventional: 0,
  serpentine: 1,
  'serpentine-even': 2,
};

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
  /** track sparing with slips: by logical track, the slipped tracks it moves past
   * (slipsPassed), a byte each: a table where the search's branches were a random request's
   * mispredictions; null: the search (no slips, over 255 of them, or a zone too large) */
  slipsByLogical: Uint8Array | null;
  firstSectorOffset: number;
  trackSkew: number;
  cylinderSkew: number;
  /** SPARE_TRACKS, SPARE_PER_TRACK or SPARE_PER_ZONE */
  sparing: number;
  /** sector sparing per track: LBNs a track holds (sectorsPerTrack less its spares) */
  lbnsPerTrack: number;
  /** sector sparing: slipped sectors from the zone's first physical sector, ascending,
   * and their running limits (as slipLimits) */
  sectorSlips: number[];
  sectorSlipLimits: number[];
  /** trackStartAngle's tables, made on first use (a geometry built only for its size never
   * needs them); false: each angle is computed (skews not whole numbers) */
  startAngles: StartAngles | false | null;
}

/**
 * A zone's track start angles, from small tables. A track's skew (computeTrackStartAngle) is
 * a sum of whole numbers: the first sector offset, the cylinder's skew, the surface's (by its
 * place in the cylinder's LBN order), the slips before the track (per-track sparing); its
 * angle is the sum's remainder by the sectors per track (spt), over spt. The parts' remainders,
 * added and brought back under spt, are the same remainder, so give the same angle.
 */
export interface StartAngles {
  /** by cylinder in the zone c: (first sector offset + c · skew per cylinder) mod spt */
  byCylinder: Int32Array;
  /** by place o in the cylinder's LBN order: (o · track skew) mod spt */
  byOrder: Int32Array;
  /** by remainder r: r / spt */
  angle: Float64Array;
}

export interface Geometry {
  surfaces: number;
  cylinders: number;
  zones: Zone[];
  totalLbns: number;
  /** 0 conventional, 1 serpentine from each zone's first cylinder, 2 serpentine on odd
   * cylinder numbers (DiskSim g1_surfno_on_cyl) */
  mapping: number;
  /** zoneOfLbn's table: by chunk of LBNs (lbn · zoneChunkScale, truncated), the zone of the
   * chunk's first LBN — the zone of any LBN in the chunk or one before it */
  zoneByChunk: Uint16Array;
  /** 2^−k: chunks of 2^k LBNs, at most ZONE_CHUNKS of them */
  zoneChunkScale: number;
}

/** zoneOfLbn's table size, at most: small enough to stay in the cache. */
const ZONE_CHUNKS = 4096;
/** Zone.slipsByLogical's size, at most (a zone with more tracks searches its slips). */
const MAX_TRACK_TABLE = 1 << 16;

/** A physical address. `zone` indexes Geometry.zones. */
export interface PhysAddr {
  zone: number;
  cylinder: number;
  head: number;
  sector: number;
}

/** Running maximum of slip[i] − i: the LBN-side position at which each slip is passed. */
function limitsOf(slips: number[]): number[] {
  const limits: number[] = [];
  slips.forEach((slip, i) => limits.push(Math.max(slip - i, limits[i - 1] ?? -Infinity)));
  return limits;
}

export function buildGeometry(
  surfaces: number,
  cylinders: number,
  specs: ZoneSpec[],
  mapping: LbnMapping = 'conventional',
  sparingScheme: SparingScheme = 'tracks',
): Geometry {
  const zones: Zone[] = [];
  const sparing = SPARING_CODE[sparingScheme];
  let lbn = 0;
  specs.forEach((z, index) => {
    const tracks = (z.lastCylinder - z.firstCylinder + 1) * surfaces;
    const physical = tracks * z.sectorsPerTrack - z.emptyFrontSectors;
    // Slipped tracks or sectors use up spares, so the LBN count is the physical count
    // less the empty front and the spares (DiskSim's blksinband).
    const sparesPerTrack = sparing === SPARE_PER_TRACK ? (z.sparesPerTrack ?? 0) : 0;
    const lbnCount =
      sparing === SPARE_TRACKS
        ? physical - z.spareTracks * z.sectorsPerTrack
        : sparing === SPARE_PER_TRACK
          ? physical - sparesPerTrack * tracks
          : physical - (z.spareSectors ?? 0);
    const slips = sparing === SPARE_TRACKS ? [...z.slips].sort((a, b) => a - b) : [];
    const sectorSlips =
      sparing === SPARE_TRACKS ? [] : [...(z.sectorSlips ?? [])].sort((a, b) => a - b);
    zones.push({
      index,
      firstCylinder: z.firstCylinder,
      lastCylinder: z.lastCylinder,
      sectorsPerTrack: z.sectorsPerTrack,
      firstLbn: lbn,
      lbnCount,
      emptyFrontSectors: z.emptyFrontSectors,
      slips,
      slipLimits: limitsOf(slips),
      slipsByLogical: null,
      firstSectorOffset: z.firstSectorOffset,
      trackSkew: z.trackSkew,
      cylinderSkew: z.cylinderSkew,
      sparing,
      lbnsPerTrack: z.sectorsPerTrack - sparesPerTrack,
      sectorSlips,
      sectorSlipLimits: limitsOf(sectorSlips),
      startAngles: null,
    });
    lbn += lbnCount;
  });
  for (const z of zones) z.slipsByLogical = slipTable(z);
  let shift = 0;
  while (lbn / 2 ** shift > ZONE_CHUNKS) shift++;
  const g: Geometry = {
    surfaces,
    cylinders,
    zones,
    totalLbns: lbn,
    mapping: MAPPING_CODE[mapping],
    zoneByChunk: new Uint16Array(Math.max(1, Math.ceil(lbn / 2 ** shift))),
    zoneChunkScale: 2 ** -shift,
  };
  // each chunk holds the last zone starting at or before its first LBN (zoneSearch): zones
  // filled in in order from their first chunk on, each over the one before (start-up time)
  for (let i = 1; i < zones.length; i++)
    g.zoneByChunk.fill(i, Math.ceil(zones[i]!.firstLbn / 2 ** shift));
  return g;
}

/** Zone.slipsByLogical: for each logical track of a track-spared zone with slips. */
function slipTable(z: Zone): Uint8Array | null {
  if (z.sparing !== SPARE_TRACKS || z.slips.length === 0 || z.slips.length > 255) return null;
  if (!(z.sectorsPerTrack > 0)) return null;
  const tracks = Math.ceil((z.lbnCount + z.emptyFrontSectors) / z.sectorsPerTrack);
  if (!(tracks > 0 && tracks <= MAX_TRACK_TABLE)) return null;
  const t = new Uint8Array(tracks);
  const limits = z.slipLimits;
  if (!limits.every(Number.isInteger)) {
    for (let lt = 0; lt < tracks; lt++) t[lt] = slipsPassed(limits, lt);
    return t;
  }
  // slipsPassed counts the limits at or below a track, and they rise: k of them from the
  // k-th limit up to the next (ranges filled rather than every track searched: start-up time)
  for (let k = 1; k <= limits.length; k++) {
    const from = Math.max(0, limits[k - 1]!);
    const to = Math.min(tracks, k < limits.length ? limits[k]! : tracks);
    if (from < to) t.fill(k, from, to);
  }
  return t;
}

/** The geometry a drive's parameters describe (zones, mapping and sparing). */
export function geometryOf(p: {
  surfaces: number;
  cylinders: number;
  zones: ZoneSpec[];
  mapping?: LbnMapping;
  sparing?: SparingScheme;
}): Geometry {
  return buildGeometry(p.surfaces, p.cylinders, p.zones, p.mapping, p.sparing);
}

/**
 * A track's place in its cylinder's LBN order ↔ its head (the same swap both ways):
 * serpentine mappings run odd cylinders from the last head back (g1_surfno_on_cyl).
 */
export function surfaceOrder(g: Geometry, z: Zone, cylinder: number, head: number): number {
  if (g.mapping === 0) return head;
  const odd = g.mapping === 1 ? (cylinder - z.firstCylinder) % 2 : cylinder % 2;
  return odd ? g.surfaces - 1 - head : head;
}

export function zoneOfLbn(g: Geometry, lbn: number): Zone {
  if (!(lbn >= 0 && lbn < g.totalLbns)) return zoneSearch(g, lbn);
  const zones = g.zones;
  let i = g.zoneByChunk[(lbn * g.zoneChunkScale) | 0]!;
  while (i + 1 < zones.length && zones[i + 1]!.firstLbn <= lbn) i++;
  return zones[i]!;
}

/** The last zone starting at or before `lbn` (the first zone if none does). */
function zoneSearch(g: Pick<Geometry, 'zones'>, lbn: number): Zone {
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
 * keeps a located request's address, so the hot path looks up each LBN about once. Sector
 * sparing lives apart (sectorSparedTrack), so this stays under V8's inlining size limit. */
export function lbnToPhys(g: Geometry, lbn: number, out: PhysAddr): PhysAddr {
  if (!(lbn >= 0 && lbn < g.totalLbns)) badLbn(g, lbn);
  const z = zoneOfLbn(g, lbn);
  const x = lbn - z.firstLbn + z.emptyFrontSectors;
  let track: number;
  if (z.sparing === SPARE_TRACKS) {
    // DiskSim g1_ltop_trackspare: count the empty front, then skip slipped tracks.
    const spt = z.sectorsPerTrack;
    const logicalTrack = Math.floor(x / spt);
    const passed = z.slipsByLogical;
    track =
      logicalTrack +
      (passed !== null ? passed[logicalTrack]! : slipsPassed(z.slipLimits, logicalTrack));
    out.sector = x - logicalTrack * spt;
  } else track = sectorSparedTrack(z, x, out);
  // Remainders by subtraction: one division for the cylinder (exact: whole numbers).
  const cylInZone = Math.floor(track / g.surfaces);
  out.zone = z.index;
  out.cylinder = z.firstCylinder + cylInZone;
  const order = track - cylInZone * g.surfaces;
  out.head = g.mapping === 0 ? order : surfaceOrder(g, z, out.cylinder, order);
  return out;
}

/** lbnToPhys under sector sparing: the zone-relative track of position `x` (the empty front
 * counted), its sector written into `out`. */
function sectorSparedTrack(z: Zone, x: number, out: PhysAddr): number {
  const spt = z.sectorsPerTrack;
  if (z.sparing === SPARE_PER_TRACK) {
    // g1_ltop_sectpertrackspare: the empty front counts in LBNs per track; slipped
    // sectors on the track push the LBN one sector on.
    const lpt = z.lbnsPerTrack;
    const track = Math.floor(x / lpt);
    let j = x - track * lpt;
    const first = track * spt;
    for (const slip of z.sectorSlips) {
      if (slip >= first && slip - first <= j) j++;
    }
    out.sector = j;
    return track;
  }
  // g1_ltop_sectperzonespare: physical sectors run through the zone, slips skipped.
  const p = x + slipsPassed(z.sectorSlipLimits, x);
  const track = Math.floor(p / spt);
  out.sector = p - track * spt;
  return track;
}

/** The first and last LBN on the track (or, `cylinder`, the cylinder) holding `lbn`. */
export function lbnBounds(g: Geometry, lbn: number, cylinder = false): [number, number] {
  const p = lbnToPhys(g, lbn, { zone: 0, cylinder: 0, head: 0, sector: 0 });
  const z = g.zones[p.zone]!;
  // the tracks to look through, in LBN order: this one, or the cylinder's
  const heads = cylinder
    ? Array.from({ length: g.surfaces }, (_, o) => surfaceOrder(g, z, p.cylinder, o))
    : [p.head];
  let first = -1;
  for (let h = 0; first < 0 && h < heads.length; h++) {
    for (let s = 0; first < 0 && s < z.sectorsPerTrack; s++)
      first = physToLbn(g, p.cylinder, heads[h]!, s);
  }
  let last = -1;
  for (let h = heads.length - 1; last < 0 && h >= 0; h--) {
    for (let s = z.sectorsPerTrack - 1; last < 0 && s >= 0; s--)
      last = physToLbn(g, p.cylinder, heads[h]!, s);
  }
  // A first or last track that is slipped or empty (zone front): fall back to lbn itself.
  return [first < 0 || first > lbn ? lbn : first, last < lbn ? lbn : last];
}

/**
 * How many LBNs from `lbn` (at `p`) lie on consecutive sectors of the same track: a
 * transfer runs that far before a switch or a slipped sector.
 */
export function contiguousRun(g: Geometry, lbn: number, p: PhysAddr): number {
  const z = g.zones[p.zone]!;
  const spt = z.sectorsPerTrack;
  if (z.sparing === SPARE_TRACKS) return spt - p.sector;
  const zoneLeft = z.firstLbn + z.lbnCount - lbn;
  const track =
    (p.cylinder - z.firstCylinder) * g.surfaces + surfaceOrder(g, z, p.cylinder, p.head);
  const first = track * spt;
  let end: number;
  if (z.sparing === SPARE_PER_TRACK) {
    let onTrack = 0;
    for (const slip of z.sectorSlips) if (slip >= first && slip < first + spt) onTrack++;
    end = Math.min(spt, z.lbnsPerTrack + onTrack);
  } else end = spt;
  for (const slip of z.sectorSlips) {
    if (slip > first + p.sector && slip < first + end) {
      end = slip - first;
      break;
    }
  }
  return Math.min(end - p.sector, zoneLeft);
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
  let track = (cylinder - z.firstCylinder) * g.surfaces + surfaceOrder(g, z, cylinder, head);
  if (z.sparing !== SPARE_TRACKS) return sectorSparedLbn(z, track, sector);
  for (let i = z.slips.length - 1; i >= 0; i--) {
    const slip = z.slips[i]!;
    if (track === slip) return -1;
    if (track > slip) track--;
  }
  const rel = track * z.sectorsPerTrack + sector - z.emptyFrontSectors;
  return rel >= 0 && rel < z.lbnCount ? z.firstLbn + rel : -1;
}

/** physToLbn under sector sparing: −1 for a slipped, spare or empty-front sector. */
function sectorSparedLbn(z: Zone, track: number, sector: number): number {
  const spt = z.sectorsPerTrack;
  const phys = track * spt + sector;
  if (z.sectorSlips.includes(phys)) return -1;
  let x: number;
  if (z.sparing === SPARE_PER_TRACK) {
    let before = 0;
    for (const slip of z.sectorSlips) if (slip >= track * spt && slip < phys) before++;
    const j = sector - before;
    if (j >= z.lbnsPerTrack) return -1;
    x = track * z.lbnsPerTrack + j;
  } else {
    x = phys - z.sectorSlips.filter((s) => s < phys).length;
  }
  const rel = x - z.emptyFrontSectors;
  return rel >= 0 && rel < z.lbnCount ? z.firstLbn + rel : -1;
}

/**
 * The angle (fraction of a revolution, [0, 1)) at which sector 0 of a track starts.
 * Skew accumulates from the zone's first track: each head switch adds the track skew,
 * each move to the next cylinder the cylinder skew, so a transfer running on from one
 * track's last sector finds the next track's first sector just after the switch.
 */
export function trackStartAngle(g: Geometry, z: Zone, cylinder: number, head: number): number {
  // Looked up (every located request, every track switch): small tables, where one by track
  // missed the cache on a random request's track, and the remainders cost more (StartAngles)
  const t = z.startAngles;
  // rare: no tables (yet, or false), a track off the zone, a surface order or slipped
  // sectors, kept out (trackStartAngleAny) so that V8 inlines this in a transfer's walk;
  // `+` makes its result a number, so the table's angle stays a raw double where this is
  // inlined (merged with a call's unknown result, it was boxed: a HeapNumber per locate)
  if (
    t === null ||
    t === false ||
    g.mapping !== 0 ||
    cylinder < z.firstCylinder ||
    cylinder > z.lastCylinder ||
    head < 0 ||
    head >= g.surfaces ||
    (z.sparing === SPARE_PER_TRACK && z.sectorSlips.length > 0)
  )
    return +trackStartAngleAny(g, z, cylinder, head);
  const spt = z.sectorsPerTrack;
  let r = t.byCylinder[cylinder - z.firstCylinder]! + t.byOrder[head]!;
  if (r >= spt) r -= spt;
  if (r >= spt) r -= spt;
  return t.angle[r]!;
}

/** trackStartAngle in every case (building the zone's tables on first use). */
function trackStartAngleAny(g: Geometry, z: Zone, cylinder: number, head: number): number {
  if (cylinder < z.firstCylinder || cylinder > z.lastCylinder || head < 0 || head >= g.surfaces)
    return computeTrackStartAngle(g, z, cylinder, head);
  const t = z.startAngles ?? newStartAngles(g, z);
  if (t === false) return computeTrackStartAngle(g, z, cylinder, head);
  const spt = z.sectorsPerTrack;
  const order = g.mapping === 0 ? head : surfaceOrder(g, z, cylinder, head);
  let r = t.byCylinder[cylinder - z.firstCylinder]! + t.byOrder[order]!;
  if (z.sparing === SPARE_PER_TRACK && z.sectorSlips.length > 0)
    r += slipsBeforeTrack(g, z, cylinder, head) % spt;
  if (r >= spt) r -= spt;
  if (r >= spt) r -= spt;
  return t.angle[r]!;
}

/** Per-track sparing: the slipped sectors before the track (counted by its head, not its
 * place in the serpentine), each pushing its sectors one on (g1_map_pbn_skew). Apart from
 * trackStartAngle, which stays small enough for V8 to inline. */
function slipsBeforeTrack(g: Geometry, z: Zone, cylinder: number, head: number): number {
  const slips = z.sectorSlips;
  const cutoff = ((cylinder - z.firstCylinder) * g.surfaces + head) * z.sectorsPerTrack;
  let lo = 0;
  for (let hi = slips.length; lo < hi;) {
    const mid = (lo + hi) >> 1;
    if (slips[mid]! < cutoff) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The zone's StartAngles; false (each angle computed) unless the skews are whole numbers
 * small enough for every sum to be exact in floating point. */
function newStartAngles(g: Geometry, z: Zone): StartAngles | false {
  const spt = z.sectorsPerTrack;
  const cylinders = z.lastCylinder - z.firstCylinder + 1;
  const perCylinder = (g.surfaces - 1) * z.trackSkew + z.cylinderSkew;
  const largest =
    Math.abs(z.firstSectorOffset) +
    cylinders * Math.abs(perCylinder) +
    g.surfaces * Math.abs(z.trackSkew) +
    z.sectorSlips.length;
  const whole = [spt, z.firstSectorOffset, z.trackSkew, z.cylinderSkew, largest].every((x) =>
    Number.isInteger(x),
  );
  if (!whole || spt <= 0 || spt >= 2 ** 31 || largest >= 2 ** 52) return (z.startAngles = false);
  const mod = (x: number) => ((x % spt) + spt) % spt;
  const byCylinder = new Int32Array(cylinders);
  for (let c = 0; c < cylinders; c++) byCylinder[c] = mod(z.firstSectorOffset + c * perCylinder);
  const byOrder = new Int32Array(g.surfaces);
  for (let o = 0; o < g.surfaces; o++) byOrder[o] = mod(o * z.trackSkew);
  const angle = new Float64Array(spt);
  for (let r = 0; r < spt; r++) angle[r] = r / spt;
  return (z.startAngles = { byCylinder, byOrder, angle });
}

function computeTrackStartAngle(g: Geometry, z: Zone, cylinder: number, head: number): number {
  const cylInZone = cylinder - z.firstCylinder;
  let skew =
    z.firstSectorOffset +
    cylInZone * ((g.surfaces - 1) * z.trackSkew + z.cylinderSkew) +
    (g.mapping === 0 ? head : surfaceOrder(g, z, cylinder, head)) * z.trackSkew;
  const spt = z.sectorsPerTrack;
  if (z.sparing === SPARE_PER_TRACK && z.sectorSlips.length > 0) {
    // g1_map_pbn_skew: under per-track sparing each slip before the track (counted by its
    // head, not its place in the serpentine) pushes the track's sectors one sector on.
    const cutoff = (cylInZone * g.surfaces + head) * spt;
    for (const slip of z.sectorSlips) if (slip < cutoff) skew++;
  }
  return (((skew % spt) + spt) % spt) / spt;
}

/** The angle at which a sector starts, fraction of a revolution in [0, 1). */
export function sectorAngle(g: Geometry, a: PhysAddr): number {
  const z = g.zones[a.zone]!;
  const angle = trackStartAngle(g, z, a.cylinder, a.head) + a.sector / z.sectorsPerTrack;
  return angle >= 1 ? angle - 1 : angle;
}
