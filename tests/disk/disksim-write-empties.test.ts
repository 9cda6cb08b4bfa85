// A write empties the clean read segments it overlaps (disksim_diskcache.c
// disk_buffer_set_segment: "clear out clean, non-active, overlapping segments if write"),
// side by side with DiskSim 4.0. The four-line trace below was run in DiskSim's validate mode
// (`disksim X.parv out.outv validate wr.trace 0`, DiskSim 4.0 built by
// shared/disksim/build.sh) on the DEC RZ26 (write-through, a separate write segment) and the
// Seagate Cheetah 9LP (write-back, segments shared by reads and writes); its response times
// are DISKSIM_MS. Line 1 reads 100,000–100,007 and reads ahead past 100,023; line 2 writes
// 100,020–100,023; line 3 reads 100,010–100,013, which line 1's segment held: a miss in DiskSim
// (before this rule, a hit in Spindle); line 4 is a hit on what line 3 read ahead.
import { describe, expect, it } from 'vitest';
import { readParv } from '../../cli/disksim';
import { parseValidationTrace, validateDisk } from '../../src/engine/disk/disksim/validate';
import { VALIDATION_DIR } from '../helpers/disksim';

const TRACE = `
R Hit 100000 8 10000 40000
W Hit 100020 4 10000 40000
R Hit 100010 4 10000 40000
R Hit 100030 4 10000 40000
`;
// DiskSim 4.0's response times for those lines (IOdriver physical access time, ms)
const DISKSIM_MS: Record<string, number[]> = {
  dec_rz26: [11.264637, 7.906501, 2.803808, 1.51176],
  cheetah9LP: [8.741449, 1.168, 2.27088, 0.486],
};

function run(stem: string): number[] {
  const disk = readParv(`${VALIDATION_DIR()}/${stem}.parv`);
  return validateDisk(disk.params, parseValidationTrace(TRACE, 'wr.trace'), 'fcfs').simulatedMs;
}

describe('a write empties the clean read segments it overlaps (disk_buffer_set_segment)', () => {
  it.each(['dec_rz26', 'cheetah9LP'])(
    '%s: the read after the write misses, every line as DiskSim',
    (stem) => {
      const ms = run(stem);
      const want = DISKSIM_MS[stem]!;
      // a hit would take one command overhead and the bus: well under DiskSim's miss
      expect(ms[2]!).toBeGreaterThan(2);
      for (let i = 0; i < want.length; i++) expect(ms[i]).toBeCloseTo(want[i]!, 3);
    },
  );
});
