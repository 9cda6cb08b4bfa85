// The page's side of the simulation worker.
import { wrap, type Remote } from 'comlink';
import type { SimApi } from './sim.worker';

export type { RunResponse } from './sim.worker';
export type SimClient = Remote<SimApi>;

/** Start a simulation worker. Vite bundles it only for this literal `new Worker(new URL(…))`. */
export function createSimClient(): { sim: SimClient; terminate: () => void } {
  const worker = new Worker(new URL('./sim.worker.ts', import.meta.url), { type: 'module' });
  return { sim: wrap<SimApi>(worker), terminate: () => worker.terminate() };
}
