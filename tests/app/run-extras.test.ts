// The lesson settings of issue #16 (src/app/run-extras.ts): the drive's write policy, range
// writes off or on, each process's I/O priority and the run's length — written into the scenario
// as the CLI's --set would (src/app/cli-command.ts), carried by the link, and checked.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applySetting, parseSetting } from '../../cli/settings';
import { applyOverrides, emptyOverrides, type RunOverrides } from '../../src/app/config';
import { cliCommand, cliEdits, shellWord } from '../../src/app/cli-command';
import { checkStop, lessonRanges, lessonStop } from '../../src/app/run-extras';
import { runScenario } from '../../src/engine';
import { parseUrlState, serializeUrlState } from '../../src/app/url-state';
import { loadScenario } from '../../src/engine/scenario/load';

const read = (file: string): unknown =>
  JSON.parse(readFileSync(join(__dirname, '../../public/scenarios', file), 'utf8'));
const o = (x: Partial<RunOverrides>): RunOverrides => ({ ...emptyOverrides(), ...x });

/** The scenario the page runs and the one the shown command runs, loaded by the engine. */
function both(file: string, over: RunOverrides) {
  const raw = read(file);
  const page = loadScenario(applyOverrides(raw, over), file);
  const cli = structuredClone(raw);
  for (const [path, value] of cliEdits(raw, over))
    applySetting(cli, parseSetting(`${path}=${value}`, '--set'));
  return { page, cli: loadScenario(cli, file) };
}

describe('the page’s settings and the terminal command run the same scenario', () => {
  const cases: Array<[string, RunOverrides]> = [
    ['queue-depth-write-back.json', o({ cache: 'write-through', qd: 16 })],
    ['range-writes-journal.json', o({ ranges: false })],
    ['c2247a-block-group-writes.json', o({ ranges: true })],
    [
      'cfq-fairness.json',
      o({ ioprio: { '0': { class: 'be', level: 0 }, '3': { class: 'idle', level: 4 } } }),
    ],
    ['c2247a-random-read.json', o({ stop: { requests: 300, timeMs: null } })],
    ['deadline-promise.json', o({ sched: 'noop', stop: { requests: null, timeMs: 2000 } })],
    ['fio-switcher.json', o({ sched: 'cfq' })],
    ['page-cache.json', o({ pc: 0 })],
    ['page-cache.json', o({ pc: 1024, kernel: '6.18', sched: 'mq-deadline' })],
    ['postmark-fs.json', o({ pc: 64, gen: { 'postmark.fs': 'xfs' } })],
    [
      'range-writes-small-files.json',
      o({ gen: { 'smallfiles.rangeWrites': 'false', 'smallfiles.fullness': '0.5' } }),
    ],
    [
      'deadline-promise.json',
      o({ tunables: { read_expire: 100 }, queue: { nr_requests: 64 }, hz: 1000 }),
    ],
    ['ostep-fifo-vs-satf.json', o({ dsched: 'sptf', disk: 'ostep' })],
  ];
  it.each(cases)('%s with %j', (file, over) => {
    const { page, cli } = both(file, over);
    expect(cli).toEqual(page);
  });

  it('the command is one shell line, quoting what a shell would split', () => {
    const raw = read('c2247a-random-read.json');
    expect(
      cliCommand('c2247a-random-read.json', raw, o({ stop: { requests: 300, timeMs: null } }), 7),
    ).toBe(
      `spindle run public/scenarios/c2247a-random-read.json --set 'stop={"requests":300}' --seed 7`,
    );
    expect(shellWord("it's")).toBe(`'it'\\''s'`);
  });
});

describe('run-extras applied to a lesson', () => {
  it('range writes off turn the journal into its plain sequential log', () => {
    const s = loadScenario(
      applyOverrides(read('range-writes-journal.json'), o({ ranges: false })),
      'x',
    );
    expect(s.workload.processes[0]!.range ?? null).toBeNull();
    expect(s.workload.processes[0]!.pattern).toBe('sequential');
  });
  it('range writes on give the block group’s writer one range over its group: a write waits less', () => {
    const raw = read('c2247a-block-group-writes.json');
    const short = o({ stop: { requests: 400, timeMs: null } });
    const off = loadScenario(applyOverrides(raw, short), 'x');
    const on = loadScenario(applyOverrides(raw, { ...short, ranges: true }), 'x');
    expect(off.workload.processes[0]!.range ?? null).toBeNull();
    expect(on.workload.processes[0]!.range).toEqual({
      sizeSectors: 32768,
      targets: 1,
      alignSectors: 8,
      barrierEvery: 1,
    });
    // the drive writes where the head is rather than where the block was drawn
    const ms = (s: typeof on) => {
      const { summary } = runScenario(s);
      return summary.simulatedTimeMs / summary.requests.completed;
    };
    expect(ms(on)).toBeLessThan(ms(off) / 2);
  });
  it('the settings offer range writes where a lesson makes them or could', () => {
    expect(lessonRanges(read('range-writes-journal.json'))).toBe('on');
    expect(lessonRanges(read('c2247a-block-group-writes.json'))).toBe('off');
    expect(lessonRanges(read('cfq-fairness.json'))).toBeNull();
    expect(() => applyOverrides(read('cfq-fairness.json'), o({ ranges: true }))).toThrow(
      /no process of this lesson writes at random within a span/,
    );
  });
  it('range writes off on a lesson without them is an error, not a silent no-op', () => {
    expect(() => applyOverrides(read('cfq-fairness.json'), o({ ranges: false }))).toThrow(
      /no process of this lesson makes range writes/,
    );
  });
  it('an I/O priority for a process the lesson lacks names it', () => {
    expect(() =>
      applyOverrides(
        read('cfq-fairness.json'),
        o({ ioprio: { '9': { class: 'idle', level: 7 } } }),
      ),
    ).toThrow(/io\.9: the lesson has no process 9 \(it has 4/);
  });
  it('the run length replaces the lesson’s stop whole', () => {
    const s = loadScenario(
      applyOverrides(read('deadline-promise.json'), o({ stop: { requests: 500, timeMs: null } })),
      'x',
    );
    expect(s.stop).toEqual({ requests: 500, timeMs: null });
    expect(lessonStop(read('deadline-promise.json'))).toEqual({ requests: null, timeMs: 30000 });
    expect(lessonStop(read('ostep-fifo-vs-satf.json'))).toBeNull();
  });
  it('limits: a run length of 0 or past the bound is refused with a sentence', () => {
    expect(checkStop({ requests: 0, timeMs: null })).toMatch(/from 1 to 1,000,000/);
    expect(checkStop({ requests: null, timeMs: 4e6 })).toMatch(/3,600,000 ms/);
    expect(checkStop({ requests: 10, timeMs: null })).toBeNull();
  });
});

describe('the link carries them', () => {
  it('round trip', () => {
    const c = parseUrlState('?v=1&lesson=cfq-fairness.json').config;
    c.run = o({
      cache: 'write-back',
      ranges: false,
      ioprio: { '3': { class: 'idle', level: 7 }, '0': { class: 'rt', level: 0 } },
      stop: { requests: null, timeMs: 1500 },
    });
    const url = serializeUrlState(c);
    expect(url).toContain('cache=write-back');
    expect(url).toContain('io.0=rt.0&io.3=idle.7');
    expect(url).toContain('stop.timeMs=1500');
    const back = parseUrlState(url);
    expect(back.problems).toEqual([]);
    expect(back.config).toEqual(c);
    c.run = o({ ranges: true });
    expect(serializeUrlState(c)).toContain('ranges=1');
    expect(parseUrlState(serializeUrlState(c)).config).toEqual(c);
  });
  it('bad values are problems in words', () => {
    const p = parseUrlState('?v=1&cache=fast&io.2=worst&ranges=2&stop.requests=5&stop.timeMs=9')
      .problems.map((x) => x.message)
      .join('\n');
    expect(p).toMatch(/not write-through or write-back/);
    expect(p).toMatch(/is not class\.level/);
    expect(p).toMatch(/ranges: "2" is not 0 \(range writes off\) or 1 \(on\)/);
    expect(p).toMatch(/given twice/);
  });
});
