// The drive's choice when range writes wait in its queue (drive.ts calls this instead of
// pickNext only then, so other writes pay nothing). Under SPTF each range write's cost
// is its best placement (HRS or ECS), found against the best other command so far;
// under FCFS/SSTF/C-LOOK the request is chosen as usual (by its first range's start)
// and then placed. The chosen write takes its address; the blocks are reserved.
import type { IoRequest } from '../request';
import { streamingWriteLbn } from './drive-state';
import { bioAt } from '../request';
import type { DiskSimulation } from './sim-view';
import type { RangeDecisionRecord, RangePieceRecord } from '../events';
import { locate, positionFor, writeStartNs, type Positioning } from './mechanics';
import type { DiskPick, DiskPickRule } from './disk-scheduler';
import { drivePickNext } from './drive-pick-next';
import { buildPieces, reserve, type RangeState, type RangeWrite } from './range';
import {
  newPlacement,
  placeCheap,
  placeEcs,
  placeHrs,
  trackCount,
  type PlaceInput,
  type Placement,
} from './range-place';
import { explainRangePick } from './range-explain';

const pos: Positioning = { seekNs: 0, rotationNs: 0 };
const place: Placement = newPlacement();
const inp: PlaceInput = {
  arm: { cylinder: 0, head: 0 },
  startNs: 0,
  dataReadyNs: 0,
  lastWriteEnd: -1,
  nSectors: 0,
  align: 1,
};
const chosenLbn: number[] = [];
const estimates: Array<number | null> = [];
const pickOut: DiskPick = { index: 0, rule: 'only-candidate', estimatesNs: [] };

/** A process attaches a range write to its bio; the drive takes it at dispatch (D). */
export function attachRangeWrite(sim: DiskSimulation, bioSlot: number, rw: RangeWrite): void {
  sim.state.drive.ranges!.byBio[bioSlot] = rw;
}

/** Place one waiting range write against `limitNs`; fills `place`. */
function placeOne(
  sim: DiskSimulation,
  rs: RangeState,
  rq: IoRequest,
  now: number,
  limitNs: number,
  rec: RangePieceRecord[] | null,
): Placement {
  const drive = sim.state.drive;
  inp.arm.cylinder = drive.arm.cylinder;
  inp.arm.head = drive.arm.head;
  inp.startNs = now;
  inp.dataReadyNs = writeStartNs(sim.model.disk, rq);
  inp.lastWriteEnd = drive.writeSegment.hi;
  inp.nSectors = rq.nSectors;
  inp.align = rs.align[rq.slot]!;
  const pieces = rs.pieces[rq.slot]!;
  const m = sim.model;
  return m.rangeScheduler === 'ecs'
    ? placeEcs(m.disk, rs, pieces, inp, m.ecsTargets, limitNs, place, rec)
    : placeHrs(m.disk, rs, pieces, inp, limitNs, place, rec);
}

/** Choose the next command among `n` ready ones; returns its index (placed if a range write). */
export function pickWithRanges(
  sim: DiskSimulation,
  candidates: readonly IoRequest[],
  n: number,
  now: number,
): number {
  const m = sim.model;
  const drive = sim.state.drive;
  const rs = drive.ranges!;
  const recording = sim.sink !== null;
  const records: RangeDecisionRecord[] | null = recording ? [] : null;
  let index = 0;
  let rule: DiskPickRule;
  let work = 0;
  estimates.length = 0;
  if (m.diskScheduler === 'sptf' || m.diskScheduler === 'asptf') {
    const aged = m.diskScheduler === 'asptf';
    let bestCost = Infinity;
    for (let i = 0; i < n; i++) {
      const rq = candidates[i]!;
      const aging = aged ? m.agingWeight * 0.001 * (now - rq.dispatchedNs) : 0;
      let tpos: number;
      chosenLbn[i] = -1;
      if (rs.pieces[rq.slot]) {
        const rec = records ? newRecord(sim, rq, records) : null;
        // it must beat the best so far: its pieces are pruned against that
        const p = placeOne(sim, rs, rq, now, bestCost + aging, rec?.pieces ?? null);
        work += p.estimates;
        tpos = p.lbn >= 0 ? p.seekNs + p.rotationNs : Infinity;
        chosenLbn[i] = p.lbn;
        if (rec) {
          rec.sector = p.lbn;
          rec.estimateNs = p.lbn >= 0 ? tpos : null;
          rec.unvisited = unvisited(sim, rs, rq, rec);
        }
      } else {
        positionFor(m.disk, now, drive.arm, rq, streamingWriteLbn(drive, now), pos);
        work++;
        tpos = pos.seekNs + pos.rotationNs;
      }
      estimates[i] = tpos === Infinity ? null : tpos;
      const cost = tpos - aging;
      if (cost < bestCost) {
        bestCost = cost;
        index = i;
      }
    }
    const chosenIsRange = chosenLbn[index]! >= 0;
    rule = !chosenIsRange
      ? aged
        ? 'asptf-aged-positioning'
        : 'sptf-shortest-positioning'
      : m.rangeScheduler === 'ecs'
        ? 'ecs-shortest-positioning'
        : 'hrs-shortest-positioning';
  } else {
    const pick = drivePickNext(sim, candidates, n, now, pickOut, false);
    index = pick.index;
    rule = pick.rule;
    chosenLbn.fill(-1, 0, n);
    const rq = candidates[index]!;
    if (rs.pieces[rq.slot]) {
      const rec = records ? newRecord(sim, rq, records) : null;
      const p = placeOne(sim, rs, rq, now, Infinity, rec?.pieces ?? null);
      work += p.estimates;
      chosenLbn[index] = p.lbn;
      if (rec) {
        rec.sector = p.lbn;
        rec.estimateNs = p.lbn >= 0 ? p.seekNs + p.rotationNs : null;
        rec.unvisited = unvisited(sim, rs, rq, rec);
      }
    }
  }
  drive.positioningEstimates += work;
  const chosen = candidates[index]!;
  if (rs.pieces[chosen.slot]) {
    const lbn = chosenLbn[index]!;
    if (lbn < 0)
      throw new Error(
        `range write (request ${chosen.id}): every start in its ranges is in use since the last barrier`,
      );
    commitPlacement(sim, rs, chosen, lbn);
  }
  if (sim.sink) {
    sim.sink.decision({
      tNs: now,
      layer: 'disk',
      rule,
      chosen: chosen.id,
      candidates: candidates
        .slice(0, n)
        .map((c, i) => ({ rq: c.id, estimateNs: estimates[i] ?? null })),
      text: explainRangePick(rule, chosen, n, records!, work),
      ranges: records!,
    });
  }
  return index;
}

/** HRS records tracks (all of a track's pieces at once), ECS each piece. */
function unvisited(
  sim: DiskSimulation,
  rs: RangeState,
  rq: IoRequest,
  rec: RangeDecisionRecord,
): number {
  const all = sim.model.rangeScheduler === 'ecs' ? rs.pieces[rq.slot]!.length : rs.tracks[rq.slot]!;
  return all - rec.pieces.length;
}

function newRecord(
  sim: DiskSimulation,
  rq: IoRequest,
  records: RangeDecisionRecord[],
): RangeDecisionRecord {
  const rs = sim.state.drive.ranges!;
  const r: RangeDecisionRecord = {
    rq: rq.id,
    scheduler: sim.model.rangeScheduler === 'ecs' ? 'ecs' : 'hrs',
    // the write's own list, not a copy (a file system's free extents may be hundreds, and
    // every decision records every waiting write): records are read, never changed
    ranges: rs.writes[rq.slot]!.ranges,
    pieces: [],
    unvisited: 0,
    sector: -1,
    estimateNs: null,
  };
  records.push(r);
  return r;
}

/** The write takes its address: the request (and its bio, which the process sees at
 * completion) now carries it, and its blocks are reserved. */
export function commitPlacement(
  sim: DiskSimulation,
  rs: RangeState,
  rq: IoRequest,
  lbn: number,
): void {
  rq.sector = lbn;
  locate(sim.model.disk, rq);
  const bio = rq.bios[0];
  if (bio !== undefined) bioAt(sim.state.bios, bio).sector = lbn;
  reserve(rs, rq.slot, lbn, rq.nSectors);
  if (rs.pieces[rq.slot]) {
    rs.pieces[rq.slot] = null;
    rs.writes[rq.slot] = null;
    rs.waiting--;
  }
}

/**
 * The drive accepts a range write. The cheap disk (and an SSD, where place costs nothing)
 * places it at once; HRS and ECS split its ranges into track pieces and place it when it
 * is chosen.
 */
export function acceptRangeWrite(sim: DiskSimulation, rq: IoRequest, rw: RangeWrite): void {
  const rs = sim.state.drive.ranges!;
  const policy = sim.model.rangeScheduler;
  if (
    sim.model.disk.params.ssd ||
    sim.model.disk.params.fitted ||
    policy === 'first' ||
    policy === 'random'
  ) {
    const lbn = placeCheap(rs, rw, rq.nSectors, policy === 'random');
    if (lbn < 0)
      throw new Error(
        `range write (request ${rq.id}): every start in its ranges is in use since the last barrier`,
      );
    commitPlacement(sim, rs, rq, lbn);
    return;
  }
  const pieces = buildPieces(sim.model.disk, rw, rq.nSectors);
  rs.pieces[rq.slot] = pieces;
  rs.tracks[rq.slot] = trackCount(pieces);
  rs.align[rq.slot] = rw.align;
  rs.writes[rq.slot] = rw;
  rs.waiting++;
}
