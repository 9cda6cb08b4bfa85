// Closed-mode replay: one traced process's Qs as a fixed list that keeps the trace's timing.
// For each Q after the first, in time order: if one of the process's own earlier requests
// completed after the previous Q was issued and at or before this one (the latest such, j),
// the Q is DEPENDENT — issued thinkTimeMs = Q − C(j) after request j completes in the
// simulation (and not before the previous Q is issued); otherwise it is INDEPENDENT — issued
// gapMs = Q − previous Q after the previous Q is issued. So a process keeps its own
// outstanding count (a burst stays a burst) and each think time or gap is at most the gap
// between its Q and the one before: their sum never exceeds the process's span of Qs.
// A Q in the same plug as the previous one (TracedQ.plug: between one P and its U) is
// independent whatever completed meanwhile — the task was submitting, not waiting (a task
// that sleeps flushes its plug, UT) — and the previous entry keeps the plug open for it
// (`plugged`), so the two are one submission as they were in the kernel.
// "Completed" is when the process heard (TracedQ.endNs): for a preflush/FUA write, the end of
// its flush sequence (after a post-flush), not its data's C.
import type { TracedQ } from './replay-source';

export interface LoopEntry {
  /** the first Q: ms from the device's first Q */
  atMs?: number;
  /** dependent: after request `afterDone` (its index in the list) completes */
  thinkTimeMs?: number;
  afterDone?: number;
  /** independent: after the previous entry is issued */
  gapMs?: number;
  /** the next Q is in the same plug: the process keeps it open for it */
  plugged?: boolean;
}

export interface LoopTiming {
  entries: LoopEntry[];
  dependent: number;
  /** the first Q (on the clock) counts as independent */
  independent: number;
  /** the sums of the think times and of the gaps, ms */
  thinkMs: number;
  gapMs: number;
  /** Qs issued into the plug the previous one opened or joined (independent) */
  inPlug: number;
}

/** `qs`: one process's Qs in time order; `t0Ns`: the device's first Q. */
export function closedLoopTiming(qs: readonly TracedQ[], t0Ns: number): LoopTiming {
  const n = qs.length;
  const entries: LoopEntry[] = new Array<LoopEntry>(n);
  if (n === 0) return { entries, dependent: 0, independent: 0, thinkMs: 0, gapMs: 0, inPlug: 0 };
  // the completed Qs by completion time (ties: by index), to find the latest in a window
  const done: number[] = [];
  for (let k = 0; k < n; k++) if (qs[k]!.endNs >= 0) done.push(k);
  done.sort((a, b) => qs[a]!.endNs - qs[b]!.endNs || a - b);
  const doneAt = done.map((k) => qs[k]!.endNs);
  entries[0] = { atMs: (qs[0]!.tNs - t0Ns) / 1e6 };
  let dependent = 0;
  let thinkMs = 0;
  let gapMs = 0;
  let inPlug = 0;
  for (let i = 1; i < n; i++) {
    const t = qs[i]!.tNs;
    const prev = qs[i - 1]!.tNs;
    if (samePlug(qs[i - 1]!, qs[i]!)) {
      entries[i - 1]!.plugged = true;
      entries[i] = { gapMs: (t - prev) / 1e6 };
      gapMs += entries[i]!.gapMs!;
      inPlug++;
      continue;
    }
    // the latest completion at or before t, of a request before i, after prev
    let j = -1;
    for (let k = lastAtOrBefore(doneAt, t); k >= 0 && doneAt[k]! > prev; k--) {
      if (done[k]! < i) {
        j = done[k]!;
        break;
      }
    }
    if (j >= 0) {
      const think = (t - qs[j]!.endNs) / 1e6;
      entries[i] = { thinkTimeMs: think, afterDone: j };
      dependent++;
      thinkMs += think;
    } else {
      const gap = (t - prev) / 1e6;
      entries[i] = { gapMs: gap };
      gapMs += gap;
    }
  }
  return { entries, dependent, independent: n - dependent, thinkMs, gapMs, inPlug };
}

/** two consecutive Qs of a process that went into one plug (P … U) */
export function samePlug(a: TracedQ, b: TracedQ): boolean {
  return a.plug >= 0 && a.plug === b.plug;
}

/** the index of the last value ≤ x in ascending `a` (−1: none) */
function lastAtOrBefore(a: readonly number[], x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}
