// What the drive tells a trace sink (sim.sink) of its choices and its service phases: kept
// apart from drive.ts's pick and start, which call these only when a sink listens, so that
// their common path stays small enough for V8 to inline.
import type { TraceSink } from '../events';
import type { IoRequest } from '../request';
import type { ArmState, DiskPick } from './disk-scheduler';
import { diskLoserNote, explainDiskPick } from './explain';

/** The drive's choice among its first `n` candidates, each with its estimate and note. */
export function reportDiskDecision(
  sink: TraceSink,
  now: number,
  pick: DiskPick,
  candidates: readonly IoRequest[],
  n: number,
  arm: ArmState,
): void {
  const index = pick.index;
  sink.decision({
    tNs: now,
    layer: 'disk',
    rule: pick.rule,
    chosen: candidates[index]!.id,
    candidates: candidates.slice(0, n).map((c, i) => {
      const note = i === index ? undefined : diskLoserNote(pick, candidates, i, arm);
      const estimateNs = pick.estimatesNs[i] ?? null;
      return note === undefined ? { rq: c.id, estimateNs } : { rq: c.id, estimateNs, note };
    }),
    text: explainDiskPick(pick, candidates, n),
  });
}
