// What a write does to the read segments (DISK-MODEL.md §1.5, docs/DISKSIM.md): it empties
// the clean ones it overlaps, and on a write-back drive without a separate write segment it
// takes one of them, where the written blocks stay readable (DiskSim's shared pool).
import type { IoRequest } from '../request';
import type { DiskSimulation } from './sim-view';
import { prefetchFinished, stopPrefetch } from './cache';

/**
 * A write empties the clean segments it overlaps — their data is stale
 * (disksim_diskcache.c disk_buffer_set_segment: "clear out clean, non-active, overlapping
 * segments if write"). A read-ahead the write has stopped, or that has run to its end, is
 * such a segment; one still serving a read is not.
 */
export function writeEmptiesSegments(sim: DiskSimulation, rq: IoRequest, now: number): void {
  const drive = sim.state.drive;
  if (drive.prefetch && prefetchFinished(sim, drive.prefetch, now)) stopPrefetch(sim, now);
  const lo = rq.sector;
  const hi = rq.sector + rq.nSectors;
  const pf = drive.prefetch;
  for (let i = 0; i < drive.segments.length; i++) {
    if (pf && pf.segment === i) continue;
    const seg = drive.segments[i]!;
    if (seg.hi > seg.lo && lo < seg.hi && hi > seg.lo) {
      seg.hi = seg.lo;
      seg.lastUse = -1; // empty: the first a read miss takes
    }
  }
}

/**
 * A write-back drive without a separate write segment takes a write into one of its read
 * segments (disk_buffer_select_write_segment): the one whose dirty run it continues
 * (BUFFER_APPEND), else the least recently used that is not reading ahead; the written
 * blocks stay readable there ("Allow read hits on write data").
 */
export function writeTakesSegment(sim: DiskSimulation, rq: IoRequest): void {
  const drive = sim.state.drive;
  if (drive.segments.length === 0 || sim.model.disk.params.cache.separateWriteSegment) return;
  const pf = drive.prefetch;
  const appends = drive.dirtyEnd.includes(rq.sector);
  let pick = -1;
  for (let i = 0; i < drive.segments.length; i++) {
    if (pf && pf.segment === i) continue;
    const seg = drive.segments[i]!;
    if (appends && seg.hi === rq.sector && seg.hi > seg.lo) {
      pick = i;
      break;
    }
    if (pick < 0 || seg.lastUse < drive.segments[pick]!.lastUse) pick = i;
  }
  if (pick < 0) return;
  const seg = drive.segments[pick]!;
  if (!(appends && seg.hi === rq.sector && seg.hi > seg.lo)) seg.lo = rq.sector;
  seg.hi = rq.sector + rq.nSectors;
  const size = sim.model.disk.segmentSectors;
  if (seg.hi - seg.lo > size) seg.lo = seg.hi - size;
  seg.lastUse = ++drive.useClock;
}
