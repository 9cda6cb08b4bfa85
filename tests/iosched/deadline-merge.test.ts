// The deadline I/O scheduler (src/engine/iosched/deadline.ts), LINUX-SCHEDULERS.md §3.5 and
// §1.4: its merge hooks, called directly and through the block layer's merging. The scene is
// deadline-harness.ts's.
import { describe, expect, it } from 'vitest';
import { deadline } from '../../src/engine/iosched/deadline';
import type { Bio } from '../../src/engine/iosched/types';
import type { Simulation } from '../../src/engine/simulation';
import { testBio } from '../helpers/bio';
import { BUSY, rd, wr } from '../helpers/traced-run';
import { MS, reads, run, simAt, stateOf, syncWrites, view } from './deadline-harness';

describe('deadline: merge hooks (§3.5, §1.4)', () => {
  // Two run through the block layer's merging; the rest call the hooks directly, on the
  // scheduler state and requests of a real simulation stopped at 10 ms, to reach cases a
  // workload cannot set up precisely.
  const procs = () => [
    reads(BUSY, rd(1000, 1), rd(3000, 2), rd(2000, 3)),
    syncWrites(wr(8000, 4), wr(6000, 5)),
  ];
  const bio = (sector: number, nSectors: number, write: boolean): Bio =>
    testBio({ id: 99, sector, nSectors, write });
  const slotOf = (sim: Simulation, id: number) =>
    sim.state.requests.slots.find((q) => q.id === id && q.completedNs < 0)!.slot;

  it('§3.5 front-merge lookup: the request starting at the bio’s end, same direction, only with front_merges = 1', () => {
    const sim = simAt(procs(), {}, 10);
    const s = stateOf(sim);
    expect(deadline.frontMergeCandidate!(s, bio(2992, 8, false), 3000, sim.ctx)).toBe(
      slotOf(sim, 2),
    );
    expect(deadline.frontMergeCandidate!(s, bio(5992, 8, true), 6000, sim.ctx)).toBe(
      slotOf(sim, 5),
    );
    expect(deadline.frontMergeCandidate!(s, bio(5992, 8, false), 6000, sim.ctx)).toBe(-1);
    const off = simAt(procs(), { front_merges: 0 }, 10);
    expect(deadline.frontMergeCandidate!(stateOf(off), bio(2992, 8, false), 3000, off.ctx)).toBe(
      -1,
    );
  });

  it('§3.5 after a front merge the request is re-sorted', () => {
    const sim = simAt(procs(), {}, 10);
    const rq = sim.ctx.rq(slotOf(sim, 2)); // R3000 takes a bio at 500+2500 sectors in front
    rq.sector = 500;
    rq.nSectors += 2500;
    deadline.merged!(stateOf(sim), rq, true, sim.ctx);
    expect(view(sim).sortRead).toEqual([2, 1, 3]);
  });

  it('§1.4 request–request merge: former/latter are sort-list neighbours; the survivor takes the earlier deadline and FIFO position', () => {
    const sim = simAt(procs(), {}, 10);
    const s = stateOf(sim);
    const [r1000, r3000, r2000] = [1, 2, 3].map((id) => sim.ctx.rq(slotOf(sim, id)));
    expect(deadline.latterRequest!(s, r1000!, sim.ctx)).toBe(r2000!.slot);
    expect(deadline.formerRequest!(s, r3000!, sim.ctx)).toBe(r2000!.slot);
    expect(deadline.formerRequest!(s, r1000!, sim.ctx)).toBe(-1);
    // R2000 (inserted at 3 ms) absorbs R3000 (2 ms): it takes R3000's deadline and place.
    r2000!.nSectors += 1000;
    deadline.requestsMerged!(s, r2000!, r3000!, sim.ctx);
    const v = view(sim);
    expect(v.readFifo.map((e) => [e.rq, e.deadlineMs])).toEqual([
      [1, 501],
      [3, 502],
    ]);
    expect(v.sortRead).toEqual([1, 3]);
    expect(r3000!.fifoNs).toBe(-1);
    // the other way round: a survivor whose deadline is earlier keeps its own
    deadline.requestsMerged!(s, r1000!, r2000!, sim.ctx);
    expect(view(sim).readFifo).toEqual([{ rq: 1, sector: 1000, nSectors: 8, deadlineMs: 501 }]);
  });

  it('§3.5 in the block layer: a bio ending at a sorted request front-merges through the sort list only with front_merges = 1', () => {
    // The one-hit cache holds R9000 (the first request inserted after BUSY left) when the
    // bio 4992+8 arrives, so only the scheduler's sort-list lookup can find R5000.
    const p = [reads(BUSY, rd(9000, 1), rd(5000, 2), rd(4992, 3))];
    const on = run(p);
    expect(on.trace.filter((e) => e.action === 'F').map((e) => e.sector)).toEqual([4992]);
    expect(on.d.map((e) => `${e.sector}+${e.nSectors}`)).toContain('4992+16');
    const off = run(p, { front_merges: 0 });
    expect(off.trace.some((e) => e.action === 'F')).toBe(false);
    expect(off.d.map((e) => `${e.sector}+${e.nSectors}`)).toEqual(
      expect.arrayContaining(['5000+8', '4992+8']),
    );
  });

  it('§3.5 in the block layer: after a back merge closes a gap, the survivor takes the absorbed request’s earlier deadline and FIFO place', () => {
    // FIFO: R1016 (1 ms), R3000 (1.5 ms), R1000 (2 ms). The bio 1008+8 joins R1000, which
    // then absorbs R1016: R1000+24 inherits R1016's deadline (501 ms) and place.
    const p = [reads(BUSY, rd(1016, 1), rd(3000, 1.5), rd(1000, 2), rd(1008, 3))];
    const v = view(simAt(p, {}, 10));
    expect(v.readFifo.map((e) => [e.sector, e.nSectors, e.deadlineMs])).toEqual([
      [1000, 24, 501],
      [3000, 8, 501.5],
    ]);
    expect(v.sortRead).toEqual(v.readFifo.map((e) => e.rq));
  });

  it('§3.5 an absorbed request that was next_rq hands next_rq to its sector successor', () => {
    const p = [reads(BUSY, rd(1000, 1), rd(2000, 2), rd(3000, 3))];
    const r = run(p, { fifo_batch: 1 });
    // stop just after R1000's dispatch: next_rq[READ] = R2000
    const sim = simAt(p, { fifo_batch: 1 }, r.d[1]!.tNs / MS + 1e-6);
    expect(view(sim).nextRq.read).toBe(2);
    const s = stateOf(sim);
    deadline.requestsMerged!(s, sim.ctx.rq(slotOf(sim, 3)), sim.ctx.rq(slotOf(sim, 2)), sim.ctx);
    expect(view(sim).nextRq.read).toBe(3);
  });
});
