// Tests for src/engine/scenario/load.ts: every kind of problem is reported as
// `<file>: <key.path>: <what was expected> (got …)`, one line each, all of them at once.
import { describe, expect, it } from 'vitest';
import { elevatorNames } from '../../src/engine/iosched/elevator';
import '../../src/engine/iosched/registry';
import { FILE, load, problems, raw, type RawJson } from './helpers';

const AVAILABLE = elevatorNames()
  .map((n) => `"${n}"`)
  .join(', ');

describe('problems name the file and the key path', () => {
  const cases: Array<[string, (s: RawJson) => void, string]> = [
    [
      'queue depth 0',
      (s) => (s.disk = { queueDepth: 0 }),
      `${FILE}: disk.queueDepth: must be an integer from 1 to 256 (got 0)`,
    ],
    [
      'a negative rpm override',
      (s) => (s.disk = { rpm: -7200 }),
      `${FILE}: disk.rpm: must be a rotation speed from 60 to 1000000 rpm`,
    ],
    [
      'a nested override out of range',
      (s) => (s.disk = { overheads: { readMissMs: -1 } }),
      `${FILE}: disk.overheads.readMissMs: must be a time in ms from 0 to 10000 (got -1)`,
    ],
    [
      'an override of the wrong type',
      (s) => (s.disk = { surfaces: '13' }),
      `${FILE}: disk.surfaces: must be an integer from 1 to 1000 (got "13")`,
    ],
    [
      'an unknown disk key',
      (s) => (s.disk = { rmp: 7200 }),
      `${FILE}: disk.rmp: unknown key (did you mean "rpm"?)`,
    ],
    [
      'an unknown nested disk key',
      (s) => (s.disk = { cache: 'write-back', overheads: { readMis: 1 } }),
      `${FILE}: disk.overheads.readMis: unknown key (did you mean "readMissMs"?)`,
    ],
    [
      'span past the end of the disk',
      (s) => (s.workload.processes[0].span = { startSector: 2054000, sectors: 1000 }),
      `${FILE}: workload.processes.0.span: ends at sector 2054999, past the disk's end (hp-c2247a has 2054864 sectors: 0 to 2054863)`,
    ],
    [
      'a fixed request past the end of the disk',
      (s) => {
        s.disk = { preset: 'ostep' };
        s.workload.processes[0] = {
          name: 'p',
          requests: [{ sector: 36, sizeKiB: 0.5, op: 'read' }],
        };
      },
      `${FILE}: workload.processes.0.requests.0.sector: 36 + 1 sectors runs past the disk's end (ostep has 36 sectors: 0 to 35)`,
    ],
    [
      'an unknown key',
      (s) => (s.workload.processes[0].sizeKB = 4),
      `${FILE}: workload.processes.0.sizeKB: unknown key (did you mean "sizeKiB"?)`,
    ],
    [
      'an unknown top-level key',
      (s) => (s.sede = 4),
      `${FILE}: sede: unknown key (did you mean "seed"?)`,
    ],
    [
      'a wrong type',
      (s) => (s.workload.processes[0].count = '4'),
      `${FILE}: workload.processes.0.count: must be an integer from 1 to 1024 (got "4")`,
    ],
    [
      'a wrong enum',
      (s) => (s.workload.processes[0].op = 'erase'),
      `${FILE}: workload.processes.0.op: must be one of "read", "write", "mix" (got "erase")`,
    ],
    [
      'a size not a multiple of a sector',
      (s) => (s.workload.processes[0].sizeKiB = 3.3),
      `${FILE}: workload.processes.0.sizeKiB: must be a size in KiB greater than 0`,
    ],
    [
      'a size range with max < min',
      (s) => (s.workload.processes[0].sizeKiB = { min: 8, max: 4 }),
      `${FILE}: workload.processes.0.sizeKiB.max: must be at least min 8 (got 4)`,
    ],
    [
      'a size range missing max',
      (s) => (s.workload.processes[0].sizeKiB = { min: 8 }),
      `${FILE}: workload.processes.0.sizeKiB.max: missing (must be a size in KiB`,
    ],
    [
      'an unknown preset',
      (s) => (s.disk = { preset: 'ibm-350' }),
      `${FILE}: disk.preset: must be one of "hp-c2247a", "ostep"`,
    ],
    [
      'an unknown disk scheduler',
      (s) => (s.disk = { scheduler: 'elevator' }),
      `${FILE}: disk.scheduler: must be one of "fcfs", "sstf", "clook", "sptf", "asptf" (got "elevator")`,
    ],
    [
      'an unknown iosched',
      (s) => (s.iosched = { name: 'bfq2' }),
      `${FILE}: iosched.name: must be one of ${AVAILABLE} (got "bfq2")`,
    ],
    [
      'an iosched Spindle does not have',
      (s) => (s.iosched = { name: 'sio' }), // Android's simple I/O scheduler
      `${FILE}: iosched.name: must be one of ${AVAILABLE} (got "sio")`,
    ],
    [
      'a tunable the iosched lacks',
      (s) => (s.iosched = { tunables: { read_expire: 100 } }),
      `${FILE}: iosched.tunables.read_expire: unknown key ("none" has no tunables)`,
    ],
    [
      'open mode without a rate',
      (s) => (s.workload.processes[0].mode = 'open'),
      `${FILE}: workload.processes.0.rateIops: missing (mode "open" needs an arrival rate in requests per second)`,
    ],
    [
      'a closed-loop key in open mode',
      (s) => Object.assign(s.workload.processes[0], { mode: 'open', rateIops: 10, outstanding: 2 }),
      `${FILE}: workload.processes.0.outstanding: only applies to mode "closed" (mode is "open")`,
    ],
    [
      'readFraction without mix',
      (s) => (s.workload.processes[0].readFraction = 0.3),
      `${FILE}: workload.processes.0.readFraction: only applies to op "mix" (op is "read")`,
    ],
    [
      'no stop',
      (s) => delete s.stop,
      `${FILE}: stop: missing: workload.processes.0 has no fixed "requests" list, so the run would go on forever`,
    ],
    [
      'an empty stop',
      (s) => (s.stop = {}),
      `${FILE}: stop: must give "requests" (completed) or "timeMs" (simulated)`,
    ],
    [
      'a non-positive stop time',
      (s) => (s.stop = { timeMs: 0 }),
      `${FILE}: stop.timeMs: must be a simulated time in ms greater than 0 (got 0)`,
    ],
    [
      'a negative play.fromMs',
      (s) => (s.play = { fromMs: -1 }),
      `${FILE}: play.fromMs: must be a simulated time in ms from 0 to 1000000000000 (got -1)`,
    ],
    [
      'a play without fromMs',
      (s) => (s.play = {}),
      `${FILE}: play.fromMs: missing (must be a simulated time in ms from 0 to 1000000000000)`,
    ],
    [
      'an unknown key in play',
      (s) => (s.play = { fromMs: 5, atMs: 3 }),
      `${FILE}: play.atMs: unknown key`,
    ],
    [
      'no processes',
      (s) => (s.workload.processes = []),
      `${FILE}: workload.processes: must be a non-empty list of processes (got an empty list)`,
    ],
    ['no workload', (s) => delete s.workload, `${FILE}: workload: missing (must be an object)`],
    ['no name', (s) => delete s.name, `${FILE}: name: missing (must be a name of 1 to 64 letters`],
    [
      'range writes on a reading process',
      (s) => (s.workload.processes[0].range = { sizeSectors: 8, targets: 4 }),
      `${FILE}: workload.processes.0.range: applies to writes: op must be "write" or "mix"`,
    ],
    [
      'an ioprio level out of range',
      (s) => (s.workload.processes[0].ioprio = { class: 'be', level: 9 }),
      `${FILE}: workload.processes.0.ioprio.level: must be an integer from 0 to 7 (got 9)`,
    ],
    [
      'duplicate instance names',
      (s) => s.workload.processes.push({ name: 'reader' }),
      `${FILE}: workload.processes.1.name: gives an instance the name "reader", which workload.processes.0 also uses`,
    ],
    [
      'a queue depth above the drive maximum',
      (s) => (s.disk = { maxQueueDepth: 8, queueDepth: 16 }),
      `${FILE}: disk.queueDepth: must be an integer from 1 to 8, the drive's maxQueueDepth (got 16)`,
    ],
    [
      'renaming the preset',
      (s) => (s.disk = { name: 'mine' }),
      `${FILE}: disk.name: is the preset's name; choose a drive with "preset"`,
    ],
    [
      'zones that do not tile the cylinders',
      (s) => (s.disk = { preset: 'ostep', cylinders: 4 }),
      `${FILE}: disk.zones: must cover cylinders 0 to 3 (disk.cylinders = 4); the last zone ends at 2`,
    ],
    [
      'a seek curve of an unknown type',
      (s) => (s.disk = { seek: { type: 'zigzag' } }),
      `${FILE}: disk.seek.type: must be a seek curve with "type" one of`,
    ],
    [
      'a new seek curve missing a key',
      (s) => (s.disk = { seek: { type: 'linear', baseMs: 1 } }),
      `${FILE}: disk.seek.perCylinderMs: missing (must be a time in ms`,
    ],
    [
      'a top level that is not an object',
      (s) => (s.workload = 3),
      `${FILE}: workload: must be an object (got 3)`,
    ],
  ];

  it.each(cases)('%s', (_what, edit, expected) => {
    const lines = problems(raw(edit));
    expect(
      lines.some((l) => l.startsWith(expected)),
      `got:\n${lines.join('\n')}`,
    ).toBe(true);
    for (const l of lines) expect(l.startsWith(`${FILE}: `)).toBe(true);
  });

  it.each([
    ['thinkTime', 'thinkTimeMs'],
    ['outstandng', 'outstanding'],
    ['rateIOPS', 'rateIops'],
    ['readfraction', 'readFraction'],
  ])('a misspelt process key %s suggests %s', (typo, key) => {
    const lines = problems(raw((s) => (s.workload.processes[0][typo] = 1)));
    expect(lines).toEqual([
      `${FILE}: workload.processes.0.${typo}: unknown key (did you mean "${key}"?)`,
    ]);
  });

  it('a key far from every known one lists them instead', () => {
    expect(problems(raw((s) => (s.workload.processes[0].colour = 'red')))).toEqual([
      `${FILE}: workload.processes.0.colour: unknown key (expected one of: name, count, mode, outstanding, thinkTimeMs, rateIops, arrival, op, readFraction, sync, pattern, sizeKiB, span, ioprio, requests, generator, range)`,
    ]);
  });

  it('reports every problem, one line each', () => {
    const lines = problems(
      raw((s) => {
        s.seed = -1;
        s.disk = { queueDepth: 0 };
        s.workload.processes[0].sizeKB = 4;
      }),
    );
    expect(lines).toEqual([
      `${FILE}: seed: must be an integer from 0 to 4294967295 (got -1)`,
      `${FILE}: disk.queueDepth: must be an integer from 1 to 256 (got 0)`,
      `${FILE}: workload.processes.0.sizeKB: unknown key (did you mean "sizeKiB"?)`,
    ]);
  });

  it("a whole new seek curve replaces the preset's", () => {
    const s = load(
      raw((x) => (x.disk = { seek: { type: 'linear', baseMs: 1, perCylinderMs: 0.01 } })),
    );
    expect(s.disk.overrides).toEqual({ seek: { type: 'linear', baseMs: 1, perCylinderMs: 0.01 } });
  });

  it('an SSD block can be given where the preset has none', () => {
    const ssd = {
      readLatencyMs: 0.1,
      writeLatencyMs: 0.2,
      readMBps: 500,
      writeMBps: 400,
      channels: 4,
    };
    expect(load(raw((x) => (x.disk = { ssd }))).disk.overrides).toEqual({ ssd });
    expect(problems(raw((x) => (x.disk = { ssd: { ...ssd, channels: 0 } })))).toEqual([
      `${FILE}: disk.ssd.channels: must be an integer from 1 to 1024 (got 0)`,
    ]);
  });
});
