// Reads whose first block is buffered and last is not, side by side with DiskSim 4.0 on the
// DEC RZ26 (57 blocks a track in its outer zone: LBNs 99,978–100,034, 100,035–100,091, …;
// 10 segments of 57 blocks, read-ahead to the track's end, "Buffer continuous read = 1").
// The eight-line trace below was run in DiskSim's validate mode (`disksim dec_rz26.parv
// out.outv validate mini.trace 0`, DiskSim 4.0 built by shared/disksim/build.sh); its
// response times are DISKSIM_MS. The rules (disksim_diskctlr.c, disksim_diskcache.c):
// - a read-ahead that has run to its end has released the mechanism (disk_check_hda,
//   disk_initiate_seek refuses a background read a head switch away): its segment is
//   clean, and a later read is not served by a stream that kept going meanwhile;
// - a read whose first block is in a clean segment and whose last is not (BUFFER_PARTIAL,
//   disk_buffer_select_read_segment) reads on from the segment's end
//   (disk_check_hda_pending: seg->access->blkno = seg->endblkno) once "Read miss over." has
//   passed (disk_read_arrive's overhead_done), from where the arm is, then reads ahead;
// - a read-ahead still running on another segment is stopped for it (disk_activate_read →
//   disk_buffer_stop_access);
// - reading on, a segment keeps only its last 57 blocks (disk_buffer_segment_wrap).
import { describe, expect, it } from 'vitest';
import { readParv } from '../../cli/disksim';
import {
  parseValidationTrace,
  validateDisk,
  type ValidationResult,
} from '../../src/engine/disk/disksim/validate';
import { VALIDATION_DIR } from '../helpers/disksim';

// op, flag, start, blocks, measured µs (unused here), gap µs after completion
const TRACE = `
R Hit 100000 8 10000 40000
R Hit 100030 12 10000 40000
R Hit 100040 2 10000 40000
R Hit 500000 8 10000 40000
R Hit 100085 10 10000 40000
R Hit 100090 4 10000 40000
R Hit 300000 8 10000 1000
R Hit 100140 12 10000 1000
`;
// DiskSim 4.0's response times for those lines (IOdriver physical access time, ms)
const DISKSIM_MS = [
  11.264637, 12.882177, 1.37038, 22.849964, 13.075194, 15.777201, 17.128133, 10.580084,
];
// DiskSim's buffer hits on them: lines 2, 5 and 8 partial, line 3 whole
const DISKSIM_HITS = 4;

let run: ValidationResult | null = null;
function rz26(): ValidationResult {
  if (!run) {
    const disk = readParv(`${VALIDATION_DIR()}/dec_rz26.parv`);
    run = validateDisk(disk.params, parseValidationTrace(TRACE, 'mini.trace'), 'fcfs');
  }
  return run;
}
/** Spindle's response time for trace line `line` (1-based) against DiskSim's, to 1 µs. */
function asDiskSim(line: number): void {
  expect(rz26().simulatedMs[line - 1]).toBeCloseTo(DISKSIM_MS[line - 1]!, 3);
}

describe('a partial hit on a clean segment (DiskSim BUFFER_PARTIAL), on the DEC RZ26', () => {
  it('a read-ahead run to its end is a clean segment: the next read wanting more moves the arm again (disk_initiate_seek, disk_check_hda)', () => {
    // line 1 read ahead to its track's end (100,035) and stopped there; line 2 wants
    // 100,030–100,041: before this rule it was served by the stream "kept going" in the
    // past, in 2.6 ms, instead of a head switch and a rotational wait
    expect(rz26().simulatedMs[1]!).toBeGreaterThan(10);
    asDiskSim(2);
  });

  it('it reads on from the segment\'s end after "Read miss over." (disk_check_hda_pending, disk_read_arrive)', () => {
    asDiskSim(2);
    asDiskSim(5); // the segment 100,035–100,091 read on after a read elsewhere
  });

  it('then reads ahead, and a read within what it read is a whole hit', () => {
    asDiskSim(3);
  });

  it('a read-ahead still running on another segment is stopped for it (disk_buffer_stop_access)', () => {
    // line 7's read-ahead is still running 1 ms after it completed, when line 8 arrives
    asDiskSim(7);
    asDiskSim(8);
  });

  it('reading on, the segment keeps its last 57 blocks (disk_buffer_segment_wrap): line 6 is a miss', () => {
    // line 5 read on to 100,094 and ahead to 100,148: the segment holds 100,091–100,147
    asDiskSim(6);
  });

  it('counts the buffer hits DiskSim counts (whole and partial)', () => {
    expect(rz26().bufferHits).toBe(DISKSIM_HITS);
  });

  it('every line as DiskSim', () => {
    for (let line = 1; line <= DISKSIM_MS.length; line++) asDiskSim(line);
  });
});

// On the Quantum Atlas 10K the bus (0.099 ms a block) is slower than the media (about 0.018):
// a partial hit sends the buffered blocks, disconnects, reconnects once the first missing
// block is read and sends the rest at the bus's pace (disksim_diskctlr.c
// disk_reconnection_or_transfer_complete) — not one bus block after the media's last. The
// trace was run in DiskSim's validate mode as above (`disksim atlas10k.parv out.outv validate
// pa.trace 0`). Line 1 reads ahead to 2,780,716 (DEC's scheme); line 2 wants 2,780,710–721:
// six blocks buffered, six read on after a head switch and most of a revolution.
const ATLAS_TRACE = `
R Hit 2780064 4 10000 45000
R Hit 2780710 12 10000 45000
R Hit 5000000 8 10000 45000
R Hit 5000200 200 10000 45000
`;
const ATLAS_DISKSIM_MS = [10.980647, 6.64369, 5.941748, 20.743079];

describe('a partial hit with a bus slower than the media, on the Quantum Atlas 10K', () => {
  it('the rest goes at the bus pace from the first missing block (disk_reconnection_or_transfer_complete)', () => {
    const disk = readParv(`${VALIDATION_DIR()}/atlas10k.parv`);
    const ms = validateDisk(
      disk.params,
      parseValidationTrace(ATLAS_TRACE, 'pa.trace'),
      'fcfs',
    ).simulatedMs;
    for (let i = 0; i < ATLAS_DISKSIM_MS.length; i++) {
      expect(ms[i]).toBeCloseTo(ATLAS_DISKSIM_MS[i]!, 3);
    }
  });
});
