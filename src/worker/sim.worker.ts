// The worker that owns a simulation: a thin adapter from messages to engine calls
// (STYLE.md habit 1). The page talks to it through comlink; see ./client.ts.
//   load(json, seed)  → the bounded run's log (events, services, decisions, geometry, summary)
//   run(id, json, source, overrides, seed)
//                     → the same, with the page's overrides (src/app/config.ts) applied to
//                       the lesson first; runs are kept by id (compare mode has several)
//   inspectAt(tNs, id) → the block layer's and the drive's inspection views at that instant,
//                       from a second simulation kept on a timeline (snapshots to step back)
//   catalog()         → what may be configured: schedulers and their tunables, queue
//                       settings, kernels, HZ, disk presets, drive schedulers (plain data)
import { expose } from 'comlink';
import {
  DISK_SCHEDULERS,
  getPreset,
  presetNames,
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
import { applyOverrides, type Catalog, type RunOverrides, type TunableInfo } from '../app/config';
import { elevatorNames, getElevator } from '../engine/iosched/elevator';
import { hostView } from '../engine/iosched/inspect';
import { HZ_VALUES, KERNELS, QUEUE_SETTINGS } from '../engine/iosched/queue-settings';
import { defaultAt, type TunableSpec } from '../engine/iosched/types';
import { summarize } from '../engine/summary';
import { GENERATOR_CHOICES } from '../engine/workload/generators';
import { chartMethods } from './chart-tables';
import { createLogSink, trackStarts, MAX_COMPLETIONS, MAX_SIM_NS, type RunLog } from './log';

export type { RunLog } from './log';

export interface InspectView {
  tNs: number;
  host: Record<string, unknown>;
  drive: DriveView;
}

interface Run {
  scenario: Scenario;
  seed: number;
  timeline: Timeline | null;
  endNs: number;
}

/** The runs the page holds, by id ("main", or a compare column's); at most MAX_RUNS, the
 * oldest dropped first. `load` and run id "main" are what inspectAt reads by default. */
const runs = new Map<string, Run>();
const MAX_RUNS = 6;
const MAIN = 'main';

function keep(id: string, run: Run): void {
  runs.delete(id);
  runs.set(id, run);
  while (runs.size > MAX_RUNS) runs.delete(runs.keys().next().value!);
}

function tunableInfo(t: TunableSpec): TunableInfo {
  return {
    name: t.name,
    unit: t.unit,
    min: t.min,
    max: t.max,
    doc: t.doc,
    defaults: Object.fromEntries(HZ_VALUES.map((hz) => [hz, defaultAt(t, hz)])),
  };
}

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
    keep(MAIN, { scenario, seed: s, timeline: null, endNs: log.endNs });
    return log;
  },

  /**
   * Run a lesson with the page's overrides applied (config.ts applyOverrides); the engine's
   * loader checks the result, so an override it refuses comes back as a ScenarioError
   * naming the key.
   */
  run(id: string, json: unknown, source: string, overrides: RunOverrides, seed?: number): RunLog {
    const scenario = loadScenario(applyOverrides(json, overrides, seed), source);
    const log = runLog(scenario, scenario.seed);
    keep(id, { scenario, seed: scenario.seed, timeline: null, endNs: log.endNs });
    return log;
  },

  /** The scheduler's and the drive's state after every event at or before tNs. */
  inspectAt(tNs: number, id: string = MAIN): InspectView | null {
    const current = runs.get(id);
    if (!current) return null;
    if (!current.timeline) {
      const sim = createSimulation(buildModel(current.scenario, current.seed), null);
      current.timeline = createTimeline(sim, Math.max(1, current.endNs / 128));
    }
    const tl = current.timeline;
    seekTo(tl, Math.min(tNs, current.endNs));
    return { tNs, host: hostView(tl.sim), drive: inspectDrive(tl.sim) };
  },

  /** Everything the settings panel offers, from the engine's own tables. */
  catalog(): Catalog {
    return {
      schedulers: elevatorNames().map((name) => ({
        name,
        tunables: (getElevator(name)?.tunables ?? []).map(tunableInfo),
      })),
      queue: QUEUE_SETTINGS.map(tunableInfo),
      kernels: [...KERNELS],
      hz: [...HZ_VALUES],
      presets: presetNames().flatMap((name) => {
        const p = getPreset(name);
        return p
          ? [{ name, title: p.title, maxQueueDepth: p.maxQueueDepth, ssd: p.ssd !== null }]
          : [];
      }),
      diskSchedulers: [...DISK_SCHEDULERS],
      generators: GENERATOR_CHOICES.map((g) => ({ ...g, choices: [...g.choices] })),
    };
  },
};

export type SimApi = typeof api;

expose(api);
