// The worker that owns a simulation: a thin adapter from messages to engine calls
// (STYLE.md habit 1). The page talks to it through comlink; see ./client.ts.
//   load(json, seed)  → the bounded run's log (events, services, decisions, geometry, summary)
//   inspectAt(tNs)    → the block layer's and the drive's inspection views at that instant,
//                       from a second simulation kept on a timeline (snapshots to step back)
import { expose } from 'comlink';
import {
  buildModel,
  createSimulation,
  createTimeline,
  inspectDrive,
  loadScenario,
  seekTo,
  step,
  type DriveView,
  type Scenario,
  type Timeline,
} from '../engine';
import { hostView } from '../engine/iosched/inspect';
import { summarize } from '../engine/summary';
import { chartMethods } from './chart-tables';
import { createLogSink, trackStarts, MAX_COMPLETIONS, MAX_SIM_NS, type RunLog } from './log';

export type { RunLog } from './log';

export interface InspectView {
  tNs: number;
  host: Record<string, unknown>;
  drive: DriveView;
}

let current: { scenario: Scenario; seed: number; timeline: Timeline | null; endNs: number } | null =
  null;

function runLog(scenario: Scenario, seed: number): RunLog {
  const model = buildModel(scenario, seed);
  const geometry = model.disk.geometry;
  const sink = createLogSink(geometry);
  const sim = createSimulation(model, sink);
  sink.bind(sim); // the chart tables read each completed request's phases
  let bounded = false;
  while (step(sim)) {
    if (sink.completions >= MAX_COMPLETIONS || sim.state.now >= MAX_SIM_NS) {
      bounded = true;
      break;
    }
  }
  const params = model.disk.params;
  const names = scenario.workload.processes.flatMap((p) =>
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
    endNs: sim.state.now,
    bounded,
    summary: summarize(sim, scenario),
    tables: sink.tables(),
    scenario,
  };
}

const api = {
  /** the charts panel's: the whole run's tables, a run as blkparse text (./chart-tables.ts) */
  ...chartMethods,

  /**
   * Validate a scenario file's JSON and run it (bounded). An invalid scenario throws the
   * engine's ScenarioError; comlink re-throws it in the page with its message (file and key).
   */
  load(json: unknown, source: string, seed?: number): RunLog {
    const scenario = loadScenario(json, source);
    const s = seed ?? scenario.seed;
    const log = runLog(scenario, s);
    current = { scenario, seed: s, timeline: null, endNs: log.endNs };
    return log;
  },

  /** The scheduler's and the drive's state after every event at or before tNs. */
  inspectAt(tNs: number): InspectView | null {
    if (!current) return null;
    if (!current.timeline) {
      const sim = createSimulation(buildModel(current.scenario, current.seed), null);
      current.timeline = createTimeline(sim, Math.max(1, current.endNs / 128));
    }
    const tl = current.timeline;
    seekTo(tl, Math.min(tNs, current.endNs));
    return { tNs, host: hostView(tl.sim), drive: inspectDrive(tl.sim) };
  },
};

export type SimApi = typeof api;

expose(api);
