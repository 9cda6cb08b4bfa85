// SPTF / ASPTF straight from the drive's queue: pickAndStart's first pass (gather the
// eligible requests) and pickNext's choice among them in one walk, when no decision is
// recorded — the hot loop of a deep SPTF queue (issue 19). The same choice as the two.
// With the queue kept by cylinder (queue-index.ts) the walk goes outward from the arm and
// stops where no seek can beat the best so far: the same choice, fewer estimates made.
import { requestAt, type IoRequest, type RequestTable } from '../request';
import { doubleFields } from '../sim/doubles';
import type { DiskSimulation } from './sim-view';
import type { CompiledDisk } from './compile';
import type { ArmState } from './disk-scheduler';
import { streamingWriteLbn } from './drive-state';
import { ANGLE_EPSILON, rotationFor, seekFor, type Positioning } from './mechanics';
import { bucketOf, fileNew, INTERNAL, WRITE, type CylinderIndex } from './queue-index';

/** What an SPTF walk found: its candidates and, when it worked it out, its choice's
 * positioning — for startService, which would otherwise work it out again (usedPositioning). */
export interface SptfChoice {
  /** eligible candidates: the positioning estimates pickNext would make */
  candidates: number;
  /** the rest is set: the choice's positioning was worked out */
  positioned: boolean;
  /** the choice (request slot), and what its positioning was worked out from */
  slot: number;
  armCylinder: number;
  armHead: number;
  startNs: number;
  lastWriteEnd: number;
  /** positionFor's seek and rotation for it, from there */
  seekNs: number;
  rotationNs: number;
}

export function newSptfChoice(): SptfChoice {
  return doubleFields(
    {
      candidates: 0,
      positioned: false,
      slot: -1,
      armCylinder: 0,
      armHead: 0,
      startNs: 0,
      lastWriteEnd: 0,
      seekNs: 0,
      rotationNs: 0,
    },
    'startNs',
    'seekNs',
    'rotationNs',
  );
}

function chose(
  out: SptfChoice,
  slot: number,
  arm: ArmState,
  startNs: number,
  lastWriteEnd: number,
  seekNs: number,
  rotationNs: number,
): void {
  out.positioned = true;
  out.slot = slot;
  out.armCylinder = arm.cylinder;
  out.armHead = arm.head;
  out.startNs = startNs;
  out.lastWriteEnd = lastWriteEnd;
  out.seekNs = seekNs;
  out.rotationNs = rotationNs;
}

/**
 * Into `pos`, the positioning of `rq` from `arm` at `startNs` that the last SPTF walk
 * worked out, if it chose `rq` from there: true, the same numbers positionFor gives
 * (mechanics.ts, a function of these alone); false, positionFor must work it out (the walk
 * decided from another instant or arm: a read-ahead stopped in between moved it). The last
 * write's end counts only for a write (positionFor's minimum seek): startService passes −1
 * for a read, the walk the drive's, and a read's positioning is the same either way.
 */
export function usedPositioning(
  choice: SptfChoice,
  rq: IoRequest,
  arm: ArmState,
  startNs: number,
  lastWriteEnd: number,
  pos: Positioning,
): boolean {
  if (
    !choice.positioned ||
    choice.slot !== rq.slot ||
    choice.startNs !== startNs ||
    choice.armCylinder !== arm.cylinder ||
    choice.armHead !== arm.head ||
    (rq.write && choice.lastWriteEnd !== lastWriteEnd)
  )
    return false;
  choice.positioned = false; // once
  pos.seekNs = choice.seekNs;
  pos.rotationNs = choice.rotationNs;
  return true;
}

/** The last sptfFirstPass's choice. */
export const sptfChoice = newSptfChoice();
const found = sptfChoice;

/** From this many queued requests SPTF walks by cylinder: a short queue is sparse, and the
 * walk outward passes many empty buckets before it can stop (a decision over 1 to 8
 * requests took ~110-150 ns that way, ~20-85 ns over the queue; they cross near 12, both
 * ~110-140 ns; at 32, ~155 against ~570). ASPTF keeps to the queue: the oldest request's
 * credit (W·0.001·its wait: ms at depth 32, W = 6) lowers the floor for all, the walk
 * seldom stops early, and the C2247A at depth 32 ran 5-8% slower by cylinder. */
const BY_CYLINDER_FROM = 12;

/**
 * The SPTF / ASPTF choice (its request slot) among the requests eligible at `now` (destages
 * only if `withDestages`), its decision counted; −1 when this does not apply (another
 * scheduler, a decision to record, range writes waiting) or no request qualifies — then
 * pickAndStart's passes decide.
 */
export function sptfFirstPass(sim: DiskSimulation, now: number, withDestages: boolean): number {
  const m = sim.model;
  const drive = sim.state.drive;
  found.positioned = false;
  if (m.diskScheduler !== 'sptf' && m.diskScheduler !== 'asptf') return -1;
  if (sim.sink !== null || (drive.ranges !== null && drive.ranges.waiting > 0)) return -1;
  const queue = drive.queue;
  const slot =
    drive.byCylinder !== null && queue.length >= BY_CYLINDER_FROM // SPTF's only
      ? sptfByCylinder(
          m.disk,
          sim.state.requests,
          drive.queue,
          drive.byCylinder,
          withDestages,
          drive.arm,
          streamingWriteLbn(drive, now),
          now,
          found,
        )
      : slotAt(
          queue,
          sptfFromQueue(
            m.disk,
            m.diskScheduler === 'asptf',
            sim.state.requests,
            drive.queue,
            withDestages,
            drive.arm,
            streamingWriteLbn(drive, now),
            now,
            m.agingWeight,
            found,
          ),
        );
  if (slot >= 0) {
    drive.decisions++;
    drive.positioningEstimates += found.candidates;
  }
  return slot;
}

/** The slot at index `i` of the queue, −1 for none. */
function slotAt(queue: readonly number[], i: number): number {
  return i >= 0 ? queue[i]! : -1;
}

/**
 * pickNext's SPTF / ASPTF choice made straight from the drive's queue (slots in arrival
 * order), without a decision record: the candidates are the requests eligible by `startNs`,
 * drive-internal ones (destages) left out unless `withInternal` — pickAndStart's first pass.
 * The same candidates in the same order, the same estimates and pruning as pickNext: the
 * same choice. One walk over the queue instead of two (gather, then pick); the hot loop of
 * a deep SPTF queue. Returns the choice's index in `queue`, or −1 if there was no candidate.
 */
export function sptfFromQueue(
  d: CompiledDisk,
  aged: boolean,
  table: RequestTable,
  queue: readonly number[],
  withInternal: boolean,
  arm: ArmState,
  lastWriteEnd: number,
  startNs: number,
  agingWeight: number,
  out: SptfChoice,
): number {
  let n = 0;
  let best = -1;
  let bestCost = Infinity;
  let bestSeek = 0;
  let bestRotation = 0;
  out.positioned = false;
  for (let i = 0; i < queue.length; i++) {
    const rq = requestAt(table, queue[i]!);
    if (rq.eligibleNs > startNs || (rq.internal && !withInternal)) continue;
    n++;
    // as pickNext's loop, candidate by candidate
    const seek = seekFor(d, arm, rq, lastWriteEnd);
    const age = aged ? agingWeight * 0.001 * (startNs - rq.dispatchedNs) : 0;
    if ((aged ? seek - age : seek) >= bestCost) continue;
    const rotation = rotationFor(d, startNs, rq, seek);
    const tpos = seek + rotation;
    const cost = aged ? tpos - age : tpos;
    if (cost < bestCost) {
      bestCost = cost;
      best = i;
      bestSeek = seek;
      bestRotation = rotation;
    }
  }
  out.candidates = n;
  // pickNext's first candidate when no cost is below Infinity
  if (best < 0) return n > 0 ? firstCandidate(table, queue, withInternal, startNs) : -1;
  chose(out, queue[best]!, arm, startNs, lastWriteEnd, bestSeek, bestRotation);
  return best;
}

function firstCandidate(
  table: RequestTable,
  queue: readonly number[],
  withInternal: boolean,
  startNs: number,
): number {
  for (let i = 0; i < queue.length; i++) {
    const rq = requestAt(table, queue[i]!);
    if (rq.eligibleNs <= startNs && (withInternal || !rq.internal)) return i;
  }
  return -1;
}

/**
 * sptfFromQueue's SPTF choice, walking the queue by cylinder (`index`: the same requests as
 * `queue`, in buckets of neighbouring cylinders) outward from the arm, the nearest buckets
 * first, and stopping where distance alone rules the rest out: the seek floor there
 * (CompiledDisk.seekFloorNs: no seek of that many cylinders or more is quicker) exceeds the
 * best cost so far. Inside a bucket a request too far for the same reason is passed over
 * before it is looked at. A read's estimate is made from the index's copies of its head,
 * angle and eligibility (the hot loop touches no request object); a write's from the
 * request, as pickNext makes it. `out` gets the count of every eligible candidate (the
 * positioning estimates pickNext would make), most often from the index's counts, and the
 * choice's positioning. Exact in floating point (each step is a monotone rounding: seek ≥
 * floor, rotation ≥ 0; a read's estimate is positionFor's, from the same numbers), so the
 * choice is sptfFromQueue's, bit for bit: the least cost, and among equal costs the earliest
 * in `queue` (pickNext's strict `<` in arrival order), which the index's seq numbers tell.
 * Returns the choice's slot (not its index in `queue`: the drive removes it by its slot,
 * queue-index.ts dequeueSlot), −1 if there was no candidate. SPTF only: ASPTF walks the
 * queue (BY_CYLINDER_FROM).
 */
export function sptfByCylinder(
  d: CompiledDisk,
  table: RequestTable,
  queue: readonly number[],
  index: CylinderIndex,
  withInternal: boolean,
  arm: ArmState,
  lastWriteEnd: number,
  startNs: number,
  out: SptfChoice,
): number {
  const m = queue.length;
  out.positioned = false;
  if (index.filed < m) fileNew(index, table, queue);
  const eligibleNs = index.eligibleNs;
  const kind = index.kind;
  const skip = withInternal ? 0 : INTERNAL;
  // The candidates' count: from the index's counts when every queued request is eligible by
  // now; else one look at each
  let n = m - (withInternal ? 0 : index.internal);
  if (index.eligibleByNs > startNs) {
    n = 0;
    let eligibleBy = -Infinity;
    for (let i = 0; i < m; i++) {
      const slot = queue[i]!;
      const e = eligibleNs[slot]!;
      if (e > eligibleBy) eligibleBy = e;
      if (e <= startNs && (kind[slot]! & skip) === 0) n++;
    }
    index.eligibleByNs = eligibleBy;
  }
  out.candidates = n;
  if (n === 0) return -1;
  // Only reads, all candidates (eligible by now, none to leave out: the common case at
  // depth, each waited a while): the loop need not ask each request whether it is a
  // candidate, nor whether it is a write
  const readsOnly =
    index.writes === 0 && index.eligibleByNs <= startNs && (withInternal || index.internal === 0);
  const floor = d.seekFloorNs;
  const seekTable = d.seekNs;
  const headSwitchNs = d.headSwitchNs;
  const rev = d.revolutionNs;
  const initialAngle = d.initialAngle;
  const first = index.first;
  const next = index.next;
  const filed = index.cylinder;
  const heads = index.head;
  const angles = index.angle;
  const seq = index.seq;
  const shift = index.shift;
  const c = arm.cylinder;
  const armHead = arm.head;
  const home = bucketOf(index, c);
  let inner = home - 1; // the next bucket inward, and outward
  let outer = home + 1;
  let b = home;
  let bestSlot = -1;
  let bestCost = Infinity;
  let bestSeek = 0;
  let bestRotation = 0;
  for (;;) {
    for (let slot = first[b]!; slot >= 0; slot = next[slot]!) {
      const cyl = filed[slot]!;
      if (floor[cyl > c ? cyl - c : c - cyl]! > bestCost) continue; // too far
      const k = readsOnly ? 0 : kind[slot]!;
      if (!readsOnly && (eligibleNs[slot]! > startNs || (k & skip) !== 0)) continue;
      let seek: number;
      let rotation: number;
      if ((k & WRITE) === 0) {
        // positionFor's for a read, operation for operation (written out: the hot loop):
        // seekFor's seekTimeNs, no minimum seek
        const dist = cyl > c ? cyl - c : c - cyl;
        let t = dist > 0 ? seekTable[dist]! : 0;
        if (heads[slot] !== armHead && t < headSwitchNs) t = headSwitchNs;
        seek = t < 0 ? 0 : t;
        // its seek alone costs more than the best: it cannot win (equal, it may tie)
        if (seek > bestCost) continue;
        // rotationFor's rotationAfterSeek (no data to wait for), rotationalWaitNs, angleAt
        const arrive = startNs + seek;
        const from = arrive > 0 ? arrive : 0;
        const x = initialAngle + from / rev;
        let w = angles[slot]! - (x - Math.floor(x));
        w -= Math.floor(w);
        if (w > 1 - ANGLE_EPSILON) w = 0;
        rotation = from + w * rev - arrive;
      } else {
        const rq = requestAt(table, slot);
        seek = seekFor(d, arm, rq, lastWriteEnd);
        if (seek > bestCost) continue;
        rotation = rotationFor(d, startNs, rq, seek);
      }
      const cost = seek + rotation;
      if (cost < bestCost || (cost === bestCost && bestSlot >= 0 && seq[slot]! < seq[bestSlot]!)) {
        bestCost = cost;
        bestSlot = slot;
        bestSeek = seek;
        bestRotation = rotation;
      }
    }
    // the nearer of the next buckets either way, by its nearest cylinder; when even that
    // is too far, so is everything beyond it on both sides
    const dIn = inner >= 0 ? c - ((inner + 1) << shift) + 1 : Infinity;
    const dOut = outer < first.length ? (outer << shift) - c : Infinity;
    if (dIn === Infinity && dOut === Infinity) break;
    const inward = dIn <= dOut;
    if (floor[inward ? dIn : dOut]! > bestCost) break;
    b = inward ? inner-- : outer++;
  }
  // pickNext's first candidate when no cost is below Infinity
  if (bestSlot < 0) return slotAt(queue, firstCandidate(table, queue, withInternal, startNs));
  chose(out, bestSlot, arm, startNs, lastWriteEnd, bestSeek, bestRotation);
  return bestSlot;
}
