// Golden figures: a faster engine must give the same numbers bit for bit (issue 19: "a
// faster run that changes a number is a different model"). Each case runs in-process and its
// `spindle run --json` summary, its chart series (throughput, queue depths: every point) and
// a digest of its event log are compared with a committed file. On a mismatch the new record
// is written beside the golden one as <name>-changed.json, to diff and, only if the change is
// meant (a model change, said so in its commit), to commit in its place.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { TraceSink } from '../../src/engine/events';
import { seriesPoints } from '../../src/engine/metrics/timeseries';
import { runScenario } from '../../src/engine/run';
import { loadScenario, parseScenarioJson } from '../../src/engine/scenario/load';
import type { Scenario } from '../../src/engine/scenario/types';
import { randomReads } from '../../bench/cases';

const DIR = 'tests/sim/golden-figures';

/** The bench's own scenarios (bench/cases.ts), shortened: the paths issue 19 speeds up. */
const BENCH: Record<string, () => Scenario> = {
  'bench-fcfs-qd1': () =>
    randomReads({ scheduler: 'fcfs', queueDepth: 1, processes: 1, requests: 10_000 }),
  'bench-sptf-qd32': () =>
    randomReads({ scheduler: 'sptf', queueDepth: 32, processes: 32, requests: 10_000 }),
  'bench-deadline-fcfs': () =>
    randomReads({
      iosched: 'deadline',
      scheduler: 'fcfs',
      queueDepth: 1,
      processes: 1,
      requests: 10_000,
    }),
  'bench-cfq-sptf-qd32': () =>
    randomReads({
      iosched: 'cfq',
      scheduler: 'sptf',
      queueDepth: 32,
      processes: 16,
      requests: 5_000,
    }),
};

/** Lessons that reach the other paths: write-back, page cache, SSD, range writes, journals. */
const LESSONS = [
  'c2247a-random-read',
  'sptf-vs-fcfs',
  'disk-queue-depth',
  'queue-depth-write-back',
  'cfq-fairness',
  'deadline-promise',
  'deceptive-idleness',
  'merging',
  'page-cache',
  'ssd',
  'range-writes-journal',
  'kernel-builds',
];

function lesson(name: string): Scenario {
  const path = `public/scenarios/${name}.json`;
  return loadScenario(parseScenarioJson(readFileSync(path, 'utf8'), path), path);
}

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Every figure a user sees from the run, plus a digest of its full event log. */
function record(s: Scenario): unknown {
  const log = createHash('sha256');
  let events = 0;
  const sink: TraceSink = {
    trace: (e) => {
      events++;
      log.update(`${e.tNs} ${e.action} ${e.rq} ${e.sector}+${e.nSectors}\n`);
    },
    service: (v) => log.update(`svc ${v.rq} ${v.startNs} ${v.mediaEndNs}\n`),
    decision: (d) => log.update(`dec ${d.rule} ${d.chosen}\n`),
  };
  const { summary, simulation } = runScenario(s, { sink });
  const m = simulation.state.metrics;
  const end = simulation.state.now;
  const series = {
    completions: seriesPoints(m.completions, end),
    completedBytes: seriesPoints(m.completedBytes, end),
    q2cSum: seriesPoints(m.q2cSum, end),
    deviceDepth: seriesPoints(m.deviceDepth, end),
    hostDepth: seriesPoints(m.hostDepth, end),
  };
  const digests = Object.fromEntries(
    Object.entries(series).map(([k, pts]) => [
      k,
      `${pts.length} points ${sha(JSON.stringify(pts))}`,
    ]),
  );
  // the same run without a sink: what `spindle run` and the benchmarks run
  const plain = runScenario(s).summary;
  expect(plain).toEqual(summary);
  return { summary, series: digests, eventLog: `${events} events ${log.digest('hex')}` };
}

describe('golden figures: the same numbers, bit for bit', () => {
  const cases: Array<[string, () => Scenario]> = [
    ...Object.entries(BENCH),
    ...LESSONS.map((n): [string, () => Scenario] => [n, () => lesson(n)]),
  ];
  it.each(cases)('%s', (name, make) => {
    const got = JSON.stringify(record(make()), null, 1) + '\n';
    const file = `${DIR}/${name}.json`;
    if (!existsSync(file) && process.env.SPINDLE_WRITE_GOLDEN === '1') writeFileSync(file, got);
    const golden = readFileSync(file, 'utf8');
    if (got !== golden) writeFileSync(`${DIR}/${name}-changed.json`, got);
    expect(got).toBe(golden);
  });
});
