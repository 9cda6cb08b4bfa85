// What 2.6.32's balance_dirty_pages (balance-dirty.ts) keeps about the disk's backing device
// and its writers: bdi->dirty_exceeded, the per-CPU ratelimit counter, and the two floating
// proportions of lib/proportions.c that size a writer's dirty limit — the disk's share of
// completed writeback (vm_completions, bdi->completions) and each task's share of the pages
// dirtied (vm_dirties, tsk->dirties). One disk is one bdi here.
//
// A floating proportion counts events globally and locally; every period/2 global events
// each local count is halved (prop_norm_single / prop_norm_percpu, lazily, when next read),
// and a local's share is its count over period/2 + (global count mod period/2)
// (prop_fraction_single). The period is 2^shift with shift = 2 + ilog2(dirty_thresh − 1)
// (mm/page-writeback.c calc_period_shift). Counts are exact (the kernel's per-CPU counters
// are approximate by up to their batch).

/** lib/proportions.c struct prop_global: the global event count and the period's shift */
export interface PropGlobal {
  events: number;
  shift: number;
}

/** struct prop_local_single (prop_local_percpu without its per-CPU error) */
export interface PropLocal {
  events: number;
  /** the global period it was last normalised to (a multiple of period/2) */
  period: number;
}

export function createPropLocal(): PropLocal {
  return { events: 0, period: 0 };
}

/** prop_norm_single: halve the local count once for every period/2 the global count moved on. */
function propNorm(g: PropGlobal, l: PropLocal): void {
  const half = 2 ** (g.shift - 1);
  const globalPeriod = g.events - (g.events % half);
  if (l.period === globalPeriod) return;
  const missed = (globalPeriod - l.period) / half;
  l.events = missed < 64 ? Math.floor(l.events / 2 ** missed) : 0;
  l.period = globalPeriod;
}

/** __prop_inc_single, n times over (the events up to each period boundary at once: the
 * local count is halved where one at a time would halve it). */
export function propInc(g: PropGlobal, l: PropLocal, n: number): void {
  const half = 2 ** (g.shift - 1);
  for (let left = n; left > 0;) {
    propNorm(g, l);
    const k = Math.min(left, half - (g.events % half));
    l.events += k;
    g.events += k;
    left -= k;
  }
}

/** prop_fraction_single: [numerator, denominator] of the local's share. */
export function propFraction(g: PropGlobal, l: PropLocal): [number, number] {
  propNorm(g, l);
  const half = 2 ** (g.shift - 1);
  return [l.events, half + (g.events % half)];
}

/** The backing device's writeback statistics (struct backing_dev_info, in part). */
export interface BdiState {
  /** bdi->dirty_exceeded: a writer found it over its limit; writers check every 8 pages */
  dirtyExceeded: boolean;
  /** bdp_ratelimits: pages dirtied since the last balance_dirty_pages call (one per CPU;
   * the model has one CPU, so all writers share it) */
  ratelimitCount: number;
  /** ratelimit_pages (writeback_set_ratelimit) */
  ratelimitPages: number;
  /** vm_completions and this bdi's share of it (bdi->completions): pages whose writeback
   * completed (test_clear_page_writeback → bdi_writeout_inc) */
  completions: PropGlobal;
  bdiCompletions: PropLocal;
  /** vm_dirties: pages dirtied (account_page_dirtied → task_dirty_inc); each writer thread
   * keeps its own share (GenInstance.dirties) */
  dirties: PropGlobal;
}

/** CPUs online (chosen: one; the papers' machines' count was not available). */
export const ONLINE_CPUS = 1;

/** writeback_set_ratelimit: memory / (CPUs × 32) pages, at least 16, at most 4 MiB. */
export function ratelimitPages(totalPages: number): number {
  return Math.min(Math.max(Math.floor(totalPages / (ONLINE_CPUS * 32)), 16), (4096 * 1024) / 4096);
}

/** calc_period_shift: 2 + ilog2(dirty_total − 1). */
export function periodShift(dirtyTotal: number): number {
  return 2 + Math.floor(Math.log2(Math.max(1, dirtyTotal - 1)));
}

/** page_writeback_init for `totalPages` of memory with `dirtyThresh` pages at dirty_ratio.
 * The disk's share of completed writeback starts whole (chosen: the machine has been writing
 * back to this, its only disk, for a while — fio lays its files out first; at boot the share
 * is 0 and takes period/2 pages of completed writeback to grow, 16 MiB with 64 MiB of memory,
 * 256 MiB with 1 GiB). The threads' shares of dirtying start at 0, as new tasks'. */
export function createBdi(totalPages: number, dirtyThresh: number): BdiState {
  const shift = periodShift(dirtyThresh);
  return {
    dirtyExceeded: false,
    ratelimitCount: 0,
    ratelimitPages: ratelimitPages(totalPages),
    completions: { events: 0, shift },
    bdiCompletions: { events: 2 ** (shift - 1), period: 0 },
    dirties: { events: 0, shift },
  };
}
