// Kernel 6.18: what the IO-less balance_dirty_pages (dirty-throttle.ts) keeps about the disk's
// writeback (struct bdi_writeback, in part) and how it measures it: the dirty limits, the
// disk's write bandwidth and the balanced dirty rate, re-estimated every BANDWIDTH_INTERVAL.
// Read in torvalds/linux mm/page-writeback.c at commit 8e9d5ead (the index's stored version,
// of the v6.1 era; 6.11's reorganisation into balance_domain_limits / balance_wb_limits,
// seen on linux-fsdevel, moves this code without changing these rules), checked against a
// later copy (6.14's __wb_calc_thresh, rt_or_dl_task: the same rules here) and
// mm/backing-dev.c (wb_init: INIT_BW).
//
//  - domain_dirty_limits: thresh and bg_thresh of the dirtyable memory (the cache's pages + 1,
//    global_dirtyable_memory), the ratios converted to parts per PAGE_SIZE first; bg_thresh
//    at most half of thresh. The writers are not real-time tasks (no +1/4).
//  - WB_DIRTIED / WB_WRITTEN count the pages dirtied (folio_account_dirtied: page-cache.ts
//    dirtyPages) and those whose writeback completed (__folio_end_writeback: writeback.ts).
//  - wb_update_write_bandwidth: the pages written since the last estimate, per second,
//    averaged over roundup_pow_of_two(3 × HZ) jiffies, then smoothed once more
//    (avg_write_bandwidth: it moves an eighth of the way, only when both point the same way).
//  - wb_update_dirty_ratelimit: dirty_ratelimit, the rate each writer is allowed near the
//    setpoint, steps towards the balanced rate task_ratelimit × write_bw / dirty_rate (what
//    makes the writers dirty as fast as the disk writes), a step of at most an eighth of the
//    gap, only when the dirty pages' position agrees (below the setpoint: up; above: down).
//  - __wb_update_bandwidth: both, from a balance_dirty_pages call at least BANDWIDTH_INTERVAL
//    (200 ms) after the last estimate; the bandwidth alone from the flusher's do_writepages
//    (a writeback pass, flusher.ts), after wb_bandwidth_estimate_start has restarted the
//    clock if the disk was idle for a second.
// Simplified (one disk, no cgroups): the global domain's dirty_limit (hard_dirty_limit,
// update_dirty_limit) equals thresh, as the dirtyable memory never changes; no memcg domain,
// bdi min/max_ratio 0/100 (tot_write_bandwidth is not needed); the counters are exact (no
// per-CPU error); wb_inode_writeback_end's delayed bandwidth update 200 ms after a file's
// writeback ends (bw_dwork) is left out — a writer still dirtying updates it itself.

/** PAGE_SIZE, bytes */
const PAGE_SIZE = 4096;
/** INIT_BW (mm/backing-dev.c): the first estimates, 100 MB/s in pages a second */
export const INIT_BW = (100 * 2 ** 20) / PAGE_SIZE;

/** The disk's writeback state as 6.18's balance_dirty_pages sees it (plain data). */
export interface WbState {
  /** WB_DIRTIED and WB_WRITTEN, pages */
  dirtied: number;
  written: number;
  /** their values at the last estimate, and its time (bw_time_stamp), jiffies */
  dirtiedStamp: number;
  writtenStamp: number;
  bwTimeStampJ: number;
  /** write_bandwidth, avg_write_bandwidth, dirty_ratelimit, balanced_dirty_ratelimit:
   * pages a second */
  writeBandwidth: number;
  avgWriteBandwidth: number;
  dirtyRatelimit: number;
  balancedDirtyRatelimit: number;
  /** wb->dirty_exceeded: over thresh; writers then check every 8 pages */
  dirtyExceeded: boolean;
  /** bdp_ratelimits (one per CPU; one CPU here) and ratelimit_pages */
  bdpRatelimits: number;
  ratelimitPages: number;
  /** for the inspection: the last balance_dirty_pages call's pause, jiffies (0: it did not
   * sleep) */
  lastPauseJ: number;
}

/** What the writeback state reads of the page cache (page-cache.ts PageCacheState, by shape:
 * the page cache holds this file's WbState, so this file does not import it) */
export interface DirtyDomain {
  capacity: number;
  spec: { dirty_ratio: number; dirty_background_ratio: number };
  /** pages under writeback */
  writeback: number;
  wb: WbState | null;
}

export interface DomainLimits {
  thresh: number;
  bgThresh: number;
}

/** domain_dirty_limits for the global domain (vm_dirty_bytes and dirty_background_bytes 0). */
export function domainDirtyLimits(pc: DirtyDomain): DomainLimits {
  const avail = pc.capacity + 1; // global_dirtyable_memory: "never 0"
  const ratio = Math.floor((pc.spec.dirty_ratio * PAGE_SIZE) / 100);
  const bgRatio = Math.floor((pc.spec.dirty_background_ratio * PAGE_SIZE) / 100);
  const thresh = Math.floor((ratio * avail) / PAGE_SIZE);
  let bgThresh = Math.floor((bgRatio * avail) / PAGE_SIZE);
  if (bgThresh >= thresh) bgThresh = Math.floor(thresh / 2);
  return { thresh, bgThresh };
}

/** __wb_calc_thresh with one disk: its share of thresh by its share of the completed
 * writeback (the domain's fprop completions) is all of it once any page's writeback has
 * completed (`written`: WB_WRITTEN counts the same completions), none before; raised to
 * (thresh − dirty) / 8 when thresh is above the dirty pages — an idle device's threshold
 * (since 6.14 here, before in wb_position_ratio as (limit − dirty) / 8, the same with
 * limit = thresh). */
export function wbCalcThresh(l: DomainLimits, dirty: number, written: number): number {
  const share = written > 0 ? l.thresh : 0;
  return l.thresh > dirty ? Math.max(share, Math.floor((l.thresh - dirty) / 8)) : share;
}

/** wb_init (INIT_BW for every estimate, the clock at boot) and writeback_set_ratelimit
 * (ratelimit_pages = thresh / (CPUs × 32), at least 16; one CPU) for `thresh`. */
export function createWb(thresh: number): WbState {
  return {
    dirtied: 0,
    written: 0,
    dirtiedStamp: 0,
    writtenStamp: 0,
    bwTimeStampJ: 0,
    writeBandwidth: INIT_BW,
    avgWriteBandwidth: INIT_BW,
    dirtyRatelimit: INIT_BW,
    balancedDirtyRatelimit: INIT_BW,
    dirtyExceeded: false,
    bdpRatelimits: 0,
    ratelimitPages: Math.max(Math.floor(thresh / 32), 16),
    lastPauseJ: 0,
  };
}

/** pos_ratio and the rates' fixed point */
export const RATELIMIT_CALC_SHIFT = 10;
/** BANDWIDTH_INTERVAL: max(HZ / 5, 1) jiffies */
export const bandwidthInterval = (hz: number) => Math.max(Math.floor(hz / 5), 1);

export function roundupPow2(n: number): number {
  return 2 ** Math.ceil(Math.log2(Math.max(1, n)));
}
export function ilog2(n: number): number {
  return Math.floor(Math.log2(n));
}
/** `n | 1` of a non-negative integer (the kernel's guard against dividing by 0) */
export function or1(n: number): number {
  return n % 2 === 0 ? n + 1 : n;
}

/** dirty_freerun_ceiling and the global setpoint, (freerun + limit) / 2 (limit = thresh). */
export function freerunCeiling(l: DomainLimits): number {
  return Math.floor((l.thresh + l.bgThresh) / 2);
}
export function setpointOf(l: DomainLimits): number {
  return Math.floor((freerunCeiling(l) + l.thresh) / 2);
}

/** wb_update_write_bandwidth, `elapsed` jiffies since the last estimate. */
function updateWriteBandwidth(wb: WbState, elapsed: number, hz: number): void {
  const period = roundupPow2(3 * hz);
  const old = wb.writeBandwidth;
  let avg = wb.avgWriteBandwidth;
  let bw = Math.max(wb.written - wb.writtenStamp, 0) * hz;
  if (elapsed > period) {
    bw = Math.floor(bw / elapsed);
    avg = bw;
  } else {
    bw = Math.floor((bw + old * (period - elapsed)) / period);
    // one more level of smoothing, against sudden spikes
    if (avg > old && old >= bw) avg -= Math.floor((avg - old) / 8);
    if (avg < old && old <= bw) avg += Math.floor((old - avg) / 8);
  }
  wb.writeBandwidth = bw;
  wb.avgWriteBandwidth = Math.max(avg, 1);
}

/** What a balance_dirty_pages call knows when it updates the rate: the dirty pages (dirty +
 * under writeback), its pos_ratio, the limits. */
export interface RatelimitInput {
  dirty: number;
  posRatio: number;
  limits: DomainLimits;
}

/** wb_update_dirty_ratelimit, `elapsed` jiffies since the last estimate. */
function updateDirtyRatelimit(wb: WbState, c: RatelimitInput, elapsed: number, hz: number) {
  const setpoint = setpointOf(c.limits);
  const writeBw = wb.avgWriteBandwidth;
  let rate = wb.dirtyRatelimit;
  const dirtyRate = Math.floor(((wb.dirtied - wb.dirtiedStamp) * hz) / elapsed);
  // each writer's rate over the last 200 ms (+1: it ramps up from tiny values)
  const taskRatelimit = Math.floor((rate * c.posRatio) / 2 ** RATELIMIT_CALC_SHIFT) + 1;
  // N writers at task_ratelimit dirty N × as fast: write_bw / N keeps pace with the disk
  const balanced = Math.min(Math.floor((taskRatelimit * writeBw) / or1(dirtyRate)), writeBw);
  // follow the balanced rate only when the position error points the same way
  let step = 0;
  if (c.dirty < setpoint) {
    const x = Math.min(wb.balancedDirtyRatelimit, balanced, taskRatelimit);
    if (rate < x) step = x - rate;
  } else {
    const x = Math.max(wb.balancedDirtyRatelimit, balanced, taskRatelimit);
    if (rate > x) step = rate - x;
  }
  // slower when close to the target: no pointless tremors
  const shift = Math.floor(rate / (2 * step + 1));
  step = shift < 64 ? Math.ceil(Math.floor(step / 2 ** shift) / 8) : 0;
  rate = rate < balanced ? rate + step : rate - step;
  wb.dirtyRatelimit = Math.max(rate, 1);
  wb.balancedDirtyRatelimit = balanced;
}

/** __wb_update_bandwidth at jiffy `nowJ`: the dirty rate limit too when a balance_dirty_pages
 * call asks (`rl`), then the write bandwidth; the stamps move on. */
export function updateBandwidth(
  wb: WbState,
  nowJ: number,
  hz: number,
  rl: RatelimitInput | null,
): void {
  const elapsed = Math.max(nowJ - wb.bwTimeStampJ, 1);
  if (rl) updateDirtyRatelimit(wb, rl, elapsed, hz);
  updateWriteBandwidth(wb, elapsed, hz);
  wb.dirtiedStamp = wb.dirtied;
  wb.writtenStamp = wb.written;
  wb.bwTimeStampJ = nowJ;
}

/** The estimate is due: BANDWIDTH_INTERVAL has passed since the last (time_is_before_jiffies). */
export function bandwidthDue(wb: WbState, nowJ: number, hz: number): boolean {
  return nowJ > wb.bwTimeStampJ + bandwidthInterval(hz);
}

/** A writeback pass over a file begins (do_writepages): wb_bandwidth_estimate_start — idle for
 * over a second with nothing under writeback, the clock restarts. */
export function writepagesStart(pc: DirtyDomain, nowJ: number, hz: number): void {
  const wb = pc.wb!;
  if (nowJ - wb.bwTimeStampJ > hz && pc.writeback === 0) {
    wb.dirtiedStamp = wb.dirtied;
    wb.writtenStamp = wb.written;
    wb.bwTimeStampJ = nowJ;
  }
}

/** The pass's writepages has returned (do_writepages): wb_update_bandwidth if due (the
 * bandwidth only) — after its pages were sent, not before the first. */
export function writepagesDone(pc: DirtyDomain, nowJ: number, hz: number): void {
  const wb = pc.wb!;
  if (bandwidthDue(wb, nowJ, hz)) updateBandwidth(wb, nowJ, hz, null);
}
