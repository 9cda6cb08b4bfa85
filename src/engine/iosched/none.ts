// "none": pass-through, first in first out, no merging and no plugging — Spindle's
// baseline driver (the engine issue's), for watching the disk alone. Not Linux's noop,
// which merges (noop.ts).
import type { ElevatorType } from './types';

interface NoneState {
  /** the queue is fifo[head … tail); the array only grows (to the longest queue seen) and
   * is reused from its start once drained, so queueing allocates nothing per request (a
   * compacting slice gave V8 a new array to grow again, piece by piece, every 1,024) */
  fifo: number[];
  head: number;
  tail: number;
}

/** Compact now and then, in place, so a queue that never drains stays bounded. Apart from
 * dispatch so its bytecode stays small: V8 inlines dispatch into the driver's loop within an
 * inlining budget that the drive's accept path shares. */
function compact(s: NoneState): void {
  s.fifo.copyWithin(0, s.head, s.tail);
  s.tail -= s.head;
  s.head = 0;
}

export const none: ElevatorType<NoneState> = {
  name: 'none',
  title: 'none — pass-through FIFO: no merging, no plugging',
  tunables: [],
  dispatchInsert: 'append',
  passthrough: true,
  init: () => ({ fifo: [], head: 0, tail: 0 }),
  add(s, rq) {
    if (s.tail < s.fifo.length) s.fifo[s.tail] = rq.slot;
    else s.fifo.push(rq.slot);
    s.tail++;
  },
  dispatch(s) {
    if (s.head >= s.tail) return -1;
    const slot = s.fifo[s.head++]!;
    if (s.head === s.tail) {
      // drained: the next request goes to the front again
      s.head = 0;
      s.tail = 0;
    } else if (s.head > 1024 && s.head * 2 > s.tail) compact(s);
    return slot;
  },
  completed() {},
  queued: (s) => s.tail - s.head,
  inspect: (s, ctx) => ({
    fifo: s.fifo.slice(s.head, s.tail).map((slot) => ctx.rq(slot).id),
  }),
};
