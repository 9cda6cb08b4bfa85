// The worker that owns a simulation: a thin adapter from messages to engine calls
// (STYLE.md habit 1). The page talks to it through comlink; see ./client.ts.
//   load(json, seed, fromNs)  → the bounded run's log (events, services, decisions, geometry,
//                       summary) from fromNs on (./played.ts; absent: the lesson's
//                       play.fromMs, else 0)
//   run(id, json, source, overrides, seed, fromNs)
//                     → the same, with the page's overrides (src/app/config.ts) applied to
//                       the lesson first; runs are kept by id (compare mode has several)
//   inspectAt(tNs, id) → the block layer's and the drive's inspection views at that instant,
//                       from a second simulation kept on a timeline (snapshots to step back)
//   catalog()         → what may be configured: schedulers and their tunables, queue
//                       settings, kernels, HZ, disk presets (and the user's disks), drive
//                       schedulers (plain data)
//   openDiskFiles(files) → DiskSim .parv sets (and .zip) read into user's disks ("file:…",
//                       ./disk-files.ts), registered beside the presets; forgetDisk(name)
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
  peekTime,
  seekTo,
  step,
  type DriveView,
  type Scenario,
  type Timeline,
} from '../engine';
import { applyOverrides, type Catalog, type RunOverrides, type TunableInfo } from '../app/config';
import { elevatorNames, getElevator } from '../engine/iosched/elevator';
import { hostView } from '../engine/inspect';
import { HZ_VALUES, KERNELS, QUEUE_SETTINGS } from '../engine/iosched/queue-settings';
import { defaultAt, type TunableSpec } from '../engine/iosched/types';
import { GENERATOR_CHOICES } from '../engine/workload/generators';
import { seriesMethods } from './chart-series';
import { chartMethods } from './chart-tables';
import { forgetUserDisk, openDiskFiles, userDiskInfo } from './disk-files';
import type { RunLog } from './log';
import { runLog, windowStart } from './played';

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
  fromNs: number;
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

const api = {
  /** the charts panel's: the whole run's tables, a run as blkparse text (./chart-tables.ts) */
  ...chartMethods,
  /** every chart's series, computed here (./chart-series.ts) */
  ...seriesMethods,

  /**
   * Validate a scenario file's JSON and run it (bounded). An invalid scenario throws the
   * engine's ScenarioError; comlink re-throws it in the page with its message (file and key).
   */
  load(json: unknown, source: string, seed?: number, fromNs?: number): RunLog {
    const scenario = loadScenario(json, source);
    const s = seed ?? scenario.seed;
    const log = runLog(scenario, s, windowStart(scenario, fromNs));
    keep(MAIN, { scenario, seed: s, timeline: null, fromNs: log.fromNs, endNs: log.endNs });
    return log;
  },

  /**
   * Run a lesson with the page's overrides applied (config.ts applyOverrides); the engine's
   * loader checks the result, so an override it refuses comes back as a ScenarioError
   * naming the key.
   */
  run(
    id: string,
    json: unknown,
    source: string,
    overrides: RunOverrides,
    seed?: number,
    fromNs?: number,
  ): RunLog {
    const scenario = loadScenario(applyOverrides(json, overrides, seed), source);
    const log = runLog(scenario, scenario.seed, windowStart(scenario, fromNs));
    const { fromNs: from, endNs } = log;
    keep(id, { scenario, seed: scenario.seed, timeline: null, fromNs: from, endNs });
    return log;
  },

  /** The scheduler's and the drive's state after every event at or before tNs. */
  inspectAt(tNs: number, id: string = MAIN): InspectView | null {
    const current = runs.get(id);
    if (!current) return null;
    if (!current.timeline) {
      // The timeline starts at the played window's start: nothing before it is asked for.
      const sim = createSimulation(buildModel(current.scenario, current.seed), null);
      while (!sim.state.done && peekTime(sim) < current.fromNs) step(sim);
      const span = current.endNs - current.fromNs;
      current.timeline = createTimeline(sim, Math.max(1, span / 128));
    }
    const tl = current.timeline;
    seekTo(tl, Math.max(current.fromNs, Math.min(tNs, current.endNs)));
    return { tNs, host: hostView(tl.sim), drive: inspectDrive(tl.sim) };
  },

  /** Read DiskSim files the user opened (File objects, or kept texts as Blobs) into disks. */
  openDiskFiles,

  /** Drop a user's disk (the page forgets its files too). */
  forgetDisk(name: string): boolean {
    return forgetUserDisk(name);
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
          ? [
              {
                name,
                title: p.title,
                maxQueueDepth: p.maxQueueDepth,
                ssd: p.ssd !== null,
                writePolicy: p.cache.writePolicy,
                ...(userDiskInfo(name) ? { file: userDiskInfo(name) } : {}),
              },
            ]
          : [];
      }),
      diskSchedulers: [...DISK_SCHEDULERS],
      generators: GENERATOR_CHOICES.map((g) => ({ ...g, choices: [...g.choices] })),
    };
  },
};

export type SimApi = typeof api;

expose(api);
