// A read-only view of the drive for the UI and the CLI: what is queued, what the
// mechanism is doing, what the buffer holds. Derived from the state; never stored.
import { requestAt } from '../request';
import type { DiskSimulation } from './sim-view';

export interface DriveView {
  /** commands the host has in the drive, of at most queueDepth */
  tagsInUse: number;
  queueDepth: number;
  /** waiting for the mechanism, in arrival order */
  queued: Array<{
    rq: number;
    sector: number;
    nSectors: number;
    write: boolean;
    internal: boolean;
  }>;
  mechanismBusy: boolean;
  arm: { cylinder: number; head: number };
  readAhead: { fromLbn: number; toLbn: number } | null;
  writeBuffer: {
    usedSectors: number;
    sizeSectors: number;
    /** segments holding data not yet on the media, of at most `segments` */
    dirtySegments: number;
    segments: number;
    full: boolean;
    refusals: number;
  };
}

export function inspectDrive(sim: DiskSimulation): DriveView {
  const d = sim.state.drive;
  const table = sim.state.requests;
  const size = sim.model.disk.params.cache.writeBufferSectors;
  return {
    tagsInUse: d.tagsInUse,
    queueDepth: sim.model.queueDepth,
    queued: d.queue.map((slot) => {
      const rq = requestAt(table, slot);
      return {
        rq: rq.id,
        sector: rq.sector,
        nSectors: rq.nSectors,
        write: rq.write,
        internal: rq.internal,
      };
    }),
    mechanismBusy: d.mechBusy,
    arm: { cylinder: d.arm.cylinder, head: d.arm.head },
    readAhead: d.prefetch
      ? { fromLbn: d.segments[d.prefetch.segment]!.lo, toLbn: d.prefetch.limitLbn }
      : null,
    writeBuffer: {
      usedSectors: d.writeBufferUsed,
      sizeSectors: size,
      dirtySegments: d.dirtySegments,
      segments: sim.model.disk.params.cache.writeSegments,
      full: d.bufferFullSinceNs >= 0,
      refusals: d.queueFullRefusals,
    },
  };
}
