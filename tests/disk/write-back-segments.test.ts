// The write-back buffer is made of segments (DISK-MODEL.md §1.5; DiskSim "Maximum number of
// write segments"): a segment holds one contiguous run of written data, so a drive holds at
// most `cache.writeSegments` runs not yet on the media, whatever their size. A write that
// continues a dirty segment's run joins it ("Combine seq writes"); any other write needs a
// clean segment, or the drive answers QUEUE FULL. (Before this rule the buffer counted only
// sectors: 512 random 4 KiB writes fitted in the Cheetah 15K.4's 4096-sector buffer, and the
// drive's SPTF destaged from all of them, where the real drive has 16 segments.)
import { describe, expect, it } from 'vitest';
import { buildModel } from '../../src/engine/model';
import { createSimulation, step } from '../../src/engine/simulation';
import { inspectDrive } from '../../src/engine/disk/inspect';
import type { FixedRequest } from '../../src/engine/scenario/types';
import { proc, scenario } from '../helpers/scenario';

/** `n` 4 KiB writes queued at time 0 on a write-back Cheetah 15K.4 at queue depth 64. */
function run(sectors: number[], overrides: Record<string, unknown> = {}) {
  const requests: FixedRequest[] = sectors.map((sector) => ({
    sector,
    sizeKiB: 4,
    op: 'write' as const,
    atMs: 0,
    thinkTimeMs: null,
  }));
  const sim = createSimulation(
    buildModel(
      scenario({
        preset: 'cheetah-15k4-146g',
        cache: 'write-back',
        queueDepth: 64,
        scheduler: 'sptf',
        iosched: 'none',
        overrides,
        processes: [proc({ requests, sync: false })],
      }),
    ),
  );
  let mostDirty = 0;
  let mostQueued = 0;
  while (step(sim)) {
    const v = inspectDrive(sim);
    mostDirty = Math.max(mostDirty, v.writeBuffer.dirtySegments);
    mostQueued = Math.max(mostQueued, v.queued.filter((q) => q.internal).length);
  }
  const v = inspectDrive(sim);
  return { mostDirty, mostQueued, end: v.writeBuffer, completed: sim.state.metrics.iosCompleted };
}

const random = Array.from({ length: 40 }, (_, i) => ((i * 7919 + 13) % 40) * 5_000_000);
const sequential = Array.from({ length: 40 }, (_, i) => 1_000_000 + i * 8);

describe('write-back segments (DiskSim "Maximum number of write segments")', () => {
  it('random writes take a segment each: at most writeSegments (16) are dirty, the rest get QUEUE FULL', () => {
    const r = run(random);
    expect(r.end.segments).toBe(16);
    expect(r.mostDirty).toBe(16);
    // the drive's own scheduler destages from at most 16 writes, not from all 40
    expect(r.mostQueued).toBeLessThanOrEqual(16);
    expect(r.end.refusals).toBeGreaterThan(0);
    expect(r.completed).toBe(40);
    // all on the media at the end: every segment clean again
    expect(r.end.dirtySegments).toBe(0);
    expect(r.end.usedSectors).toBe(0);
  });

  it('a sequential stream continues one segment’s run: 40 writes, one segment, no refusal', () => {
    const r = run(sequential);
    expect(r.mostDirty).toBe(1);
    expect(r.end.refusals).toBe(0);
    expect(r.completed).toBe(40);
    expect(r.end.dirtySegments).toBe(0);
  });

  it('the sectors still bound the buffer: many segments, few sectors still refuse', () => {
    const r = run(random, { cache: { writeSegments: 64, writeBufferSectors: 64 } });
    expect(r.mostDirty).toBe(8); // 64 sectors = eight 4 KiB writes
    expect(r.end.refusals).toBeGreaterThan(0);
  });

  it('no write segments: writes go through to the media (never refused forever)', () => {
    const r = run(random, { cache: { writeSegments: 0 } });
    expect(r.mostDirty).toBe(0);
    expect(r.end.refusals).toBe(0);
    expect(r.completed).toBe(40);
  });
});
