// Where a range write lands. HRS (hierarchical range scheduling): per track of the write's
// ranges, seek and settle to the track, then the next free start under the head (or a wait
// for the first start after it); tracks whose seek alone is no better than the best so far
// are pruned. ECS (expand and cancel): every start, or k starts equally spaced around each
// track, is an SPTF candidate of its own. DISK-MODEL.md §5. All times ns.
import type { CompiledDisk } from './compile';
import {
  angleAt,
  positionToAddr,
  rotationalWaitNs,
  seekTimeNs,
  type Positioning,
} from './mechanics';
import { nextFreeStart, pieceAngle, pieceTrackAngle, type Piece, type RangeState } from './range';
import type { RangePieceRecord } from '../events';

export { placeCheap } from './range-cheap';

/** The best start found and its positioning; lbn −1 when none beat the limit. */
export interface Placement {
  lbn: number;
  seekNs: number;
  rotationNs: number;
  /** positioning estimates made (the work counter) */
  estimates: number;
}

/** What a placement is computed from: the arm, the instant, the write's data and size. */
export interface PlaceInput {
  arm: { cylinder: number; head: number };
  startNs: number;
  /** a write's first data is in the drive's buffer (no sector can be written before) */
  dataReadyNs: number;
  /** a write appending here skips DiskSim's minimum write seek */
  lastWriteEnd: number;
  nSectors: number;
  align: number;
}

export function newPlacement(): Placement {
  return { lbn: -1, seekNs: 0, rotationNs: 0, estimates: 0 };
}

const tmp: Placement = newPlacement();

/** Where the head is on a piece's track when it arrives after `seekNs` (and the write's
 * data is there), in sectors from the track's sector 0, and that instant. */
function landing(d: CompiledDisk, pc: Piece, inp: PlaceInput, seekNs: number, out: Landing): void {
  const arrive = inp.startNs + seekNs;
  out.from = arrive > inp.dataReadyNs ? arrive : inp.dataReadyNs;
  let x = (angleAt(d, out.from) - pieceTrackAngle(d, pc)) * pc.spt;
  x -= Math.floor(x / pc.spt) * pc.spt;
  out.x = x;
}

interface Landing {
  from: number;
  x: number;
}
const land: Landing = { from: 0, x: 0 };

/**
 * The piece's first free start after the head's position `x` on its track, in rotational
 * order (HRS "inside the range": the next start under the head, else the piece's first
 * free start): −1 when every start is in use.
 */
function nextUnderHead(st: RangeState, pc: Piece, inp: PlaceInput, x: number): number {
  const tol = 1e-9 * pc.spt; // as mechanics: arriving exactly on time waits nothing
  const f = pc.first - pc.trackLbn;
  const l = pc.last - pc.trackLbn;
  const want =
    x <= f + tol || x > l + tol
      ? pc.first
      : pc.first + Math.ceil((x - f - tol) / inp.align) * inp.align;
  let s = nextFreeStart(st, want, inp.nSectors, inp.align, pc.last);
  if (s < 0 && want > pc.first) s = nextFreeStart(st, pc.first, inp.nSectors, inp.align, want - 1);
  return s;
}

/** Sectors the head travels from `x` to start `s` of the piece's track (0 when on time). */
function sectorsTo(pc: Piece, x: number, s: number): number {
  let w = s - pc.trackLbn - x;
  if (w < -1e-9 * pc.spt) w += pc.spt;
  return w < 0 ? 0 : w;
}

/**
 * One track of a write's ranges: pieces[i0..i1] (several when a list of ranges has more
 * than one on the track). The head lands once; the start it reaches first among the
 * pieces' free starts is the track's best. One estimate. False when every start is in use.
 */
function bestOnTrack(
  d: CompiledDisk,
  st: RangeState,
  pieces: readonly Piece[],
  i0: number,
  i1: number,
  inp: PlaceInput,
  seekNs: number,
  out: Placement,
): boolean {
  const pc0 = pieces[i0]!;
  landing(d, pc0, inp, seekNs, land);
  let best = -1;
  let bestW = Infinity;
  for (let i = i0; i <= i1; i++) {
    const s = nextUnderHead(st, pieces[i]!, inp, land.x);
    if (s < 0) continue;
    const w = sectorsTo(pc0, land.x, s);
    if (w < bestW) {
      bestW = w;
      best = s;
    }
  }
  if (best < 0) return false;
  out.lbn = best;
  out.seekNs = seekNs;
  out.rotationNs =
    land.from + rotationalWaitNs(d, land.from, pieceAngle(d, pc0, best)) - (inp.startNs + seekNs);
  return true;
}

/** The write appends to the previous one at `s`: positioning without the minimum seek. */
function appendCost(
  d: CompiledDisk,
  pc: Piece,
  inp: PlaceInput,
  rawSeekNs: number,
  out: Positioning,
): Positioning {
  return positionToAddr(
    d,
    inp.startNs,
    inp.arm.cylinder,
    inp.arm.head,
    pc.cylinder,
    pc.head,
    pieceAngle(d, pc, inp.lastWriteEnd),
    true,
    inp.dataReadyNs,
    rawSeekNs,
    out,
  );
}

const pos: Positioning = { seekNs: 0, rotationNs: 0 };

/** Per disk: the least seek at a distance of at least d cylinders (the C2247A's first ten
 * seeks are not monotonic), so a scan outward from the arm can stop early. */
const seekFloors = new WeakMap<CompiledDisk, Float64Array>();

function seekFloor(d: CompiledDisk): Float64Array {
  let f = seekFloors.get(d);
  if (!f) {
    f = Float64Array.from(d.seekNs);
    for (let i = f.length - 2; i >= 1; i--) if (f[i + 1]! < f[i]!) f[i] = f[i + 1]!;
    seekFloors.set(d, f);
  }
  return f;
}

/** The first piece on a cylinder at or beyond `cyl` (pieces are sorted by cylinder). */
function firstAtOrAfter(pieces: readonly Piece[], cyl: number): number {
  let lo = 0;
  let hi = pieces.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (pieces[mid]!.cylinder < cyl) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const sameTrack = (a: Piece, b: Piece): boolean => a.cylinder === b.cylinder && a.head === b.head;

/** The piece of pieces[i0..i1] holding start `lbn`, or −1. */
function pieceWith(pieces: readonly Piece[], i0: number, i1: number, lbn: number): number {
  for (let i = i0; i <= i1; i++) if (lbn >= pieces[i]!.first && lbn <= pieces[i]!.last) return i;
  return -1;
}

/**
 * HRS over a write's pieces (sorted by cylinder, then head). `limitNs`: the best
 * positioning another command offers (a piece must beat it). Tracks are visited outward
 * from the arm, nearest first, each once (with all its pieces: one seek, one landing, one
 * estimate); a track whose seek alone is no better than the best so far is pruned, and
 * once the least possible seek at the next distance is no better, so is everything beyond.
 * `rec` (decision records) gets one entry per track the scan reached, in that order: its
 * first and last start, and its best start.
 */
export function placeHrs(
  d: CompiledDisk,
  st: RangeState,
  pieces: readonly Piece[],
  inp: PlaceInput,
  limitNs: number,
  out: Placement,
  rec: RangePieceRecord[] | null,
): Placement {
  out.lbn = -1;
  out.estimates = 0;
  const np = pieces.length;
  const armCyl = inp.arm.cylinder;
  const floor = seekFloor(d);
  let best = limitNs;
  let hi = firstAtOrAfter(pieces, armCyl);
  let lo = hi - 1;
  while (lo >= 0 || hi < np) {
    const dLo = lo >= 0 ? armCyl - pieces[lo]!.cylinder : Infinity;
    const dHi = hi < np ? pieces[hi]!.cylinder - armCyl : Infinity;
    const dist = dHi <= dLo ? dHi : dLo;
    if (dist > 0 && floor[dist]! + d.writeSettleNs >= best) break; // the rest: pruned
    // the next track outward: all its pieces (adjacent in the sorted list)
    let i0: number;
    let i1: number;
    if (dHi <= dLo) {
      i0 = i1 = hi;
      while (i1 + 1 < np && sameTrack(pieces[i1 + 1]!, pieces[i0]!)) i1++;
      hi = i1 + 1;
    } else {
      i0 = i1 = lo;
      while (i0 > 0 && sameTrack(pieces[i0 - 1]!, pieces[i1]!)) i0--;
      lo = i0 - 1;
    }
    const pc = pieces[i0]!;
    const raw = seekOf(d, inp, pc);
    const r = rec ? trackRecord(pieces, i0, i1, raw, raw >= best) : null;
    if (r) rec!.push(r);
    if (raw >= best) continue; // pruned: its seek alone is no better than the best so far
    const seek = raw < d.minWriteSeekNs ? d.minWriteSeekNs : raw;
    out.estimates++;
    let found = bestOnTrack(d, st, pieces, i0, i1, inp, seek, tmp);
    const ap = seek > raw ? pieceWith(pieces, i0, i1, inp.lastWriteEnd) : -1;
    if (
      ap >= 0 &&
      inp.lastWriteEnd % inp.align === 0 &&
      nextFreeStart(st, inp.lastWriteEnd, inp.nSectors, inp.align, inp.lastWriteEnd) >= 0
    ) {
      // appending needs no minimum seek (DiskSim): one more estimate, for that start
      out.estimates++;
      appendCost(d, pieces[ap]!, inp, raw, pos);
      if (!found || pos.seekNs + pos.rotationNs < tmp.seekNs + tmp.rotationNs) {
        tmp.lbn = inp.lastWriteEnd;
        tmp.seekNs = pos.seekNs;
        tmp.rotationNs = pos.rotationNs;
        found = true;
      }
    }
    if (r && found) {
      r.sector = tmp.lbn;
      r.rotationNs = tmp.rotationNs;
      r.seekNs = tmp.seekNs;
    }
    if (!found) continue;
    const cost = tmp.seekNs + tmp.rotationNs;
    if (cost < best) {
      best = cost;
      out.lbn = tmp.lbn;
      out.seekNs = tmp.seekNs;
      out.rotationNs = tmp.rotationNs;
    }
  }
  return out;
}

/** How many tracks a write's pieces lie on (sorted: a track's pieces are adjacent). */
export function trackCount(pieces: readonly Piece[]): number {
  let n = 0;
  for (let i = 0; i < pieces.length; i++)
    if (i === 0 || !sameTrack(pieces[i]!, pieces[i - 1]!)) n++;
  return n;
}

/** A track's record: its pieces' first and last start. */
function trackRecord(
  pieces: readonly Piece[],
  i0: number,
  i1: number,
  seekNs: number,
  pruned: boolean,
): RangePieceRecord {
  const r = pieceRecord(pieces[i0]!, seekNs, pruned);
  for (let i = i0 + 1; i <= i1; i++)
    if (pieces[i]!.last > r.lastSector) r.lastSector = pieces[i]!.last;
  return r;
}

function seekOf(d: CompiledDisk, inp: PlaceInput, pc: Piece): number {
  return seekTimeNs(d, inp.arm.cylinder, inp.arm.head, pc.cylinder, pc.head, true);
}

function pieceRecord(pc: Piece, seekNs: number, pruned = false): RangePieceRecord {
  return {
    cylinder: pc.cylinder,
    head: pc.head,
    firstSector: pc.first,
    lastSector: pc.last,
    seekNs,
    rotationNs: null,
    sector: -1,
    pruned,
  };
}

/**
 * ECS: each expanded start is positioned as an SPTF candidate of its own (no pruning).
 * `targets` 0 expands every start; k > 0 takes, for each of k equal slots around the
 * track, the first free start in the slot.
 */
export function placeEcs(
  d: CompiledDisk,
  st: RangeState,
  pieces: readonly Piece[],
  inp: PlaceInput,
  targets: number,
  limitNs: number,
  out: Placement,
  rec: RangePieceRecord[] | null,
): Placement {
  out.lbn = -1;
  out.estimates = 0;
  let best = limitNs;
  const n = inp.nSectors;
  for (const pc of pieces) {
    const r = rec
      ? pieceRecord(pc, seekTimeNs(d, inp.arm.cylinder, inp.arm.head, pc.cylinder, pc.head, true))
      : null;
    if (r) rec!.push(r);
    const slots = targets > 0 ? targets : 1;
    for (let j = 0; j < slots; j++) {
      // slot j covers track sectors [j·spt/k, (j+1)·spt/k)
      let s: number;
      let end: number;
      if (targets > 0) {
        const lo = pc.trackLbn + Math.ceil((j * pc.spt) / targets);
        end = Math.min(pc.last, pc.trackLbn + Math.ceil(((j + 1) * pc.spt) / targets) - 1);
        s = lo > pc.first ? lo : pc.first;
      } else {
        s = pc.first;
        end = pc.last;
      }
      for (;;) {
        s = nextFreeStart(st, s, n, inp.align, end);
        if (s < 0) break;
        out.estimates++;
        const minSeek = s === inp.lastWriteEnd ? 0 : d.minWriteSeekNs;
        positionToAddr(
          d,
          inp.startNs,
          inp.arm.cylinder,
          inp.arm.head,
          pc.cylinder,
          pc.head,
          pieceAngle(d, pc, s),
          true,
          inp.dataReadyNs,
          minSeek,
          pos,
        );
        const cost = pos.seekNs + pos.rotationNs;
        if (r && (r.sector < 0 || cost < r.seekNs + (r.rotationNs ?? 0))) {
          r.sector = s;
          r.seekNs = pos.seekNs;
          r.rotationNs = pos.rotationNs;
        }
        if (cost < best) {
          best = cost;
          out.lbn = s;
          out.seekNs = pos.seekNs;
          out.rotationNs = pos.rotationNs;
        }
        if (targets > 0) break; // one target per slot
        s += inp.align;
      }
    }
  }
  return out;
}
