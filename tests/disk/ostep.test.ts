// The `ostep` preset reproduces OSTEP disk.py's answers exactly (DISK-MODEL.md §3).
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/engine/run';
import { fixedReads, scenario } from '../helpers/scenario';

function diskPy(
  sectors: number[],
  opts: { scheduler?: 'fcfs' | 'sstf' | 'sptf'; skew?: number } = {},
) {
  const s = scenario({
    preset: 'ostep',
    queueDepth: opts.scheduler && opts.scheduler !== 'fcfs' ? 64 : 1,
    scheduler: opts.scheduler ?? 'fcfs',
    processes: [fixedReads(sectors)],
    overrides: opts.skew
      ? {
          zones: [
            {
              firstCylinder: 0,
              lastCylinder: 2,
              sectorsPerTrack: 12,
              firstSectorOffset: 0,
              emptyFrontSectors: 0,
              trackSkew: 0,
              cylinderSkew: opts.skew,
              spareTracks: 0,
              slips: [],
            },
          ],
        }
      : {},
  });
  const { summary } = runScenario(s);
  const n = summary.requests.completed;
  return {
    seek: summary.positioningMs.seek * n,
    rotate: summary.positioningMs.rotation * n,
    transfer: summary.positioningMs.transfer * n,
    total: summary.simulatedTimeMs,
  };
}

const close = (x: number, y: number) => expect(x).toBeCloseTo(y, 6);

describe('ostep preset = disk.py', () => {
  it.each([
    [[10], 0, 105, 30, 135],
    [[0], 0, 165, 30, 195],
    [[6], 0, 345, 30, 375],
    [[30], 80, 265, 30, 375],
    [[10, 18], 40, 275, 60, 375],
    [[7, 30, 8], 160, 545, 90, 795],
    [[10, 11, 12, 13], 40, 425, 120, 585],
  ])('-a %j FIFO → seek %d rotate %d transfer %d total %d', (a, seek, rotate, transfer, total) => {
    const r = diskPy(a);
    close(r.seek, seek);
    close(r.rotate, rotate);
    close(r.transfer, transfer);
    close(r.total, total);
  });

  it('-a 7,30,8 -p SATF → 375 (seek 80, rotate 205)', () => {
    const r = diskPy([7, 30, 8], { scheduler: 'sptf' });
    close(r.seek, 80);
    close(r.rotate, 205);
    close(r.total, 375);
  });

  it('-a 7,30,8 -p SSTF → 375', () => {
    close(diskPy([7, 30, 8], { scheduler: 'sstf' }).total, 375);
  });

  it('-a 10,11,12,13 -o 2 → 285 (the skew saves the rotation)', () => {
    const r = diskPy([10, 11, 12, 13], { skew: 2 });
    close(r.rotate, 125);
    close(r.total, 285);
  });
});
