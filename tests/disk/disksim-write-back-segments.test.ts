// A write-back drive without a separate write segment takes each write into one of its read
// segments (disksim_diskcache.c disk_buffer_select_write_segment: the dirty segment it
// appends to, BUFFER_APPEND, else an empty or the least recently used clean one), and the
// written blocks stay readable there ("Allow read hits on write data = 1",
// disk_buffer_check_read_segments) until a read takes the segment. Side by side with DiskSim
// 4.0: the nine-line trace below was run in DiskSim's validate mode (`disksim X.parv out.outv
// validate wb.trace 0`, DiskSim 4.0 built by shared/disksim/build.sh) on the Seagate Cheetah
// 9LP (3 segments) and the Quantum Atlas 10K (10); its response times are DISKSIM_MS.
// Line 2 reads what line 1 wrote (a hit on both); line 5 reads across lines 3 and 4, one
// appended to the other (a hit); line 9 reads line 3's blocks again after three read misses:
// gone from the Cheetah's three segments, still in the Atlas's ten.
import { describe, expect, it } from 'vitest';
import { readParv } from '../../cli/disksim';
import { parseValidationTrace, validateDisk } from '../../src/engine/disk/disksim/validate';
import { VALIDATION_DIR } from '../helpers/disksim';

const TRACE = `
W Hit 200000 8 10000 40000
R Hit 200000 4 10000 40000
W Hit 300000 8 10000 0
W Hit 300008 8 10000 40000
R Hit 300004 8 10000 40000
R Hit 400000 8 10000 40000
R Hit 500000 8 10000 40000
R Hit 600000 8 10000 40000
R Hit 300000 4 10000 40000
`;
// DiskSim 4.0's response times for those lines (IOdriver physical access time, ms)
const DISKSIM_MS: Record<string, number[]> = {
  cheetah9LP: [1.588, 0.693, 1.588, 1.34, 1.113, 4.657889, 6.844337, 5.997778, 7.294493],
  atlas10k: [0.978, 0.58, 0.978, 0.981, 0.976, 5.008967, 4.762397, 3.597708, 0.58],
};

function run(stem: string): number[] {
  const disk = readParv(`${VALIDATION_DIR()}/${stem}.parv`);
  return validateDisk(disk.params, parseValidationTrace(TRACE, 'wb.trace'), 'fcfs').simulatedMs;
}

describe('write-back data in the read segments (disk_buffer_select_write_segment)', () => {
  it.each(['cheetah9LP', 'atlas10k'])(
    '%s: reads of what was written hit while its segment lasts, every line as DiskSim',
    (stem) => {
      const ms = run(stem);
      const want = DISKSIM_MS[stem]!;
      expect(ms[1]!).toBeLessThan(1); // line 2: a hit
      expect(ms[4]!).toBeLessThan(1.2); // line 5: a hit across an append
      for (let i = 0; i < want.length; i++) expect(ms[i]).toBeCloseTo(want[i]!, 3);
    },
  );
});
