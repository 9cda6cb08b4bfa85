// Bad arguments and bad scenarios: exit status 2, exactly one `spindle: …` line on stderr,
// no stack trace, nothing on stdout.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { elevatorNames } from '../../src/engine/iosched/elevator';
import '../../src/engine/iosched/registry';
import { SCENARIOS, spindle } from './run-cli';

const IOSCHEDS = elevatorNames();

const S = `${SCENARIOS}/c2247a-random-read.json`;
const dir = mkdtempSync(join(tmpdir(), 'spindle-cli-'));
const BAD_JSON = join(dir, 'bad.json');
writeFileSync(BAD_JSON, '{\n  "name": "bad",\n  "seed": 1,\n}\n');

const cases: Array<[string, string[], RegExp]> = [
  ['no command', [], /Usage: spindle <command>/],
  ['an unknown command', ['frobnicate'], /^spindle: unknown command "frobnicate"/],
  ['an unknown option', ['run', S, '--bogus'], /^spindle: unknown option --bogus for "run"/],
  ['no scenario file', ['run', '--json'], /^spindle: run needs a scenario file/],
  ['two scenario files', ['run', S, S], /^spindle: run takes one scenario file, got 2/],
  [
    'a missing file',
    ['run', `${SCENARIOS}/nope.json`, '--json'],
    /^spindle: cannot read public\/scenarios\/nope\.json: no such file$/,
  ],
  [
    'a directory',
    ['run', SCENARIOS],
    /^spindle: cannot read public\/scenarios: it is a directory$/,
  ],
  [
    'bad JSON',
    ['run', BAD_JSON, '--json'],
    /^spindle: .*bad\.json: invalid JSON at line 4, column 1: /,
  ],
  [
    'an out-of-range --set',
    ['run', S, '--set', 'disk.queueDepth=0', '--json'],
    /^spindle: public\/scenarios\/c2247a-random-read\.json: disk\.queueDepth: must be an integer from 1 to 256 \(got 0\)$/,
  ],
  [
    'a misspelt --set key',
    ['run', S, '--set', 'disk.rmp=7200'],
    /: disk\.rmp: unknown key \(did you mean "rpm"\?\)$/,
  ],
  [
    'a --set without =',
    ['run', S, '--set', 'disk.queueDepth'],
    /^spindle: --set disk\.queueDepth: expected key\.path=value/,
  ],
  [
    'a --set past a list',
    ['run', S, '--set', 'workload.processes.3.count=2'],
    /^spindle: --set workload\.processes\.3\.count: workload\.processes\.3 must be a list index from 0 to 1/,
  ],
  [
    'a bad --seed',
    ['run', S, '--seed', 'abc', '--json'],
    /^spindle: --seed abc: must be a whole number/,
  ],
  ['a --seed without a value', ['run', S, '--seed'], /^spindle: --seed needs a value/],
  [
    'an unknown --scheduler',
    ['run', S, '--scheduler', 'elevator'],
    new RegExp(
      `^spindle: --scheduler elevator: not a scheduler; I/O schedulers: ${IOSCHEDS.join(', ')}; drive schedulers: fcfs, sstf, clook, sptf, asptf$`,
    ),
  ],
  ['sweep without --vary', ['sweep', S, '--json'], /^spindle: sweep needs --vary/],
  [
    'sweep with a bad value',
    ['sweep', S, '--vary', 'disk.queueDepth=1,99', '--json'],
    /: disk\.queueDepth: must be an integer from 1 to 64, the drive's maxQueueDepth \(got 99\)$/,
  ],
  ['export without --format', ['export', S], /^spindle: export needs --format blkparse$/],
  [
    'export with an unknown format',
    ['export', S, '--format', 'csv'],
    /^spindle: --format csv: unknown format/,
  ],
  [
    'export --json',
    ['export', S, '--format', 'blkparse', '--json'],
    /^spindle: unknown option --json for "export"/,
  ],
  [
    'parse of a missing trace file',
    ['parse', 'trace.txt', '--json'],
    /^spindle: trace\.txt: no such file$/,
  ],
  [
    'replay of a missing trace file',
    ['replay', 'trace.txt'],
    /^spindle: trace\.txt: no such file$/,
  ],
  [
    'replay with an unknown mode',
    ['replay', 'trace.txt', '--mode', 'timed'],
    /^spindle: --mode timed: must be open, closed or trace-timed$/,
  ],
  ['presets with an argument', ['presets', 'x'], /^spindle: presets takes no arguments/],
];

describe('bad usage exits 2 with one line on stderr', () => {
  it.each(cases)('%s', async (_what, args, pattern) => {
    const r = await spindle(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd()).toMatch(pattern);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    if (args.length > 0) expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('a scenario with several problems: one line for each', async () => {
    const r = await spindle(['run', S, '--set', 'disk.queueDepth=0', '--set', 'seed=-1', '--json']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      'spindle: public/scenarios/c2247a-random-read.json: seed: must be an integer from 0 to 4294967295 (got -1)',
      'spindle: public/scenarios/c2247a-random-read.json: disk.queueDepth: must be an integer from 1 to 256 (got 0)',
    ]);
  });
});
