// A command's own media transfer on its first track, nothing cutting it short: what
// startService (drive.ts) asks on every start.
import type { CompiledDisk } from './compile';
import { contiguousRun, SPARE_TRACKS, type PhysAddr } from './geometry';
import type { TransferEnd } from './mechanics';

/**
 * mechanics.ts transferOnTrack with `untilNs` = Infinity, the same sums in the same order:
 * a smaller function with feedback of its own (transferOnTrack's cut branch is hot in
 * read-ahead), so that startService can inline it and still have inlining budget left for
 * the positioning. True when the transfer ends on `at`'s track (`out` filled in).
 */
export function transferWholeOnTrack(
  d: CompiledDisk,
  at: PhysAddr,
  lbn: number,
  n: number,
  startNs: number,
  out: TransferEnd,
  markSectors: number,
): boolean {
  if (!(n > 0)) return false;
  const z = d.geometry.zones[at.zone]!;
  const sectorNs = d.sectorNs[at.zone]!;
  const onTrack =
    z.sparing === SPARE_TRACKS ? z.sectorsPerTrack - at.sector : contiguousRun(d.geometry, lbn, at);
  const run = Math.min(n, onTrack);
  const end = startNs + run * sectorNs;
  if (run < n && end < Infinity) return false; // a switch to the next track follows
  out.markNs = markSectors > 0 && markSectors <= run ? startNs + markSectors * sectorNs : -1;
  out.endNs = end;
  out.knownNs = end;
  out.cylinder = at.cylinder;
  out.head = at.head;
  out.sectors = run;
  out.armBusyUntilNs = 0 > end ? 0 : end;
  return true;
}
