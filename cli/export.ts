// `spindle export --format blkparse`: the simulated run as blkparse text on stdout,
// streamed — the simulation advances in slices and waits whenever stdout is full, so a
// long run never holds its whole trace in memory.
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { buildModel } from '../src/engine/model';
import { createSimulation, step } from '../src/engine/simulation';
import { BlkparseWriter } from '../src/engine/trace/blkparse-writer';
import { onePositional, parseArgs, single } from './args';
import { UsageError } from './errors';
import { EDIT_OPTIONS, scenarioEdits } from './run';
import { readScenarioJson, scenarioWith } from './scenario-file';

const FORMATS = ['blkparse'];
/** events simulated between checks of stdout's buffer */
const SLICE_EVENTS = 4096;

export async function exportCommand(
  argv: readonly string[],
  out: Writable,
  note: (text: string) => void,
): Promise<void> {
  const a = parseArgs('export', argv, { ...EDIT_OPTIONS, format: { value: true } });
  const path = onePositional(a, 'export', 'scenario file');
  const format = single(a, 'format');
  if (format === undefined) throw new UsageError('export needs --format blkparse');
  if (!FORMATS.includes(format))
    throw new UsageError(`--format ${format}: unknown format (available: ${FORMATS.join(', ')})`);
  const scenario = scenarioWith(readScenarioJson(path), path, scenarioEdits(a, true, note), note);

  let lines: string[] = [];
  let names: string[] = [];
  const writer = new BlkparseWriter((line) => lines.push(line), {
    nameOf: (proc) => names[proc] ?? `proc${proc}`,
  });
  const sim = createSimulation(buildModel(scenario), writer);
  names = sim.state.workload.instances.map((inst) => inst.name);

  for (let more = true; more;) {
    for (let k = 0; k < SLICE_EVENTS && (more = step(sim)); k++) {
      /* each step may emit lines */
    }
    if (lines.length === 0) continue;
    const chunk = lines.join('\n') + '\n';
    lines = [];
    if (!out.write(chunk)) await once(out, 'drain');
  }
}
