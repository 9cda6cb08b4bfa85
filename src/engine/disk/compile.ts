// DiskParams (ms, datasheet units) → the form the simulator runs on (ns, lookup tables).
import { geometryOf, type Geometry } from './geometry';
import type { DiskParams } from './params';
import { seekFloorTableNs, seekTableNs } from './seek';

const MS = 1e6;

export interface CompiledDisk {
  params: DiskParams;
  geometry: Geometry;
  revolutionNs: number;
  /** params.initialAngle, one load nearer on the hot path (angleAt) */
  initialAngle: number;
  /** seek time by distance in cylinders, ns */
  seekNs: Float64Array;
  /** by distance d: no seek of d or more cylinders takes less, ns (seek.ts seekFloorTableNs) */
  seekFloorNs: Float64Array;
  headSwitchNs: number;
  writeSettleNs: number;
  readHitNs: number;
  readMissNs: number;
  writeCmdNs: number;
  /** write-back's write command overhead */
  writeHitNs: number;
  /** the same four after a write completed (DiskSim "… after write") */
  readHitAfterWriteNs: number;
  readMissAfterWriteNs: number;
  writeCmdAfterWriteNs: number;
  writeHitAfterWriteNs: number;
  dataPrepNs: number;
  reselectNs: number;
  readCompleteNs: number;
  writeCompleteNs: number;
  minWriteSeekNs: number;
  /** the extra write disconnect's timing from the command's arrival, or null (none) */
  extraDisc: {
    /** when the mechanism may start */
    mechanismNs: number;
    /** when the data starts to cross the bus (after the disconnect, the delay, the
     * reconnection and the data preparation) */
    dataNs: number;
    /** the reconnection for the completion */
    completeReselectNs: number;
  } | null;
  busReadNsPerSector: number;
  busWriteNsPerSector: number;
  readSegments: number;
  /** time for one sector to pass under the head, by zone (revolutionNs / sectors per track) */
  sectorNs: Float64Array;
  /** the least of those: no transfer of n sectors ends sooner than n of these after it began */
  minSectorNs: number;
  /** params.cache.segmentSectors and params.bus.readWatermark, nearer on the hot path */
  segmentSectors: number;
  readWatermark: number;
  /** params.cache's read-ahead: its size in sectors, where it stops (default 'segment'), and
   * whether a separate write segment is readable; the hot path reads them here */
  readAheadSectors: number;
  readAheadStop: NonNullable<DiskParams['cache']['readAheadStop']>;
  separateWriteSegment: boolean;
  /** an SSD or a device fitted to a trace: not this mechanism (accept-command-rare.ts) */
  notMechanical: boolean;
  /** params.queueing 'driver': the host driver holds the queue (driver-queue.ts) */
  driverQueueing: boolean;
}

export function compileDisk(params: DiskParams): CompiledDisk {
  const o = params.overheads;
  const revolutionNs = (60000 / params.rpm) * MS;
  const seekNs = seekTableNs(params.seek, params.cylinders);
  const writeSettleNs = params.writeSettleMs * MS;
  return {
    params,
    geometry: geometryOf(params),
    revolutionNs,
    initialAngle: params.initialAngle,
    seekNs,
    seekFloorNs: seekFloorTableNs(seekNs, writeSettleNs),
    headSwitchNs: params.headSwitchMs * MS,
    writeSettleNs,
    readHitNs: o.readHitMs * MS,
    readMissNs: o.readMissMs * MS,
    writeCmdNs: o.writeMs * MS,
    writeHitNs: (o.writeHitMs ?? o.writeMs) * MS,
    readHitAfterWriteNs: (o.afterWrite?.readHitMs ?? o.readHitMs) * MS,
    readMissAfterWriteNs: (o.afterWrite?.readMissMs ?? o.readMissMs) * MS,
    writeCmdAfterWriteNs: (o.afterWrite?.writeMs ?? o.writeMs) * MS,
    writeHitAfterWriteNs: (o.afterWrite?.writeHitMs ?? o.writeHitMs ?? o.writeMs) * MS,
    dataPrepNs: o.dataPrepMs * MS,
    reselectNs: o.reselectMs * MS,
    readCompleteNs: o.readCompleteMs * MS,
    writeCompleteNs: o.writeCompleteMs * MS,
    minWriteSeekNs: params.minWriteSeekMs * MS,
    extraDisc: o.extraWriteDisconnect
      ? {
          mechanismNs: (o.extraWriteDisconnect.commandMs + o.extraWriteDisconnect.seekDeltaMs) * MS,
          dataNs:
            (o.extraWriteDisconnect.commandMs +
              o.extraWriteDisconnect.disconnectMs +
              o.extraWriteDisconnect.interDisconnectMs +
              o.reselectMs +
              o.dataPrepMs) *
            MS,
          completeReselectNs: o.extraWriteDisconnect.otherReselectMs * MS,
        }
      : null,
    busReadNsPerSector: params.bus.readMsPerSector * MS,
    busWriteNsPerSector: params.bus.writeMsPerSector * MS,
    readSegments: Math.max(0, params.cache.segments - (params.cache.separateWriteSegment ? 1 : 0)),
    sectorNs: Float64Array.from(params.zones, (z) => revolutionNs / z.sectorsPerTrack),
    minSectorNs: Math.min(Infinity, ...params.zones.map((z) => revolutionNs / z.sectorsPerTrack)),
    segmentSectors: params.cache.segmentSectors,
    readWatermark: params.bus.readWatermark,
    readAheadSectors: params.cache.readAheadSectors,
    readAheadStop: params.cache.readAheadStop ?? 'segment',
    separateWriteSegment: params.cache.separateWriteSegment,
    notMechanical: !!(params.ssd || params.fitted),
    driverQueueing: params.queueing === 'driver',
  };
}
