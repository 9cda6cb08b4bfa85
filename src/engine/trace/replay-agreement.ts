// How far a replayed scheduler's choices agree with the kernel's (issue 15 item 3), read
// against plain arrival order as the baseline.
//
// The two sides. The kernel's: its requests with data, each with its arrival (G; D in a
// trace without G) and its dispatch (first D) — the D order. The simulated: the run's
// requests (replay-sim-order.ts), each with its arrival (G), its last D, and at every D the
// set the scheduler held (inserted, not yet dispatched).
//
// Matching. A request's key is (start sector, sectors, direction): the k-th simulated
// request of a key, in arrival order, is the k-th kernel request of that key. Requests on
// either side with no counterpart are unmatched: counted, and left out of every figure
// (a kernel request the replay merged or split differently, or a partition's remapped
// extent, costs nothing more than itself). The kernel's discards are not replayed and its
// flush commands (D FN, the flush machinery's own: no sectors) have no counterpart to match,
// so both are excluded (counted) on both sides alike.
//
// Figures, over the matched requests only:
//  - choices: simulated dispatches of a matched request at which the scheduler held two or
//    more matched requests (the one dispatched included);
//  - chose: among those, the fraction where the request dispatched was the one of them the
//    kernel dispatched first;
//  - concordance: the fraction of matched pairs the simulation dispatched in the kernel's
//    relative order (1 − discordant pairs / all pairs; Kendall's tau = 2·concordance − 1),
//    the discordant pairs counted as inversions by a merge sort, O(n log n);
//  - fifo: the same two for plain arrival order — at the same choice points, would the
//    earliest-arrived held request have been the kernel's? and the concordance of the
//    arrival order with the kernel's D order. A scheduler that cannot beat these has not
//    shown it chooses as the kernel did: where nothing waits, any order agrees.
// null wherever there is nothing to count (no choice point; fewer than two matched).
import type { ReplayMode } from './replay-scenario';
import { DISPATCHED, HELD, type SimulatedOrder } from './replay-sim-order';

export interface Agreement {
  mode: ReplayMode;
  /** what the comparison means in this mode */
  note: string;
  kernelRequests: number;
  simulatedRequests: number;
  matched: number;
  unmatched: { kernel: number; simulated: number };
  excluded: { discards: number; flushes: number };
  /** dispatches (of a matched request) where the simulated scheduler held ≥ 2 matched ones */
  choices: number;
  /** the same in the trace: the kernel's dispatches at which its scheduler held ≥ 2
   * requests (I, not yet D); null when the trace has no I (none inserts nothing) */
  kernelChoices: number | null;
  /** among those, the fraction where it dispatched the kernel's first; null when choices = 0 */
  chose: number | null;
  /** the fraction of matched pairs in the kernel's relative order; null with < 2 matched */
  concordance: number | null;
  /** the same for plain arrival order */
  fifo: { chose: number | null; concordance: number | null };
  definitions: Record<'choices' | 'chose' | 'concordance' | 'fifo' | 'unmatched', string>;
}

/** One of the kernel's requests (or a discard or flush, which are excluded). */
export interface KernelRequest {
  sector: number;
  nSectors: number;
  write: boolean;
  kind: 'data' | 'discard' | 'flush';
  /** arrival time (G), ns; ties keep the list's order */
  arrivalNs: number;
  /** dispatch time (the first D), ns; ties go in arrival order */
  dispatchNs: number;
}

export const AGREEMENT_DEFINITIONS: Agreement['definitions'] = {
  choices:
    'simulated dispatches of a matched request at which the scheduler held two or more matched requests (inserted, not yet dispatched; the one dispatched included), counted at each request’s last D. kernelChoices: the same in the trace, the kernel’s dispatches at which its scheduler held two or more requests with data (I, not yet D) — how many choices the kernel itself had',
  chose:
    'among the choices, the fraction where the simulated scheduler dispatched the request, of those it held, that the kernel dispatched first',
  concordance:
    'the fraction of matched request pairs the simulation dispatched in the same relative order as the kernel (1 − discordant pairs / pairs; Kendall’s tau = 2 × concordance − 1)',
  fifo: 'the same two figures for plain arrival order, the baseline: at the same choice points, whether the earliest-arrived held request was the kernel’s first; and the concordance of the simulated arrival order with the kernel’s dispatch order',
  unmatched:
    'requests with no counterpart on the other side: matched by (start sector, sectors, direction), the k-th arrival of a key on one side to the k-th on the other; unmatched ones are counted and left out of every figure. The kernel’s discards (not replayed) and flush commands (D FN: no sectors, no request of a process; replayed by kernel 6.18’s flush machinery) are excluded on both sides',
};

export function agreementNote(mode: ReplayMode): string {
  return mode === 'trace-timed'
    ? 'trace-timed: each request arrives at its traced time and is served in its traced D2C, so what differs is the scheduler’s choices; after a first different choice the held sets diverge, so later choices are compared among similar, not identical, requests'
    : `approximate (${mode} replay): the simulated device’s timing differs from the traced one, so the scheduler chose among other sets of waiting requests than the kernel did; --mode trace-timed compares the schedulers alone`;
}

const keyOf = (sector: number, nSectors: number, write: boolean): string =>
  `${sector}+${nSectors}${write ? 'w' : 'r'}`;

export function computeAgreement(
  kernelAll: readonly KernelRequest[],
  sim: SimulatedOrder,
  mode: ReplayMode,
  /** the kernel scheduler's own held sets (replay-source.ts), when the trace shows them */
  kernelHeld: { inserted: number; choices: number } = { inserted: 0, choices: 0 },
): Agreement {
  // the kernel's side: data requests by arrival; each one's rank in the D order
  let discards = 0;
  let flushes = 0;
  const kernel: KernelRequest[] = [];
  for (const k of kernelAll) {
    if (k.kind === 'discard') discards++;
    else if (k.kind === 'flush') flushes++;
    else kernel.push(k);
  }
  const byArrival = kernel
    .map((_, i) => i)
    .sort((a, b) => kernel[a]!.arrivalNs - kernel[b]!.arrivalNs || a - b);
  const nK = byArrival.length;
  const arrivalPos = new Int32Array(kernel.length);
  byArrival.forEach((i, p) => (arrivalPos[i] = p));
  const byDispatch = byArrival
    .slice()
    .sort(
      (a, b) => kernel[a]!.dispatchNs - kernel[b]!.dispatchNs || arrivalPos[a]! - arrivalPos[b]!,
    );
  const dRank = new Int32Array(kernel.length);
  byDispatch.forEach((i, r) => (dRank[i] = r));
  const waiting = new Map<string, { list: number[]; next: number }>();
  for (const i of byArrival) {
    const k = kernel[i]!;
    const key = keyOf(k.sector, k.nSectors, k.write);
    const w = waiting.get(key);
    if (w === undefined) waiting.set(key, { list: [i], next: 0 });
    else w.list.push(i);
  }

  // match the simulated requests, in arrival order: partner = the kernel's D rank, or −1
  const nS = sim.requests.length;
  const partner = new Int32Array(nS).fill(-1);
  let simulatedRequests = 0;
  let matched = 0;
  for (let s = 0; s < nS; s++) {
    const r = sim.requests[s]!;
    if (!r.dispatched) continue;
    simulatedRequests++;
    const w = waiting.get(keyOf(r.sector, r.nSectors, r.write));
    if (w === undefined || w.next >= w.list.length) continue;
    partner[s] = dRank[w.list[w.next++]!]!;
    matched++;
  }

  // walk the run: the held matched requests, by kernel D rank and by arrival
  const byRank = new MinHeap();
  const byArr = new MinHeap();
  const heldRank = new Uint8Array(nK); // by kernel D rank: held now
  let held = 0;
  let choices = 0;
  let chose = 0;
  let fifoChose = 0;
  const simOrder = new Int32Array(matched);
  let m = 0;
  for (let t = 0; t < sim.steps; t++) {
    const s = sim.stepRq[t]!;
    const p = partner[s]!;
    if (sim.stepKind[t] === HELD) {
      if (p < 0) continue;
      heldRank[p] = 1;
      held++;
      byRank.push(p);
      byArr.push(s);
    } else if (sim.stepKind[t] === DISPATCHED) {
      if (p < 0) continue; // an unmatched request: left out
      if (held >= 2) {
        choices++;
        while (heldRank[byRank.top()] === 0) byRank.pop();
        while (heldRank[partner[byArr.top()]!] === 0) byArr.pop();
        const first = byRank.top();
        if (p === first) chose++;
        if (partner[byArr.top()] === first) fifoChose++;
      }
      simOrder[m++] = p;
      heldRank[p] = 0;
      held--;
    }
  }
  // the simulated arrival order of the matched requests
  const arrOrder = new Int32Array(matched);
  let a = 0;
  for (let s = 0; s < nS; s++) if (partner[s]! >= 0) arrOrder[a++] = partner[s]!;

  const pairs = (matched * (matched - 1)) / 2;
  const concord = (order: Int32Array): number | null =>
    pairs > 0 ? 1 - inversions(order) / pairs : null;
  return {
    mode,
    note: agreementNote(mode),
    kernelRequests: nK,
    simulatedRequests,
    matched,
    unmatched: { kernel: nK - matched, simulated: simulatedRequests - matched },
    excluded: { discards, flushes },
    choices,
    kernelChoices: kernelHeld.inserted > 0 ? kernelHeld.choices : null,
    chose: choices > 0 ? chose / choices : null,
    concordance: concord(simOrder),
    fifo: { chose: choices > 0 ? fifoChose / choices : null, concordance: concord(arrOrder) },
    definitions: AGREEMENT_DEFINITIONS,
  };
}

/** Pairs i < j with order[i] > order[j] (discordant pairs), by merge sort: O(n log n). */
export function inversions(order: ArrayLike<number>): number {
  const n = order.length;
  let src = Int32Array.from(order);
  let dst = new Int32Array(n);
  let count = 0;
  for (let width = 1; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        if (src[j]! < src[i]!) {
          count += mid - i; // src[j] precedes every element left in the left run
          dst[k++] = src[j++]!;
        } else dst[k++] = src[i++]!;
      }
      while (i < mid) dst[k++] = src[i++]!;
      while (j < hi) dst[k++] = src[j++]!;
    }
    [src, dst] = [dst, src];
  }
  return count;
}

/** A binary min-heap of integers (stale entries are popped by the caller). */
class MinHeap {
  private a: number[] = [];
  push(x: number): void {
    const a = this.a;
    let i = a.length;
    a.push(x);
    while (i > 0) {
      const up = (i - 1) >> 1;
      if (a[up]! <= x) break;
      a[i] = a[up]!;
      i = up;
    }
    a[i] = x;
  }
  top(): number {
    return this.a[0]!;
  }
  pop(): void {
    const a = this.a;
    const last = a.pop()!;
    const n = a.length;
    if (n === 0) return;
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && a[c + 1]! < a[c]!) c++;
      if (a[c]! >= last) break;
      a[i] = a[c]!;
      i = c;
    }
    a[i] = last;
  }
}
