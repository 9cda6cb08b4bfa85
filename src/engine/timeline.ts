// Re-entering a run at an earlier time: snapshots taken every `everyNs` of simulated time
// (thinned to at most `max` by dropping every other one), and seekTo(t), which restores
// the latest snapshot at or before t and runs forward. The UI steps backwards with it.
import { peekTime, restore, snapshot, step, type SimState, type Simulation } from './simulation';

export interface Timeline {
  sim: Simulation;
  everyNs: number;
  max: number;
  /** snapshots in time order; the first is the start of the run */
  snaps: SimState[];
  nextAtNs: number;
}

export function createTimeline(sim: Simulation, everyNs: number, max = 256): Timeline {
  if (!(everyNs > 0)) throw new RangeError(`snapshot interval must be positive: ${everyNs}`);
  return { sim, everyNs, max: Math.max(2, max), snaps: [snapshot(sim)], nextAtNs: everyNs };
}

/** One event forward, snapshotting when the clock has passed the next mark. */
export function stepTimeline(tl: Timeline): boolean {
  const more = step(tl.sim);
  if (tl.sim.state.now >= tl.nextAtNs) {
    tl.snaps.push(snapshot(tl.sim));
    tl.nextAtNs = tl.sim.state.now + tl.everyNs;
    if (tl.snaps.length > tl.max) {
      // Keep the start and every other snapshot; space them twice as far from now on.
      tl.snaps = tl.snaps.filter((_, i) => i % 2 === 0);
      tl.everyNs *= 2;
    }
  }
  return more;
}

/** Run forward to time t (all events at or before t processed). */
export function advanceTo(tl: Timeline, tNs: number): void {
  while (!tl.sim.state.done && peekTime(tl.sim) <= tNs) stepTimeline(tl);
}

/** Put the simulation at time t, going back through a snapshot if t is in the past. */
export function seekTo(tl: Timeline, tNs: number): void {
  if (tNs < tl.sim.state.now) {
    let i = tl.snaps.length - 1;
    while (i > 0 && tl.snaps[i]!.now > tNs) i--;
    restore(tl.sim, tl.snaps[i]!);
    tl.snaps.length = i + 1;
    tl.nextAtNs = tl.sim.state.now + tl.everyNs;
  }
  advanceTo(tl, tNs);
}
