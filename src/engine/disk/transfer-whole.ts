// A command's own media transfer on its first track, nothing cutting it short: what
// startService (drive.ts) asks on every start.
import type { CompiledDisk } from './compile';
import type { PhysAddr } from './geometry';
import { endOnTrack, runOnTrack, type TransferEnd } from './mechanics';

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
  const sectorNs = d.sectorNs[at.zone]!;
  const run = runOnTrack(d, at, lbn, n);
  const end = startNs + run * sectorNs;
  if (run < n && end < Infinity) return false; // a switch to the next track follows
  const mark = markSectors > 0 && markSectors <= run ? startNs + markSectors * sectorNs : -1;
  endOnTrack(out, at, mark, end, end, run);
  return true;
}
