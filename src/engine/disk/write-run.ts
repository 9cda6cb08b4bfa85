// A write's media transfer paced by its data on the bus (mechanics.ts mediaTransfer's write
// runs): kept apart from the read path's mechanics.
import type { CompiledDisk } from './compile';

/**
 * A write's data arriving over the bus: sector i of the request is in the drive's
 * buffer at firstNs + i·perSectorNs. A sector can be written only once its data is
 * there; when the head overtakes the bus it goes round again (DiskSim writes sector by
 * sector as data becomes available).
 */
export interface WriteData {
  firstNs: number;
  perSectorNs: number;
}

/** A write's sectors [done, end) of one run from `t`, as far as the data has come; where it
 * has not, whole revolutions waited. When the run ends. */
export function writeRun(
  d: CompiledDisk,
  data: WriteData,
  t: number,
  done: number,
  end: number,
  sectorNs: number,
): number {
  while (done < end) {
    const slack = t - data.firstNs - done * data.perSectorNs;
    if (slack < 0) {
      t += Math.ceil(-slack / d.revolutionNs) * d.revolutionNs;
      continue;
    }
    const gain = data.perSectorNs - sectorNs; // how fast the head overtakes the bus
    const m = gain <= 0 ? end - done : Math.min(end - done, Math.floor(slack / gain) + 1);
    t += m * sectorNs;
    done += m;
  }
  return t;
}
