// The drive's own schedulers: which queued command the mechanism serves next
// (DISK-MODEL.md §1.6, §4). Chosen when the mechanism becomes free, from the
// instant it is free — never from a stale time (§1.6 "modelling pitfall").
import type { IoRequest } from '../request';
import type { CompiledDisk } from './compile';
import { rotationFor, seekFor } from './mechanics';

export const DISK_SCHEDULERS = ['fcfs', 'sstf', 'clook', 'sptf', 'asptf'] as const;
export type DiskSchedulerName = (typeof DISK_SCHEDULERS)[number];

/** The rule that picked a request, for decision records. */
export type DiskPickRule =
  | 'fcfs-oldest'
  | 'sstf-nearest-cylinder'
  | 'clook-next-ascending'
  | 'clook-wrap-lowest'
  | 'sptf-shortest-positioning'
  | 'asptf-aged-positioning'
  | 'hrs-shortest-positioning'
  | 'ecs-shortest-positioning'
  | 'only-candidate';

export interface ArmState {
  cylinder: number;
  head: number;
  /** the LBN just past the last one transferred (C-LOOK's sweep position) */
  nextLbn: number;
}

export interface DiskPick {
  /** index into the candidate list */
  index: number;
  rule: DiskPickRule;
  /** positioning estimates (SPTF family) per candidate, ns; filled only when asked for */
  estimatesNs: number[];
}

/**
 * Choose among `candidates` (in arrival order at the drive) for a mechanism free at
 * `startNs`. `agingWeight` is DiskSim's "Timeout time/weight" W for ASPTF:
 * Teff = Tpos − W·0.001·Twait (Twait = time since the drive received the command).
 */
export function pickNext(
  d: CompiledDisk,
  name: DiskSchedulerName,
  candidates: readonly IoRequest[],
  n: number,
  arm: ArmState,
  lastWriteEnd: number,
  startNs: number,
  agingWeight: number,
  out: DiskPick,
  wantEstimates: boolean,
): DiskPick {
  out.index = 0;
  if (out.estimatesNs.length > 0) out.estimatesNs.length = 0;
  if (n === 1 && name !== 'sptf' && name !== 'asptf') {
    out.rule = 'only-candidate';
    return out;
  }
  switch (name) {
    case 'fcfs':
      out.rule = 'fcfs-oldest';
      return out;
    case 'sstf': {
      let bestDist = Infinity;
      for (let i = 0; i < n; i++) {
        const dist = Math.abs(candidates[i]!.cylinder - arm.cylinder);
        if (dist < bestDist) {
          bestDist = dist;
          out.index = i;
        }
      }
      out.rule = 'sstf-nearest-cylinder';
      return out;
    }
    case 'clook': {
      let best = -1;
      let lowest = 0;
      for (let i = 0; i < n; i++) {
        const s = candidates[i]!.sector;
        if (s < candidates[lowest]!.sector) lowest = i;
        if (s >= arm.nextLbn && (best < 0 || s < candidates[best]!.sector)) best = i;
      }
      out.index = best >= 0 ? best : lowest;
      out.rule = best >= 0 ? 'clook-next-ascending' : 'clook-wrap-lowest';
      return out;
    }
    case 'sptf':
    case 'asptf': {
      const aged = name === 'asptf';
      let bestCost = Infinity;
      for (let i = 0; i < n; i++) {
        const rq = candidates[i]!;
        const seek = seekFor(d, arm, rq, lastWriteEnd);
        const age = aged ? agingWeight * 0.001 * (startNs - rq.dispatchedNs) : 0;
        // Pruning by a lower bound, as DiskSim passes its best so far into the estimate: the
        // rotation is never negative, so a candidate whose seek alone costs no less than the
        // best cannot win (a tie keeps the earlier one) — skip its rotation. Exact in floating
        // point (a + b ≥ a for b ≥ 0; x − age is monotone in x): the same pick, bit for bit.
        // Decision records (wantEstimates) show every candidate's estimate, so none is skipped.
        if (!wantEstimates && (aged ? seek - age : seek) >= bestCost) continue;
        const tpos = seek + rotationFor(d, startNs, rq, seek);
        if (wantEstimates) out.estimatesNs.push(tpos);
        const cost = aged ? tpos - age : tpos;
        if (cost < bestCost) {
          bestCost = cost;
          out.index = i;
        }
      }
      out.rule = aged ? 'asptf-aged-positioning' : 'sptf-shortest-positioning';
      return out;
    }
  }
}
