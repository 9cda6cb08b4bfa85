// Seagate Cheetah 10K.7 ST3300007LC (300 GB, 10,000 RPM, four platters), one of the three
// drives of the Riska et al. study. No DiskSim model exists (DISK-MODEL.md §1.8): the
// datasheet figures are kept and the rest derived to be consistent with them and the era.
import type { DiskParams } from '../params';
import { ULTRA320_8MB } from './ultra320-8mb';
import { zone } from './zone';

export const cheetah10k7: DiskParams = {
  name: 'cheetah-10k7-300g',
  title: 'Seagate Cheetah 10K.7 ST3300007LC — 300 GB, 10,000 RPM, 8 surfaces (datasheet + derived)',
  provenance: [
    'Datasheet (as the issue gives them, after Riska et al.; DISK-MODEL.md §1.8 marks the seek',
    'figures unverified): 300 GB, 10,000 RPM, 4 platters = 8 surfaces, average seek 4.7 ms read /',
    '5.3 ms write, 8 MB cache, up to 64 queued commands (Ultra320 SCSI). LBN count 585,937,500 =',
    '300 GB / 512 B.',
    'Derived: 14 equal-width zones with sectors per track falling linearly 1080 → 560 (about',
    '80–40 MB/s sustained on 3.5-inch platters); 89,589 cylinders from the capacity with 0.3% spare',
    "tracks and a 460-sector empty front in zone 0; seek: Lee's curve through track-to-track",
    '0.35 ms, the 4.7 ms average and a 10.0 ms full stroke (2.13 × average); write settle 0.6 ms =',
    'write average − read average; head switch 0.5 ms; track skew the fewest sectors longer than',
    'head switch + settle (1.1 ms), cylinder skew the fewest longer than 1-cylinder seek + settle',
    "(0.95 ms); each zone's first-sector offset continuing the skew; cache 16 segments × 1024",
    'sectors (= 8 MiB), write-back (write cache enabled, assumed), 4096-sector write buffer in',
    "at most all 16 segments (each holds one run of written data; DiskSim's bound), read-ahead 512",
    'sectors; overheads 0.1–0.2 ms per command, 0.01–0.02 ms for the small steps; bus Ultra320,',
    '320 MB/s = 0.0016 ms per sector.',
  ].join(' '),
  rpm: 10000,
  surfaces: 8,
  cylinders: 89589,
  // firstCyl, lastCyl, spt, firstSectorOffset, emptyFront, trackSkew, cylSkew, spareTracks
  zones: [
    zone(0, 6399, 1080, 0, 460, 199, 172, 157),
    zone(6400, 12799, 1040, 77, 0, 191, 165, 154),
    zone(12800, 19199, 1000, 152, 0, 184, 159, 154),
    zone(19200, 25598, 960, 915, 0, 177, 153, 154),
    zone(25599, 31997, 920, 463, 0, 169, 146, 154),
    zone(31998, 38396, 880, 244, 0, 162, 140, 154),
    zone(38397, 44795, 840, 239, 0, 155, 134, 154),
    zone(44796, 51194, 800, 362, 0, 147, 127, 154),
    zone(51195, 57593, 760, 7, 0, 140, 121, 154),
    zone(57594, 63992, 720, 101, 0, 133, 115, 154),
    zone(63993, 70391, 680, 316, 0, 125, 108, 154),
    zone(70392, 76790, 640, 502, 0, 118, 102, 154),
    zone(76791, 83189, 600, 201, 0, 111, 96, 154),
    zone(83190, 89588, 560, 493, 0, 103, 89, 154),
  ],
  seek: { type: 'curve', singleMs: 0.35, averageMs: 4.7, fullMs: 10.0 },
  headSwitchMs: 0.5,
  writeSettleMs: 0.6,
  ...ULTRA320_8MB,
};
