// Same config + seed ⇒ the identical event log; snapshots re-enter a run exactly.
import { describe, expect, it } from 'vitest';
import type { TraceSink } from '../../src/engine/events';
import { buildModel } from '../../src/engine/model';
import { runScenario } from '../../src/engine/run';
import { createSimulation, restore, snapshot, step } from '../../src/engine/sim/simulation';
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
