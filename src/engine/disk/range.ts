// Range writes (Anand et al., OSDI '08; DISK-MODEL.md §5): a write the drive may place
// anywhere in a list of ranges, at a start that is a multiple of an alignment. This file
// is the drive's bookkeeping: each waiting write's per-track pieces, and the blocks used
// since the last barrier (the drive never writes two requests to one block).
import type { CompiledDisk } from './compile';
import { lbnToPhys, sectorAngle, trackStartAngle, type PhysAddr } from './geometry';
import { createRng, type Rng } from '../sim/rng';

/** hrs/ecs choose by positioning time; first/random are the paper's "cheap disk". */
export const RANGE_SCHEDULERS = ['hrs', 'ecs', 'first', 'random'] as const;
export type RangeSchedulerName = (typeof RANGE_SCHEDULERS)[number];

/** What the drive asks of a process (the workload's ProcessSpec): its range writes, if any. */
export interface RangeWriter {
  range?: object | null;
  generator?: { kind: string; rangeWrites?: boolean } | null;
}

/** Does the process make range writes (its `range` key, or a generator that makes them)? */
export function makesRangeWrites(p: RangeWriter): boolean {
  return !!p.range || (p.generator?.kind === 'smallfiles' && p.generator.rangeWrites === true);
}

/** Where a write may land: starts s with begin ≤ s, s + size ≤ end, s a multiple of align. */
export interface RangeWrite {
  /** [begin, end) in sectors */
  ranges: Array<{ begin: number; end: number }>;
  align: number;
  /** a barrier: before this write is placed the drive forgets blocks of completed writes */
  barrier: boolean;
}

/** One track's share of a write's ranges: candidate starts first, first+align, …, last. */
export interface Piece {
  cylinder: number;
  head: number;
  zone: number;
  /** the LBN of the track's sector 0 and the track's size */
  trackLbn: number;
  spt: number;
  first: number;
  last: number;
}

export interface RangeState {
  /** by bio slot: the range write a process attached to its bio, until the drive takes it */
  byBio: Array<RangeWrite | null>;
  /** by request slot: a write's pieces while it waits to be placed, else null */
  pieces: Array<Piece[] | null>;
  /** by request slot: how many tracks its pieces lie on (HRS visits each track once) */
  tracks: number[];
  /** by request slot: its alignment and ranges while it waits */
  align: number[];
  writes: Array<RangeWrite | null>;
  /** range writes waiting in the drive's queue to be placed */
  waiting: number;
  /** blocks of completed range writes since the last barrier: sorted, disjoint [lo, hi) */
  usedLo: number[];
  usedHi: number[];
  /** blocks of placed range writes not yet on the media: [lo, hi) by request slot */
  resLo: number[];
  resHi: number[];
  resSlot: number[];
  /** the cheap disk's "random" choice */
  rng: Rng;
}

export function createRangeState(seed: number): RangeState {
  return {
    byBio: [],
    pieces: [],
    tracks: [],
    align: [],
    writes: [],
    waiting: 0,
    usedLo: [],
    usedHi: [],
    resLo: [],
    resHi: [],
    resSlot: [],
    rng: createRng(seed, 'drive:ranges'),
  };
}

/** The drive takes a request: its range write, if its bio carried one (then forgotten). */
export function takeRangeWrite(st: RangeState, bioSlot: number): RangeWrite | null {
  const rw = st.byBio[bioSlot] ?? null;
  if (rw) st.byBio[bioSlot] = null;
  if (rw?.barrier) forgetUsed(st);
  return rw;
}

/** A barrier: completed writes are known to the file system, so their blocks are forgotten.
 * Placed writes still in flight keep their blocks reserved. */
export function forgetUsed(st: RangeState): void {
  st.usedLo.length = 0;
  st.usedHi.length = 0;
}

export function alignUp(x: number, align: number): number {
  return Math.ceil(x / align) * align;
}

/** The end of a used or reserved interval overlapping [a, a+n), or −1 when it is free. */
function blockedUntil(st: RangeState, a: number, n: number): number {
  let end = -1;
  // the last used interval starting before a+n is the only one that may overlap
  let lo = 0;
  let hi = st.usedLo.length - 1;
  let k = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (st.usedLo[mid]! < a + n) {
      k = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (k >= 0 && st.usedHi[k]! > a) end = st.usedHi[k]!;
  for (let i = 0; i < st.resLo.length; i++)
    if (st.resLo[i]! < a + n && st.resHi[i]! > a && st.resHi[i]! > end) end = st.resHi[i]!;
  return end;
}

/** The first start s ≥ a (aligned, s ≤ last) whose n sectors are all free, or −1. */
export function nextFreeStart(
  st: RangeState,
  a: number,
  n: number,
  align: number,
  last: number,
): number {
  let s = alignUp(a, align);
  while (s <= last) {
    const end = blockedUntil(st, s, n);
    if (end < 0) return s;
    s = alignUp(end, align);
  }
  return -1;
}

const scratch: PhysAddr = { zone: 0, cylinder: 0, head: 0, sector: 0 };

/**
 * Split a write's ranges into per-track pieces (HRS's first step), sorted by cylinder. A
 * piece holds the
 * starts on one track; a start near a track's end may run onto the next track, as any
 * multi-sector write does. LBNs fill a track from its sector 0 (mapping scheme 0).
 */
export function buildPieces(d: CompiledDisk, rw: RangeWrite, n: number): Piece[] {
  const out: Piece[] = [];
  const total = d.geometry.totalLbns;
  for (const r of rw.ranges) {
    const lastStart = Math.min(r.end, total) - n;
    let s = alignUp(r.begin, rw.align);
    while (s <= lastStart) {
      const p = lbnToPhys(d.geometry, s, scratch);
      const spt = d.geometry.zones[p.zone]!.sectorsPerTrack;
      const trackLbn = s - p.sector;
      const trackLast = trackLbn + spt - 1;
      const lim = Math.min(lastStart, trackLast);
      const last = s + Math.floor((lim - s) / rw.align) * rw.align;
      out.push({
        cylinder: p.cylinder,
        head: p.head,
        zone: p.zone,
        trackLbn,
        spt,
        first: s,
        last,
      });
      s = alignUp(trackLbn + spt, rw.align);
    }
  }
  // HRS scans outward from the arm by cylinder (one range's pieces already ascend)
  if (rw.ranges.length > 1)
    out.sort((a, b) => a.cylinder - b.cylinder || a.head - b.head || a.first - b.first);
  return out;
}

/** The angle at which sector `lbn` of a piece's track starts (as geometry.sectorAngle). */
export function pieceAngle(d: CompiledDisk, pc: Piece, lbn: number): number {
  scratch.zone = pc.zone;
  scratch.cylinder = pc.cylinder;
  scratch.head = pc.head;
  scratch.sector = lbn - pc.trackLbn;
  return sectorAngle(d.geometry, scratch);
}

/** The angle of a piece's track's sector 0. */
export function pieceTrackAngle(d: CompiledDisk, pc: Piece): number {
  return trackStartAngle(d.geometry, d.geometry.zones[pc.zone]!, pc.cylinder, pc.head);
}

/** A placed write holds its blocks until it is on the media. */
export function reserve(st: RangeState, slot: number, lo: number, n: number): void {
  st.resLo.push(lo);
  st.resHi.push(lo + n);
  st.resSlot.push(slot);
}

/** The write is on the media: its blocks join the used set until the next barrier. */
export function releaseToUsed(st: RangeState, slot: number): void {
  const i = st.resSlot.indexOf(slot);
  if (i < 0) return;
  const lo = st.resLo[i]!;
  const hi = st.resHi[i]!;
  st.resLo.splice(i, 1);
  st.resHi.splice(i, 1);
  st.resSlot.splice(i, 1);
  addUsed(st, lo, hi);
}

/** Insert [lo, hi) into the sorted disjoint used list, merging with neighbours it touches. */
export function addUsed(st: RangeState, lo: number, hi: number): void {
  const L = st.usedLo;
  const H = st.usedHi;
  let i = 0;
  let j = L.length;
  while (i < j) {
    const mid = (i + j) >> 1;
    if (H[mid]! < lo) i = mid + 1;
    else j = mid;
  }
  // i: the first interval that ends at or after lo; merge every one starting at or before hi
  let k = i;
  let nlo = lo;
  let nhi = hi;
  while (k < L.length && L[k]! <= hi) {
    if (L[k]! < nlo) nlo = L[k]!;
    if (H[k]! > nhi) nhi = H[k]!;
    k++;
  }
  L.splice(i, k - i, nlo);
  H.splice(i, k - i, nhi);
}

/** Is [a, a+n) free of used and reserved blocks? */
export function isFree(st: RangeState, a: number, n: number): boolean {
  return blockedUntil(st, a, n) < 0;
}
