// Drive rules added for DiskSim's drives: the command overhead by what the last completed
// command was (disksim_diskctlr.c disk_read_arrive / disk_write_arrive: "… after read",
// "… after write", and "Write hit over." when fast writes are on), and where read-ahead
// stops ("Buffer continuous read": track end, cylinder end, DEC's next-track scheme —
// disksim_diskcache.c disk_buffer_get_max_readahead).
import { describe, expect, it } from 'vitest';
import { readAheadLimit } from '../../src/engine/disk/cache';
import { compileDisk } from '../../src/engine/disk/compile';
import { streamingWriteLbn } from '../../src/engine/disk/drive-state';
import { lbnBounds } from '../../src/engine/disk/geometry';
import { commandOverheadNs } from '../../src/engine/disk/overheads';
import type { DiskParams } from '../../src/engine/disk/params';
import { getPreset } from '../../src/engine/disk/presets';
import type { Simulation } from '../../src/engine/simulation';

function fakeSim(p: DiskParams, lastCompletedWrite: boolean, writePolicy = p.cache.writePolicy) {
  return {
    model: { disk: compileDisk(p), writePolicy },
    state: { drive: { lastCompletedWrite } },
  } as unknown as Simulation;
}

describe('command overheads after a read and after a write', () => {
  const c2490a = getPreset('hp-c2490a')!; // 3.616 / 2.275 ms read miss; 3.283 / 0.824 ms write
  it('a read miss after a read costs "Read miss over. after read", after a write "… after write"', () => {
    expect(commandOverheadNs(fakeSim(c2490a, false), 'read-miss')).toBeCloseTo(3.616e6, 3);
    expect(commandOverheadNs(fakeSim(c2490a, true), 'read-miss')).toBeCloseTo(2.275e6, 3);
    expect(commandOverheadNs(fakeSim(c2490a, false), 'read-hit')).toBeCloseTo(1.419e6, 3);
    expect(commandOverheadNs(fakeSim(c2490a, true), 'read-hit')).toBe(0);
  });
  it('a write-through write costs "Write miss over.", by what came before', () => {
    expect(commandOverheadNs(fakeSim(c2490a, false), 'write')).toBeCloseTo(3.283e6, 3);
    expect(commandOverheadNs(fakeSim(c2490a, true), 'write')).toBeCloseTo(0.82391e6, 3);
  });
  it('a write-back drive\'s write costs "Write hit over." (Cheetah 9LP: 0.748 after a read, 0.5 after a write)', () => {
    const c = getPreset('cheetah-9lp')!;
    expect(commandOverheadNs(fakeSim(c, false), 'write')).toBeCloseTo(0.748e6, 3);
    expect(commandOverheadNs(fakeSim(c, true), 'write')).toBeCloseTo(0.5e6, 3);
    // the same drive made write-through pays the miss figure
    expect(commandOverheadNs(fakeSim(c, false, 'write-through'), 'write')).toBeCloseTo(
      0.90692e6,
      3,
    );
  });
  it('a drive with one figure each (the C2247A) pays it whatever came before', () => {
    const c = getPreset('hp-c2247a')!;
    for (const kind of ['read-hit', 'read-miss', 'write'] as const) {
      expect(commandOverheadNs(fakeSim(c, true), kind)).toBe(
        commandOverheadNs(fakeSim(c, false), kind),
      );
    }
  });
});

describe('where read-ahead stops', () => {
  const base = getPreset('hp-c2247a')!; // 96 sectors a track in zone 0; LBN 0 starts a track
  const withStop = (stop: DiskParams['cache']['readAheadStop']) =>
    fakeSim({ ...base, cache: { ...base.cache, readAheadStop: stop } }, false);
  const g = compileDisk(base).geometry;

  it('lbnBounds gives the first and last LBN of a track and of a cylinder', () => {
    expect(lbnBounds(g, 10)).toEqual([0, 95]);
    expect(lbnBounds(g, 96)).toEqual([96, 191]);
    // LBN 0 is on head 4 of cylinder 1 (17 tracks of empty front): the cylinder ends on head 12
    expect(lbnBounds(g, 10, true)).toEqual([0, 9 * 96 - 1]);
  });
  it('"segment" (3): the count alone', () => {
    expect(readAheadLimit(withStop('segment'), 10, 20, 128)).toBe(148);
  });
  it('"track" (1): also at the end of the track the read ended on', () => {
    expect(readAheadLimit(withStop('track'), 10, 20, 128)).toBe(96);
    expect(readAheadLimit(withStop('track'), 10, 96, 128)).toBe(96); // ended at the end: none
  });
  it('"cylinder" (2): at the end of the cylinder', () => {
    expect(readAheadLimit(withStop('cylinder'), 10, 20, 2000)).toBe(9 * 96);
  });
  it('"next-track" (4): to the end of the track holding the next block, a track more for a stream', () => {
    expect(readAheadLimit(withStop('next-track'), 10, 20, 1000)).toBe(96);
    expect(readAheadLimit(withStop('next-track'), 96, 100, 1000)).toBe(192);
    // the segment began on an earlier track than the next block's: a track's worth further
    expect(readAheadLimit(withStop('next-track'), 10, 96, 1000)).toBe(192 + 96);
    expect(readAheadLimit(withStop('next-track'), 90, 100, 1000)).toBe(192 + 96);
    // not held to the count: disk_buffer_get_max_readahead returns before applying it (the
    // segment wraps instead, keeping the last blocks read: disksim-dec-readahead.test.ts)
    expect(readAheadLimit(withStop('next-track'), 90, 100, 50)).toBe(192 + 96);
  });
});

describe("DiskSim's minimum seek delay for writes (disk_check_hda)", () => {
  const drive = {
    lastMediaWrite: true,
    armKnownNs: 5e6,
    writeSegment: { lo: 100, hi: 108, lastUse: 0 },
  } as unknown as Parameters<typeof streamingWriteLbn>[0];
  it('is waived only for a write appending to the last one at the instant its transfer ended', () => {
    expect(streamingWriteLbn(drive, 5e6)).toBe(108);
    // later (the host reissued after the completion): the delay applies, append or not
    expect(streamingWriteLbn(drive, 5e6 + 1)).toBe(-1);
    expect(streamingWriteLbn({ ...drive, lastMediaWrite: false }, 5e6)).toBe(-1);
  });
});
