// Seagate Cheetah 15K.4 (146.8 GB, 15,000 RPM, four platters), one of the three drives of
// the Riska et al. study. No DiskSim model was found: the datasheet figures are kept and
// the rest derived to be consistent with them and the era (DISK-MODEL.md §1.8).
import type { DiskParams } from '../params';
import { ULTRA320_8MB } from './ultra320-8mb';
import { zone } from './zone';

export const cheetah15k4: DiskParams = {
  name: 'cheetah-15k4-146g',
  title: 'Seagate Cheetah 15K.4 — 146.8 GB, 15,000 RPM, 8 surfaces (datasheet + derived)',
  provenance: [
    'Datasheet (as the issue gives them, after Riska et al.): 146 GB, 15,000 RPM, 4 platters = 8',
    'surfaces, average seek 3.4 ms read / 4.0 ms write, 8 MB cache, up to 64 queued commands',
    "(Ultra320 SCSI). LBN count 286,749,488 (146.8 GB), the usual count of Seagate's 146 GB drives",
    "(DiskSim's 15K.5 model has 286,749,487).",
    'Derived: 13 equal-width zones with sectors per track falling linearly 880 → 580 (about',
    '95–60 MB/s sustained); 49,249 cylinders from the capacity with 0.3% spare tracks and a',
    "682-sector empty front in zone 0; seek: Lee's curve through track-to-track 0.3 ms, the 3.4 ms",
    'average and a 7.4 ms full stroke (2.18 × average); write settle 0.6 ms = write average − read',
    'average; head switch 0.4 ms; track skew the fewest sectors longer than head switch + settle',
    "(1.0 ms), cylinder skew the fewest longer than 1-cylinder seek + settle (0.9 ms); each zone's",
    'first-sector offset continuing the skew; cache 16 segments × 1024 sectors (= 8 MiB),',
    'write-back (write cache enabled, assumed), 4096-sector write buffer in at most all 16',
    "segments (each holds one run of written data; DiskSim's bound), read-ahead 512 sectors; overheads",
    '0.1–0.2 ms per command, 0.01–0.02 ms for the small steps; bus Ultra320, 320 MB/s = 0.0016 ms',
    'per sector.',
  ].join(' '),
  rpm: 15000,
  surfaces: 8,
  cylinders: 49249,
  // firstCyl, lastCyl, spt, firstSectorOffset, emptyFront, trackSkew, cylSkew, spareTracks
  zones: [
    zone(0, 3788, 880, 0, 682, 221, 198, 96),
    zone(3789, 7577, 855, 356, 0, 214, 193, 91),
    zone(7578, 11366, 830, 180, 0, 208, 187, 91),
    zone(11367, 15155, 805, 493, 0, 202, 182, 91),
    zone(15156, 18944, 780, 559, 0, 196, 176, 91),
    zone(18945, 22732, 755, 321, 0, 189, 170, 91),
    zone(22733, 26520, 730, 98, 0, 183, 165, 91),
    zone(26521, 30308, 705, 344, 0, 177, 159, 91),
    zone(30309, 34096, 680, 8, 0, 171, 153, 91),
    zone(34097, 37884, 655, 201, 0, 164, 148, 91),
    zone(37885, 41672, 630, 216, 0, 158, 142, 91),
    zone(41673, 45460, 605, 116, 0, 152, 137, 91),
    zone(45461, 49248, 580, 488, 0, 146, 131, 91),
  ],
  seek: { type: 'curve', singleMs: 0.3, averageMs: 3.4, fullMs: 7.4 },
  headSwitchMs: 0.4,
  writeSettleMs: 0.6,
  ...ULTRA320_8MB,
};
