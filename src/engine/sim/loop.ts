// The event loop's contract with the layers above it. The loop knows no layer: each layer
// registers one handler for each kind of event it schedules (sim/events.ts), and the loop
// (simulation.ts step) calls the handler by kind from a table built once per simulation.
import { EventKind } from './events';
import type { EventHeap } from './heap';

/** The clock and the pending events: what every layer schedules against. */
export interface LoopState {
  now: number;
  heap: EventHeap;
}

/** One kind of event's handler: `a` and `rq` are the event's arguments (sim/heap.ts). */
export type EventHandler<S> = (sim: S, a: number, rq: number, t: number) => void;

/** What a layer is given to register its handlers with. */
export type RegisterHandler<S> = (kind: number, handler: EventHandler<S>) => void;

function ignore(): void {
  /* a kind no layer handles */
}

/**
 * The handler table, indexed by event kind: each layer's `register` function is called with
 * a RegisterHandler, and a kind registered twice is a programming error.
 */
export function createHandlerTable<S>(
  layers: ReadonlyArray<(on: RegisterHandler<S>) => void>,
): EventHandler<S>[] {
  const table: EventHandler<S>[] = [];
  const on: RegisterHandler<S> = (kind, handler) => {
    if (table[kind] !== undefined && table[kind] !== ignore)
      throw new Error(`event kind ${kind} has two handlers`);
    table[kind] = handler;
  };
  for (const register of layers) register(on);
  const last = Math.max(...Object.values(EventKind));
  for (let k = 0; k <= last; k++) table[k] ??= ignore;
  return table;
}
