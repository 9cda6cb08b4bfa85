// `spindle run` and `spindle sweep`: a scenario's figures, once or over a grid.
import { runScenario } from '../src/engine/run';
import type { RunSummary } from '../src/engine/summary';
import {
  all,
  flag,
  onePositional,
  parseArgs,
  single,
  type OptionSpec,
  type ParsedArgs,
} from './args';
import { decisionPicker, decisionsReport } from './decisions';
import { diskFileSetting } from './disksim';
import { terminalProgress } from './progress';
import { stderr, stderrIsTTY } from './stdio';
import { UsageError } from './errors';
import { num, runReport, table } from './format';
import { readScenarioJson, scenarioWith } from './scenario-file';
import {
  parseSetting,
  parseVary,
  schedulerSetting,
  seedSetting,
  type JsonValue,
  type Setting,
} from './settings';

export const EDIT_OPTIONS: Record<string, OptionSpec> = {
  set: { value: true, repeat: true },
  scheduler: { value: true },
  seed: { value: true },
  'disk-file': { value: true },
};

/** The edits common to every command, in the order they apply: --disk-file, --set …,
 * --scheduler, --seed. */
export function scenarioEdits(
  a: ParsedArgs,
  withScheduler = true,
  note: (text: string) => void = () => {},
): Setting[] {
  const diskFile = single(a, 'disk-file');
  const edits = diskFile === undefined ? [] : [diskFileSetting(diskFile, note)];
  edits.push(...all(a, 'set').map((s) => parseSetting(s, '--set')));
  const scheduler = withScheduler ? single(a, 'scheduler') : undefined;
  if (scheduler !== undefined) edits.push(schedulerSetting(scheduler));
  const seed = single(a, 'seed');
  if (seed !== undefined) edits.push(seedSetting(seed));
  return edits;
}

export function runCommand(
  argv: readonly string[],
  print: (text: string) => void,
  note: (text: string) => void,
): void {
  const a = parseArgs('run', argv, {
    ...EDIT_OPTIONS,
    json: { value: false },
    decisions: { value: true },
  });
  const path = onePositional(a, 'run', 'scenario file');
  const scenario = scenarioWith(readScenarioJson(path), path, scenarioEdits(a, true, note), note);
  const wanted = single(a, 'decisions');
  const pick = wanted === undefined ? null : decisionPicker(wanted);
  const shown = stderrIsTTY() ? terminalProgress(stderr(), scenario) : null;
  const { summary } = runScenario(scenario, {
    ...(pick ? { sink: pick.sink } : {}),
    ...(shown ? { progress: shown.progress } : {}),
  });
  shown?.end();
  if (flag(a, 'json'))
    print(JSON.stringify(pick ? { ...summary, decisions: pick.picked } : summary, null, 2));
  else {
    print(runReport(summary, scenario.title));
    if (pick) print('\n' + decisionsReport(pick.picked));
  }
}

/** At most this many runs in one sweep (a typo in --vary should not run for an hour). */
const MAX_SWEEP_RUNS = 10_000;

interface Dimension {
  key: string;
  values: JsonValue[];
  /** the edit for one value */
  edit: (v: JsonValue) => Setting;
}

export function sweepCommand(
  argv: readonly string[],
  print: (text: string) => void,
  note: (text: string) => void,
): void {
  const a = parseArgs('sweep', argv, {
    ...EDIT_OPTIONS,
    vary: { value: true, repeat: true },
    json: { value: false },
  });
  const path = onePositional(a, 'sweep', 'scenario file');
  const dims: Dimension[] = all(a, 'vary').map((arg) => {
    const { key, values } = parseVary(arg);
    return { key, values, edit: (value) => ({ key, value }) };
  });
  const schedulers = single(a, 'scheduler');
  if (schedulers !== undefined) {
    const names = schedulers.split(',').map((s) => s.trim());
    names.forEach(schedulerSetting); // reject unknown names before running anything
    dims.push({ key: 'scheduler', values: names, edit: (v) => schedulerSetting(String(v)) });
  }
  if (dims.length === 0)
    throw new UsageError(
      'sweep needs --vary KEY=V1,V2,… or --scheduler S1,S2,… (see spindle sweep --help)',
    );
  const keys = dims.map((d) => d.key);
  const dup = keys.find((k, i) => keys.indexOf(k) !== i);
  if (dup) throw new UsageError(`sweep varies ${dup} twice`);
  const total = dims.reduce((n, d) => n * d.values.length, 1);
  if (total > MAX_SWEEP_RUNS)
    throw new UsageError(`sweep would make ${total} runs; at most ${MAX_SWEEP_RUNS}`);

  const raw = readScenarioJson(path);
  const fixed = scenarioEdits(a, false, note);
  const seed = fixed.filter((s) => s.key === 'seed');
  const sets = fixed.filter((s) => s.key !== 'seed');
  // Validate every combination first, so a bad value fails before any run is made.
  const plans = cartesian(dims).map((combo) => {
    const settings: Record<string, JsonValue> = {};
    combo.forEach((v, i) => (settings[dims[i]!.key] = v));
    const edits = [...sets, ...combo.map((v, i) => dims[i]!.edit(v)), ...seed];
    return { settings, scenario: scenarioWith(raw, path, edits, note) };
  });
  const runs = plans.map(({ settings, scenario }) => ({
    settings,
    summary: runScenario(scenario).summary,
  }));
  const name = plans[0]!.scenario.name;
  print(
    flag(a, 'json')
      ? JSON.stringify({ scenario: name, runs }, null, 2)
      : sweepReport(name, keys, runs),
  );
}

/** Every combination of the dimensions' values, the first dimension outermost. */
function cartesian(dims: readonly Dimension[]): JsonValue[][] {
  return dims.reduce<JsonValue[][]>(
    (acc, d) => acc.flatMap((c) => d.values.map((v) => [...c, v])),
    [[]],
  );
}

function sweepReport(
  name: string,
  keys: string[],
  runs: Array<{ settings: Record<string, JsonValue>; summary: RunSummary }>,
): string {
  const rows = runs.map(({ settings, summary: s }) => [
    ...keys.map((k) =>
      typeof settings[k] === 'string' ? (settings[k] as string) : JSON.stringify(settings[k]),
    ),
    num(s.requests.completed, 0),
    num(s.simulatedTimeMs, 1),
    num(s.throughput.iops, 1),
    num(s.throughput.mbps, 3),
    num(s.latencyMs.q2c.mean),
    num(s.latencyMs.q2c.p99),
    num(s.latencyMs.q2c.max),
  ]);
  const head = [...keys, 'completed', 'time ms', 'IOPS', 'MB/s', 'Q2C mean', 'Q2C p99', 'Q2C max'];
  return `${name}: ${runs.length} runs\n\n${table([head, ...rows])}`;
}
