// The adaptive schedulers' state is plain data: a snapshot taken mid-run (for the switcher,
// in the middle of an elevator switch) and restored continues exactly as the run did.
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/engine/scenario/load';
import { buildModel } from '../../src/engine/model';
import {
  createSimulation,
  restore,
  runToEnd,
  runUntil,
  snapshot,
} from '../../src/engine/simulation';
import { summarize } from '../../src/engine/summary';
import type { SwitcherState } from '../../src/engine/iosched/switcher';
import '../../src/engine/iosched/registry';

function roundTrip(
  iosched: object,
  generator: object,
  count: number,
  atMs: number,
  timeMs: number,
) {
  const s = loadScenario(
    {
      name: 'snap',
      iosched,
      workload: { processes: [{ name: 'g', count, generator }] },
      stop: { timeMs },
    },
    'snap.json',
  );
  const sim = createSimulation(buildModel(s));
  runUntil(sim, atMs * 1e6);
  const snap = snapshot(sim);
  const mid = snap.host.elevator; // the copy: the live state runs on
  runToEnd(sim);
  const a = summarize(sim, s);
  restore(sim, snap);
  runToEnd(sim);
  return { a, b: summarize(sim, s), mid };
}

describe('snapshot and restore', () => {
  it('switcher: restored in the middle of an elevator switch, the run continues identically', () => {
    const r = roundTrip(
      { name: 'switcher', tunables: { sample_period_ms: 500, start_anticipatory: 1 } },
      { kind: 'fio', job: 'rand-write', fileMiB: 64, durationMs: 3000 },
      4,
      505,
      5000,
    );
    const mid = r.mid as SwitcherState;
    expect(mid.switchStartNs).toBeGreaterThanOrEqual(0); // the snapshot is mid-switch
    expect(mid.cur).toBeNull();
    expect(r.b).toEqual(r.a);
  });
  it('adio and cfq-ann: restored mid-run, the run continues identically', () => {
    const gen = { kind: 'fio', job: 'rand-read', fileMiB: 64 };
    const adio = roundTrip({ name: 'adio' }, gen, 8, 2500, 5000);
    expect(adio.b).toEqual(adio.a);
    const ann = roundTrip({ name: 'cfq-ann' }, gen, 4, 2500, 5000);
    expect(ann.b).toEqual(ann.a);
  });
});
