// The page's side of the trace worker (./trace.worker.ts): started on first use, restarted
// after terminate(), like the simulation worker's handle (./client.ts).
import { proxy, wrap, type Remote } from 'comlink';
import type { OpenOutcome, ProgressFn, TraceApi } from './trace.worker';

export type {
  LbaPicture,
  OpenOutcome,
  ReplayOutcome,
  ReplayRequest,
  TraceOverview,
} from './trace.worker';
export type TraceClient = Remote<TraceApi>;

export interface TraceHandle {
  get(): TraceClient;
  /** read a file (or a kept Blob) in the worker; progress arrives through onProgress */
  open(blob: Blob, name: string, onProgress: ProgressFn): Promise<OpenOutcome>;
  terminate(): void;
}

export function createTraceHandle(): TraceHandle {
  let current: { client: TraceClient; worker: Worker } | null = null;
  const get = (): TraceClient => {
    if (current === null) {
      // Vite bundles a worker only for this literal `new Worker(new URL(…))`
      const worker = new Worker(new URL('./trace.worker.ts', import.meta.url), { type: 'module' });
      current = { client: wrap<TraceApi>(worker), worker };
    }
    return current.client;
  };
  return {
    get,
    open: (blob, name, onProgress) => get().open(blob, name, proxy(onProgress)),
    terminate() {
      current?.worker.terminate();
      current = null;
    },
  };
}
