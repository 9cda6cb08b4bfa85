// DiskSim's "Extra write disconnect" (the HP C2247A's): a write that does not append to the
// last one written disconnects after its command and reconnects later for its data
// (disk_request_arrive and disk_buffer_select_segment, disksim_diskctlr.c/diskcache.c), and
// on such a drive a write starts on the media only once min(n, 10) sectors of its data are
// in the buffer (disk_buffer_block_available). The reader takes it from the C2247A's files;
// the preset does not yet (docs/DISKSIM.md "SPTF at depth").
import { describe, expect, it } from 'vitest';
import { compileDisk } from '../../src/engine/disk/compile';
import { readDiskSim } from '../../src/engine/disk/disksim/reader';
import { writeStartNs } from '../../src/engine/disk/mechanics';
import { getPreset } from '../../src/engine/disk/presets/index';
import type { IoRequest } from '../../src/engine/request';
import { runScenario } from '../../src/engine/run';
import { loadScenario } from '../../src/engine/scenario/load';
import { filesIn, VALIDATION_DIR } from '../helpers/disksim';

const fromFiles = readDiskSim('hp_c2247a.parv', filesIn(VALIDATION_DIR())).params;
const MS = 1e6;

describe("DiskSim's extra write disconnect", () => {
  it('times the mechanism, the data and the completion from the Extradisc parameters', () => {
    const d = compileDisk(fromFiles);
    // the mechanism waits for the command overhead and the seek delta: 0.64244 + 0.25
    expect(d.extraDisc!.mechanismNs / MS).toBeCloseTo(0.89244, 9);
    // the data comes after the command, the disconnect, the delay, the (first) reselect and
    // the data preparation: 0.64244 + 0.04551 + 0.42885 + 0.16249 + 0.02519 (DiskSim's
    // event log: the reconnection completes 1.30448 ms after the command arrives)
    expect(d.extraDisc!.dataNs / MS).toBeCloseTo(1.30448, 9);
    // the completion reconnects with the "other" reselect
    expect(d.extraDisc!.completeReselectNs / MS).toBeCloseTo(0.12883, 9);
    expect(compileDisk(getPreset('hp-c2247a')!).extraDisc).toBeNull();
  });

  it('a write starts once min(n, 10) sectors of its data are in (15 from 45 sectors on)', () => {
    const d = compileDisk(fromFiles);
    const bus = d.busWriteNsPerSector;
    // writeStartNs reads only these two
    const rq = { dataReadyNs: 5 * MS, nSectors: 0 } as IoRequest;
    for (const [n, need] of [
      [1, 1],
      [8, 8],
      [10, 10],
      [44, 10],
      [45, 15],
      [256, 15],
    ] as const) {
      rq.nSectors = n;
      expect(writeStartNs(d, rq)).toBeCloseTo(5 * MS + (need - 1) * bus, 3);
    }
    // a drive without it writes each sector as its data comes
    rq.nSectors = 8;
    expect(writeStartNs(compileDisk(getPreset('hp-c2247a')!), rq)).toBe(5 * MS);
  });

  it('only a write that does not append to the last one disconnects the extra time', () => {
    // one process, one write at a time: sequential writes append, random ones do not
    const mean = (pattern: 'sequential' | 'random', extra: boolean): number => {
      const s = loadScenario(
        {
          name: 'extradisc',
          seed: 1,
          disk: {
            preset: 'hp-c2247a',
            queueDepth: 1,
            queueing: 'driver',
            ...(extra
              ? { overheads: { extraWriteDisconnect: fromFiles.overheads.extraWriteDisconnect } }
              : {}),
          },
          workload: {
            processes: [{ name: 'w', op: 'write', pattern, sizeKiB: 4, outstanding: 1 }],
          },
          stop: { requests: 2000 },
        },
        'extradisc',
      );
      return runScenario(s).summary.positioningMs.overhead;
    };
    // appends: the plain path, overheads unchanged
    expect(mean('sequential', true)).toBeCloseTo(mean('sequential', false), 9);
    // non-appending writes: 0.89244 + 0.12883 against 0.82391 + 0.16249 of overhead
    expect(mean('random', true) - mean('random', false)).toBeCloseTo(
      0.89244 + 0.12883 - (0.82391 + 0.16249),
      2,
    );
  });
});
