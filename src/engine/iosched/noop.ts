// noop (LINUX-SCHEDULERS.md §2): one FIFO list; add at the tail, dispatch the head, one
// request per call, never idle. It merges only through the block layer's generic paths
// (the one-hit cache and the back-merge hash); its "former/latter" requests are its FIFO
// neighbours, so a request–request merge happens only between list neighbours. In
// 2.6.16 there was no generic hash, so noop merged only back-to-back arrivals.
import type { ElevatorType } from './types';
import { fifoRemove } from './common';

interface NoopState {
  /** request slots in arrival order */
  fifo: number[];
}

export type NoopRule = 'fifo-head';

export const noop: ElevatorType<NoopState> = {
  name: 'noop',
  title: 'noop — first come, first served, plus merging',
  tunables: [],
  dispatchInsert: 'sort',
  legacyOneHitOnly: true,
  init: () => ({ fifo: [] }),
  add(s, rq) {
    s.fifo.push(rq.slot);
  },
  dispatch(s, _force, ctx) {
    const slot = s.fifo.shift();
    if (slot === undefined) return -1;
    if (ctx.recording) {
      const rq = ctx.rq(slot);
      const rule: NoopRule = 'fifo-head';
      ctx.decide(
        rule,
        slot,
        s.fifo.map((other) => ({ slot: other, note: 'arrived later' })),
        `noop: FIFO head → dispatch ${rq.write ? 'W' : 'R'} ${rq.sector}+${rq.nSectors}`,
      );
    }
    return slot;
  },
  formerRequest(s, rq) {
    const i = s.fifo.indexOf(rq.slot);
    return i > 0 ? s.fifo[i - 1]! : -1;
  },
  latterRequest(s, rq) {
    const i = s.fifo.indexOf(rq.slot);
    return i >= 0 && i + 1 < s.fifo.length ? s.fifo[i + 1]! : -1;
  },
  requestsMerged(s, _survivor, absorbed) {
    fifoRemove(s.fifo, absorbed.slot);
  },
  completed() {},
  queued: (s) => s.fifo.length,
  inspect: (s, ctx) => ({ fifo: s.fifo.map((slot) => ctx.rq(slot).id) }),
};
