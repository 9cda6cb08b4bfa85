// Properties every I/O scheduler must keep, over random finite workloads × every registered
// scheduler × disk presets × queue depths × the 2.6 and 6.18 block layers (fast-check, fixed seed, bounded runs):
// every queued sector completes exactly once, merges conserve sectors, time never goes
// backwards, nothing waits forever, a scheduler that never idles never leaves the device
// idle while it holds a request it could dispatch, and one that idles (AS, CFQ) leaves an
// idle device with requests waiting only inside a window its timer will close.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '../../src/engine/events';
import { elevatorNames } from '../../src/engine/iosched/elevator';
import '../../src/engine/iosched/registry';
import { buildModel } from '../../src/engine/model';
import type { FixedRequest } from '../../src/engine/scenario/types';
import { createSimulation, step } from '../../src/engine/simulation';
import { driveHasFreeTag } from '../../src/engine/disk/drive';
import { proc, scenario } from '../helpers/scenario';
import { getPreset } from '../../src/engine/disk/presets';
import { buildGeometry } from '../../src/engine/disk/geometry';

function capacityOf(preset: string): number {
  const p = getPreset(preset)!;
  return buildGeometry(p.surfaces, p.cylinders, p.zones).totalLbns;
}

/** Schedulers that never hold back a request on purpose (no anticipation, no idling). */
const NEVER_IDLE = new Set(['none', 'noop', 'deadline']);

const ioArb = fc.record({
  /** where on the disk, as a fraction of its capacity; two thirds land near the start so
   * neighbours (and merges) happen */
  where: fc.oneof(
    fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
    fc.integer({ min: 0, max: 12 }).map((x) => -x),
    fc.integer({ min: 0, max: 12 }).map((x) => -x),
  ),
  sizeKiB: fc.constantFrom(0.5, 4, 4, 4, 8, 64),
  op: fc.constantFrom('read' as const, 'write' as const),
  atMs: fc.oneof(
    fc.double({ min: 0, max: 40, noNaN: true }),
    fc.double({ min: 0, max: 2, noNaN: true }),
  ),
});

const caseArb = fc.record({
  scheduler: fc.constantFrom(...elevatorNames()),
  preset: fc.constantFrom('hp-c2247a', 'teaching', 'ssd', 'sata-7200-500g'),
  queueDepth: fc.constantFrom(1, 2, 4, 32),
  diskScheduler: fc.constantFrom('fcfs' as const, 'sptf' as const),
  cache: fc.constantFrom(null, 'write-back' as const),
  sync: fc.constantFrom(null, true, false),
  /** 6.18: each process's own plug instead of the queue plug */
  kernel: fc.constantFrom('2.6.32' as const, '6.18' as const),
  processes: fc.array(fc.array(ioArb, { minLength: 1, maxLength: 16 }), {
    minLength: 1,
    maxLength: 5,
  }),
});

describe('scheduler properties (fast-check, seed 20261121)', () => {
  it('hold for random workloads on every scheduler', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const capacity = getPreset(c.preset)!.zones.length > 0 ? capacityOf(c.preset) : 0;
        const processes = c.processes.map((ios, i) => {
          const requests: FixedRequest[] = [...ios]
            .sort((a, b) => a.atMs - b.atMs)
            .map(({ where, ...io }) => {
              const n = io.sizeKiB * 2;
              // A fraction places it anywhere; a small negative number picks 4 KiB slot −where.
              const slot = where >= 0 ? Math.floor(where * (capacity - n)) : -where * 8;
              const sector = Math.min(slot, capacity - n);
              return { ...io, sector, thinkTimeMs: null };
            });
          return proc({ name: `p${i}`, requests, sync: c.sync });
          // (a small area and many 4 KiB I/Os make merges, request–request ones included, common)
        });
        const model = buildModel(
          scenario({
            iosched: c.scheduler,
            preset: c.preset,
            queueDepth: c.queueDepth,
            scheduler: c.diskScheduler,
            cache: c.cache,
            // a small write-back buffer so QUEUE FULL and requeues (R) happen
            overrides: c.cache ? { cache: { writeBufferSectors: 64 } } : {},
            kernel: c.kernel,
            processes,
          }),
        );
        const events: TraceEvent[] = [];
        const sim = createSimulation(model, {
          trace: (e) => events.push(e),
          service() {},
          decision() {},
        });
        let steps = 0;
        while (step(sim)) {
          steps++;
          if (steps > 200000) throw new Error('runaway run');
          const h = sim.state.host;
          const holding = h.dispatchQueue.length + sim.elevator.queued(h.elevator);
          if (NEVER_IDLE.has(c.scheduler)) {
            if (holding > 0 && !h.plugged && !h.blocked && driveHasFreeTag(sim)) {
              throw new Error(`device idle with ${holding} dispatchable at ${sim.state.now} ns`);
            }
          } else if (holding > 0 && !h.plugged && !h.blocked && h.inDriver === 0 && h.timerAt < 0) {
            // AS and CFQ may hold requests back only inside an anticipation or idle window,
            // which they open by arming their timer: an idle device with requests waiting
            // and no timer would wait forever.
            throw new Error(
              `${c.scheduler} left the device idle with ${holding} waiting and no timer at ${sim.state.now} ns`,
            );
          }
        }
        const issued = c.processes.reduce((n, ios) => n + ios.length, 0);
        const of = (a: string) => events.filter((e) => e.action === a);
        // Every bio queued, completed exactly once (nothing waits forever).
        expect(of('Q')).toHaveLength(issued);
        expect(sim.state.metrics.iosCompleted).toBe(issued);
        // Merges conserve sectors: what completed is exactly what was queued.
        const sectors = (list: TraceEvent[]) => list.reduce((n, e) => n + e.nSectors, 0);
        expect(sectors(of('C'))).toBe(sectors(of('Q')));
        // Every dispatch completes, unless the device refused it (R) and it went again.
        expect(of('D')).toHaveLength(of('C').length + of('R').length);
        // Time never goes backwards.
        for (let i = 1; i < events.length; i++) {
          expect(events[i]!.tNs).toBeGreaterThanOrEqual(events[i - 1]!.tNs);
        }
        // Each dispatched request carries its sectors once: no overlap among live requests.
        const live = new Map<number, TraceEvent>();
        for (const e of of('D')
          .concat(of('C'))
          .sort((a, b) => a.tNs - b.tNs)) {
          if (e.action === 'D') live.set(e.rq, e);
          else live.delete(e.rq);
        }
        expect(live.size).toBe(0);
      }),
      { seed: 20261121, numRuns: 150, interruptAfterTimeLimit: 20000 },
    );
    // eleven schedulers (kyber and bfq included) take ~6 s alone: more on a loaded machine
  }, 60_000);
});
