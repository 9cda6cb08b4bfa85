// The small Hopfield network of cfq-ann (Heger & Quinn): fully connected, symmetric,
// zero-diagonal weights learnt by the Hebbian rule, bipolar neurons (±1) updated one at a
// time in a fixed order until none changes. Two neurons per tracked queue: "its quantum is
// above the default" and "its average response time is above the queues' mean". Plain data
// (structuredClone'd with the simulation); every multiply-add is counted.

/** queues the network tracks (the first ones seen); two neurons each */
export const ANN_QUEUES = 16;
export const ANN_NEURONS = 2 * ANN_QUEUES;
/** asynchronous sweeps at most, before recall gives up settling */
export const ANN_MAX_SWEEPS = 5;

export interface AnnNet {
  /** weights, row-major ANN_NEURONS × ANN_NEURONS */
  w: number[];
  /** patterns stored */
  stored: number;
  /** multiply-adds spent learning and recalling (the paper's extra CPU) */
  ops: number;
}

export function createNet(): AnnNet {
  return { w: new Array<number>(ANN_NEURONS * ANN_NEURONS).fill(0), stored: 0, ops: 0 };
}

/** Hebbian learning: w_jk += x_j·x_k / N for j ≠ k (only the first `n` neurons are live). */
export function learn(net: AnnNet, x: readonly number[], n: number): void {
  for (let j = 0; j < n; j++)
    for (let k = 0; k < n; k++) if (j !== k) net.w[j * ANN_NEURONS + k]! += (x[j]! * x[k]!) / n;
  net.ops += n * n;
  net.stored++;
}

/**
 * Recall from `x` (modified in place): neurons not `clamped` take sign(Σ w_jk x_k), a zero
 * field leaving a neuron as it is, sweeping in index order until a sweep changes nothing.
 * Returns the sweeps made.
 */
export function recall(net: AnnNet, x: number[], n: number, clamped: ReadonlySet<number>): number {
  for (let sweep = 1; sweep <= ANN_MAX_SWEEPS; sweep++) {
    let changed = false;
    for (let j = 0; j < n; j++) {
      if (clamped.has(j)) continue;
      let h = 0;
      for (let k = 0; k < n; k++) h += net.w[j * ANN_NEURONS + k]! * x[k]!;
      net.ops += n;
      const v = h > 0 ? 1 : h < 0 ? -1 : x[j]!;
      if (v !== x[j]) {
        x[j] = v;
        changed = true;
      }
    }
    if (!changed) return sweep;
  }
  return ANN_MAX_SWEEPS;
}
