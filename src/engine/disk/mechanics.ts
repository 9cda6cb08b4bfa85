// The mechanism: platter angle as a function of time, positioning (seek, head switch,
// write settle, rotational latency) and media transfer across track and cylinder
// boundaries. DISK-MODEL.md §1.2. All times ns.
import type { IoRequest } from '../request';
import type { CompiledDisk } from './compile';
import { doubleFields } from '../sim/doubles';
import { contiguousRun, lbnToPhys, sectorAngle, SPARE_TRACKS, type PhysAddr } from './geometry';
import { writeRun, type WriteData } from './write-run';

export type { WriteData } from './write-run';

/** Rotational waits this close to a whole revolution are the head arriving exactly on time
 * (also sptf-queue.ts's walk, which works a read's positioning out as these functions do). */
export const ANGLE_EPSILON = 1e-9;

/** The platter angle under the heads at time t, fraction of a revolution in [0, 1). */
export function angleAt(d: CompiledDisk, tNs: number): number {
  const x = d.initialAngle + tNs / d.revolutionNs;
  return x - Math.floor(x);
}

/** Time from `tNs` until the sector starting at `target` (fraction) comes under the head. */
export function rotationalWaitNs(d: CompiledDisk, tNs: number, target: number): number {
  let w = target - angleAt(d, tNs);
  w -= Math.floor(w);
  if (w > 1 - ANGLE_EPSILON) w = 0;
  return w * d.revolutionNs;
}

/**
 * Arm and head movement from (fromCyl, fromHead) to a target: seek by the curve,
 * max(seek, head switch) when the head changes, plus write settle on a write that moved.
 */
export function seekTimeNs(
  d: CompiledDisk,
  fromCyl: number,
  fromHead: number,
  toCyl: number,
  toHead: number,
  write: boolean,
): number {
  const dist = toCyl > fromCyl ? toCyl - fromCyl : fromCyl - toCyl;
  let t = dist > 0 ? d.seekNs[dist]! : 0;
  const headMoves = toHead !== fromHead;
  if (headMoves && t < d.headSwitchNs) t = d.headSwitchNs;
  if (write && (dist > 0 || headMoves)) t += d.writeSettleNs;
  return t;
}

/** Scratch address: the hot path allocates nothing. */
const scratch: PhysAddr = { zone: 0, cylinder: 0, head: 0, sector: 0 };

export interface Positioning {
  seekNs: number;
  rotationNs: number;
}

/**
 * Positioning to a sector at (toCyl, toHead, angle) starting at `startNs` with the arm at
 * (cyl, head): seek (at least `minSeekNs`), then wait for the sector, and not before
 * `notBeforeNs` (a write's first data).
 */
export function positionToAddr(
  d: CompiledDisk,
  startNs: number,
  cyl: number,
  head: number,
  toCyl: number,
  toHead: number,
  angle: number,
  write: boolean,
  notBeforeNs: number,
  minSeekNs: number,
  out: Positioning,
): Positioning {
  let seek = seekTimeNs(d, cyl, head, toCyl, toHead, write);
  if (seek < minSeekNs) seek = minSeekNs;
  out.seekNs = seek;
  out.rotationNs = rotationAfterSeek(d, startNs, seek, angle, notBeforeNs);
  return out;
}

/** The rotational part of positionToAddr: after a seek of `seekNs` from `startNs`, the wait
 * for the sector at `angle`, not before `notBeforeNs`. Never negative, in floating point
 * too (from ≥ arrive and wait ≥ 0), so a positioning is never less than its seek. */
export function rotationAfterSeek(
  d: CompiledDisk,
  startNs: number,
  seekNs: number,
  angle: number,
  notBeforeNs: number,
): number {
  const arrive = startNs + seekNs;
  const from = arrive > notBeforeNs ? arrive : notBeforeNs;
  const wait = rotationalWaitNs(d, from, angle);
  return from + wait - arrive;
}

/** Positioning to `lbn` (see positionToAddr). */
export function positionTo(
  d: CompiledDisk,
  startNs: number,
  cyl: number,
  head: number,
  lbn: number,
  write: boolean,
  notBeforeNs: number,
  minSeekNs: number,
  out: Positioning,
): Positioning {
  const p = lbnToPhys(d.geometry, lbn, scratch);
  const angle = sectorAngle(d.geometry, p);
  return positionToAddr(
    d,
    startNs,
    cyl,
    head,
    p.cylinder,
    p.head,
    angle,
    write,
    notBeforeNs,
    minSeekNs,
    out,
  );
}

/** Fill in where a request's first sector is (once, when the drive accepts it). */
export function locate(d: CompiledDisk, rq: IoRequest): void {
  const p = lbnToPhys(d.geometry, rq.sector, scratch);
  rq.zone = p.zone;
  rq.cylinder = p.cylinder;
  rq.head = p.head;
  rq.trackSector = p.sector;
  rq.angle = sectorAngle(d.geometry, p);
}

/** A located request's first sector as an address (into `out`), for mediaTransfer's `at`. */
export function addressOf(rq: IoRequest, out: PhysAddr): PhysAddr {
  out.zone = rq.zone;
  out.cylinder = rq.cylinder;
  out.head = rq.head;
  out.sector = rq.trackSector;
  return out;
}

/** Where a media transfer left the arm, and when it ended. */
export interface TransferEnd {
  endNs: number;
  cylinder: number;
  head: number;
  /** sectors fully transferred (the request's length unless `untilNs` cut it short) */
  sectors: number;
  /** cut short during a track switch: the arm is moving until then (else endNs) */
  armBusyUntilNs: number;
  /** when the last whole sector ended (or the first after a switch began): the last
   * instant DiskSim records the disk's angle, sector by sector (disk_buffer_sector_done) */
  knownNs: number;
  /** when the first `markSectors` sectors were done (the read watermark), else −1 */
  markNs: number;
}

/** A scratch TransferEnd for callers that reuse one (the hot path allocates nothing). */
export function newTransferEnd(): TransferEnd {
  const out = {
    endNs: 0,
    cylinder: 0,
    head: 0,
    sectors: 0,
    armBusyUntilNs: 0,
    markNs: -1,
    knownNs: 0,
  };
  return doubleFields(out, 'endNs', 'armBusyUntilNs', 'markNs', 'knownNs');
}

/**
 * Transfer `n` sectors from `lbn`, the head being at the start of its sector at `startNs`.
 * Each sector takes a revolution / sectors-per-track. At a track's end the head switches
 * (a one-cylinder seek at a cylinder boundary, a longer move past a slipped track) and
 * waits for the next sector — the skew is what keeps that wait short. With `untilNs`
 * the transfer is cut off there (read-ahead stopped), counting only whole sectors;
 * a switch already under way completes first, as in DiskSim. `at`, if given, is where
 * `lbn` is (a located request's address): the transfer then looks up only the tracks after.
 */
export function mediaTransfer(
  d: CompiledDisk,
  lbn: number,
  n: number,
  startNs: number,
  write: boolean,
  out: TransferEnd,
  untilNs = Infinity,
  data: WriteData | null = null,
  markSectors = 0,
  at: PhysAddr | null = null,
): TransferEnd {
  const g = d.geometry;
  out.markNs = -1;
  // +: the same numbers, known to V8 as numbers (as parameters, V8 boxed the walk's times)
  let t = +startNs;
  const until = +untilNs;
  let done = 0;
  let p = at ?? lbnToPhys(g, lbn, scratch);
  let cyl = p.cylinder;
  let head = p.head;
  let busy = 0;
  let known = t;
  while (done < n) {
    if (done > 0) {
      if (t >= until) break;
      p = lbnToPhys(g, lbn + done, scratch);
      const switchEnd = t + seekTimeNs(d, cyl, head, p.cylinder, p.head, write);
      cyl = p.cylinder;
      head = p.head;
      if (switchEnd > until) {
        busy = switchEnd;
        t = until;
        break;
      }
      t = switchEnd + rotationalWaitNs(d, switchEnd, sectorAngle(g, p));
      if (t > until) {
        t = until;
        break;
      }
      known = t;
    }
    const z = g.zones[p.zone]!;
    const sectorNs = d.sectorNs[p.zone]!;
    // Track sparing: a track holds consecutive LBNs from its sector 0, so the run ends at
    // the track's end; sector sparing may end it sooner (spares, a slipped sector).
    const onTrack =
      z.sparing === SPARE_TRACKS ? z.sectorsPerTrack - p.sector : contiguousRun(g, lbn + done, p);
    const run = Math.min(n - done, onTrack);
    if (t + run * sectorNs > until) {
      const whole = Math.max(0, Math.min(run, Math.floor((until - t) / sectorNs)));
      done += whole;
      known = t + whole * sectorNs;
      t = until;
      break;
    }
    if (data === null) {
      if (markSectors > done && markSectors <= done + run)
        out.markNs = t + (markSectors - done) * sectorNs;
      t += run * sectorNs;
      done += run;
      known = t;
      continue;
    }
    t = writeRun(d, data, t, done, done + run, sectorNs);
    done += run;
    known = t;
  }
  out.endNs = t;
  out.knownNs = known;
  out.cylinder = cyl;
  out.head = head;
  out.sectors = done;
  out.armBusyUntilNs = busy > t ? busy : t;
  return out;
}

/**
 * mediaTransfer with no write data to wait for (a read, a destage) from a located address
 * `at`, when it ends, or `untilNs` cuts it, on `at`'s track: the same sums in the same
 * order, in a function small enough for V8 to inline where mediaTransfer is not. True when
 * done so (`out` filled in); false, `out` untouched, when the transfer runs on past a track
 * switch: mediaTransfer's walk then.
 */
export function transferOnTrack(
  d: CompiledDisk,
  at: PhysAddr,
  lbn: number,
  n: number,
  startNs: number,
  out: TransferEnd,
  untilNs: number,
  markSectors: number,
): boolean {
  if (!(n > 0)) return false;
  const sectorNs = d.sectorNs[at.zone]!;
  const run = runOnTrack(d, at, lbn, n);
  let t = startNs;
  let done = run;
  let known: number;
  let mark = -1;
  if (t + run * sectorNs > untilNs) {
    done = Math.max(0, Math.min(run, Math.floor((untilNs - t) / sectorNs)));
    known = t + done * sectorNs;
    t = untilNs;
  } else {
    const end = t + run * sectorNs;
    if (run < n && end < untilNs) return false; // a switch to the next track follows
    if (markSectors > 0 && markSectors <= run) mark = t + markSectors * sectorNs;
    t = end;
    known = t;
  }
  endOnTrack(out, at, mark, t, known, done);
  return true;
}

/** Of an `n`-sector transfer from `at` (LBN `lbn`), the sectors on `at`'s track. */
export function runOnTrack(d: CompiledDisk, at: PhysAddr, lbn: number, n: number): number {
  const z = d.geometry.zones[at.zone]!;
  const onTrack =
    z.sparing === SPARE_TRACKS ? z.sectorsPerTrack - at.sector : contiguousRun(d.geometry, lbn, at);
  return Math.min(n, onTrack);
}

/** `out` for a transfer of `sectors` that stays on `at`'s track and ends at `endNs`. */
export function endOnTrack(
  out: TransferEnd,
  at: PhysAddr,
  markNs: number,
  endNs: number,
  knownNs: number,
  sectors: number,
): void {
  out.markNs = markNs;
  out.endNs = endNs;
  out.knownNs = knownNs;
  out.cylinder = at.cylinder;
  out.head = at.head;
  out.sectors = sectors;
  out.armBusyUntilNs = 0 > endNs ? 0 : endNs;
}

/**
 * Positioning for a located request from the arm's position at `startNs`: a write waits
 * for its first data and, unless it appends to the previous write, DiskSim's minimum seek.
 */
export function positionFor(
  d: CompiledDisk,
  startNs: number,
  arm: { cylinder: number; head: number },
  rq: IoRequest,
  lastWriteEnd: number,
  out: Positioning,
): Positioning {
  // seekFor, written out: seekFor, hot on its own in the schedulers, is compiled with
  // seekTimeNs inlined, which costs a caller's inlining budget twice over
  const minSeek = minSeekNs(d, rq, lastWriteEnd);
  const s = seekTimeNs(d, arm.cylinder, arm.head, rq.cylinder, rq.head, rq.write);
  const seek = s < minSeek ? minSeek : s;
  out.seekNs = seek;
  // rotationFor, written out: one call fewer to inline on the hot path
  out.rotationNs = rotationAfterSeek(
    d,
    startNs,
    seek,
    rq.angle,
    rq.write ? writeStartNs(d, rq) : 0,
  );
  return out;
}

/** positionFor's seek alone: a lower bound on the whole positioning, which a scheduler
 * can compare with its best so far before it works out the rotation (pickNext). */
export function seekFor(
  d: CompiledDisk,
  arm: { cylinder: number; head: number },
  rq: IoRequest,
  lastWriteEnd: number,
): number {
  const minSeek = minSeekNs(d, rq, lastWriteEnd);
  const seek = seekTimeNs(d, arm.cylinder, arm.head, rq.cylinder, rq.head, rq.write);
  return seek < minSeek ? minSeek : seek;
}

/** DiskSim's minimum seek for a write that does not append to the previous one; else 0. */
function minSeekNs(d: CompiledDisk, rq: IoRequest, lastWriteEnd: number): number {
  return rq.write && rq.sector !== lastWriteEnd ? d.minWriteSeekNs : 0;
}

/** positionFor's rotation after that seek. */
export function rotationFor(
  d: CompiledDisk,
  startNs: number,
  rq: IoRequest,
  seekNs: number,
): number {
  return rotationAfterSeek(d, startNs, seekNs, rq.angle, rq.write ? writeStartNs(d, rq) : 0);
}

/**
 * When a write may begin on the media: once its first sector's data is in the buffer — and
 * on a drive with DiskSim's extra write disconnect, once min(n, 10) sectors' data are (15
 * from 45 sectors on): disk_buffer_block_available (disksim_diskcache.c) holds the write
 * back until the segment has that much. The bus being slower than the media, a write of up
 * to 10 sectors then never waits a revolution part-way.
 */
export function writeStartNs(d: CompiledDisk, rq: IoRequest): number {
  if (d.extraDisc === null || rq.dataReadyNs < 0) return rq.dataReadyNs;
  const need = rq.nSectors < 45 ? Math.min(rq.nSectors, 10) : 15;
  return rq.dataReadyNs + (need - 1) * d.busWriteNsPerSector;
}
