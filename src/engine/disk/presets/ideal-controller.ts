// The controller of a made-up disk (ostep, teaching, ssd): no command overheads, no bus
// time, no cache — so every millisecond of a request is the mechanism's (or the SSD's).
import type { DiskParams } from '../params';

export const IDEAL_CONTROLLER: Pick<DiskParams, 'overheads' | 'bus' | 'cache'> = {
  overheads: {
    readHitMs: 0,
    readMissMs: 0,
    writeMs: 0,
    dataPrepMs: 0,
    reselectMs: 0,
    readCompleteMs: 0,
    writeCompleteMs: 0,
  },
  bus: { readMsPerSector: 0, writeMsPerSector: 0, readWatermark: 1 },
  cache: {
    segments: 0,
    separateWriteSegment: false,
    segmentSectors: 0,
    readAheadSectors: 0,
    writePolicy: 'write-through',
    writeBufferSectors: 0,
    writeSegments: 0,
  },
};
