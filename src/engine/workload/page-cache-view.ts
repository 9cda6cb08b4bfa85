// The page cache and its flusher (page-cache.ts, flusher.ts) at an instant, for the UI's
// inspection panel (iosched/inspect.ts).
import type { Simulation } from '../sim/simulation';
import { backgroundThresh, dirtyThresh } from './page-cache';

/** The page cache and its flusher at this instant, for the UI's inspection panel. */
export function pageCacheView(sim: Simulation): Record<string, unknown> {
  const pc = sim.state.workload.pageCache!;
  const fl = sim.state.workload.flusher!;
  return {
    pages: pc.clean.size + pc.busy.size,
    dirty: pc.dirty,
    writeback: pc.writeback,
    backgroundThresh: backgroundThresh(pc),
    dirtyThresh: dirtyThresh(pc),
    dirtyFiles: pc.files.size,
    flusher: fl.sleeping
      ? 'sleeping for a request'
      : fl.pending.length > 0
        ? 'writing'
        : fl.waitFile >= 0
          ? 'waiting for a file another thread writes back'
          : 'idle',
    // 6.18: held above dirty_ratio; 2.6: in balance_dirty_pages (writing back or napping)
    writersWaiting:
      fl.throttled.length + sim.state.workload.instances.filter((i) => i.gen?.writer.bdp).length,
    dirtyExceeded: pc.bdi.dirtyExceeded,
    pagesWritten: pc.pagesWritten,
    pagesWrittenByWriters: pc.pagesWrittenByWriters,
  };
}
