// A command's processing overhead in the drive, by kind and by what the last completed
// command was: DiskSim's "… over. after read" / "… after write" figures, and a write-back
// drive's "Write hit over." (disksim_diskctlr.c disk_read_arrive, disk_write_arrive).
import type { DiskSimulation } from './sim-view';

/** A command's processing overhead, by kind and by what the last completed command was
 * (DiskSim disk_read_arrive / disk_write_arrive). */
export function commandOverheadNs(
  sim: DiskSimulation,
  kind: 'read-hit' | 'read-miss' | 'write',
): number {
  const d = sim.model.disk;
  const w = sim.state.drive.lastCompletedWrite;
  if (kind === 'read-hit') return w ? d.readHitAfterWriteNs : d.readHitNs;
  if (kind === 'read-miss') return readMissOverheadNs(sim);
  if (sim.model.writePolicy === 'write-back') return w ? d.writeHitAfterWriteNs : d.writeHitNs;
  return w ? d.writeCmdAfterWriteNs : d.writeCmdNs;
}

/** commandOverheadNs(sim, 'read-miss') alone: small, so that acceptCommand's read path
 * inlines it and keeps inlining budget for locating the read. */
export function readMissOverheadNs(sim: DiskSimulation): number {
  const d = sim.model.disk;
  return sim.state.drive.lastCompletedWrite ? d.readMissAfterWriteNs : d.readMissNs;
}
