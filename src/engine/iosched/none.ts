// "none": pass-through, first in first out, no merging and no plugging — Spindle's
// baseline driver (the engine issue's), for watching the disk alone. Not Linux's noop,
// which merges (noop.ts).
import type { ElevatorType } from './types';

interface NoneState {
  fifo: number[];
  head: number;
}

export const none: ElevatorType<NoneState> = {
  name: 'none',
  title: 'none — pass-through FIFO: no merging, no plugging',
  tunables: [],
  dispatchInsert: 'append',
  passthrough: true,
  init: () => ({ fifo: [], head: 0 }),
  add(s, rq) {
    s.fifo.push(rq.slot);
  },
  dispatch(s) {
    if (s.head >= s.fifo.length) return -1;
    const slot = s.fifo[s.head++]!;
    // Compact now and then so the array does not grow without bound.
    if (s.head > 1024 && s.head * 2 > s.fifo.length) {
      s.fifo = s.fifo.slice(s.head);
      s.head = 0;
    }
    return slot;
  },
  completed() {},
  queued: (s) => s.fifo.length - s.head,
  inspect: (s, ctx) => ({ fifo: s.fifo.slice(s.head).map((slot) => ctx.rq(slot).id) }),
};
