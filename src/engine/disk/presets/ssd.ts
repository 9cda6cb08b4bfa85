// A generic SATA solid-state drive: no seek, no rotation — a fixed latency plus transfer
// at the rated bandwidth, on one of four channels (drive.ts, ssdSubmit). The geometry is
// only there to give the address space (64 GiB) so LBN validation works: one surface, one
// zone, 65,536 "cylinders" of 2048 sectors.
import type { DiskParams } from '../params';
import { IDEAL_CONTROLLER } from './ideal-controller';
import { zone } from './zone';

export const ssd: DiskParams = {
  name: 'ssd',
  title: 'Generic SSD — 64 GiB, 0.08 ms read / 0.02 ms write latency, 250 / 200 MB/s, 4 channels',
  provenance: [
    'Made up (issue): read latency 0.08 ms, write latency 0.02 ms (writes land in the',
    "controller's buffer), 250 MB/s read, 200 MB/s write, 4 channels, NCQ depth 32. Geometry:",
    '1 surface × 65,536 cylinders × 2048 sectors = 134,217,728 sectors = 64 GiB, one zone; seek',
    'constant 0; no head switch or settle; rpm is nominal and unused; no cache (segments 0); no',
    'command overheads or bus time beyond the bandwidth.',
  ].join(' '),
  rpm: 10000,
  surfaces: 1,
  cylinders: 65536,
  zones: [zone(0, 65535, 2048, 0, 0, 0, 0, 0)],
  initialAngle: 0,
  seek: { type: 'constant', ms: 0 },
  headSwitchMs: 0,
  writeSettleMs: 0,
  minWriteSeekMs: 0,
  ...IDEAL_CONTROLLER,
  maxQueueDepth: 32,
  ssd: { readLatencyMs: 0.08, writeLatencyMs: 0.02, readMBps: 250, writeMBps: 200, channels: 4 },
};
