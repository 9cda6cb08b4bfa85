// The controller side shared by the three Cheetahs of the Riska et al. study (15K.3, 15K.4,
// 10K.7): the study gives only "8 MB cache, up to 64 queued commands"; the overheads and
// the Ultra320 bus rate are derived (see each preset's provenance), so they are one set.
import type { DiskParams } from '../params';

export const ULTRA320_8MB: Pick<
  DiskParams,
  'initialAngle' | 'minWriteSeekMs' | 'overheads' | 'bus' | 'cache' | 'maxQueueDepth' | 'ssd'
> = {
  initialAngle: 0,
  minWriteSeekMs: 0,
  overheads: {
    readHitMs: 0.1,
    readMissMs: 0.15,
    writeMs: 0.2,
    dataPrepMs: 0.01,
    reselectMs: 0.02,
    readCompleteMs: 0.02,
    writeCompleteMs: 0.02,
  },
  bus: { readMsPerSector: 0.0016, writeMsPerSector: 0.0016, readWatermark: 0.75 },
  cache: {
    segments: 16,
    separateWriteSegment: false,
    segmentSectors: 1024,
    readAheadSectors: 512,
    writePolicy: 'write-back',
    writeBufferSectors: 4096,
    // a dirty segment holds one run of written data: at most all 16 (DiskSim's upper bound;
    // the one extracted Cheetah, the 15K.5, allows 11 of its 32)
    writeSegments: 16,
  },
  maxQueueDepth: 64,
  ssd: null,
};
