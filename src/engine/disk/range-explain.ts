// One-line explanations of a decision that involved range writes (rendered from the
// record's numbers, as explain.ts does for the other drive choices).
import type { IoRequest } from '../request';
import type { RangeDecisionRecord } from '../events';
import type { DiskPickRule } from './disk-scheduler';

const ms = (ns: number): string => (ns / 1e6).toFixed(2);

const RANGE_RULE_TEXT: Partial<Record<DiskPickRule, string>> = {
  'hrs-shortest-positioning': 'HRS: the closest free block of a range write',
  'ecs-shortest-positioning': 'ECS: the closest expanded target of a range write',
};

export function explainRangePick(
  rule: DiskPickRule,
  chosen: IoRequest,
  n: number,
  records: readonly RangeDecisionRecord[],
  estimates: number,
): string {
  const head = RANGE_RULE_TEXT[rule] ?? rule;
  let text = `drive: ${head} → ${chosen.write ? 'W' : 'R'} ${chosen.sector}+${chosen.nSectors}`;
  const own = records.find((r) => r.rq === chosen.id);
  if (own && own.estimateNs !== null) text += ` reachable in ${ms(own.estimateNs)} ms`;
  let pieces = 0;
  let pruned = 0;
  for (const r of records) {
    pieces += r.pieces.length + r.unvisited;
    pruned += r.unvisited;
    for (const p of r.pieces) if (p.pruned) pruned++;
  }
  // HRS makes one estimate per track piece it examines and one per ordinary request; a
  // piece holding the end of the last write gets one more, for appending there without
  // DiskSim's minimum write seek (range-place.ts)
  const appends =
    rule === 'hrs-shortest-positioning' ? estimates - (pieces - pruned) - (n - records.length) : 0;
  const why = appends > 0 ? `, ${appends} of them for appending right after the last write` : '';
  text += ` (${n} ready; ${records.length} range write${records.length === 1 ? '' : 's'}, ${pieces} track pieces, ${pruned} pruned; ${estimates} estimates${why})`;
  return text;
}
