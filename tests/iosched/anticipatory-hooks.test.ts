// AS hooks the framework does not call yet (LINUX-SCHEDULERS.md §4.7–4.8): the merge
// hooks with the front-merge quirk, forced dispatch and may_queue, on a hand-driven context.
import { describe, expect, it } from 'vitest';
import { anticipatory } from '../../src/engine/iosched/anticipatory';
import { harness, MS } from './anticipatory-harness';

describe('hooks the framework calls once merging lands (§4.8), forced dispatch, may_queue', () => {
  it('front-merge lookup indexes the trees by the bio direction (the kernel quirk)', () => {
    const h = harness();
    const read = h.add(1, 1000);
    h.add(2, 2000, { write: true }); // async write
    const syncWrite = h.add(3, 3000, { write: true, sync: true });
    const front = anticipatory.frontMergeCandidate!;
    // A read bio ending at 1000 looks in the async tree: never merges in front of a read.
    expect(front(h.s, h.bio(1, 992, 8, false), 1000, h.ctx)).toBe(-1);
    expect(read.sector).toBe(1000);
    // An async write bio ending at 2000 looks in the sync tree: misses the async write.
    expect(front(h.s, h.bio(2, 1992, 8, true), 2000, h.ctx)).toBe(-1);
    // A write bio (even async) ending at 3000 finds the sync write.
    expect(front(h.s, h.bio(2, 2992, 8, true), 3000, h.ctx)).toBe(syncWrite.slot);
  });

  it('after a front merge the request is re-sorted; former/latter are sort-list neighbours', () => {
    const h = harness();
    const a = h.add(1, 1000);
    const b = h.add(1, 2000);
    const c = h.add(1, 3000);
    b.sector = 500; // the framework merged a bio in front of b
    b.nSectors += 1500;
    anticipatory.merged!(h.s, b, true, h.ctx);
    expect(h.s.sortList[1]).toEqual([b.slot, a.slot, c.slot]);
    expect(anticipatory.formerRequest!(h.s, a, h.ctx)).toBe(b.slot);
    expect(anticipatory.latterRequest!(h.s, a, h.ctx)).toBe(c.slot);
    expect(anticipatory.formerRequest!(h.s, b, h.ctx)).toBe(-1);
  });

  it('request–request merge: the survivor takes the earlier FIFO time and place; the absorbed counts as done', () => {
    const h = harness();
    const early = h.add(2, 5008); // FIFO first
    h.now = 10 * MS; // (FIFO times are jiffies: 4 ms apart at HZ 250)
    const other = h.add(3, 9000);
    h.now = 20 * MS;
    const survivor = h.add(1, 4000);
    h.now = 30 * MS;
    survivor.nSectors += early.nSectors; // the framework joined early onto survivor's back
    anticipatory.requestsMerged!(h.s, survivor, early, h.ctx);
    expect(h.s.fifoList[1]).toEqual([survivor.slot, other.slot]);
    expect(survivor.fifoNs).toBe(early.fifoNs);
    expect(h.s.sortList[1]).toEqual([survivor.slot, other.slot]);
    expect(h.s.aic[2]!.nrQueued).toBe(0);
    expect(h.s.aic[2]!.ioRunning).toBe(true); // as_put_io_context: a sync request is done
    expect(h.s.aic[2]!.lastEndRequestJ).toBe(7); // 30 ms at HZ 250
    expect(anticipatory.queued(h.s)).toBe(2);
  });

  it('forced dispatch drains all sync requests in elevator order, then all async ones', () => {
    const h = harness();
    h.add(1, 5000, { write: true });
    h.add(2, 3000);
    h.add(3, 1000);
    h.add(4, 2000, { write: true });
    h.add(5, 4000);
    const order: number[] = [];
    for (let rq = h.dispatch(true); rq; rq = h.dispatch(true)) order.push(rq.sector);
    expect(order).toEqual([1000, 3000, 4000, 2000, 5000]);
    expect(h.decisions.every((d) => d.rule === 'forced-dispatch')).toBe(true);
    expect(h.s.batchDir).toBe(1);
  });

  it("may_queue: 'must' for the process AS is anticipating on, 'may' for others", () => {
    const h = harness();
    h.add(1, 1000);
    const r = h.dispatch()!;
    expect(h.decisions.at(-1)!.rule).toBe('read-batch');
    h.add(9, 500_000, { write: true });
    const mayQueue = anticipatory.mayQueue!;
    expect(mayQueue(h.s, h.bio(1, 2000, 8, false), h.ctx)).toBe('may');
    h.now = 5 * MS;
    h.complete(r);
    expect(h.dispatch()).toBeNull(); // the write waits: anticipating on pid 1
    expect(h.decisions.at(-1)!.rule).toBe('anticipate-start');
    expect(h.s.anticStatus).toBe('WAIT_NEXT');
    // antic_start (jiffy 1, from 4 ms) + antic_expire (1 jiffy): the next tick, 3 ms on.
    expect(h.timerAt).toBe(8 * MS);
    expect(mayQueue(h.s, h.bio(1, 2000, 8, false), h.ctx)).toBe('must');
    expect(mayQueue(h.s, h.bio(9, 2000, 8, true), h.ctx)).toBe('may');
  });
});
