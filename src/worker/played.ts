// The log the page plays: a scenario run within the played bound (./bounds.ts), recorded
// from a window start `fromNs` on. Before it the simulation runs without recording (the
// sink holds only the events of requests still in flight, so those alive at fromNs are whole
// in the log); the bound counts from fromNs. Same scenario, seed and fromNs ⇒ the same log.
import { buildModel, createSimulation, step, type Scenario } from '../engine';
import { summarize } from '../engine/summary';
import { createLogSink, trackStarts, MAX_COMPLETIONS, MAX_SIM_NS, type RunLog } from './log';

/** Where a run's played window starts: the page's choice, else the lesson's hint, else 0. */
export function windowStart(scenario: Scenario, fromNs?: number): number {
  const ns = fromNs ?? (scenario.play ? scenario.play.fromMs * 1e6 : 0);
  return Number.isFinite(ns) && ns > 0 ? ns : 0;
}

export function runLog(scenario: Scenario, seed: number, fromNs = 0): RunLog {
  const model = buildModel(scenario, seed);
  const geometry = model.disk.geometry;
  const sink = createLogSink(geometry, fromNs);
  const sim = createSimulation(model, sink);
  sink.bind(sim); // the chart tables read each completed request's phases
  let bounded = false;
  while (step(sim)) {
    if (sink.completions >= MAX_COMPLETIONS || sim.state.now >= fromNs + MAX_SIM_NS) {
      bounded = true;
      break;
    }
  }
  sink.start(); // a run that ended before fromNs: its window is its last instant
  const params = model.disk.params;
  const names = model.processes.flatMap((p) =>
    p.count === 1 ? [p.name] : Array.from({ length: p.count }, (_, i) => `${p.name}${i}`),
  );
  return {
    name: scenario.name,
    title: scenario.title,
    lesson: scenario.lesson,
    seed,
    geometry: {
      surfaces: geometry.surfaces,
      cylinders: geometry.cylinders,
      zones: geometry.zones.map((z) => ({
        firstCylinder: z.firstCylinder,
        lastCylinder: z.lastCylinder,
        sectorsPerTrack: z.sectorsPerTrack,
      })),
      rpm: params.rpm,
      revolutionNs: model.disk.revolutionNs,
      initialAngle: params.initialAngle,
      trackStart: trackStarts(geometry),
      rotating: params.ssd === null,
      title: params.title,
    },
    events: sink.events,
    services: sink.services,
    decisions: sink.decisions,
    processes: names,
    fromNs: Math.min(fromNs, sim.state.now),
    endNs: sim.state.now,
    bounded,
    summary: summarize(sim, scenario),
    tables: sink.tables(),
    scenario,
  };
}
