// The range-writes paper's results (Anand et al., OSDI '08) reproduced on hp-c2247a:
// the claims of issue #6, on shorter runs than `spindle range-sweep` (same workloads).
import { describe, expect, it, vi } from 'vitest';
import {
  BLOCK_SECTORS,
  GROUP_SECTORS,
  TRACK_SECTORS,
  runRange,
  sweep,
  type RangeFigures,
  type RangeRun,
} from '../../src/engine/disk/range-experiments';

// whole simulation runs: slower than unit tests on a shared machine
vi.setConfig({ testTimeout: 60_000 });

const N = 2000;
const run = (r: Omit<RangeRun, 'requests'>): RangeFigures => runRange({ ...r, requests: N });
const positioning = (f: RangeFigures): number => f.seekMs + f.rotationMs;
const HUNDRED_BLOCKS = 100 * BLOCK_SECTORS;

describe('without ranges: time per random write vs disk queue depth', () => {
  for (const span of ['disk', 'group'] as const) {
    it(`${span}: depth 2 is no better than depth 1 (same access time, one estimate per decision)`, () => {
      const q1 = run({ queueDepth: 1, span, range: null });
      const q2 = run({ queueDepth: 2, span, range: null });
      expect(Math.abs(positioning(q2) / positioning(q1) - 1)).toBeLessThan(0.02);
      expect(q2.estimatesPerDecision).toBeCloseTo(1, 2); // only the first decision sees two
    });
    it(`${span}: depth 64 cuts positioning substantially but does not remove it`, () => {
      const q1 = run({ queueDepth: 1, span, range: null });
      const q64 = run({ queueDepth: 64, span, range: null });
      expect(positioning(q64)).toBeLessThan(0.6 * positioning(q1));
      expect(positioning(q64)).toBeGreaterThan(0.25 * positioning(q1));
    });
  }
  it('group, depth 1: about DiskSim’s 12.67 ms per 4 KiB write (DISK-MODEL.md §6 row 11)', () => {
    expect(run({ queueDepth: 1, span: 'group', range: null }).msPerRequest).toBeCloseTo(12.67, 0);
  });
});

describe('track-sized ranges remove rotational latency', () => {
  for (const span of ['disk', 'group'] as const) {
    it(`${span}, 100-block ranges: mean rotation under 10% of the no-range case at depth 1`, () => {
      const none = run({ queueDepth: 1, span, range: null });
      const ranged = run({ queueDepth: 1, span, range: { sizeSectors: HUNDRED_BLOCKS } });
      expect(ranged.rotationMs).toBeLessThan(0.1 * none.rotationMs);
    });
    it(`${span}: the time saved per write is largest at low queue depth`, () => {
      const saved = (qd: number): number =>
        run({ queueDepth: qd, span, range: null }).msPerRequest -
        run({ queueDepth: qd, span, range: { sizeSectors: HUNDRED_BLOCKS } }).msPerRequest;
      expect(saved(1)).toBeGreaterThan(saved(64));
    });
  }
  // A real track's worth of 4 KiB blocks (88 sectors: 11 blocks) is not the 100-block range:
  // it leaves 11.7% of the rotation (0.67 of 5.69 ms) where 100 blocks leave 1.7%. Inherent,
  // not a model defect (hrs-ecs.test.ts checks both effects on single placements):
  //  - a write starts on a 4 KiB boundary, every 8 sectors: wherever the head lands, the
  //    next boundary is on average half a block away — 4 of 88 sectors, 0.51 ms, 8.9% of
  //    the no-range rotation — even for a range that is exactly one track;
  //  - a range drawn at a random 4 KiB start begins mid-track 10 times in 11: its two
  //    pieces (the end of one track, the start of the next) miss an arc as wide as the
  //    next track's skew (13 sectors; 29 at a cylinder boundary), where the head waits.
  // With sector starts the alignment part goes (3.6% left, the skew part); a 100-block
  // range spans about ten tracks whose block boundaries sit at different angles, so one of
  // them has a boundary just ahead of the head. The paper's "track-sized ranges eliminate
  // all rotational cost" fits a disk that may start a write at any sector (DiskSim's unit).
  it('group, one track’s worth (88 sectors) at depth 1: 4 KiB starts leave 9–15% of the rotation; sector starts under 10%', () => {
    const none = run({ queueDepth: 1, span: 'group', range: null });
    const blocks = run({ queueDepth: 1, span: 'group', range: { sizeSectors: TRACK_SECTORS } });
    const sectors = run({
      queueDepth: 1,
      span: 'group',
      range: { sizeSectors: TRACK_SECTORS, alignSectors: 1 },
    });
    const share = (f: RangeFigures): number => f.rotationMs / none.rotationMs;
    expect(share(blocks)).toBeGreaterThan(0.09);
    expect(share(blocks)).toBeLessThan(0.15);
    expect(share(sectors)).toBeLessThan(0.1);
  });
  it('group, one track’s worth (88 sectors): positioning roughly halved at depth 1', () => {
    const none = run({ queueDepth: 1, span: 'group', range: null });
    const ranged = run({ queueDepth: 1, span: 'group', range: { sizeSectors: TRACK_SECTORS } });
    const ratio = positioning(ranged) / positioning(none);
    expect(ratio).toBeGreaterThan(0.4);
    expect(ratio).toBeLessThan(0.6);
  });
});

describe('group-sized ranges in a group-sized span', () => {
  for (const qd of [1, 16, 64]) {
    it(`depth ${qd}: positioning under 15% of the no-range case`, () => {
      const none = run({ queueDepth: qd, span: 'group', range: null });
      const ranged = run({ queueDepth: qd, span: 'group', range: { sizeSectors: GROUP_SECTORS } });
      expect(positioning(ranged)).toBeLessThan(0.15 * positioning(none));
    });
  }
});

describe('the targets sweep (1…64 targets of 1 and of 100 blocks within a group, depth 1)', () => {
  const rows = sweep('targets', N);
  const at = (blocks: number, targets: number): number =>
    rows.find((r) => r.key.rangeBlocks === blocks && r.key.targets === targets)!.figures
      .msPerRequest;
  it('64 targets of 100 blocks: at least 2.5× faster than one target of one block', () => {
    expect(at(1, 1) / at(100, 64)).toBeGreaterThanOrEqual(2.5);
  });
  it('more targets never make writes slower (each size)', () => {
    for (const blocks of [1, 100])
      for (let i = 1; i < 7; i++)
        expect(at(blocks, 2 ** i)).toBeLessThanOrEqual(at(blocks, 2 ** (i - 1)) * 1.01);
  });
});

describe('reads mixed in', () => {
  for (const qd of [1, 16]) {
    it(`depth ${qd}: the benefit of 100-block ranges shrinks as reads grow, to none at 100%`, () => {
      const benefit = [0, 0.25, 0.5, 0.75, 1].map((f) => {
        const none = run({ queueDepth: qd, span: 'group', readFraction: f, range: null });
        const ranged = run({
          queueDepth: qd,
          span: 'group',
          readFraction: f,
          range: { sizeSectors: HUNDRED_BLOCKS },
        });
        return 1 - ranged.msPerRequest / none.msPerRequest;
      });
      for (let i = 1; i < benefit.length; i++) expect(benefit[i]!).toBeLessThan(benefit[i - 1]!);
      expect(Math.abs(benefit[4]!)).toBeLessThan(1e-9);
    });
  }
});

describe('ECS with few targets (same-track rewrites)', () => {
  it('8 targets equally spaced capture most (≥ 75%) of full expansion’s benefit', () => {
    const rows = sweep('same-track', N);
    const t = (p: string): number => rows.find((r) => r.key.placement === p)!.figures.msPerRequest;
    expect((t('none') - t('ecs-8')) / (t('none') - t('ecs-full'))).toBeGreaterThanOrEqual(0.75);
  });
});

describe('HRS vs ECS with S = T (track-sized ranges)', () => {
  const rows = sweep('hrs-ecs', N);
  const f = (unit: number, qd: number, rs: string): RangeFigures =>
    rows.find(
      (r) => r.key.alignSectors === unit && r.key.queueDepth === qd && r.key.rangeScheduler === rs,
    )!.figures;
  for (const unit of [BLOCK_SECTORS, 1])
    for (const qd of [1, 16, 64])
      it(`${unit}-sector blocks, depth ${qd}: the same mean write time within 5%`, () => {
        const h = f(unit, qd, 'hrs').msPerRequest;
        const e = f(unit, qd, 'ecs').msPerRequest;
        expect(Math.abs(h / e - 1)).toBeLessThan(0.05);
      });
  it('sector blocks (the paper’s track of ~90 blocks): HRS makes at most a tenth of ECS’s estimates', () => {
    for (const qd of [1, 16, 64])
      expect(f(1, qd, 'hrs').estimates).toBeLessThanOrEqual(0.1 * f(1, qd, 'ecs').estimates);
  });
  it('4 KiB blocks (11 a track): HRS makes at most a tenth of ECS’s estimates from depth 16', () => {
    for (const qd of [16, 64])
      expect(f(8, qd, 'hrs').estimates).toBeLessThanOrEqual(0.1 * f(8, qd, 'ecs').estimates);
  });
  // At depth 1 with 4 KiB blocks HRS makes 1.90 estimates a write, ECS 11: 0.173, not a
  // tenth. HRS does no needless work there: it makes one estimate per track the range lies
  // on (records.test.ts and hrs-ecs.test.ts check that), and nothing can prune the second
  // track — it is on the same cylinder or the next, its seek is no worse than the first's,
  // and with one write in the drive there is no other command to beat. The ratio is set by
  // the unit: a track holds 11 blocks, so ECS expands S = 11 starts, while a track-sized
  // range at a random 4 KiB start straddles two tracks 10 times in 11 (1 + 10/11 = 1.91
  // tracks). W_HR = ⌈S/T⌉·Q assumes a range that starts on a track boundary: then HRS makes
  // one estimate to ECS's 11 (1/11, hrs-ecs.test.ts). With sector blocks S = 88 and the
  // ratio is 1.96/88. From depth 16 other writes' tracks are pruned: at depths 16 and 64 the
  // ratio falls to 6.5% and 3.1% with 4 KiB blocks, 0.6% and 0.3% with sector blocks.
  it('4 KiB blocks, depth 1: HRS makes one estimate per track of the write (1 + 10/11), ECS one per start (11)', () => {
    expect(f(8, 1, 'ecs').estimatesPerDecision).toBe(11);
    expect(f(8, 1, 'hrs').estimatesPerDecision).toBeGreaterThan(1.85);
    expect(f(8, 1, 'hrs').estimatesPerDecision).toBeLessThanOrEqual(1 + 10 / 11 + 0.02);
  });
  it.fails(
    '4 KiB blocks, depth 1: HRS at most a tenth of ECS’s estimates (S = T = 11 blocks: 1.9/11)',
    () => {
      expect(f(8, 1, 'hrs').estimates).toBeLessThanOrEqual(0.1 * f(8, 1, 'ecs').estimates);
    },
  );
});
