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
  it('4 KiB blocks (11 a track): HRS makes fewer estimates than ECS, a tenth from depth 16', () => {
    expect(f(8, 1, 'hrs').estimates).toBeLessThan(f(8, 1, 'ecs').estimates);
    for (const qd of [16, 64])
      expect(f(8, qd, 'hrs').estimates).toBeLessThanOrEqual(0.1 * f(8, qd, 'ecs').estimates);
  });
});
