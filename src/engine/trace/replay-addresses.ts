// A trace from a larger disk than the simulated one: its addresses are packed onto the
// disk region by region. The disk is cut into regions (1 GiB, or smaller until the trace's
// regions fit); the regions the trace touches keep their order and every request keeps
// its offset inside its region, so sequential runs stay sequential, merges stay merges and
// every scheduler sees the same sector order — only the untouched space between regions
// is left out, which shortens the seeks across it. A trace that fits is left as it is.

/** the largest region tried: 1 GiB of 512-byte sectors */
const MAX_REGION = 1 << 21;
/** the smallest: 1 MiB (a trace touching more 1 MiB pieces than the disk has is refused) */
const MIN_REGION = 1 << 11;

export interface AddressMap {
  /** false: the trace fits the disk and its addresses are kept */
  packed: boolean;
  /** region size in sectors (0 when not packed) */
  regionSectors: number;
  /** regions touched, in address order (their index in the trace's address space) */
  regions: number[];
  /** the highest sector + 1 the trace addresses */
  tracedEndSector: number;
  diskSectors: number;
  note: string;
}

export interface Extent {
  sector: number;
  nSectors: number;
}

/** The map for `extents` on a disk of `diskSectors`, or a reason it cannot fit. */
export function packAddresses(extents: Iterable<Extent>, diskSectors: number): AddressMap | string {
  const list = [...extents];
  let end = 0;
  for (const e of list) end = Math.max(end, e.sector + e.nSectors);
  if (end <= diskSectors)
    return {
      packed: false,
      regionSectors: 0,
      regions: [],
      tracedEndSector: end,
      diskSectors,
      note: 'the trace fits the disk: its sectors are replayed as traced',
    };
  for (let size = MAX_REGION; size >= MIN_REGION; size /= 2) {
    const touched = new Set<number>();
    for (const e of list) {
      const last = Math.floor((e.sector + Math.max(1, e.nSectors) - 1) / size);
      for (let r = Math.floor(e.sector / size); r <= last; r++) touched.add(r);
    }
    if (touched.size * size > diskSectors) continue;
    const regions = [...touched].sort((a, b) => a - b);
    const gib = (s: number) => (s / 2 ** 21).toFixed(1);
    return {
      packed: true,
      regionSectors: size,
      regions,
      tracedEndSector: end,
      diskSectors,
      note: `the trace addresses ${gib(end)} GiB, the disk holds ${gib(diskSectors)} GiB: the ${regions.length} regions of ${size / 2048} MiB it touches are packed onto the disk in order, each request at its offset in its region (sequential runs and merges kept; seeks across the space left out are shorter)`,
    };
  }
  return `the trace addresses sectors up to ${end - 1}, past the disk's ${diskSectors}, and touches more of it than the disk holds even in 1 MiB pieces: choose a larger disk with --disk`;
}

/** A traced sector's place on the simulated disk. */
export function mapSector(m: AddressMap, sector: number): number {
  if (!m.packed) return sector;
  const size = m.regionSectors;
  const r = Math.floor(sector / size);
  const k = lowerBound(m.regions, r);
  // only sectors of touched regions are ever mapped; others go to the nearest place
  return k * size + (m.regions[k] === r ? sector - r * size : 0);
}

/** A simulated sector's traced address (for comparing with the kernel's dispatches). */
export function unmapSector(m: AddressMap, sector: number): number {
  if (!m.packed) return sector;
  const size = m.regionSectors;
  const k = Math.floor(sector / size);
  const r = m.regions[k];
  return r === undefined ? sector : r * size + (sector - k * size);
}

function lowerBound(a: number[], x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
