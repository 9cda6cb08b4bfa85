// What a run shows of its page cache (page-cache.ts, flusher.ts): the summary's counters,
// and the page cache and flusher at an instant for the UI's inspection panel
// (engine/inspect.ts).
import type { WorkloadSimulation } from './sim-view';
import type { PageCacheCounters, PageCacheState } from './page-cache';
import { RATELIMIT_CALC_SHIFT, domainDirtyLimits, freerunCeiling, setpointOf } from './wb-state';
import { wbCalcThresh, wbPositionRatio } from './dirty-throttle';

/** What a run reports of its page cache (the summary's `pageCache`): buffered reads it
 * served and missed; pages dirtied, written back (of them, by throttled writers themselves:
 * 2.6's balance_dirty_pages), dropped (deleted while dirty), evicted. */
export type { PageCacheCounters } from './page-cache';

export function pageCacheCounters(pc: PageCacheState): PageCacheCounters {
  const { readHits, readMisses, pagesDirtied, pagesWritten, pagesDropped, evicted } = pc;
  const byWriters = pc.pagesWrittenByWriters; // last: the summary's JSON only gains a key
  return {
    readHits,
    readMisses,
    pagesDirtied,
    pagesWritten,
    pagesDropped,
    evicted,
    pagesWrittenByWriters: byWriters,
  };
}

/** The page cache and its flusher at this instant, for the UI's inspection panel. */
export function pageCacheView(sim: WorkloadSimulation): Record<string, unknown> {
  const pc = sim.state.workload.pageCache!;
  const fl = sim.state.workload.flusher!;
  const lim = pc.wb
    ? domainDirtyLimits(pc)
    : { bgThresh: backgroundThresh(pc), thresh: dirtyThresh(pc) };
  return {
    pages: pc.clean.size + pc.busy.size,
    dirty: pc.dirty,
    writeback: pc.writeback,
    backgroundThresh: lim.bgThresh,
    dirtyThresh: lim.thresh,
    dirtyFiles: pc.files.size,
    flusher: fl.sleeping
      ? 'sleeping for a request'
      : fl.chunk !== null
        ? 'writing'
        : fl.waitFile >= 0
          ? 'waiting for a file another thread writes back'
          : 'idle',
    // in balance_dirty_pages: 2.6 writing back or napping, 6.18 pausing
    writersWaiting: sim.state.workload.instances.filter((i) => i.gen?.writer.bdp).length,
    dirtyExceeded: pc.wb ? pc.wb.dirtyExceeded : pc.bdi.dirtyExceeded,
    pagesWritten: pc.pagesWritten,
    pagesWrittenByWriters: pc.pagesWrittenByWriters,
    ...(pc.wb ? ioLessView(pc, sim.model.iosched.hz) : {}),
  };
}

/** Kernel 6.18's IO-less throttling (dirty-throttle.ts): the rates in KiB/s, as the kernel's
 * balance_dirty_pages tracepoint shows them; pos_ratio now (none below the freerun ceiling:
 * the writers are not throttled); the last call's pause. */
function ioLessView(pc: PageCacheState, hz: number): Record<string, unknown> {
  const wb = pc.wb!;
  const lim = domainDirtyLimits(pc);
  const dirty = pc.dirty + pc.writeback;
  const free = dirty <= freerunCeiling(lim);
  const pos = wbPositionRatio(
    lim,
    dirty,
    wb.avgWriteBandwidth,
    wbCalcThresh(lim, dirty, wb.written),
  );
  return {
    freerun: freerunCeiling(lim),
    setpoint: setpointOf(lim),
    writeBandwidthKBps: wb.avgWriteBandwidth * 4,
    dirtyRatelimitKBps: wb.dirtyRatelimit * 4,
    posRatio: free ? null : pos / 2 ** RATELIMIT_CALC_SHIFT,
    taskRatelimitKBps: free ? null : Math.floor((wb.dirtyRatelimit * pos) / 1024) * 4,
    lastPauseMs: (wb.lastPauseJ * 1000) / hz,
  };
}

/** The inspection panel on 2.6: dirty pages above which the flusher starts, and dirty +
 * writeback near which writers are throttled, of `memoryMiB` (6.18: domainDirtyLimits). */
export function backgroundThresh(pc: PageCacheState): number {
  return Math.floor((pc.spec.dirty_background_ratio * pc.capacity) / 100);
}
export function dirtyThresh(pc: PageCacheState): number {
  return Math.floor((pc.spec.dirty_ratio * pc.capacity) / 100);
}
