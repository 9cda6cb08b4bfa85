// Same config + seed ⇒ the identical event log; snapshots re-enter a run exactly.
import { describe, expect, it } from 'vitest';
import type { TraceSink } from '../../src/engine/events';
import { buildModel } from '../../src/engine/model';
import { runScenario } from '../../src/engine/run';
import { createSimulation, restore, snapshot, step } from '../../src/engine/simulation';
import { proc, scenario } from '../helpers/scenario';

function logOf(seed: number): string[] {
  const log: string[] = [];
  const sink: TraceSink = {
    trace: (e) => log.push(`${e.tNs} ${e.action} ${e.rq} ${e.sector}+${e.nSectors}`),
    service: (s) => log.push(`svc ${s.rq} ${s.startNs} ${s.mediaEndNs}`),
    decision: (d) => log.push(`dec ${d.rule} ${d.chosen}`),
  };
  runScenario(
    scenario({
      scheduler: 'sptf',
      queueDepth: 8,
      processes: [
        proc({ count: 4, op: 'mix' }),
        proc({
          name: 'w',
          mode: 'open',
          rateIops: 40,
          op: 'write',
          pattern: 'sequential',
          sizeKiB: { min: 4, max: 64 },
        }),
      ],
      stopRequests: 3000,
      seed,
    }),
    { sink },
  );
  return log;
}

describe('determinism', () => {
  it('the same seed gives a bit-identical event log', () => {
    const a = logOf(7);
    const b = logOf(7);
    expect(a.length).toBeGreaterThan(10000);
    expect(b).toEqual(a);
  });

  it('another seed gives another run', () => {
    expect(logOf(8)).not.toEqual(logOf(7));
  });

  it('a snapshot restored mid-run continues exactly as the original did', () => {
    const model = buildModel(
      scenario({
        scheduler: 'sptf',
        queueDepth: 4,
        processes: [proc({ count: 4 })],
        stopRequests: 4000,
      }),
    );
    const sim = createSimulation(model);
    for (let i = 0; i < 5000; i++) step(sim);
    const snap = snapshot(sim);
    while (step(sim)) {
      /* to the end */
    }
    const end = { t: sim.state.now, steps: sim.state.steps, q2c: sim.state.metrics.q2c.sumNs };
    restore(sim, snap);
    expect(sim.state.steps).toBe(5000);
    while (step(sim)) {
      /* again */
    }
    expect({ t: sim.state.now, steps: sim.state.steps, q2c: sim.state.metrics.q2c.sumNs }).toEqual(
      end,
    );
  });
});

describe('determinism of the blk-mq schedulers on kernel 6.18', () => {
  // each scheduler's state is plain data: a snapshot mid-run (timers, tokens, histograms,
  // queues) continues exactly as the run it was taken from
  it.each(['mq-deadline', 'kyber', 'bfq'])(
    '%s: same seed, same log; a snapshot continues exactly',
    (name) => {
      const sc = scenario({
        iosched: name,
        kernel: '6.18',
        preset: 'sata-7200-500g',
        queueDepth: 8,
        processes: [
          proc({ count: 4, op: 'mix', readFraction: 0.7 }),
          proc({ name: 'w', count: 2, op: 'write', sync: false, outstanding: 8 }),
        ],
        stopRequests: 3000,
      });
      const once = () => {
        const sim = createSimulation(buildModel(sc));
        while (step(sim)) {
          /* to the end */
        }
        return { t: sim.state.now, steps: sim.state.steps, q2c: sim.state.metrics.q2c.sumNs };
      };
      const end = once();
      expect(once()).toEqual(end);
      const sim = createSimulation(buildModel(sc));
      for (let i = 0; i < 4000; i++) step(sim);
      const snap = snapshot(sim);
      while (step(sim)) {
        /* to the end */
      }
      restore(sim, snap);
      while (step(sim)) {
        /* again */
      }
      expect({
        t: sim.state.now,
        steps: sim.state.steps,
        q2c: sim.state.metrics.q2c.sumNs,
      }).toEqual(end);
    },
  );
});

describe('timeline: periodic snapshots and seeking back', () => {
  it('seeking back to an earlier time and forward again reproduces the run', async () => {
    const { createTimeline, seekTo, stepTimeline } = await import('../../src/engine/timeline');
    const model = buildModel(
      scenario({
        scheduler: 'sptf',
        queueDepth: 8,
        processes: [proc({ count: 8, op: 'mix' })],
        stopRequests: 3000,
      }),
    );
    const tl = createTimeline(createSimulation(model), 50e6, 8);
    while (stepTimeline(tl)) {
      /* run to the end, snapshotting */
    }
    expect(tl.snaps.length).toBeLessThanOrEqual(9);
    expect(tl.snaps.length).toBeGreaterThan(3);
    const end = {
      t: tl.sim.state.now,
      steps: tl.sim.state.steps,
      sum: tl.sim.state.metrics.q2c.sumNs,
    };
    const middle = end.t / 2;
    seekTo(tl, middle);
    expect(tl.sim.state.now).toBeLessThanOrEqual(middle);
    expect(tl.sim.state.now).toBeGreaterThan(middle - 50e6 * 16);
    const midSteps = tl.sim.state.steps;
    expect(midSteps).toBeLessThan(end.steps);
    seekTo(tl, end.t);
    expect({
      t: tl.sim.state.now,
      steps: tl.sim.state.steps,
      sum: tl.sim.state.metrics.q2c.sumNs,
    }).toEqual(end);
  }, 30_000);
});
