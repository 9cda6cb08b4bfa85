// The elevator interface (after the 2.6 kernel's elevator_ops): one small set of
// operations each I/O scheduler implements. The host layer (host.ts) owns the
// mechanics — request allocation, dispatch to free device tags, events; an
// elevator owns only its policy. Merging, plugging and the Linux schedulers
// (noop, deadline, anticipatory, cfq) plug in here.
import type { IoRequest } from '../request';

export interface TunableSpec {
  /** the Linux sysfs name, e.g. "read_expire" */
  name: string;
  default: number;
  unit: string;
  min: number;
  max: number;
  /** one line: what it does */
  doc: string;
}

export interface ElevatorType<S> {
  name: string;
  /** one line for menus and docs */
  title: string;
  tunables: readonly TunableSpec[];
  init(tunables: Record<string, number>): S;
  /** a request enters the scheduler (blktrace I) */
  add(state: S, rq: IoRequest, now: number): void;
  /** the next request for the device (its slot), or −1 if none now */
  dispatch(state: S, now: number): number;
  /** the device completed a request */
  completed(state: S, rq: IoRequest, now: number): void;
  /** requests held, for draining and inspection */
  queued(state: S): number;
}

/** "none": pass-through, first in first out, no merging — the driver of issue #2. */
interface NoneState {
  fifo: number[];
  head: number;
}

export const noneElevator: ElevatorType<NoneState> = {
  name: 'none',
  title: 'none — pass-through FIFO, no merging',
  tunables: [],
  init: () => ({ fifo: [], head: 0 }),
  add(s, rq) {
    s.fifo.push(rq.slot);
  },
  dispatch(s) {
    if (s.head >= s.fifo.length) return -1;
    const id = s.fifo[s.head++]!;
    // Compact now and then so the array does not grow without bound.
    if (s.head > 1024 && s.head * 2 > s.fifo.length) {
      s.fifo = s.fifo.slice(s.head);
      s.head = 0;
    }
    return id;
  },
  completed() {},
  queued: (s) => s.fifo.length - s.head,
};

/** Elevators by name: a table, checked at registration (STYLE.md habit 5). */
const registry = new Map<string, ElevatorType<unknown>>();

export function registerElevator<S>(e: ElevatorType<S>): void {
  if (registry.has(e.name)) throw new Error(`elevator "${e.name}" registered twice`);
  for (const op of ['init', 'add', 'dispatch', 'completed', 'queued'] as const) {
    if (typeof e[op] !== 'function') throw new Error(`elevator "${e.name}" lacks ${op}()`);
  }
  registry.set(e.name, e as ElevatorType<unknown>);
}

export function getElevator(name: string): ElevatorType<unknown> | undefined {
  return registry.get(name);
}

export function elevatorNames(): string[] {
  return [...registry.keys()];
}

registerElevator(noneElevator);
