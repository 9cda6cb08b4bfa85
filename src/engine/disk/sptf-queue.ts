// SPTF / ASPTF straight from the drive's queue: pickAndStart's first pass (gather the
// eligible requests) and pickNext's choice among them in one walk, when no decision is
// recorded — the hot loop of a deep SPTF queue (issue 19). The same choice as the two.
import { requestAt, type RequestTable } from '../request';
import type { DiskSimulation } from './sim-view';
import type { CompiledDisk } from './compile';
import type { ArmState } from './disk-scheduler';
import { streamingWriteLbn } from './drive-state';
import { rotationFor, seekFor } from './mechanics';

const found = { candidates: 0 };

/**
 * The queue index of the SPTF / ASPTF choice among the requests eligible at `now` (destages
 * only if `withDestages`), its decision counted; −1 when this does not apply (another
 * scheduler, a decision to record, range writes waiting) or no request qualifies — then
 * pickAndStart's passes decide.
 */
export function sptfFirstPass(sim: DiskSimulation, now: number, withDestages: boolean): number {
  const m = sim.model;
  const drive = sim.state.drive;
  if (m.diskScheduler !== 'sptf' && m.diskScheduler !== 'asptf') return -1;
  if (sim.sink !== null || (drive.ranges !== null && drive.ranges.waiting > 0)) return -1;
  const index = sptfFromQueue(
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
  );
  if (index >= 0) {
    drive.decisions++;
    drive.positioningEstimates += found.candidates;
  }
  return index;
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
  out: { candidates: number },
): number {
  let n = 0;
  let best = -1;
  let bestCost = Infinity;
  for (let i = 0; i < queue.length; i++) {
    const rq = requestAt(table, queue[i]!);
    if (rq.eligibleNs > startNs || (rq.internal && !withInternal)) continue;
    n++;
    // as pickNext's loop, candidate by candidate
    const seek = seekFor(d, arm, rq, lastWriteEnd);
    const age = aged ? agingWeight * 0.001 * (startNs - rq.dispatchedNs) : 0;
    if ((aged ? seek - age : seek) >= bestCost) continue;
    const tpos = seek + rotationFor(d, startNs, rq, seek);
    const cost = aged ? tpos - age : tpos;
    if (cost < bestCost) {
      bestCost = cost;
      best = i;
    }
  }
  out.candidates = n;
  // pickNext's first candidate when no cost is below Infinity
  if (best < 0 && n > 0) best = firstCandidate(table, queue, withInternal, startNs);
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
