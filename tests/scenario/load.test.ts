// Tests for src/engine/scenario/load.ts: every default, JSON syntax errors with line and
// column, and the committed scenarios in public/scenarios/. Problem messages: load-problems.test.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getPreset } from '../../src/engine/disk/presets';
import { parseScenarioText, ScenarioError } from '../../src/engine/scenario/load';
import { FILE, load, minimal, raw } from './helpers';

describe('defaults', () => {
  const s = load(minimal());

  it('top level: seed 1, title = name, lesson ""', () => {
    expect(s.name).toBe('x');
    expect(s.seed).toBe(1);
    expect(s.title).toBe('x');
    expect(s.lesson).toBe('');
    expect(s.source).toBe(FILE);
  });

  it('disk: hp-c2247a, queue depth 1, fcfs, preset cache, aging weight 6, no overrides', () => {
    expect(s.disk).toEqual({
      preset: 'hp-c2247a',
      queueDepth: 1,
      scheduler: 'fcfs',
      cache: null,
      agingWeight: 6,
      overrides: {},
    });
  });

  it('iosched: "none" with no tunables, the queue at its sysfs defaults, kernel 2.6.32, HZ 250', () => {
    expect(s.iosched).toEqual({
      name: 'none',
      tunables: {},
      queue: {
        nr_requests: 128,
        max_sectors_kb: 512,
        nomerges: 0,
        unplug_thresh: 4,
        unplug_delay: 3,
      },
      kernel: '2.6.32',
      hz: 250,
    });
  });

  it('process: every field', () => {
    expect(s.workload.processes).toEqual([
      {
        name: 'reader',
        count: 1,
        mode: 'closed',
        outstanding: 1,
        thinkTimeMs: 0,
        rateIops: 0,
        arrival: 'poisson',
        op: 'read',
        readFraction: 0.5,
        sync: null,
        pattern: 'random',
        sizeKiB: 4,
        span: null,
        ioprio: null,
        requests: null,
      },
    ]);
  });

  it('stop: only what is given', () => {
    expect(s.stop).toEqual({ requests: 10, timeMs: null });
    expect(load(raw((x) => (x.stop = { timeMs: 500 }))).stop).toEqual({
      requests: null,
      timeMs: 500,
    });
  });

  it('a fixed request: atMs 0, thinkTimeMs null; no stop needed', () => {
    const f = load({
      name: 'f',
      workload: { processes: [{ name: 'p', requests: [{ sector: 7, sizeKiB: 0.5, op: 'read' }] }] },
    });
    expect(f.workload.processes[0]!.requests).toEqual([
      { sector: 7, sizeKiB: 0.5, op: 'read', atMs: 0, thinkTimeMs: null },
    ]);
    expect(f.stop).toEqual({ requests: null, timeMs: null });
  });

  it('open mode keeps its rate; mix keeps its read fraction; explicit values pass through', () => {
    const o = load(
      raw((x) => {
        x.seed = 42;
        x.title = 'T';
        x.lesson = 'L';
        x.disk = {
          preset: 'ostep',
          queueDepth: 3,
          scheduler: 'sptf',
          cache: 'write-back',
          agingWeight: 2,
        };
        x.workload.processes = [
          {
            name: 'w',
            mode: 'open',
            rateIops: 50,
            arrival: 'fixed',
            op: 'mix',
            readFraction: 0.7,
            sizeKiB: { min: 0.5, max: 2 },
          },
        ];
        x.stop = { timeMs: 1000 }; // an open process's arrivals end with the run's time
      }),
    );
    expect(o.seed).toBe(42);
    expect(o.title).toBe('T');
    expect(o.lesson).toBe('L');
    expect(o.disk).toMatchObject({
      preset: 'ostep',
      queueDepth: 3,
      scheduler: 'sptf',
      cache: 'write-back',
      agingWeight: 2,
    });
    expect(o.workload.processes[0]).toMatchObject({
      mode: 'open',
      rateIops: 50,
      arrival: 'fixed',
      op: 'mix',
      readFraction: 0.7,
      sizeKiB: { min: 0.5, max: 2 },
    });
  });

  it('other keys under disk are overrides, nested ones too', () => {
    const o = load(raw((x) => (x.disk = { rpm: 7200, overheads: { readMissMs: 0.4 } })));
    expect(o.disk.overrides).toEqual({ rpm: 7200, overheads: { readMissMs: 0.4 } });
  });
});

describe('parseScenarioText', () => {
  it('loads valid text', () => {
    expect(parseScenarioText(JSON.stringify(minimal()), FILE).name).toBe('x');
  });

  it.each([
    ['a trailing comma', '{\n  "name": "x",\n  "seed": 1,\n}', 4, 1],
    ['a missing comma', '{\n  "name": "x"\n  "seed": 1\n}', 3, 3],
    ['an unterminated object', '{\n  "name": "x"', 2, 14],
    ['a bare word', '{\n  "name": x\n}', 2, 11],
    ['empty text', '', 1, 1],
    ['text after the value', '{}\n{}', 2, 1],
  ])('bad JSON (%s) → line and column', (_what, text, line, column) => {
    let message = '';
    try {
      parseScenarioText(text, FILE);
    } catch (e) {
      expect(e).toBeInstanceOf(ScenarioError);
      message = (e as Error).message;
    }
    expect(message).toMatch(
      new RegExp(`^${FILE.replace('.', '\\.')}: invalid JSON at line ${line}, column ${column}: `),
    );
    expect(message.split('\n')).toHaveLength(1);
  });

  it('a key given twice is an error, not a silent last-wins', () => {
    expect(() => parseScenarioText('{"name": "x", "disk": {"rpm": 1, "rpm": 2}}', FILE)).toThrow(
      `${FILE}: disk.rpm: appears twice (JSON would silently keep the last)`,
    );
  });
});

describe('the committed scenarios', () => {
  const dir = join(__dirname, '../../public/scenarios');
  // index.json is the page's list of lessons, not a scenario.
  const files = readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'index.json');

  it('are there', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'seek-rotate-transfer.json',
        'ostep-fifo-vs-satf.json',
        'c2247a-random-read.json',
        'c2247a-block-group-writes.json',
        'sptf-vs-fcfs.json',
      ]),
    );
  });

  it("index.json (the page's lesson list) names every scenario, with its own title", () => {
    const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as {
      lessons: Array<{ file: string; title: string }>;
    };
    expect(index.lessons.map((l) => l.file).sort()).toEqual([...files].sort());
    for (const l of index.lessons) {
      expect(l.title).toBe(
        parseScenarioText(readFileSync(join(dir, l.file), 'utf8'), l.file).title,
      );
    }
  });

  it.each(files)('%s loads, with a title and a lesson, named after its file', (f) => {
    const s = parseScenarioText(readFileSync(join(dir, f), 'utf8'), f);
    expect(s.name).toBe(f.replace(/\.json$/, ''));
    expect(s.title.length).toBeGreaterThan(0);
    expect(s.title).not.toBe(s.name);
    expect(s.lesson.length).toBeGreaterThan(100);
    expect(getPreset(s.disk.preset)).toBeDefined();
  });
});
