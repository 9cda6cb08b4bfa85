// Kernel 6.18's IO-less balance_dirty_pages (Linux 3.2 on): a writer never writes pages back
// itself; past the freerun ceiling it sleeps, for as long as makes it dirty pages at a rate
// the disk's writeback keeps up with. Read in torvalds/linux mm/page-writeback.c at commit
// 8e9d5ead (v6.1 era; see wb-state.ts) and kernel/fork.c (copy_process: nr_dirtied_pause).
//
//  - When a writer calls in (balance_dirty_pages_ratelimited): every page it dirties counts in
//    its nr_dirtied and in the CPU's bdp_ratelimits (folio_account_dirtied); it calls
//    balance_dirty_pages with the pages dirtied once nr_dirtied reaches its nr_dirtied_pause
//    (32 pages for a new task; at most 8 while the disk is over thresh), or once
//    bdp_ratelimits reaches ratelimit_pages.
//  - Freerun: dirty + under writeback at or below (thresh + bg_thresh) / 2, the writer goes
//    on unthrottled, and calls in again after dirty_poll_interval pages: about the square root
//    of thresh − dirty, a power of 2.
//  - Otherwise pos_ratio (wb_position_ratio): the global cubic 1 + ((setpoint − dirty) /
//    (limit − setpoint))³, clamped to [0, 2] — 1 at the setpoint (freerun + limit) / 2, 2 at
//    freerun, 0 at the limit — times the disk's line: 1 at its setpoint, falling by 1 over
//    8 × write_bw pages (down to 1/4).
//  - task_ratelimit = dirty_ratelimit × pos_ratio (wb-state.ts re-estimates dirty_ratelimit
//    every 200 ms). The pause is the time the pages dirtied take at that rate, pages × HZ /
//    task_ratelimit, less the time since its last pause ended (dirty_paused_when: think time
//    counts). Under min_pause (wb_min_pause: about 10 ms, half that when it dirties at least
//    32 pages a call) it does not sleep, and the debt is carried on (dirty_paused_when +=
//    period); over max_pause (wb_max_pause: what the disk writes of the dirty pages in an
//    eighth of their time, at most 200 ms) it sleeps max_pause. wb_min_pause also sets the
//    pages before its next call (nr_dirtied_pause: about what it dirties in the target
//    pause).
//  - The writer sleeps (io_schedule_timeout) and goes on; at or above the limit
//    (task_ratelimit 0) it sleeps max_pause again and again until under it.
//  - On every call over bg_thresh the flusher is woken for background writeback
//    (wb_start_background_writeback: flusher.ts kickFlusher); past freerun, on every call
//    whatever the dirty pages (wb_workfn then re-arms its periodic wake-up from then).
// Simplified (one disk, no cgroups, one CPU): wb_dirty = dirty, and the disk's share of the
// limit (__wb_calc_thresh: wbCalcThresh) is whole once any writeback has completed (its
// completions are every completion; the counters exact), before that (thresh − dirty) / 8;
// so dirty_exceeded is dirty > thresh and the disk's reserve area (wb_dirty < wb_thresh / 2)
// is never reached past freerun; no memcg domain, strictlimit, PF_LOCAL_THROTTLE, laptop mode,
// BDP_ASYNC, dirty_throttle_leaks (threads do not exit), fatal signals or the way out at the
// limit when the disk's dirty pages are within the per-CPU counters' error (a few pages);
// pages kjournald dirties do not count in bdp_ratelimits; a step of n pages counts n at once
// (generic_perform_write calls in after every page).
import { jiffiesNow, jiffyNs } from '../iosched/common';
import type { WorkloadSimulation } from './sim-view';
import type { WbChunk } from './writeback';
import { kickFlusher } from './flusher';
import {
  RATELIMIT_CALC_SHIFT,
  bandwidthDue,
  domainDirtyLimits,
  freerunCeiling,
  ilog2,
  or1,
  roundupPow2,
  setpointOf,
  updateBandwidth,
  wbCalcThresh,
  type DomainLimits,
  type WbState,
} from './wb-state';
export { wbCalcThresh } from './wb-state';

/** One balance_dirty_pages call of a writer thread, in progress (plain data). */
export interface BdpCall {
  /** write_chunk: the pages after which it has done its duty */
  writeChunk: number;
  /** pages_written so far */
  pagesWritten: number;
  /** its next io_schedule_timeout, jiffies */
  pauseJ: number;
  /** its writeback_inodes_wbc call in progress (writeback.ts), or null */
  chunk: WbChunk | null;
  /** where it goes on: the top of the loop, or submitting its writeback; kernel 6.18
   * (dirty-throttle.ts): its pause is over and the call returns */
  phase: 'check' | 'write' | 'paused';
}

/** What the writer does next: it returned, it sleeps in get_request (woken when its bio
 * has a request), or it sleeps until this time (ns). */
export type BdpOutcome = 'done' | 'sleeping' | number;

const ONE = 1 << RATELIMIT_CALC_SHIFT;
/** DIRTY_POLL_THRESH: 128 KiB of pages */
const DIRTY_POLL_THRESH = 32;
/** the ratelimit while the disk is over its limit: 32 KiB of pages */
const EXCEEDED_RATELIMIT = 8;

/** What a task keeps for balance_dirty_pages (task_struct's nr_dirtied, nr_dirtied_pause,
 * dirty_paused_when, in jiffies; 0 = never paused). */
export interface DirtyTask {
  nrDirtied: number;
  nrDirtiedPause: number;
  dirtyPausedWhenJ: number;
}

export function createDirtyTask(): DirtyTask {
  return { nrDirtied: 0, nrDirtiedPause: DIRTY_POLL_THRESH, dirtyPausedWhenJ: 0 };
}

/** folio_account_dirtied for the writer, then balance_dirty_pages_ratelimited: true when its
 * balance_dirty_pages call is due (with t.nrDirtied pages). */
export function dirtiedDue(wb: WbState, t: DirtyTask, pages: number): boolean {
  t.nrDirtied += pages;
  wb.bdpRatelimits += pages;
  let ratelimit = t.nrDirtiedPause;
  if (wb.dirtyExceeded) ratelimit = Math.min(ratelimit, EXCEEDED_RATELIMIT);
  if (t.nrDirtied >= ratelimit) wb.bdpRatelimits = 0;
  else if (wb.bdpRatelimits >= wb.ratelimitPages) {
    // this CPU has dirtied too much without a call: call in now
    wb.bdpRatelimits = 0;
    ratelimit = 0;
  }
  return t.nrDirtied >= ratelimit;
}

/** dirty_poll_interval: pages a freerunning writer dirties before it calls in again. */
export function dirtyPollInterval(dirty: number, thresh: number): number {
  return thresh > dirty ? 2 ** (ilog2(thresh - dirty) >> 1) : 1;
}

/** pos_ratio_polynom: 1 + ((setpoint − dirty) / (limit − setpoint))³ in [0, 2], /1024. */
export function posRatioPolynom(setpoint: number, dirty: number, limit: number): number {
  const x = Math.trunc(((setpoint - dirty) * ONE) / or1(limit - setpoint));
  let pos = x;
  pos = Math.floor((pos * x) / ONE);
  pos = Math.floor((pos * x) / ONE);
  return Math.min(Math.max(pos + ONE, 0), 2 * ONE);
}

/** wb_position_ratio with one disk (wb_dirty = dirty; wb_thresh from wbCalcThresh), /1024:
 * 0 at or over the limit; else the global cubic scaled by the disk's line, which falls by 1
 * over span pages past the disk's setpoint (a quarter at most three quarters of the span
 * past it). With wb_thresh = thresh the setpoint is the global one and span = 8 × write_bw;
 * a smaller wb_thresh (no writeback completed yet) scales both down, and the disk's reserve
 * area (wb_dirty < wb_thresh / 2) is never reached past freerun. */
export function wbPositionRatio(
  l: DomainLimits,
  dirty: number,
  writeBw: number,
  wbThresh: number,
): number {
  const limit = l.thresh; // hard_dirty_limit: dom->dirty_limit stays at thresh
  if (dirty >= limit) return 0;
  const setpoint = setpointOf(l);
  const pos = posRatioPolynom(setpoint, dirty, limit);
  // wb_setpoint = setpoint × wb_thresh / thresh (x: wb_thresh / thresh, 16-bit fixed point)
  const x = Math.floor((Math.min(wbThresh, l.thresh) * 2 ** 16) / or1(l.thresh));
  const wbSetpoint = Math.floor((setpoint * x) / 2 ** 16);
  const span = Math.floor(((l.thresh - Math.min(wbThresh, l.thresh) + 8 * writeBw) * x) / 2 ** 16);
  const xIntercept = wbSetpoint + span;
  if (dirty < xIntercept - Math.floor(span / 4))
    return Math.floor((pos * (xIntercept - dirty)) / or1(xIntercept - wbSetpoint));
  return Math.floor(pos / 4);
}

/** wb_max_pause: the dirty pages' time at the disk's rate, over the safety ratio 8, + 1
 * jiffy; at most MAX_PAUSE (200 ms). */
export function wbMaxPause(writeBw: number, wbDirty: number, hz: number): number {
  const t = Math.floor(wbDirty / (1 + Math.floor(writeBw / roundupPow2(1 + Math.floor(hz / 8)))));
  return Math.min(t + 1, Math.max(Math.floor(hz / 5), 1));
}

/** wb_min_pause: the shortest pause worth sleeping, jiffies, and the pages before the next
 * call (nr_dirtied_pause). */
export function wbMinPause(
  wb: WbState,
  maxPause: number,
  taskRatelimit: number,
  dirtyRatelimit: number,
  hz: number,
): { minPause: number; pages: number } {
  const hi = ilog2(wb.avgWriteBandwidth);
  const lo = ilog2(wb.dirtyRatelimit);
  let t = Math.max(1, Math.floor(hz / 100)); // 10 ms for one writer
  if (hi > lo) t += Math.floor(((hi - lo) * (10 * hz)) / 1024); // N × 10 ms for 2^N writers
  t = Math.min(t, 1 + Math.floor(maxPause / 2));
  const hzPow2 = roundupPow2(hz);
  let pages = Math.floor((dirtyRatelimit * t) / hzPow2);
  if (pages < DIRTY_POLL_THRESH) {
    // tiny calls hurt: up to 32 pages, within max_pause
    t = maxPause;
    pages = Math.floor((dirtyRatelimit * t) / hzPow2);
    if (pages > DIRTY_POLL_THRESH) {
      pages = DIRTY_POLL_THRESH;
      t = Math.floor((hz * DIRTY_POLL_THRESH) / dirtyRatelimit);
    }
  }
  if (Math.floor((hz * pages) / (taskRatelimit + 1)) > maxPause) {
    t = maxPause;
    pages = Math.floor((taskRatelimit * t) / hzPow2);
  }
  return { minPause: pages >= DIRTY_POLL_THRESH ? 1 + Math.floor(t / 2) : t, pages };
}

/** The writer's balance_dirty_pages (call c, of c.writeChunk pages dirtied) on from where it
 * stopped: 'done', or sleeping until a time (ns). */
export function balanceDirtyPagesIoLess(
  sim: WorkloadSimulation,
  c: BdpCall,
  t: DirtyTask,
  now: number,
): BdpOutcome {
  // the pause is over: with a task_ratelimit, the loop ends there
  if (c.phase === 'paused') return 'done';
  const pc = sim.state.workload.pageCache!;
  const wb = pc.wb!;
  const hz = sim.model.iosched.hz;
  const pagesDirtied = c.writeChunk;
  let nowJ = jiffiesNow({ now, hz });
  const limits = domainDirtyLimits(pc);
  const dirty = pc.dirty + pc.writeback;
  if (pc.dirty > limits.bgThresh) kickFlusher(sim, now);
  if (dirty <= freerunCeiling(limits)) {
    // below the freerun ceiling: no throttling
    t.dirtyPausedWhenJ = nowJ;
    t.nrDirtied = 0;
    t.nrDirtiedPause = dirtyPollInterval(dirty, limits.thresh);
    wb.lastPauseJ = 0;
    return 'done';
  }
  // past freerun the flusher is started whatever the dirty pages ("even when in laptop mode",
  // if !writeback_in_progress): under bg_thresh it has nothing to write and sleeps its period
  // again from now
  kickFlusher(sim, now, true);
  const wbThresh = wbCalcThresh(limits, dirty, wb.written);
  wb.dirtyExceeded = dirty > wbThresh && dirty > limits.thresh;
  const posRatio = wbPositionRatio(limits, dirty, wb.avgWriteBandwidth, wbThresh);
  if (bandwidthDue(wb, nowJ, hz)) updateBandwidth(wb, nowJ, hz, { dirty, posRatio, limits });
  const dirtyRatelimit = wb.dirtyRatelimit;
  const taskRatelimit = Math.floor((dirtyRatelimit * posRatio) / ONE);
  const maxPause = wbMaxPause(wb.avgWriteBandwidth, dirty, hz);
  const min = wbMinPause(wb, maxPause, taskRatelimit, dirtyRatelimit, hz);
  let pause = maxPause;
  if (taskRatelimit > 0) {
    const period = Math.floor((hz * pagesDirtied) / taskRatelimit);
    pause = period;
    if (t.dirtyPausedWhenJ) pause -= nowJ - t.dirtyPausedWhenJ;
    if (pause < min.minPause) {
      // too short to sleep: think time paid for it, or the debt is carried on
      if (pause < -hz) {
        t.dirtyPausedWhenJ = nowJ;
        t.nrDirtied = 0;
      } else if (period) {
        t.dirtyPausedWhenJ += period;
        t.nrDirtied = 0;
      } else if (t.nrDirtiedPause <= pagesDirtied) t.nrDirtiedPause += pagesDirtied;
      wb.lastPauseJ = 0;
      return 'done';
    }
    if (pause > maxPause) {
      // an occasional drop of task_ratelimit: the rest is forgiven, up to max_pause
      nowJ += Math.min(pause - maxPause, maxPause);
      pause = maxPause;
    }
  }
  wb.lastPauseJ = pause;
  const wake = jiffyNs(jiffiesNow({ now, hz }) + pause, hz);
  t.dirtyPausedWhenJ = nowJ + pause;
  t.nrDirtied = 0;
  t.nrDirtiedPause = min.pages;
  // at the limit (task_ratelimit 0) it looks again after the pause
  c.phase = taskRatelimit > 0 ? 'paused' : 'check';
  return wake;
}
