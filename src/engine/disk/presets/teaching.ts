// The teaching disk: small enough to draw every sector, slow enough to watch. Two surfaces,
// ten cylinders, two zones (16 and 12 sectors per track), one revolution per 100 ms, a seek
// that visibly grows with distance but not in proportion (10 + 5·√d ms), small skews that
// still hide a head switch and a one-cylinder seek, no cache and no overheads — so every
// millisecond of a request is seek, rotation or transfer (UI.md: the first screen).
import type { DiskParams } from '../params';
import { IDEAL_CONTROLLER } from './ideal-controller';
import { zone } from './zone';

export const teaching: DiskParams = {
  name: 'teaching',
  title:
    'Teaching disk — 2 surfaces × 10 cylinders, 16/12 sectors per track, 600 RPM (100 ms per turn)',
  provenance: [
    'Made up for animation, no real drive. 600 RPM = 100 ms per revolution (6.25 ms per sector',
    'outside, 8.33 ms inside); 280 sectors (140 KiB). Seek 10 + 5·√d ms (Ruemmler–Wilkes',
    'square-root form: 15 ms for one cylinder, 25 ms for the full 9), head switch 5 ms, write',
    'settle 2 ms; track skew 2 / 1 sectors (12.5 / 8.3 ms ≥ 7 ms), cylinder skew 3 sectors',
    '(18.75 / 25 ms ≥ 17 ms); zone 1 starts 8 sectors round, continuing the skew. No cache, no',
    'overheads, no bus time, no spares.',
  ].join(' '),
  rpm: 600,
  surfaces: 2,
  cylinders: 10,
  // firstCyl, lastCyl, spt, firstSectorOffset, emptyFront, trackSkew, cylSkew, spareTracks
  zones: [zone(0, 4, 16, 0, 0, 2, 3, 0), zone(5, 9, 12, 8, 0, 1, 3, 0)],
  initialAngle: 0,
  // d < 10 (every possible move) → 10 + 5·√d; the second branch continues it, never used.
  seek: { type: 'hpl', v: [10, 10, 5, 10 + 5 * Math.sqrt(10), 0, -1] },
  headSwitchMs: 5,
  writeSettleMs: 2,
  minWriteSeekMs: 0,
  ...IDEAL_CONTROLLER,
  maxQueueDepth: 64,
  ssd: null,
};
