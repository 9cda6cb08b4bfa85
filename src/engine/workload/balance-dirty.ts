// 2.6's balance_dirty_pages: a writer over its dirty limit writes pages back itself
// (mm/page-writeback.c of 2.6.32: balance_dirty_pages_ratelimited_nr, balance_dirty_pages,
// get_dirty_limits, task_dirty_limit; fs/fs-writeback.c writeback_inodes_wbc).
//
//  - Ratelimit (balance_dirty_pages_ratelimited_nr): the pages a writer copies are counted in
//    bdp_ratelimits; only when ratelimit_pages have been (8 once bdi->dirty_exceeded) does
//    the writer call balance_dirty_pages, with write_chunk = sync_writeback_pages: the pages
//    counted (at least ratelimit_pages) and half again.
//  - The limits (get_dirty_limits): background and dirty thresholds of dirtyable memory, and
//    the disk's own limit bdi_thresh: dirty × the disk's share of recently completed
//    writeback (bdi-stats.ts), less up to an eighth by the writer's share of the pages
//    recently dirtied (task_dirty_limit) — a heavy writer is stopped before a light one.
//  - The loop: done when the disk's dirty + writeback pages are within bdi_thresh, or all
//    dirty + writeback pages below (background + dirty) / 2 (the flusher can catch up).
//    Otherwise dirty_exceeded is set and, if the disk's dirty pages alone exceed bdi_thresh,
//    the writer runs writeback itself (writeback_inodes_wbc: WB_SYNC_NONE, range_cyclic,
//    nr_to_write = write_chunk shared by the files it visits) walking the lists the flusher
//    walks (writeback.ts: queue_io, then b_io a file at a time), passing a file another
//    thread is writing (I_SYNC) to b_more_io — the bios go out under its own pid, async,
//    and it sleeps in get_request like any process when no request is free (as the
//    flusher's do). Then it is done if within bdi_thresh or once it has
//    written write_chunk pages; else it sleeps io_schedule_timeout(pause), pause 1 jiffy
//    doubling up to HZ/10 (the run's HZ), and loops.
//  - After the loop: dirty_exceeded is cleared below bdi_thresh, and background writeback
//    is started (a work item queued, the flusher woken: flusher.ts) if the dirty pages
//    exceed the background threshold and no item is queued yet (writeback_in_progress).
//    This is the only place 2.6.32 wakes the flusher before its period is out.
// Simplified: bdp_ratelimits is per CPU and the model has one CPU (all writers share it);
// a step of n pages counts n at once (generic_perform_write checks after every page); the
// per-CPU counters are exact; pages kjournald dirties do not count in vm_dirties; 2.6.16
// runs get 2.6.32's rules (it had no bdi_thresh and slept in congestion_wait).
import type { Bio } from '../iosched/types';
import { bioSleeps } from '../iosched/host';
import { jiffiesNow, jiffyNs } from '../iosched/common';
import type { WorkloadSimulation } from './sim-view';
import { propFraction, type PropLocal } from './bdi-stats';
import {
  balanceDirtyPagesIoLess,
  type BdpCall,
  type BdpOutcome,
  type DirtyTask,
} from './dirty-throttle';
import {
  filesInWriteback,
  startBackgroundWriteback,
  submitKernelWrite,
  writebackInProgress,
  writebackMovedOn,
} from './flusher';
import { PAGE_SECTORS, globalLimits, type PageCacheState } from './page-cache';
import { chunkNextBio, newChunk, writebackDone } from './writeback';

export type { BdpCall, BdpOutcome } from './dirty-throttle';

/** What a writer thread keeps for balance_dirty_pages (part of its GenInstance). */
export interface WriterThrottle {
  /** the call in progress, or null */
  bdp: BdpCall | null;
  /** its share of the pages dirtied (tsk->dirties) */
  dirties: PropLocal;
  /** ids of its writeback bios in flight */
  writebackBios: Set<number>;
  /** kernel 6.18: what its IO-less balance_dirty_pages keeps (dirty-throttle.ts) */
  task: DirtyTask;
}

export interface DirtyLimits {
  background: number;
  dirty: number;
  /** this disk's limit for this writer */
  bdiThresh: number;
}

/** get_dirty_limits (with bdi, for a writer with share `task` of the pages dirtied): one
 * disk, so clip_bdi_dirty_limit changes nothing; bdi min/max_ratio are 0/100. */
export function dirtyLimits(pc: PageCacheState, task: PropLocal): DirtyLimits {
  const { background, dirty } = globalLimits(pc);
  const [n, d] = propFraction(pc.bdi.completions, pc.bdi.bdiCompletions);
  const bdiDirty = Math.floor((dirty * n) / d);
  // task_dirty_limit: less an eighth times the writer's share, never below half
  const [tn, td] = propFraction(pc.bdi.dirties, task);
  const inv = Math.floor((Math.floor(bdiDirty / 8) * tn) / td);
  const bdiThresh = Math.max(bdiDirty - inv, Math.floor(bdiDirty / 2));
  return { background, dirty, bdiThresh };
}

/** balance_dirty_pages_ratelimited_nr: a writer copied `pages` more; the write_chunk of the
 * balance_dirty_pages call now due, or 0 (sync_writeback_pages). */
export function ratelimitDue(pc: PageCacheState, pages: number): number {
  const bdi = pc.bdi;
  const limit = bdi.dirtyExceeded ? 8 : bdi.ratelimitPages;
  bdi.ratelimitCount += pages;
  if (bdi.ratelimitCount < limit) return 0;
  const dirtied = Math.max(bdi.ratelimitCount, bdi.ratelimitPages);
  bdi.ratelimitCount = 0;
  return dirtied + Math.floor(dirtied / 2);
}

export function newBdpCall(writeChunk: number): BdpCall {
  return { writeChunk, pagesWritten: 0, pauseJ: 1, chunk: null, phase: 'check' };
}

/** Run the writer's balance_dirty_pages (w.bdp) on from where it stopped. */
export function balanceDirtyPages(
  sim: WorkloadSimulation,
  w: WriterThrottle,
  instIndex: number,
  ioprio: readonly [number, number] | null,
  now: number,
): BdpOutcome {
  const pc = sim.state.workload.pageCache!;
  const c = w.bdp!;
  if (pc.wb) {
    // kernel 6.18: IO-less, the writer only pauses
    const out = balanceDirtyPagesIoLess(sim, c, w.task, now);
    if (out === 'done') w.bdp = null;
    return out;
  }
  // the limits as they are now (after a writeback the writer slept in, as get_dirty_limits
  // is called again after writeback_inodes_wbc)
  const lim = dirtyLimits(pc, w.dirties);
  if (c.phase === 'check') {
    if (pc.dirty + pc.writeback <= lim.bdiThresh) return finish(sim, w, lim, now);
    // throttle only when background writeback cannot catch up
    if (pc.dirty + pc.writeback < Math.floor((lim.background + lim.dirty) / 2))
      return finish(sim, w, lim, now);
    pc.bdi.dirtyExceeded = true;
    if (pc.dirty > lim.bdiThresh) {
      // writeback_inodes_wbc: for_kupdate 0, older_than_this NULL
      c.chunk = newChunk(pc, c.writeChunk, false, Infinity, now);
      c.phase = 'write';
    }
  }
  const busy = filesInWriteback(sim, instIndex);
  const next = () => (c.chunk ? chunkNextBio(pc, c.chunk, busy, now) : null);
  for (let b = next(); b; b = next()) {
    // wbc.nr_to_write counts the pages written, not those the pass chose
    c.pagesWritten += b.count;
    const s = b.first * PAGE_SECTORS;
    const bio = submitKernelWrite(sim, instIndex, s, b.count * PAGE_SECTORS, now, false, ioprio);
    w.writebackBios.add(bio.id);
    if (bio.rq < 0 && bioSleeps(sim, bio.slot)) return 'sleeping';
  }
  c.chunk = null;
  writebackMovedOn(sim, now); // the file it was writing is no longer under its I_SYNC
  c.phase = 'check';
  if (pc.dirty + pc.writeback <= lim.bdiThresh) return finish(sim, w, lim, now);
  if (c.pagesWritten >= c.writeChunk) return finish(sim, w, lim, now); // its duty done
  const hz = sim.model.iosched.hz;
  const until = jiffyNs(jiffiesNow({ now, hz }) + c.pauseJ, hz);
  // the next nap twice as long, up to the old default of 100 ms
  c.pauseJ = Math.min(c.pauseJ * 2, Math.floor(hz / 10));
  return until;
}

/** The end of balance_dirty_pages: dirty_exceeded cleared under the limit; background
 * writeback started (bdi_start_writeback) unless writeback_in_progress, if the dirty pages
 * are over the background threshold. */
function finish(sim: WorkloadSimulation, w: WriterThrottle, lim: DirtyLimits, now: number): 'done' {
  const pc = sim.state.workload.pageCache!;
  if (pc.dirty + pc.writeback < lim.bdiThresh) pc.bdi.dirtyExceeded = false;
  w.bdp = null;
  if (!writebackInProgress(sim) && pc.dirty > lim.background) startBackgroundWriteback(sim, now);
  return 'done';
}

/** A completion: if it is one of the writer's writeback bios, its pages are clean (as the
 * flusher's: flusher.ts; workload.ts tells the journals) and count as written by a writer. */
export function writerWritebackDone(sim: WorkloadSimulation, w: WriterThrottle, bio: Bio): boolean {
  if (!w.writebackBios.delete(bio.id)) return false;
  const pc = sim.state.workload.pageCache!;
  const pages = bio.nSectors / PAGE_SECTORS;
  writebackDone(pc, bio.sector / PAGE_SECTORS, pages);
  pc.pagesWrittenByWriters += pages;
  return true; // (it wakes nobody: the flusher is woken by balance_dirty_pages)
}
