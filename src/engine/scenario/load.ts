// Scenario JSON → a validated Scenario (types.ts); ARCHITECTURE.md "Scenario files".
// Every problem is reported, one line each, as `<source>: <key.path>: <what was expected>
// (got <value>)`. Unknown keys and out-of-range values are errors, never silent defaults.
//
// Two passes: (1) a zod schema checks shapes, types and ranges that need no context;
// (2) checks that need the disk (preset, overrides, the disk's size for spans and fixed
// requests), the registered I/O schedulers, or several fields at once. The second pass
// runs once the first has passed, so a file with both kinds shows the first kind first.
//
// Defaults (what a key left out means):
//   seed 1 · title = name · lesson ""
//   disk: preset "hp-c2247a" · queueDepth 1 (at most the drive's maxQueueDepth, ≤ 256)
//         · scheduler "fcfs" · cache null (the preset's write policy) · agingWeight 6
//         · any other key is a DiskParams override (disk-overrides.ts)
//   iosched: name "none" · tunables: each of the scheduler's tunables at its default
//   each process: count 1 · mode "closed" · outstanding 1 · thinkTimeMs 0
//         · rateIops (required for mode "open") · arrival "poisson" · op "read"
//         · readFraction 0.5 (op "mix" only) · sync null (reads sync, writes async)
//         · pattern "random" · sizeKiB 4 · span null (the whole disk) · ioprio null
//         · requests null; a fixed request's atMs 0
//   stop: requests null · timeMs null — but a workload with a process that has no fixed
//         request list must have one of them, or it would run forever.
//   play: absent (the page plays from the start) · play.fromMs is required when play is
//         given — where the page's animation starts, a viewing hint the engine ignores
import { BLK_MQ_ONLY } from '../iosched/blk-mq-only';
import { makesRangeWrites } from '../disk/range';
import { getPreset, isUserDiskName, presetNames, userDiskMissing } from '../disk/presets';
import { MAX_QUEUE_DEPTH } from '../disk/params';
import { elevatorNames, getElevator } from '../iosched/elevator';
import '../iosched/registry';
import { PAGE_CACHE_DEFAULTS } from '../workload/page-cache';
import { QUEUE_SETTINGS, type Kernel } from '../iosched/queue-settings';
import { checkEmptyFlushes } from './fixed-requests';
import { defaultAt, type TunableSpec } from '../iosched/types';
import { issueProblems, problem, show, unknownKey, type Problem } from './checks';
import { checkDiskOverrides } from './disk-overrides';
import { ScenarioError } from './error';
import { parseJsonText } from './json-text';
import { rawShapeProblems } from './raw-shape';
import { checkOpenArrivals } from './run-bounds';
import { checkProcesses } from './process';
import { scenarioSchema, type RawScenario } from './scenario-schema';
import type { Scenario } from './types';

// its own file, so that the CLI can tell it apart without loading the loader (and zod)
export { ScenarioError };

export const SCENARIO_DEFAULTS = {
  seed: 1,
  lesson: '',
  disk: { preset: 'hp-c2247a', queueDepth: 1, scheduler: 'fcfs', cache: null, agingWeight: 6 },
  iosched: { name: 'none', kernel: '2.6.32', hz: 250 },
} as const;

/** Validate parsed JSON as a scenario; `source` (a file name) starts every message. */
export function loadScenario(json: unknown, source: string): Scenario {
  const shape = rawShapeProblems(json);
  if (shape.length > 0) throw new ScenarioError(source, shape);
  const schema = scenarioSchema(json);
  // jitless: the schema is built afresh for each file, so zod's compiled fast path (made with
  // new Function on an object schema's first parse) would be compiled for one use — ~3 ms of
  // a CLI start-up (issue 19); the checks and their messages are the same either way
  const parsed = schema.safeParse(json, { jitless: true });
  if (!parsed.success)
    throw new ScenarioError(source, issueProblems(parsed.error.issues, json, schema));
  const problems: Problem[] = [];
  const scenario = build(parsed.data, source, problems);
  if (problems.length > 0 || !scenario) throw new ScenarioError(source, problems);
  return scenario;
}

/** JSON text → a validated scenario; JSON syntax errors say line and column. */
export function parseScenarioText(text: string, source: string): Scenario {
  return loadScenario(parseScenarioJson(text, source), source);
}

/** JSON text → the raw value (not yet validated): for callers that edit it first (the
 * CLI's --set). Syntax errors and duplicate keys are ScenarioErrors with line/column. */
export function parseScenarioJson(text: string, source: string): unknown {
  const r = parseJsonText(text);
  if (!r.ok) {
    const { line, column, message } = r.problem;
    throw new ScenarioError(source, [
      { path: '', message: `invalid JSON at line ${line}, column ${column}: ${message}` },
    ]);
  }
  if (r.duplicates.length > 0) {
    throw new ScenarioError(
      source,
      r.duplicates.map((path) => ({
        path,
        message: 'appears twice (JSON would silently keep the last)',
      })),
    );
  }
  return r.value;
}

function build(raw: RawScenario, source: string, problems: Problem[]): Scenario | null {
  const d = SCENARIO_DEFAULTS.disk;
  const {
    preset: presetName = d.preset,
    queueDepth = d.queueDepth,
    scheduler = d.scheduler,
    cache = d.cache,
    agingWeight = d.agingWeight,
    rangeScheduler,
    ecsTargets,
    ...overrides
  } = raw.disk ?? {};

  // The drive: the preset, then the overrides, which must leave a sane drive.
  let totalLbns = 0;
  const preset = getPreset(presetName);
  if (!preset) {
    const known = `must be one of ${quoteList(presetNames())} (got ${show(presetName)})`;
    const user = isUserDiskName(presetName);
    problems.push(problem(['disk', 'preset'], user ? userDiskMissing(presetName) : known));
  } else {
    const disk = checkDiskOverrides(preset, overrides);
    problems.push(...disk.problems);
    totalLbns = disk.totalLbns;
    const maxDepth = disk.params?.maxQueueDepth ?? MAX_QUEUE_DEPTH;
    if (disk.params && queueDepth > maxDepth) {
      problems.push(
        problem(
          ['disk', 'queueDepth'],
          `must be an integer from 1 to ${maxDepth}, the drive's maxQueueDepth (got ${queueDepth})`,
        ),
      );
    }
  }

  const iosched = checkIosched(raw.iosched, problems);
  const processes = checkProcesses(raw.workload.processes, totalLbns, presetName, problems);

  const stop = { requests: raw.stop?.requests ?? null, timeMs: raw.stop?.timeMs ?? null };
  if (raw.stop && stop.requests === null && stop.timeMs === null) {
    problems.push(problem(['stop'], 'must give "requests" (completed) or "timeMs" (simulated)'));
  } else if (stop.requests === null && stop.timeMs === null) {
    const endless = raw.workload.processes.findIndex(
      (p) => p.requests === undefined || p.requests === null,
    );
    if (endless >= 0) {
      problems.push(
        problem(
          ['stop'],
          `missing: workload.processes.${endless} has no fixed "requests" list, so the run would go on forever; give stop.requests or stop.timeMs`,
        ),
      );
    }
  }
  checkOpenArrivals(raw.workload.processes, stop.timeMs, problems);
  checkRangeWrites(processes, iosched, rangeScheduler, ecsTargets, problems);
  checkEmptyFlushes(processes, iosched?.kernel, problems);
  if (problems.length > 0 || !iosched || !processes) return null;

  return {
    name: raw.name,
    title: raw.title ?? raw.name,
    lesson: raw.lesson ?? SCENARIO_DEFAULTS.lesson,
    seed: raw.seed ?? SCENARIO_DEFAULTS.seed,
    disk: {
      preset: presetName,
      queueDepth,
      scheduler,
      cache,
      agingWeight,
      ...(rangeScheduler !== undefined ? { rangeScheduler } : {}),
      ...(ecsTargets !== undefined ? { ecsTargets } : {}),
      overrides,
    },
    iosched,
    workload: {
      processes,
      pageCache: raw.workload.pageCache
        ? { ...PAGE_CACHE_DEFAULTS, ...raw.workload.pageCache }
        : null,
    },
    stop,
    ...(raw.play ? { play: { fromMs: raw.play.fromMs } } : {}),
    source,
  };
}

/** Range writes travel as placeholders through the block layer, which must not merge or
 * sort them: only the "none" pass-through keeps each one a request of its own. */
function checkRangeWrites(
  processes: Scenario['workload']['processes'] | null,
  iosched: Scenario['iosched'] | null,
  rangeScheduler: string | undefined,
  ecsTargets: number | undefined,
  problems: Problem[],
): void {
  const ranged = processes?.findIndex(makesRangeWrites) ?? -1;
  if (ranged >= 0 && iosched && iosched.name !== 'none')
    problems.push(
      problem(
        ['iosched', 'name'],
        `must be "none" when a process makes range writes (workload.processes.${ranged}.${processes![ranged]!.range ? 'range' : 'generator'}): the block layer would merge and sort them by a placeholder address (got ${show(iosched.name)})`,
      ),
    );
  if (ecsTargets !== undefined && ecsTargets > 0 && rangeScheduler !== 'ecs')
    problems.push(problem(['disk', 'ecsTargets'], 'only applies to disk.rangeScheduler "ecs"'));
}

/** mq-deadline, kyber and bfq exist only in blk-mq kernels: left out, their kernel is
 * 6.18; else 2.6.32. */
export function defaultKernel(scheduler: string): Kernel {
  return BLK_MQ_ONLY.has(scheduler) ? '6.18' : SCENARIO_DEFAULTS.iosched.kernel;
}

function checkIosched(
  raw: RawScenario['iosched'],
  problems: Problem[],
): Scenario['iosched'] | null {
  const name = raw?.name ?? SCENARIO_DEFAULTS.iosched.name;
  const e = getElevator(name);
  if (!e) {
    const available = quoteList(elevatorNames());
    problems.push(problem(['iosched', 'name'], `must be one of ${available} (got ${show(name)})`));
    return null;
  }
  const hz = raw?.hz ?? SCENARIO_DEFAULTS.iosched.hz;
  const kernel = raw?.kernel ?? defaultKernel(name);
  const tunables = checkTable(
    e.tunables,
    raw?.tunables,
    ['iosched', 'tunables'],
    hz,
    name,
    problems,
  );
  const queue = checkTable(
    QUEUE_SETTINGS,
    raw?.queue,
    ['iosched', 'queue'],
    hz,
    'the queue',
    problems,
  );
  // 6.18 derives nr_requests from the queue depth and the scheduler unless given (tags-mq.ts)
  if (queue && kernel === '6.18' && raw?.queue?.nr_requests === undefined) delete queue.nr_requests;
  // write_cache and fua left out are the device's (blk-flush.ts queueFlushFlags)
  for (const k of ['write_cache', 'fua']) if (raw?.queue?.[k] === undefined) delete queue?.[k];
  return tunables && queue ? { name, tunables, queue, kernel, hz } : null;
}

/** Values for a table of tunables: each given one checked against its range, the rest at
 * their defaults for this HZ. */
function checkTable(
  table: readonly TunableSpec[],
  given: Record<string, number> | undefined,
  at: string[],
  hz: number,
  owner: string,
  problems: Problem[],
): Record<string, number> | null {
  const values: Record<string, number> = {};
  for (const t of table) values[t.name] = defaultAt(t, hz);
  const known = table.map((t) => t.name);
  let ok = true;
  for (const [key, value] of Object.entries(given ?? {})) {
    const spec = table.find((t) => t.name === key);
    const path = [...at, key];
    if (!spec) {
      ok = false;
      problems.push(
        known.length === 0
          ? problem(
              path,
              `unknown key (${owner.startsWith('the') ? owner : `"${owner}"`} has no tunables)`,
            )
          : unknownKey(path, key, known),
      );
    } else if (!(value >= spec.min && value <= spec.max)) {
      ok = false;
      problems.push(
        problem(
          path,
          `must be a number from ${spec.min} to ${spec.max} ${spec.unit} (got ${show(value)})`,
        ),
      );
    } else values[key] = value;
  }
  return ok ? values : null;
}

export function quoteList(names: readonly string[]): string {
  return names.map((n) => `"${n}"`).join(', ');
}
