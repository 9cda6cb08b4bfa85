// The page's URL state (src/app/url-state.ts) and configuration checks (src/app/config.ts):
// every configuration survives the round trip through its link exactly; hostile or damaged
// queries never throw, never let markup through unquoted, and fall back to defaults.
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  applyOverrides,
  defaultConfig,
  effective,
  emptyOverrides,
  HIDEABLE,
  lessonGenerators,
  type Catalog,
  type LabConfig,
  type RunOverrides,
} from '../../src/app/config';
import { sanitizeConfig } from '../../src/app/config-check';
import { parseUrlState, serializeUrlState, MAX_QUERY_CHARS } from '../../src/app/url-state';

// a property run of hundreds of cases: slower than 5 s on a loaded machine
vi.setConfig({ testTimeout: 60_000 });

const name = fc.stringMatching(/^[a-z0-9][a-z0-9_.-]{0,20}$/);
const tunableName = fc.stringMatching(/^[a-z][a-z0-9_]{0,15}$/);
const value = fc.oneof(
  fc.integer({ min: -1e9, max: 1e9 }),
  fc.integer({ min: 0, max: 1e6 }).map((x) => x / 1000),
);

const overrides: fc.Arbitrary<RunOverrides> = fc.record(
  {
    sched: name,
    tunables: fc.dictionary(tunableName, value, { maxKeys: 4 }),
    queue: fc.dictionary(tunableName, value, { maxKeys: 3 }),
    kernel: name,
    hz: fc.integer({ min: 0, max: 100000 }),
    disk: name,
    qd: fc.integer({ min: 0, max: 100000 }),
    dsched: name,
    pc: fc.integer({ min: 0, max: 100000 }),
    gen: fc.dictionary(fc.stringMatching(/^[a-z]{1,8}\.[a-zA-Z]{1,8}$/), name, { maxKeys: 2 }),
    cache: fc.constantFrom('write-through' as const, 'write-back' as const),
    ranges: fc.boolean(),
    ioprio: fc.dictionary(
      fc.integer({ min: 0, max: 999 }).map(String),
      fc.record({
        class: fc.constantFrom('rt' as const, 'be' as const, 'idle' as const),
        level: fc.integer({ min: 0, max: 7 }),
      }),
      { minKeys: 1, maxKeys: 3 },
    ),
    stop: fc.oneof(
      fc.integer({ min: 0, max: 1e9 }).map((requests) => ({ requests, timeMs: null })),
      value.map((timeMs) => ({ requests: null, timeMs })),
    ),
  },
  { requiredKeys: ['tunables', 'queue', 'gen'] },
);

const config: fc.Arbitrary<LabConfig> = fc.record(
  {
    lesson: fc.stringMatching(/^[a-z0-9][a-z0-9_.-]{0,30}\.json$/),
    seed: fc.integer({ min: 0, max: 4294967295 }),
    run: overrides,
    compare: fc.option(fc.array(overrides, { minLength: 2, maxLength: 4 }), { nil: null }),
    hide: fc
      .uniqueArray(fc.constantFrom(...HIDEABLE))
      .map((h) => [...h].sort((a, b) => HIDEABLE.indexOf(a) - HIDEABLE.indexOf(b))),
    present: fc.boolean(),
    embed: fc.boolean(),
    quiz: fc.boolean(),
    theme: fc.constantFrom('light' as const, 'dark' as const),
    atNs: fc.integer({ min: 0, max: 1e15 - 1 }),
    fromNs: fc.integer({ min: 0, max: 1e15 - 1 }),
  },
  { requiredKeys: ['lesson', 'run', 'compare', 'hide', 'present', 'embed', 'quiz'] },
);

const catalog: Catalog = {
  schedulers: [
    { name: 'none', tunables: [] },
    {
      name: 'deadline',
      tunables: [
        {
          name: 'read_expire',
          unit: 'ms',
          min: 0,
          max: 100000,
          doc: 'd',
          defaults: { 100: 500, 250: 500, 1000: 500 },
        },
      ],
    },
  ],
  queue: [
    {
      name: 'nr_requests',
      unit: 'requests',
      min: 4,
      max: 8192,
      doc: 'n',
      defaults: { 100: 128, 250: 128, 1000: 128 },
    },
  ],
  kernels: ['2.6.32', '2.6.16'],
  hz: [100, 250, 1000],
  presets: [
    { name: 'hp-c2247a', title: 'HP', maxQueueDepth: 8, ssd: false, writePolicy: 'write-through' },
  ],
  diskSchedulers: ['fcfs', 'sptf'],
  generators: [
    { kind: 'ffsb', key: 'profile', choices: ['mixed', 'rand-read'], defaultValue: null, doc: '' },
    { kind: 'postmark', key: 'fs', choices: ['ext3', 'xfs'], defaultValue: 'ext3', doc: '' },
    { kind: 'fio', key: 'job', choices: ['oltp', 'seq-read'], defaultValue: null, doc: '' },
    { kind: 'kbuild', key: 'builds', choices: ['2', '4'], defaultValue: null, doc: '' },
  ],
};

describe('URL state', () => {
  it('round-trips every configuration exactly, with no problems', () => {
    fc.assert(
      fc.property(config, (c) => {
        const q = serializeUrlState(c);
        const back = parseUrlState(q);
        expect(back.problems).toEqual([]);
        expect(back.config).toEqual(c);
        // canonical: the same configuration always writes the same link
        expect(serializeUrlState(back.config)).toBe(q);
      }),
      { seed: 20261121, numRuns: 400 },
    );
  });

  it('writes a readable, versioned query and leaves lesson defaults out', () => {
    const c = defaultConfig();
    c.lesson = 'deadline-promise.json';
    c.run.sched = 'deadline';
    c.run.tunables.read_expire = 250;
    c.hide = ['seed', 'speed'];
    expect(serializeUrlState(c)).toBe(
      '?v=1&lesson=deadline-promise.json&sched=deadline&t.read_expire=250&_hide=seed,speed',
    );
    expect(parseUrlState('').given).toBe(false);
  });

  it('refuses a future version whole, and an oversized query whole', () => {
    const future = parseUrlState('?v=2&sched=cfq');
    expect(future.config).toEqual(defaultConfig());
    expect(future.problems[0]!.message).toContain('version');
    const huge = parseUrlState(`?v=1&lesson=${'a'.repeat(MAX_QUERY_CHARS)}.json`);
    expect(huge.config).toEqual(defaultConfig());
    expect(huge.problems).toHaveLength(1);
  });

  it('reports each bad piece, quoted and trimmed, and keeps the good ones', () => {
    const r = parseUrlState(
      '?v=1&lesson=<script>.json&sched=deadline&t.read_expire=abc&qd=4&qd=5&_hide=seed,bogus&zz=1&cmp=7&c5.sched=x',
    );
    expect(r.config.run.sched).toBe('deadline');
    expect(r.config.run.qd).toBe(4);
    expect(r.config.hide).toEqual(['seed']);
    expect(r.config.lesson).toBe(defaultConfig().lesson);
    expect(r.config.compare).toBeNull();
    const text = r.problems.map((p) => `${p.where}: ${p.message}`).join('\n');
    expect(text).toContain('"<script>.json" is not a lesson file name');
    expect(text).toContain('"abc" is not a number');
    expect(text).toContain('"qd" appears twice');
    expect(text).toContain('"bogus" is not a control');
    expect(text).toContain('"zz" is not a setting');
    expect(text).toContain('compare takes 2 to 4 columns');
  });

  it('reads the played window’s start (from=, whole ns) strictly; from=0 is kept', () => {
    const r = parseUrlState('?v=1&lesson=fio-switcher.json&from=124000000000&at=126000000000');
    expect(r.problems).toEqual([]);
    expect(r.config.fromNs).toBe(124e9);
    expect(r.config.atNs).toBe(126e9);
    expect(serializeUrlState(r.config)).toBe(
      '?v=1&lesson=fio-switcher.json&from=124000000000&at=126000000000',
    );
    // 0 means the run's start even when the lesson says otherwise: it is written back
    const zero = parseUrlState('?v=1&from=0');
    expect(zero.config.fromNs).toBe(0);
    expect(serializeUrlState(zero.config)).toContain('&from=0');
    expect(parseUrlState('?v=1').config.fromNs).toBeUndefined();
    for (const bad of ['-5', '1.5', '1e9', '124s', '', '1234567890123456']) {
      const b = parseUrlState(`?v=1&from=${encodeURIComponent(bad)}`);
      expect(b.config.fromNs).toBeUndefined();
      expect(b.problems).toEqual([
        { where: 'from', message: `${JSON.stringify(bad)} is not a time in whole nanoseconds` },
      ]);
    }
  });

  it('does not let a key reach an object prototype', () => {
    const r = parseUrlState('?v=1&t.__proto__=1&q.__proto__=2&t.constructor=3');
    expect(Object.getPrototypeOf(r.config.run.tunables)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(r.problems.map((p) => p.message).join('\n')).toContain('"t.__proto__"');
    // a harmless own key named like a built-in is dropped against the catalog
    const checked = sanitizeConfig(r.config, catalog, []);
    expect(checked.config.run.tunables).toEqual({});
  });

  it('never throws on arbitrary input, and every message is short and control-free', () => {
    const junk = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.string({ unit: 'binary', maxLength: 300 }),
      fc
        .array(
          fc.tuple(
            fc.oneof(
              fc.constantFrom(
                'v',
                'lesson',
                'sched',
                't.read_expire',
                'cmp',
                'c2.qd',
                '_hide',
                'at',
                'from',
              ),
              fc.string({ maxLength: 12 }),
            ),
            fc.string({ unit: 'binary', maxLength: 60 }),
          ),
          { maxLength: 20 },
        )
        .map((pairs) => `?${new URLSearchParams(pairs).toString()}`),
    );
    fc.assert(
      fc.property(junk, (q) => {
        const r = parseUrlState(q);
        for (const p of r.problems) {
          // eslint-disable-next-line no-control-regex
          expect(p.message).not.toMatch(/[\u0000-\u001f]/);
          expect(p.message.length).toBeLessThan(400);
        }
        // whatever was read is itself a valid link
        expect(parseUrlState(serializeUrlState(r.config)).problems).toEqual([]);
      }),
      { seed: 7, numRuns: 1000 },
    );
  });
});

describe('configuration checks and overrides', () => {
  it('drops values the engine tables refuse, saying why', () => {
    const c = defaultConfig();
    c.run = {
      sched: 'nosuch',
      tunables: { read_expire: 999999 },
      queue: { nr_requests: 2 },
      qd: 9,
      disk: 'hp-c2247a',
      dsched: 'sptf',
      hz: 300,
      pc: -1,
      gen: { 'ffsb.profile': 'rand-read', 'ffsb.nosuch': 'x', 'postmark.fs': 'ntfs' },
    };
    const { config: out, problems } = sanitizeConfig(c, catalog, ['seek-rotate-transfer.json']);
    expect(out.run).toEqual({
      tunables: {},
      queue: {},
      gen: { 'ffsb.profile': 'rand-read' },
      disk: 'hp-c2247a',
      dsched: 'sptf',
    });
    const text = problems.map((p) => `${p.where}: ${p.message}`).join('\n');
    expect(text).toContain('there is no I/O scheduler "nosuch"');
    expect(text).toContain('read_expire must be from 0 to 100000 ms');
    expect(text).toContain('nr_requests must be from 4 to 8192');
    expect(text).toContain('queue depth: must be a whole number from 1 to 8');
    expect(text).toContain('HZ: must be one of 100, 250, 1000');
    expect(text).toContain('page cache: must be a whole number of MiB from 0 (none)');
    expect(text).toContain('ffsb.nosuch: no workload generator has a key ffsb.nosuch');
    expect(text).toContain('postmark.fs: must be one of ext3, xfs');
  });

  it('the page cache: a size puts one in (keeping the lesson’s other settings), 0 takes it out; the page shows the size in effect', () => {
    const lesson = {
      name: 'l',
      workload: {
        pageCache: { memoryMiB: 64, dirty_ratio: 30 },
        processes: [{ name: 'p', generator: { kind: 'fio', job: 'rand-write' } }],
      },
    };
    const applied = (pc: number) =>
      (applyOverrides(lesson, { ...emptyOverrides(), pc }) as { workload: { pageCache: unknown } })
        .workload.pageCache;
    expect(applied(256)).toEqual({ memoryMiB: 256, dirty_ratio: 30 });
    expect(applied(0)).toBeNull();
    expect(effective(lesson, emptyOverrides()).pc).toBe(64);
    expect(effective(lesson, { ...emptyOverrides(), pc: 0 }).pc).toBe(0);
    // none in the lesson: 0; {} is the engine's default memory
    const plain = { ...lesson, workload: { processes: lesson.workload.processes } };
    expect(effective(plain, emptyOverrides()).pc).toBe(0);
    expect(
      effective({ ...lesson, workload: { ...lesson.workload, pageCache: {} } }, emptyOverrides())
        .pc,
    ).toBe(1024);
    // it round-trips in a link
    const c = defaultConfig();
    c.run = { ...emptyOverrides(), pc: 16 };
    expect(parseUrlState(serializeUrlState(c)).config.run.pc).toBe(16);
  });

  it('workload: a generator key applies to every process of its kind; a lesson offers the keys its processes agree on', () => {
    const proc = (generator: Record<string, unknown>) => ({ name: 'p', generator });
    const lesson = {
      workload: {
        processes: [
          proc({ kind: 'fio', job: 'oltp' }),
          proc({ kind: 'fio', job: 'seq-read' }),
          proc({ kind: 'postmark', config: 'SS' }),
          proc({ kind: 'kbuild', builds: 2 }),
        ],
      },
    };
    const offered = lessonGenerators(lesson, catalog).map((g) => [g.kind, g.key, g.lessonValue]);
    // two fio jobs differ: no "job"; postmark's fs is left out: its default
    expect(offered).toEqual([
      ['postmark', 'fs', 'ext3'],
      ['kbuild', 'builds', '2'],
    ]);
    const out = applyOverrides(lesson, {
      ...emptyOverrides(),
      gen: { 'postmark.fs': 'xfs', 'kbuild.builds': '4' },
    }) as typeof lesson;
    expect(out.workload.processes.map((p) => p.generator)).toEqual([
      { kind: 'fio', job: 'oltp' },
      { kind: 'fio', job: 'seq-read' },
      { kind: 'postmark', config: 'SS', fs: 'xfs' },
      { kind: 'kbuild', builds: 4 },
    ]);
    expect(lesson.workload.processes[2]!.generator).toEqual({ kind: 'postmark', config: 'SS' });
  });

  it('applies overrides to a copy; another scheduler drops the lesson tunables', () => {
    const lesson = {
      name: 'x',
      seed: 3,
      disk: { preset: 'hp-c2247a', queueDepth: 1 },
      iosched: { name: 'deadline', tunables: { fifo_batch: 4 } },
    };
    const frozen = structuredClone(lesson);
    const same = applyOverrides(
      lesson,
      { ...emptyOverrides(), tunables: { read_expire: 100 } },
      9,
    ) as {
      seed: number;
      iosched: { tunables: Record<string, number> };
    };
    expect(same.iosched.tunables).toEqual({ fifo_batch: 4, read_expire: 100 });
    expect(same.seed).toBe(9);
    const other = applyOverrides(lesson, { ...emptyOverrides(), sched: 'noop', qd: 4 }) as {
      iosched: { name: string; tunables?: unknown };
      disk: { queueDepth: number };
    };
    expect(other.iosched).toEqual({ name: 'noop' });
    expect(other.disk.queueDepth).toBe(4);
    expect(lesson).toEqual(frozen);
  });
});
