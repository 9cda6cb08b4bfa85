// DEC's read-ahead scheme ("Buffer continuous read = 4") on the Quantum Atlas 10K, side by
// side with DiskSim 4.0: read-ahead runs to the end of the track holding the block after the
// request, a track further when the segment began on an earlier track, whatever "Maximum
// read-ahead" says (disksim_diskcache.c disk_buffer_get_max_readahead returns before applying
// it); a read-ahead longer than the 374-block segment keeps only its last 374 blocks
// (disk_buffer_segment_wrap). The five-line trace below was run in DiskSim's validate mode
// (`disksim atlas10k.parv out.outv validate dec.trace 0`, DiskSim 4.0 built by
// shared/disksim/build.sh); its response times are DISKSIM_MS.
// Line 1 reads 2,780,064–2,780,067, the end of a track (2,779,744–2,780,067): the next block
// starts the next track (to 2,780,391) and the segment began on the earlier one, so
// read-ahead runs to 2,780,716, 648 blocks — the segment then holds 2,780,342–2,780,715.
// Line 2 (2,780,068) is a miss; line 3 (2,780,500, past the 374 blocks a count would allow)
// a hit. Lines 4–5: a read in the middle of a track, and a hit 100 blocks on.
import { describe, expect, it } from 'vitest';
import { readParv } from '../../cli/disksim';
import { parseValidationTrace, validateDisk } from '../../src/engine/disk/disksim/validate';
import { VALIDATION_DIR } from '../helpers/disksim';

const TRACE = `
R Hit 2780064 4 10000 45000
R Hit 2780068 4 10000 45000
R Hit 2780500 4 10000 45000
R Hit 5000000 8 10000 45000
R Hit 5000100 8 10000 45000
`;
// DiskSim 4.0's response times for those lines (IOdriver physical access time, ms)
const DISKSIM_MS = [10.980647, 4.118179, 0.58, 4.782401, 0.976];

let ms: number[] | null = null;
function atlas(): number[] {
  if (!ms) {
    const disk = readParv(`${VALIDATION_DIR()}/atlas10k.parv`);
    ms = validateDisk(disk.params, parseValidationTrace(TRACE, 'dec.trace'), 'fcfs').simulatedMs;
  }
  return ms;
}

describe("DEC's read-ahead scheme, as DiskSim runs it on the Atlas 10K", () => {
  it("read-ahead is not held to a count ('Maximum read-ahead' 354, the segment's 374): line 3, 432 blocks on, is a hit (disk_buffer_get_max_readahead)", () => {
    expect(atlas()[2]).toBeCloseTo(DISKSIM_MS[2]!, 3);
  });

  it('the segment keeps its last 374 blocks: line 2, right after line 1, is a miss (disk_buffer_segment_wrap)', () => {
    expect(atlas()[1]!).toBeGreaterThan(2);
    expect(atlas()[1]).toBeCloseTo(DISKSIM_MS[1]!, 3);
  });

  it('every line as DiskSim', () => {
    for (let i = 0; i < DISKSIM_MS.length; i++) expect(atlas()[i]).toBeCloseTo(DISKSIM_MS[i]!, 3);
  });
});
