// HP C2247A (1.05 GB, 5400 RPM): DiskSim 4.0's validated model, parameter for parameter
// (hp_c2247a_validate.model, hp_c2247a.diskspecs, hp_c2247a.parv; DISK-MODEL.md §1.7).
// The drive of the range-writes paper. Every number here is DiskSim's.
import type { DiskParams } from '../params';
import { zone } from './zone';

export const hpC2247a: DiskParams = {
  name: 'hp-c2247a',
  title: 'HP C2247A — 1.05 GB, 5400 RPM, 13 surfaces (DiskSim validated model)',
  provenance:
    'All parameters from DiskSim 4.0 hp_c2247a_validate.model / hp_c2247a.diskspecs / hp_c2247a.parv (measured with a logic analyser by Worthington et al.).',
  rpm: 5400,
  surfaces: 13,
  cylinders: 2051,
  zones: [
    zone(
      0,
      558,
      96,
      0,
      1632,
      14,
      32,
      325,
      [468, 526, 1204, 1861, 2447, 2680, 3098, 3683, 4880, 4919, 6952, 7095],
    ),
    zone(559, 760, 92, 14, 0, 13, 30, 130, [231, 868, 1125, 1458, 1479, 1492]),
    zone(761, 901, 88, 73, 0, 13, 29, 65, [585, 996, 1401, 1810]),
    zone(902, 1051, 84, 80, 0, 12, 28, 78, [582, 595, 699]),
    zone(1052, 1193, 80, 52, 0, 12, 27, 52, [569, 1098, 1518]),
    zone(1194, 1519, 72, 0, 0, 11, 24, 104, [693, 1489, 3102, 3115]),
    zone(1520, 1793, 64, 32, 0, 10, 22, 78, [1980, 1993, 3505]),
    zone(1794, 2050, 56, 30, 0, 9, 19, 65, [1512, 2506, 3320]),
  ],
  initialAngle: 0,
  seek: {
    type: 'hplplus10',
    firstTen: [2.89, 3.68, 3.81, 3.98, 4.27, 4.65, 4.52, 4.65, 4.82, 4.99],
    v: [300, 3.81, 0.33, 7.75, 0.0059, -1],
  },
  headSwitchMs: 0.89,
  writeSettleMs: 0.65,
  minWriteSeekMs: 0.6,
  overheads: {
    readHitMs: 0.95343,
    readMissMs: 0.55821,
    writeMs: 0.82391,
    dataPrepMs: 0.02519,
    reselectMs: 0.16249,
    readCompleteMs: 0.05665,
    writeCompleteMs: 0.05045,
  },
  bus: { readMsPerSector: 0.1701, writeMsPerSector: 0.18686, readWatermark: 0.75 },
  cache: {
    segments: 2,
    separateWriteSegment: true,
    segmentSectors: 256,
    readAheadSectors: 128,
    writePolicy: 'write-through',
    writeBufferSectors: 256,
    writeSegments: 1,
  },
  maxQueueDepth: 64,
  ssd: null,
};
