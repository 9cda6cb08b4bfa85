// One-line explanations of the drive's choices, in the terms a student sees on screen.
import type { IoRequest } from '../request';
import type { ArmState, DiskPick, DiskPickRule } from './disk-scheduler';

const RULE_TEXT: Record<DiskPickRule, string> = {
  'only-candidate': 'only one command ready',
  'fcfs-oldest': 'FCFS: the oldest command',
  'sstf-nearest-cylinder': 'SSTF: the nearest cylinder',
  'clook-next-ascending': 'C-LOOK: the next address up from the head',
  'clook-wrap-lowest': 'C-LOOK: nothing above the head, back to the lowest address',
  'sptf-shortest-positioning': 'SPTF: the shortest seek + rotation',
  'asptf-aged-positioning':
    'aged SPTF: the shortest seek + rotation, less an allowance for waiting',
  'hrs-shortest-positioning': 'HRS: the closest free block of a range write',
  'ecs-shortest-positioning': 'ECS: the closest expanded target of a range write',
};

const ms = (ns: number): string => (ns / 1e6).toFixed(2);

function label(rq: IoRequest): string {
  return `${rq.write ? 'W' : 'R'} ${rq.sector}+${rq.nSectors}`;
}

export function explainDiskPick(
  pick: DiskPick,
  candidates: readonly IoRequest[],
  n: number,
): string {
  const chosen = candidates[pick.index]!;
  let text = `drive: ${RULE_TEXT[pick.rule]} → ${label(chosen)}`;
  const est = pick.estimatesNs;
  if (est.length === n && n > 0) {
    let runnerUp = -1;
    for (let i = 0; i < n; i++)
      if (i !== pick.index && (runnerUp < 0 || est[i]! < est[runnerUp]!)) runnerUp = i;
    text += ` reachable in ${ms(est[pick.index]!)} ms`;
    if (runnerUp >= 0)
      text += `; next best ${label(candidates[runnerUp]!)} in ${ms(est[runnerUp]!)} ms`;
    text += ` (${n} ready)`;
  } else if (n > 1) {
    text += ` (${n} ready)`;
  }
  return text;
}

/**
 * Why a candidate lost the drive's choice, in its rule's terms (the decision record's note
 * on it, which the page shows beside each loser): FCFS — it reached the drive later; SSTF —
 * its cylinder is farther from the arm; C-LOOK — it lies behind the sweep, or further up;
 * aged SPTF — its credited positioning is longer (plain SPTF's estimates say it). Candidates are in arrival order at the drive.
 */
export function diskLoserNote(
  pick: DiskPick,
  candidates: readonly IoRequest[],
  i: number,
  arm: Readonly<ArmState>,
): string | undefined {
  const chosen = candidates[pick.index]!;
  const rq = candidates[i]!;
  switch (pick.rule) {
    case 'fcfs-oldest':
      return `reached the drive after #${chosen.id}`;
    case 'sstf-nearest-cylinder': {
      const d = Math.abs(rq.cylinder - arm.cylinder);
      const best = Math.abs(chosen.cylinder - arm.cylinder);
      return d === best
        ? `cylinder ${rq.cylinder}: as near as #${chosen.id}'s, which came first`
        : `cylinder ${rq.cylinder}: ${d} from the arm's ${arm.cylinder}, #${chosen.id}'s ${best}`;
    }
    case 'clook-next-ascending':
      return rq.sector < arm.nextLbn
        ? `sector ${rq.sector}: behind the head, waits for the next sweep`
        : `sector ${rq.sector}: further up than ${chosen.sector}`;
    case 'clook-wrap-lowest':
      return `sector ${rq.sector}: above ${chosen.sector}, where the new sweep starts`;
    case 'asptf-aged-positioning':
      // (plain SPTF's losers need no note: their estimates, beside the chosen one's, say it)
      return `aged SPTF credits each command's wait: its seek + rotation, less that credit, is longer`;
    default:
      return undefined;
  }
}
