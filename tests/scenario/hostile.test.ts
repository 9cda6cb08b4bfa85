// Hostile scenarios (issue 20 items 4–7): each defect with the input that showed it, and a
// fuzz of hostile JSON, --set paths and extreme numbers — every input ends with a clean
// error (a ScenarioError or UsageError naming the key) or a bounded run, never an internal
// error.
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { applySetting, parseSetting } from '../../cli/settings';
import { UsageError } from '../../cli/errors';
import { progressLine, terminalProgress } from '../../cli/progress';
import { runScenario } from '../../src/engine/run';
import { buildModel } from '../../src/engine/model';
import { createSimulation, runToEnd } from '../../src/engine/simulation';
import { summarize } from '../../src/engine/summary';
import {
  loadScenario,
  parseScenarioJson,
  parseScenarioText,
  ScenarioError,
} from '../../src/engine/scenario/load';
import { MAX_RUN_REQUESTS } from '../../src/engine/scenario/run-bounds';
import { spindle } from '../cli/run-cli';

const S = 'public/scenarios/seek-rotate-transfer.json';
const base = (): Record<string, unknown> =>
  JSON.parse(readFileSync('public/scenarios/c2247a-random-read.json', 'utf8')) as Record<
    string,
    unknown
  >;
const problemsOf = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    if (e instanceof ScenarioError || e instanceof UsageError) return e.message;
    throw e;
  }
  return '(accepted)';
};

describe('item 4: deeply nested JSON', () => {
  it('5,000 levels: a clean error with the path, not a stack overflow', () => {
    const text = `{"name":"x","disk":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    expect(problemsOf(() => parseScenarioJson(text, 'deep.json'))).toBe(
      'deep.json: invalid JSON at line 1, column 83: nested deeper than 64 levels (at disk.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0)',
    );
  });

  it('the same through the CLI, and a deep value from --set', async () => {
    const deep = (await import('node:fs')).mkdtempSync('/tmp/spindle-deep-') + '/deep.json';
    (await import('node:fs')).writeFileSync(
      deep,
      `{"a":${'{"a":'.repeat(5000)}1${'}'.repeat(5001)}`,
    );
    const r = await spindle(['run', deep]);
    expect(r.code).toBe(2); // a scenario error: exit 2, as every bad scenario
    expect(r.stderr).toMatch(/nested deeper than 64 levels/);
    expect(r.stderr).not.toMatch(/internal error/);
    const v = await spindle(['run', S, '--set', `disk.x=${'['.repeat(3000)}${']'.repeat(3000)}`]);
    expect(v.stderr).toMatch(/nested deeper than 64 levels/);
    expect(v.stderr).not.toMatch(/internal error/);
  }, 60_000);
});

describe('item 5: every number has a physical range', () => {
  for (const [sets, pattern] of [
    [['disk.rpm=1e-9'], /disk\.rpm: must be a rotation speed from 60 to 1000000 rpm/],
    [
      ['disk.preset=ssd', 'disk.ssd.readMBps=1e-12'],
      /disk\.ssd\.readMBps: must be a rate in MB\/s from 0\.001 to 1000000/,
    ],
  ] as const) {
    it(`${sets.join(' ')}: refused by validation, not a crash in the run`, async () => {
      const r = await spindle(['run', S, ...sets.flatMap((x) => ['--set', x])]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(pattern);
      expect(r.stderr).not.toMatch(/internal error/);
    }, 30_000);
  }
});

describe('item 6: prototype keys are unknown keys', () => {
  const edit = (key: string): string =>
    problemsOf(() => {
      const raw = base();
      applySetting(raw, parseSetting(key, '--set'));
      loadScenario(raw, 'f.json');
    });

  it('--set __proto__.x=1: the unknown key, and Object.prototype untouched', () => {
    expect(edit('__proto__.x=1')).toBe(
      'f.json: __proto__: unknown key ("__proto__" is never a scenario key)',
    );
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('--set iosched.tunables.__proto__=5, and "__proto__" in a file', () => {
    expect(edit('iosched.tunables.__proto__=5')).toBe(
      'f.json: iosched.tunables.__proto__: unknown key ("__proto__" is never a scenario key)',
    );
    const text = JSON.stringify(base()).replace('"disk":{', '"disk":{"__proto__":{"rpm":1},');
    expect(problemsOf(() => parseScenarioText(text, 'f.json'))).toBe(
      'f.json: disk.__proto__: unknown key ("__proto__" is never a scenario key)',
    );
  });

  it('constructor and prototype are unknown keys like any other', () => {
    expect(edit('constructor.x=1')).toMatch(/^f\.json: constructor: unknown key/);
    expect(edit('disk.constructor=1')).toMatch(/^f\.json: disk\.constructor: unknown key/);
  });
});

describe('item 7: runs have an end', () => {
  it(`stop.requests over ${MAX_RUN_REQUESTS.toLocaleString('en-US')} is refused`, () => {
    const raw = base();
    raw.stop = { requests: 1e9 };
    expect(problemsOf(() => loadScenario(raw, 'f.json'))).toMatch(
      /^f\.json: stop\.requests: must be a whole number of completed requests from 1 to 10000000/,
    );
  });

  it('an open process at 1e9 IOPS for 1e12 ms, or with no time to end, is refused', () => {
    const open = (stop: object, rateIops = 1e7): string => {
      const raw = base();
      (raw.workload as { processes: object[] }).processes = [{ name: 'o', mode: 'open', rateIops }];
      raw.stop = stop;
      return problemsOf(() => loadScenario(raw, 'f.json'));
    };
    expect(open({ timeMs: 1e12 }, 1e9)).toMatch(
      /rateIops: must be an arrival rate from 0\.001 to 10000000/,
    );
    expect(open({ timeMs: 1e12 })).toBe(
      'f.json: stop.timeMs: asks for about 10,000,000,000,000,000 arrivals from the open processes (10,000,000 per second for 1,000,000,000,000 ms); a run takes at most 10,000,000',
    );
    expect(open({ requests: 2000 }, 1e6)).toBe(
      'f.json: stop.timeMs: missing: workload.processes.0 is open (its arrivals do not wait for the disk), so the run needs a simulated time to end',
    );
    expect(open({ timeMs: 1000 }, 1e6)).toBe('(accepted)');
  });

  it("a closed loop stopped by time alone ends at the engine's bound and says so", () => {
    const raw = base();
    raw.stop = { timeMs: 1e12 };
    const scenario = loadScenario(raw, 'f.json');
    const model = buildModel(scenario, scenario.seed);
    // the default bound is the schema's: 10,000,000 completions (or 20 events a request)
    expect(model.budget).toEqual({ requests: MAX_RUN_REQUESTS, events: 20 * MAX_RUN_REQUESTS });
    // a smaller bound so the test runs in milliseconds; the rule is the same
    model.budget = { requests: 500, events: 1e9 };
    const sim = createSimulation(model);
    runToEnd(sim);
    const s = summarize(sim, scenario);
    expect(s.requests.iosCompleted).toBe(500);
    expect(s.budget?.note).toMatch(/^the run was ended at the engine's bound \(500 completed/);
    model.budget = { requests: 1e9, events: 2000 };
    const byEvents = createSimulation(model);
    runToEnd(byEvents);
    expect(summarize(byEvents, scenario).budget?.events).toBe(2000);
    // a run that ends at its own stop has no budget note
    raw.stop = { requests: 100 };
    expect(runScenario(loadScenario(raw, 'f.json')).summary.budget).toBeUndefined();
  });

  it('a progress line on a terminal only: stderr, rewritten in place, erased at the end', () => {
    const raw = base();
    raw.stop = { requests: 200_000 };
    const scenario = loadScenario(raw, 'f.json');
    expect(terminalProgress({ isTTY: false, write: () => undefined }, scenario)).toBeNull();
    const written: string[] = [];
    let clock = 0;
    const shown = terminalProgress(
      { isTTY: true, write: (t: string) => written.push(t) },
      scenario,
      () => (clock += 100),
    )!;
    runScenario(scenario, { progress: shown.progress });
    shown.end();
    expect(written.length).toBeGreaterThan(0);
    expect(written[0]).toMatch(
      // eslint-disable-next-line no-control-regex -- the terminal's erase-line sequence
      /^\r\u001b\[Kspindle: [\d,]+ requests completed, [\d.]+ s simulated \(\d+%\)$/,
    );
    expect(written.at(-1)).toBe('\r\u001b[K');
  }, 60_000);

  it('the line says the share of the stop', () => {
    const scenario = parseScenarioText(
      JSON.stringify({ ...base(), stop: { requests: 1000 } }),
      'f',
    );
    const sim = { state: { now: 5e9, metrics: { iosCompleted: 250 } } };
    expect(progressLine(sim as never, scenario)).toBe(
      'spindle: 250 requests completed, 5.0 s simulated (25%)',
    );
  });

  it('`spindle run --json` into a pipe: no progress line, stdout is the JSON alone', async () => {
    const r = await spindle(['run', S, '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(() => JSON.parse(r.stdout) as unknown).not.toThrow();
  }, 30_000);
});

/** Every numeric path of a scenario value. */
function numericPaths(v: unknown, path: string[] = [], out: string[][] = []): string[][] {
  if (typeof v === 'number') out.push(path);
  else if (v !== null && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) numericPaths(x, [...path, k], out);
  return out;
}

describe('scenario fuzz: hostile JSON, --set paths, extreme numbers', () => {
  const files = [
    'c2247a-random-read.json',
    'deadline-promise.json',
    'ssd.json',
    'merging.json',
    'disk-queue-depth.json',
  ].map(
    (f) => JSON.parse(readFileSync(`public/scenarios/${f}`, 'utf8')) as Record<string, unknown>,
  );
  const EXTREME = [0, -1, 1e-9, 1e-300, 5e-324, 1e9, 1e12, 1e300, -1e300, 0.5, 4294967296, 2 ** 53];
  const DISK_KEYS = [
    'rpm',
    'surfaces',
    'cylinders',
    'initialAngle',
    'headSwitchMs',
    'writeSettleMs',
    'minWriteSeekMs',
    'maxQueueDepth',
    'queueDepth',
    'agingWeight',
    'ecsTargets',
    'seek.ms',
    'seek.singleMs',
    'seek.averageMs',
    'seek.fullMs',
    'overheads.readMissMs',
    'bus.readMBps',
    'bus.writeMBps',
    'bus.channels',
    'cache.segments',
    'cache.readWatermark',
  ];
  const setPaths = [
    ...DISK_KEYS.map((k) => `disk.${k}`),
    'seed',
    'stop.requests',
    'stop.timeMs',
    'play.fromMs',
    'iosched.hz',
    'iosched.tunables.read_expire',
    'iosched.tunables.fifo_batch',
    'iosched.queue.nr_requests',
    'workload.processes.0.count',
    'workload.processes.0.outstanding',
    'workload.processes.0.thinkTimeMs',
    'workload.processes.0.rateIops',
    'workload.processes.0.sizeKiB',
    'workload.processes.0.span.startSector',
    'workload.pageCache.memoryMiB',
    '__proto__.polluted',
    'constructor.prototype.x',
    'workload.processes.9.count',
    'a.b.c.d.e.f',
  ];
  const value = fc.oneof(
    fc.constantFrom(...EXTREME),
    fc.double({ noNaN: true }),
    fc.constantFrom('x', '', 'null', 'true', '{"__proto__":{"a":1}}', '[[[[[]]]]]', '1e999'),
  );
  const edit = fc.oneof(
    fc.tuple(fc.constantFrom(...setPaths), value),
    fc.tuple(
      fc.constantFrom(...files.flatMap((f) => numericPaths(f).map((p) => p.join('.')))),
      value,
    ),
  );

  /** A run is bounded: at most a few thousand requests for the fuzz (the limits above
   * bound any run; here only the outcome's kind is under test). */
  function outcome(raw: unknown): string {
    let scenario;
    try {
      scenario = loadScenario(raw, 'fuzz.json');
    } catch (e) {
      if (e instanceof ScenarioError) return 'error';
      throw e;
    }
    const stop = scenario.stop;
    scenario.stop = {
      requests: Math.min(stop.requests ?? 200, 200),
      timeMs: stop.timeMs === null ? null : Math.min(stop.timeMs, 2_000),
    };
    runScenario(scenario);
    return 'ran';
  }

  it('300 scenarios with 1–3 hostile edits: a clean error or a run, never an internal error', () => {
    fc.assert(
      fc.property(
        fc.nat(files.length - 1),
        fc.array(edit, { minLength: 1, maxLength: 3 }),
        (k, edits) => {
          const raw = structuredClone(files[k]!);
          for (const [path, v] of edits) {
            try {
              applySetting(
                raw,
                parseSetting(`${path}=${typeof v === 'number' ? String(v) : v}`, '--set'),
              );
            } catch (e) {
              if (e instanceof UsageError) return;
              throw e;
            }
          }
          expect(({} as Record<string, unknown>).polluted).toBeUndefined();
          expect(['error', 'ran']).toContain(outcome(raw));
        },
      ),
      { seed: 20_261_121, numRuns: 300 },
    );
  }, 300_000);

  it('hostile JSON texts: syntax, depth, duplicates, prototype keys — a clean error each', () => {
    const texts = fc.oneof(
      fc.json(),
      fc.string(),
      fc.nat(200).map((n) => '['.repeat(n) + ']'.repeat(n)),
      fc.nat(200).map((n) => '{"a":'.repeat(n) + '1' + '}'.repeat(n)),
      fc.constantFrom(
        '{"__proto__":{}}',
        '{"name":"a","name":"b"}',
        '{"constructor":1}',
        '\u0000',
        '{',
      ),
    );
    fc.assert(
      fc.property(texts, (text) => {
        try {
          parseScenarioText(text, 'fuzz.json');
        } catch (e) {
          expect(e).toBeInstanceOf(ScenarioError);
        }
      }),
      { seed: 20_261_121, numRuns: 2_000 },
    );
  }, 120_000);
});
