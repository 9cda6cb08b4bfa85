// A compact constructor for zone tables, so a preset's zones read as one row per zone
// in DiskSim's column order (DISK-MODEL.md §1.4, §1.7).
import type { ZoneSpec } from '../params';

export function zone(
  firstCylinder: number,
  lastCylinder: number,
  sectorsPerTrack: number,
  firstSectorOffset: number,
  emptyFrontSectors: number,
  trackSkew: number,
  cylinderSkew: number,
  spareTracks: number,
  slips: number[] = [],
): ZoneSpec {
  return {
    firstCylinder,
    lastCylinder,
    sectorsPerTrack,
    firstSectorOffset,
    emptyFrontSectors,
    trackSkew,
    cylinderSkew,
    spareTracks,
    slips,
  };
}
