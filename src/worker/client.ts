// The page's side of the simulation worker.
import { wrap, type Remote } from 'comlink';
import type { SimApi } from './sim.worker';

export type { InspectView, RunLog } from './sim.worker';
export type { LogEvent, GeometryView } from './log';
export type { Catalog, RunOverrides, TunableInfo } from '../app/config';
export type SimClient = Remote<SimApi>;

/** Start a simulation worker. Vite bundles it only for this literal `new Worker(new URL(…))`. */
export function createSimClient(): { sim: SimClient; terminate: () => void } {
  const worker = new Worker(new URL('./sim.worker.ts', import.meta.url), { type: 'module' });
  return { sim: wrap<SimApi>(worker), terminate: () => worker.terminate() };
}

/** A worker started on first use and restarted after terminate(): safe under StrictMode's
 * mount–unmount–mount, and owned by the component that holds the handle. */
export interface SimHandle {
  get(): SimClient;
  terminate(): void;
}

export function createSimHandle(): SimHandle {
  let current: { sim: SimClient; terminate: () => void } | null = null;
  return {
    get() {
      current ??= createSimClient();
      return current.sim;
    },
    terminate() {
      current?.terminate();
      current = null;
    },
  };
}
