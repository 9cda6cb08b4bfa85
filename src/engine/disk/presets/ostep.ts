// OSTEP's disk.py default disk (remzi-arpacidusseau/ostep-homework, file-disks/):
// one surface, three tracks of twelve 30° sectors, tracks 40 distance units apart,
// seek speed 1 unit per time unit, rotation 1° per time unit, the head starting on
// the outer track halfway through sector 6. One disk.py time unit = 1 ms here, so a
// revolution is 360 ms and answers read directly in disk.py's units (DISK-MODEL.md §3).
// The track skew of disk.py's -o flag is the cylinder skew (one track per cylinder).
import type { DiskParams } from '../params';
import { IDEAL_CONTROLLER } from './ideal-controller';

export const ostep: DiskParams = {
  name: 'ostep',
  title: "OSTEP disk.py — 3 tracks × 12 sectors, answers in disk.py's time units (1 unit = 1 ms)",
  provenance:
    'disk.py defaults: -z 30,30,30, -S 1, -R 1, track spacing 40, head at the middle of sector 6.',
  rpm: 60000 / 360,
  surfaces: 1,
  cylinders: 3,
  zones: [
    {
      firstCylinder: 0,
      lastCylinder: 2,
      sectorsPerTrack: 12,
      firstSectorOffset: 0,
      emptyFrontSectors: 0,
      trackSkew: 0,
      cylinderSkew: 0,
      spareTracks: 0,
      slips: [],
    },
  ],
  initialAngle: 6.5 / 12,
  seek: { type: 'linear', baseMs: 0, perCylinderMs: 40 },
  headSwitchMs: 0,
  writeSettleMs: 0,
  minWriteSeekMs: 0,
  ...IDEAL_CONTROLLER,
  maxQueueDepth: 64,
  ssd: null,
};
