// The two case-study lessons (public/scenarios/range-writes-*.json) say what they show.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runCollect, completions } from './helpers';
import {
  EXT2_GROUP,
  FULLNESS,
  SMALL_FILES,
  smallFilesScenario,
  sweep,
} from '../../src/engine/disk/range-experiments';
import { MINI_GROUPS, smallfiles } from '../../src/engine/workload/generators/smallfiles';
import { createRng } from '../../src/engine/sim/rng';

// whole simulation runs: slower than unit tests on a shared machine
vi.setConfig({ testTimeout: 60_000 });

const dir = join(__dirname, '../../public/scenarios');
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const read = (f: string): Json => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Json;

/** The ordinary version: each process writes the next block of its span instead. */
function withoutRanges(s: Json): Json {
  const c = structuredClone(s);
  for (const p of c.workload.processes) {
    p.range = null;
    p.pattern = 'sequential';
  }
  return c;
}

describe('journal commits (log skipping)', () => {
  const s = read('range-writes-journal.json');
  it('writing each commit at the next block loses most of a revolution; a range removes it', () => {
    const plain = runCollect(withoutRanges(s)).result.summary;
    const ranged = runCollect(s).result.summary;
    expect(plain.positioningMs.rotation).toBeGreaterThan(0.75 * 11.111);
    expect(ranged.positioningMs.rotation).toBeLessThan(0.1 * plain.positioningMs.rotation);
    expect(ranged.latencyMs.q2c.p95).toBeLessThan(plain.latencyMs.q2c.p50 / 2);
  });
});

// The small-file study (the paper's §4, Figures 9–11): the sweep `spindle range-sweep
// small-files` runs — 1000 4 KiB files into a 128 MiB ext2 block group by one process and
// by sixteen, empty up to 90% full, with and without range writes, drive queue depth 16.
// Measured (seed 1), time per file in ms, ordinary → range writes (time saved):
//   one process:      0% 1.26 → 1.30 (−3%)   25% 1.78 → 1.81 (−2%)  50% 2.56 → 2.47 (4%)
//                     75% 3.50 → 3.28 (6%)   90% 4.31 → 4.10 (5%)
//   sixteen:          0% 6.96 → 4.73 (32%)   25% 6.84 → 4.94 (28%)  50% 7.00 → 5.16 (26%)
//                     75% 7.32 → 5.47 (25%)  90% 7.70 → 5.72 (26%)
describe('small-file creation in an ext2 block group', () => {
  const rows = sweep('small-files');
  const ms = (pids: number, fullness: number, ranges: 'yes' | 'no'): number =>
    rows.find((r) => r.key.pids === pids && r.key.fullness === fullness && r.key.ranges === ranges)!
      .figures.msPerRequest;
  /** the share of the ordinary writes' time that range writes save */
  const saving = (pids: number, fullness: number): number =>
    1 - ms(pids, fullness, 'yes') / ms(pids, fullness, 'no');
  const HALF_FULL_ON = FULLNESS.filter((f) => f >= 0.5);

  it('sixteen processes, empty group: range writes help — a quarter or more of the time saved', () => {
    expect(saving(16, 0)).toBeGreaterThan(0.25);
  });
  it('one process, empty group: range writes do not help much (its files are already contiguous)', () => {
    expect(Math.abs(saving(1, 0))).toBeLessThan(0.1);
  });
  it('the fuller the group, the longer a file takes, with or without ranges', () => {
    for (const pids of [1, 16])
      for (const r of ['yes', 'no'] as const)
        expect(ms(pids, 0.9, r)).toBeGreaterThan(ms(pids, 0.5, r));
  });
  it('sixteen processes: from half full to 90% full range writes stay ahead by a steady quarter (20–30%, within 5 points of each other)', () => {
    const s = HALF_FULL_ON.map((f) => saving(16, f));
    for (const x of s) {
      expect(x).toBeGreaterThan(0.2);
      expect(x).toBeLessThan(0.3);
    }
    expect(Math.max(...s) - Math.min(...s)).toBeLessThan(0.05);
  });
  // The "about 20% ahead once the group is half full" (20% ± 5 points, from 50% to
  // 90% full) is the paper's Figure 11, which it ran with one process. Spindle measures
  // 3.7%, 6.3% and 5.1% there (and 26%, 25%, 26% with sixteen processes — a quarter, just
  // past the claim's band, see below). Why one process gains so little: ext2 gives its files
  // the free blocks after one goal in order, and the drive streams through them, close
  // together (a block SPTF passes over stays queued: plain SPTF has no aging); SPTF among
  // them already leaves little rotation (0.55 ms a file at 50% full), and what the ranges remove (to 0.28 ms) comes
  // back partly as head switches (seek 0.87 → 1.04 ms): HRS takes whichever free block it
  // reaches first, on another track if need be, and leaves holes to come back to. The
  // paper does not say how its group was filled (here: random 4 KiB blocks) or in what
  // order its writeback issued the files (here: the order ext2 allocated them); with these
  // choices 20% does not come out, and no parameter was adjusted to make it.
  it.fails(
    'one process (the paper’s Figure 11): about 20% (± 5 points) ahead once the group is half full',
    () => {
      for (const f of HALF_FULL_ON) expect(Math.abs(saving(1, f) - 0.2)).toBeLessThanOrEqual(0.05);
    },
  );
  it.fails('sixteen processes: about 20% (± 5 points) ahead once the group is half full', () => {
    // 26.3%, 25.3%, 25.7%: about a quarter, not about a fifth
    for (const f of HALF_FULL_ON) expect(Math.abs(saving(16, f) - 0.2)).toBeLessThanOrEqual(0.05);
  });
});

describe('the small-file lessons (public/scenarios/range-writes-small-files*.json)', () => {
  const lessons = [
    { file: 'range-writes-small-files.json', pids: 16, fullness: 0 },
    { file: 'range-writes-small-files-one.json', pids: 1, fullness: 0 },
    { file: 'range-writes-small-files-full.json', pids: 16, fullness: 0.5 },
    { file: 'range-writes-small-files-one-full.json', pids: 1, fullness: 0.5 },
  ];
  it.each(lessons)('$file is the study’s run with $pids process(es), $fullness full', (l) => {
    const { name: _n, title: _t, lesson: _l, ...rest } = read(l.file);
    const { name: _n2, ...want } = smallFilesScenario({ ...l, rangeWrites: true });
    expect(rest).toEqual(want);
  });

  for (const l of [lessons[0]!, lessons[3]!, { pids: 1, fullness: 0.9 }])
    it(`${l.pids} process(es), ${l.fullness * 100}% full: every file lands in the mini-group the file system chose for it, in a block free before the run, once; mini-groups fill as without ranges`, () => {
      const perMiniGroup = (rangeWrites: boolean) => {
        const { events } = runCollect(smallFilesScenario({ ...l, rangeWrites }));
        const cs = completions(events);
        // the placeholder (D) is the first free block of the mini-group the file system chose
        const placeholder = new Map(
          events.filter((e) => e.action === 'D').map((e) => [e.rq, e.sector]),
        );
        return { cs, placeholder, h: histogram(cs.map((c) => c.sector)) };
      };
      const plain = perMiniGroup(false);
      const ranged = perMiniGroup(true);
      const before = prefill(l.pids, l.fullness, 1);
      expect(ranged.cs.length).toBe(SMALL_FILES);
      expect(new Set(ranged.cs.map((c) => c.sector)).size).toBe(SMALL_FILES);
      const wrong = ranged.cs.filter(
        (c) =>
          mg(c.sector) !== mg(ranged.placeholder.get(c.rq)!) ||
          c.sector % 8 !== 0 ||
          before.used[(c.sector - EXT2_GROUP.startSector) / 8] === 1,
      );
      expect(wrong).toEqual([]);
      // the paper's Figure 10: how many files each mini-group got, with and without ranges;
      // the runs stop at 1000 completions with up to 16 other writes in flight
      const off = ranged.h.reduce((a, n, m) => a + Math.abs(n - plain.h[m]!), 0);
      expect(off).toBeLessThanOrEqual(2 * 16);
      if (l.pids === 16)
        for (const n of ranged.h) expect(Math.abs(n - SMALL_FILES / 16)).toBeLessThan(4);
    });
});

const MG_SECTORS = EXT2_GROUP.sectors / MINI_GROUPS;
const mg = (sector: number): number => Math.floor((sector - EXT2_GROUP.startSector) / MG_SECTORS);
const histogram = (sectors: number[]): number[] => {
  const h = new Array<number>(MINI_GROUPS).fill(0);
  for (const s of sectors) h[mg(s)]!++;
  return h;
};

/** The group as the generator fills it before the run (its thread's own random stream). */
function prefill(pids: number, fullness: number, seed: number) {
  const env = {
    spanStart: EXT2_GROUP.startSector,
    spanSectors: EXT2_GROUP.sectors,
    k: 0,
    count: 1,
    regionStart: EXT2_GROUP.startSector,
    regionSectors: EXT2_GROUP.sectors,
  };
  const spec = {
    kind: 'smallfiles',
    pids,
    fullness,
    rangeWrites: true,
    inFlight: 16,
    startMs: 0,
    durationMs: null,
  } as const;
  return smallfiles.init(spec, env, createRng(seed, 'process:ext2'));
}
