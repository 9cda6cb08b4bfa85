// Dispatch-order agreement between the kernel (the trace's D events) and the simulated
// scheduler (the run's D events). The faithful comparison — a trace-timed device that
// completes each request after its traced D2C, so both schedulers choose from the same
// pending set at the same moments — needs an engine change; until then this is an
// comparison of dispatch orders on an open, closed or trace-timed replay, and says which.
//
// Definition. K = the kernel's dispatches with data, in trace order; S = the simulated
// dispatches with data, in simulated order; a dispatch's key is (start sector, sectors).
// Walk S in order. For each simulated dispatch s, find the earliest not-yet-matched kernel
// dispatch with the same key; if there is one, match it, and s AGREES when that kernel
// dispatch is the earliest not-yet-matched kernel dispatch of all (the simulator chose the
// request the kernel dispatched next, among those the kernel had not yet dispatched).
// A simulated dispatch with no kernel dispatch of the same key (merged or split
// differently) is unmatched and does not agree. fraction = agreed / |S|.
// So one swapped pair (kernel A B, simulated B A) costs one disagreement, not a cascade.

export interface Dispatch {
  tNs: number;
  sector: number;
  nSectors: number;
}

export interface DispatchAgreement {
  /** true: not the trace-timed comparison; the pending sets of the two runs differ */
  approximation: boolean;
  method: string;
  definition: string;
  kernelDispatches: number;
  simulatedDispatches: number;
  /** simulated dispatches with a kernel dispatch of the same sector and size */
  matched: number;
  /** simulated dispatches that were the kernel's next one */
  agreed: number;
  /** agreed / simulatedDispatches (0 when nothing was dispatched) */
  fraction: number;
}

export const AGREEMENT_DEFINITION =
  'for each simulated dispatch in order, match it to the earliest not-yet-matched kernel D with the same start sector and size; it agrees when that D is the earliest not-yet-matched kernel D of all (the simulator chose the request the kernel dispatched next). Unmatched simulated dispatches (merged or split differently) do not agree. fraction = agreed / simulated dispatches';

export function dispatchAgreement(
  kernel: readonly Dispatch[],
  simulated: readonly Dispatch[],
  mode: string,
): DispatchAgreement {
  const byKey = new Map<string, number[]>();
  kernel.forEach((d, i) => {
    const k = `${d.sector}+${d.nSectors}`;
    const list = byKey.get(k);
    if (list === undefined) byKey.set(k, [i]);
    else list.push(i);
  });
  const heads = new Map<string, number>();
  const done = new Uint8Array(kernel.length);
  let next = 0;
  let matched = 0;
  let agreed = 0;
  for (const s of simulated) {
    const k = `${s.sector}+${s.nSectors}`;
    const list = byKey.get(k);
    const h = heads.get(k) ?? 0;
    if (list === undefined || h >= list.length) continue;
    heads.set(k, h + 1);
    const j = list[h]!;
    matched++;
    if (j === next) agreed++;
    done[j] = 1;
    while (next < kernel.length && done[next] === 1) next++;
  }
  const traceTimed = mode === 'trace-timed';
  return {
    // Even trace-timed, the comparison is of orders: after the first different choice the
    // simulated and kernel queues differ, so later comparisons are not of identical states.
    approximation: true,
    method: traceTimed
      ? 'order comparison on the trace-timed replay (each request served in its traced D2C, so only the scheduler differs; after a first different choice the pending sets diverge)'
      : `order comparison on the ${mode} replay (approximation: the simulated disk's timing also differs from the traced device's; use --mode trace-timed to compare the schedulers alone)`,
    definition: AGREEMENT_DEFINITION,
    kernelDispatches: kernel.length,
    simulatedDispatches: simulated.length,
    matched,
    agreed,
    fraction: simulated.length > 0 ? agreed / simulated.length : 0,
  };
}
