// The small-file generator (workload/generators/smallfiles.ts): ext2's goal by PID mod 16,
// the nearest free block after it, a group filled before the run, and its range writes
// naming a mini-group's free extents.
import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/engine/sim/rng';
import { loadScenario } from '../../src/engine/scenario/load';
import { resolveGenerator } from '../../src/engine/scenario/generator-schema';
import type { GenEnv, Step } from '../../src/engine/workload/generators/types';
import {
  MINI_GROUPS,
  smallfiles,
  type SmallFilesSpec,
} from '../../src/engine/workload/generators/smallfiles';
import { smallFilesScenario } from '../../src/engine/disk/range-experiments';
import { runCollect } from './helpers';
import { readFileSync } from 'node:fs';
import { GENERATOR_CHOICES } from '../../src/engine/workload/generators';
import { applyGenerators, lessonGenerators } from '../../src/app/workload-config';
import type { Catalog } from '../../src/app/config';

const BLOCKS = 16 * 64; // a small group: 16 mini-groups of 64 blocks
const START = 80_000;
const env: GenEnv = {
  spanStart: START,
  spanSectors: BLOCKS * 8,
  k: 0,
  count: 1,
  regionStart: START,
  regionSectors: BLOCKS * 8,
};

function gen(o: Partial<SmallFilesSpec>, seed = 1) {
  const spec = resolveGenerator({ kind: 'smallfiles', ...o }) as SmallFilesSpec;
  const rng = createRng(seed, 'test');
  const st = smallfiles.init(spec, env, rng);
  const files = (n: number): Step[] => {
    const out: Step[] = [];
    for (let i = 0; i < n; i++) smallfiles.next(spec, st, env, rng, out);
    return out;
  };
  return { spec, st, files };
}
const block = (sector: number): number => (sector - START) / 8;
const mgOf = (sector: number): number => Math.floor(block(sector) / (BLOCKS / MINI_GROUPS));

describe('the group before the run', () => {
  it('defaults: one process, an empty group, ordinary writes, 16 in flight', () => {
    expect(gen({}).spec).toMatchObject({ pids: 1, fullness: 0, rangeWrites: false, inFlight: 16 });
  });
  it('fullness marks exactly that share of the blocks in use, at random, the same for both variants', () => {
    const a = gen({ fullness: 0.3 }).st;
    const b = gen({ fullness: 0.3, rangeWrites: true }).st;
    expect(a.used.reduce((n, u) => n + u, 0)).toBe(Math.round(0.3 * BLOCKS));
    expect(Array.from(b.used)).toEqual(Array.from(a.used));
    expect(Array.from(gen({ fullness: 0.3 }, 2).st.used)).not.toEqual(Array.from(a.used));
    // spread over the group: every mini-group holds some
    for (let m = 0; m < MINI_GROUPS; m++) expect(a.left[m]).toBeLessThan(64);
  });
  it('range writes: each mini-group’s free extents cover exactly its free blocks', () => {
    const { st } = gen({ fullness: 0.5, rangeWrites: true });
    for (let m = 0; m < MINI_GROUPS; m++) {
      const free: number[] = [];
      for (const e of st.extents[m]!) for (let s = e.begin; s < e.end; s += 8) free.push(block(s));
      const want: number[] = [];
      for (let b = m * 64; b < (m + 1) * 64; b++) if (!st.used[b]) want.push(b);
      expect(free).toEqual(want);
      expect(st.left[m]).toBe(want.length);
    }
  });
});

describe('where files go', () => {
  it('ordinary, one process: the free blocks after the goal in order, then the next mini-group', () => {
    const { st, files } = gen({ fullness: 0.5 });
    const free: number[] = [];
    for (let b = 0; b < BLOCKS; b++) if (!st.used[b]) free.push(b);
    const n = st.left[0]! + st.left[1]! + 3;
    const s = files(n);
    expect(s.map((x) => block(x.sector))).toEqual(free.slice(0, n));
    expect(s.every((x) => x.write && !x.sync && x.nSectors === 8 && !x.range)).toBe(true);
  });
  it('ordinary, sixteen processes: file i’s PID (i mod 16) picks its mini-group', () => {
    const s = gen({ pids: 16 }).files(48);
    expect(s.map((x) => mgOf(x.sector))).toEqual(Array.from({ length: 48 }, (_, i) => i % 16));
    // each mini-group filled from its start
    expect(s.slice(16, 32).map((x) => block(x.sector) % 64)).toEqual(new Array(16).fill(1));
    // PIDs beyond 16 wrap: 32 processes place files as 16 do
    expect(gen({ pids: 32 }).files(48)).toEqual(s);
  });
  it('range writes: the mini-group’s free extents, 4 KiB-aligned, no barrier; the placeholder is its first free block', () => {
    const { st, files } = gen({ pids: 16, fullness: 0.25, rangeWrites: true });
    const s = files(32);
    s.forEach((x, i) => {
      expect(x.range).toEqual({ ranges: st.extents[i % 16], align: 8, barrier: false });
      expect(x.sector).toBe(st.extents[i % 16]![0]!.begin);
    });
  });
  it('range writes: once a mini-group’s free blocks are all handed out, the next file goes to the next', () => {
    const { st, files } = gen({ fullness: 0.9, rangeWrites: true });
    const in0 = st.left[0]!;
    const s = files(in0 + 1);
    expect(s.slice(0, in0).every((x) => mgOf(x.sector) === 0)).toBe(true);
    expect(mgOf(s[in0]!.sector)).toBe(1);
  });
  it('a full group stops the run with that reason', () => {
    const { files } = gen({ fullness: 0.99 });
    expect(() => files(BLOCKS)).toThrow(/smallfiles: the block group .* is full after 10 files/);
  });
});

describe('in a scenario', () => {
  it('range writes need the "none" block layer, as a process’s range key does', () => {
    const json = smallFilesScenario({ pids: 16, fullness: 0, rangeWrites: true });
    expect(() => loadScenario({ ...json, iosched: { name: 'deadline' } }, 'x.json')).toThrow(
      /iosched.name: must be "none" when a process makes range writes \(workload.processes.0.generator\)/,
    );
    const plain = smallFilesScenario({ pids: 16, fullness: 0, rangeWrites: false });
    expect(() => loadScenario({ ...plain, iosched: { name: 'deadline' } }, 'x.json')).not.toThrow();
  });
  it('fullness is a share from 0 to 0.99', () => {
    const json = smallFilesScenario({ pids: 1, fullness: 1, rangeWrites: true });
    expect(() => loadScenario(json, 'x.json')).toThrow(
      /generator.fullness: must be a share of the group in use from 0 to 0.99/,
    );
  });
  it('the drive keeps range state only when the files are range writes', () => {
    const run = (rangeWrites: boolean) =>
      runCollect({
        ...smallFilesScenario({ pids: 16, fullness: 0, rangeWrites }),
        stop: { requests: 20 },
      });
    expect(run(false).result.simulation.state.drive.ranges).toBeNull();
    const r = run(true);
    expect(r.result.simulation.state.drive.ranges).not.toBeNull();
    expect(r.decisions.some((d) => d.rule === 'hrs-shortest-positioning')).toBe(true);
  });
});

describe('the page’s Workload settings on a small-file lesson', () => {
  it('offer processes, fullness and range writes with the lesson’s values; a change runs', () => {
    const lesson = JSON.parse(
      readFileSync('public/scenarios/range-writes-small-files-full.json', 'utf8'),
    ) as Record<string, unknown>;
    const catalog = { generators: GENERATOR_CHOICES } as unknown as Catalog;
    const offered = lessonGenerators(lesson, catalog).map((g) => [g.key, g.lessonValue]);
    expect(offered).toEqual([
      ['pids', '16'],
      ['fullness', '0.5'],
      ['rangeWrites', 'true'],
    ]);
    const json = structuredClone(lesson);
    applyGenerators(json, {
      'smallfiles.pids': '1',
      'smallfiles.fullness': '0.9',
      'smallfiles.rangeWrites': 'false',
    });
    const w = json.workload as { processes: Array<{ generator: unknown }> };
    expect(w.processes[0]!.generator).toEqual({
      kind: 'smallfiles',
      pids: 1,
      fullness: 0.9,
      rangeWrites: false,
    });
    const r = runCollect({ ...json, stop: { requests: 30 } });
    expect(r.result.summary.requests.completed).toBe(30);
  });
});
