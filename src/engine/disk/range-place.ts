// Where a range write lands. HRS (hierarchical range scheduling): per track piece, seek
// and settle to the track, then the next free start under the head (or a wait for the
// piece's first start); pieces whose seek alone is no better than the best so far are
// pruned. ECS (expand and cancel): every start, or k starts equally spaced around each
// track, is an SPTF candidate of its own. DISK-MODEL.md §5. All times ns.
import type { CompiledDisk } from './compile';
import {
  angleAt,
  positionToAddr,
  rotationalWaitNs,
  seekTimeNs,
  type Positioning,
} from './mechanics';
import {
  alignUp,
  nextFreeStart,
  pieceAngle,
  pieceTrackAngle,
  type Piece,
  type RangeState,
  type RangeWrite,
} from './range';
import { nextInt } from '../sim/rng';
import type { RangePieceRecord } from '../events';

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

/**
 * Rotation from landing on the piece's track: the next free start under the head (HRS
 * "inside the range"), else the wait for the piece's first free start. One estimate.
 */
function bestInPiece(
  d: CompiledDisk,
  st: RangeState,
  pc: Piece,
  inp: PlaceInput,
  seekNs: number,
  out: Placement,
): boolean {
  const arrive = inp.startNs + seekNs;
  const from = arrive > inp.dataReadyNs ? arrive : inp.dataReadyNs;
  // the head's position on this track, in sectors from its sector 0
  let x = (angleAt(d, from) - pieceTrackAngle(d, pc)) * pc.spt;
  x -= Math.floor(x / pc.spt) * pc.spt;
  const tol = 1e-9 * pc.spt; // as mechanics: arriving exactly on time waits nothing
  const f = pc.first - pc.trackLbn;
  const l = pc.last - pc.trackLbn;
  const want =
    x <= f + tol || x > l + tol
      ? pc.first
      : pc.first + Math.ceil((x - f - tol) / inp.align) * inp.align;
  let s = nextFreeStart(st, want, inp.nSectors, inp.align, pc.last);
  if (s < 0 && want > pc.first) s = nextFreeStart(st, pc.first, inp.nSectors, inp.align, want - 1);
  if (s < 0) return false;
  out.lbn = s;
  out.seekNs = seekNs;
  out.rotationNs = from + rotationalWaitNs(d, from, pieceAngle(d, pc, s)) - arrive;
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

/**
 * HRS over a write's pieces (sorted by cylinder). `limitNs`: the best positioning another
 * command offers (a piece must beat it). Tracks are visited outward from the arm, nearest
 * first; a track whose seek alone is no better than the best so far is pruned, and once
 * the least possible seek at the next distance is no better, so is everything beyond.
 * `rec` (decision records) gets one entry per piece the scan reached, in that order.
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
    const i = dHi <= dLo ? hi++ : lo--;
    const pc = pieces[i]!;
    const raw = seekOf(d, inp, pc);
    const r = rec ? pieceRecord(pc, raw, raw >= best) : null;
    if (r) rec!.push(r);
    if (raw >= best) continue; // pruned: its seek alone is no better than the best so far
    const seek = raw < d.minWriteSeekNs ? d.minWriteSeekNs : raw;
    out.estimates++;
    let found = bestInPiece(d, st, pc, inp, seek, tmp);
    if (
      seek > raw &&
      inp.lastWriteEnd >= pc.first &&
      inp.lastWriteEnd <= pc.last &&
      inp.lastWriteEnd % inp.align === 0 &&
      nextFreeStart(st, inp.lastWriteEnd, inp.nSectors, inp.align, inp.lastWriteEnd) >= 0
    ) {
      // appending needs no minimum seek (DiskSim): one more estimate, for that start
      out.estimates++;
      appendCost(d, pc, inp, raw, pos);
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

/** The number of aligned starts in a range for an n-sector write. */
function startsIn(r: { begin: number; end: number }, n: number, align: number): number {
  const a = alignUp(r.begin, align);
  return r.end - n < a ? 0 : Math.floor((r.end - n - a) / align) + 1;
}

/**
 * The cheap disk: the first free start of the first range that has one, or ("random") a
 * start drawn uniformly over all the ranges' starts, moving on to the next free one.
 * −1 when every start is taken.
 */
export function placeCheap(st: RangeState, rw: RangeWrite, n: number, random: boolean): number {
  const rs = rw.ranges;
  let from = 0;
  let at = alignUp(rs[0]?.begin ?? 0, rw.align);
  if (random) {
    let total = 0;
    for (const r of rs) total += startsIn(r, n, rw.align);
    if (total === 0) return -1;
    let k = nextInt(st.rng, total);
    for (from = 0; from < rs.length; from++) {
      const c = startsIn(rs[from]!, n, rw.align);
      if (k < c) break;
      k -= c;
    }
    at = alignUp(rs[from]!.begin, rw.align) + k * rw.align;
  }
  // from `at` in range `from`, then the following ranges, then back round to `at`
  for (let i = 0; i <= rs.length; i++) {
    const r = rs[(from + i) % rs.length]!;
    const lo = i === 0 ? at : r.begin;
    const hi = i === rs.length ? at - rw.align : r.end - n;
    const s = nextFreeStart(st, lo, n, rw.align, hi);
    if (s >= 0) return s;
  }
  return -1;
}
