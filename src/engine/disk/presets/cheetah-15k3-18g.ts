// Seagate Cheetah 15K.3 ST318453LC (18.4 GB, 15,000 RPM, one platter), one of the three
// drives of the Riska et al. study. No DiskSim model exists (DISK-MODEL.md §1.8): the
// datasheet figures are kept and the rest derived to be consistent with them and the era.
import type { DiskParams } from '../params';
import { ULTRA320_8MB } from './ultra320-8mb';
import { zone } from './zone';

export const cheetah15k3: DiskParams = {
  name: 'cheetah-15k3-18g',
  title: 'Seagate Cheetah 15K.3 ST318453LC — 18.4 GB, 15,000 RPM, 2 surfaces (datasheet + derived)',
  provenance: [
    'Datasheet (as the issue gives them, after Riska et al.; DISK-MODEL.md §1.8 marks the seek',
    'figures unverified): 18.4 GB, 15,000 RPM, one platter = 2 surfaces, average seek 3.6 ms read /',
    '4.0 ms write, 8 MB cache, up to 64 queued commands (Ultra320 SCSI).',
    'LBN count 35,843,670 (18.35 GB): the product manual figure as recalled, not verified.',
    'Derived: 12 equal-width zones with sectors per track falling linearly 720 → 480 (about',
    '75–50 MB/s sustained, the range of the era); 29,960 cylinders from the capacity with 0.3%',
    "spare tracks and a 308-sector empty front in zone 0; seek: Lee's curve through",
    'track-to-track 0.3 ms, the 3.6 ms average and a 7.7 ms full stroke (2.14 × average); write',
    'settle 0.4 ms = write average − read average; head switch 0.4 ms; track skew the fewest',
    'sectors longer than head switch + settle (0.8 ms), cylinder skew the fewest longer than',
    "1-cylinder seek + settle (0.7 ms); each zone's first-sector offset continuing the skew; cache",
    '16 segments × 1024 sectors (= 8 MiB), write-back (write cache enabled, assumed), 4096-sector write',
    "buffer in at most all 16 segments (each holds one run of written data; DiskSim's bound),",
    'read-ahead 512 sectors; overheads 0.1–0.2 ms per command, 0.01–0.02 ms for the',
    'small steps; bus Ultra320, 320 MB/s = 0.0016 ms per sector.',
  ].join(' '),
  rpm: 15000,
  surfaces: 2,
  cylinders: 29960,
  // firstCyl, lastCyl, spt, firstSectorOffset, emptyFront, trackSkew, cylSkew, spareTracks
  zones: [
    zone(0, 2496, 720, 0, 308, 145, 126, 16),
    zone(2497, 4993, 698, 590, 0, 140, 123, 15),
    zone(4994, 7490, 676, 468, 0, 136, 119, 15),
    zone(7491, 9987, 655, 398, 0, 132, 115, 15),
    zone(9988, 12484, 633, 142, 0, 127, 111, 15),
    zone(12485, 14981, 611, 40, 0, 123, 107, 15),
    zone(14982, 17478, 589, 11, 0, 118, 104, 15),
    zone(17479, 19975, 567, 93, 0, 114, 100, 15),
    zone(19976, 22471, 545, 324, 0, 110, 96, 15),
    zone(22472, 24967, 524, 19, 0, 105, 92, 15),
    zone(24968, 27463, 502, 210, 0, 101, 88, 15),
    zone(27464, 29959, 480, 72, 0, 97, 85, 15),
  ],
  seek: { type: 'curve', singleMs: 0.3, averageMs: 3.6, fullMs: 7.7 },
  headSwitchMs: 0.4,
  writeSettleMs: 0.4,
  ...ULTRA320_8MB,
};
