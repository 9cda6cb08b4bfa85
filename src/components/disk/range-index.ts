// Range writes in a replayed log (issue #6): which drive decisions weighed range writes, and
// for each range write its first record (its ranges, known since it was queued) and the block
// it was given. Pure, indexed once per log; the disk view asks it what to draw at a time t.
import { lastAtOrBefore, type Replay, type RequestLife } from '../../app/replay';
import type { LogDecision, LogRangeRecord, TrackArc } from '../../worker/log';

export interface RangeIndex {
  /** the decisions (indices into log.decisions) that weighed range writes, and their times */
  decisions: number[];
  times: number[];
  /** each range write's first record (what it offers before the drive weighs it) */
  first: Map<number, LogRangeRecord>;
  /** each placed range write: when the drive chose it and the block it took */
  placed: Map<number, { tNs: number; block: TrackArc; record: LogRangeRecord }>;
}

const cache = new WeakMap<Replay, RangeIndex>();

export function rangeIndex(replay: Replay): RangeIndex {
  let ix = cache.get(replay);
  if (ix) return ix;
  ix = { decisions: [], times: [], first: new Map(), placed: new Map() };
  const ds = replay.log.decisions as LogDecision[];
  for (let i = 0; i < ds.length; i++) {
    const d = ds[i]!;
    if (!d.ranges || d.ranges.length === 0) continue;
    ix.decisions.push(i);
    ix.times.push(d.tNs);
    for (const r of d.ranges) {
      if (!ix.first.has(r.rq)) ix.first.set(r.rq, r);
      if (r.rq === d.chosen && r.block && !ix.placed.has(r.rq)) {
        ix.placed.set(r.rq, { tNs: d.tNs, block: r.block, record: r });
      }
    }
  }
  cache.set(replay, ix);
  return ix;
}

/** What the disk view draws for range writes at t. */
export interface RangeScene {
  /** the latest range decision at or before t, if it still has a pending write */
  decision: LogDecision | null;
  /** the write that decision chose, if still pending: its record (tracks, pieces, block) */
  chosen: LogRangeRecord | null;
  /** the other pending writes that decision weighed (losers: candidates only) */
  weighed: LogRangeRecord[];
  /** pending range writes not weighed yet: their ranges only */
  waiting: LogRangeRecord[];
  /** pending range writes already given a block (drawn there, as ordinary writes) */
  placed: Array<{ rq: number; block: TrackArc }>;
}

export function rangeSceneAt(
  replay: Replay,
  ix: RangeIndex,
  pending: readonly RequestLife[],
  tNs: number,
): RangeScene {
  const scene: RangeScene = { decision: null, chosen: null, weighed: [], waiting: [], placed: [] };
  if (ix.decisions.length === 0) return scene;
  const pendingRange = pending.filter((q) => ix.first.has(q.rq));
  if (pendingRange.length === 0) return scene;
  const at = lastAtOrBefore(ix.times, tNs);
  const d = at >= 0 ? (replay.log.decisions[ix.decisions[at]!] as LogDecision) : null;
  const inD = new Map<number, LogRangeRecord>();
  if (d) for (const r of d.ranges ?? []) inD.set(r.rq, r);
  for (const q of pendingRange) {
    const p = ix.placed.get(q.rq);
    const r = inD.get(q.rq);
    if (p && p.tNs <= tNs) {
      if (d && d.chosen === q.rq) scene.chosen = p.record;
      else scene.placed.push({ rq: q.rq, block: p.block });
    } else if (r) scene.weighed.push(r);
    else scene.waiting.push(ix.first.get(q.rq)!);
  }
  if (scene.chosen || scene.weighed.length > 0) scene.decision = d;
  return scene;
}
