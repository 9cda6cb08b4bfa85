// A generator thread's buffered step meeting the page cache (page-cache.ts): what runtime.ts
// calls for a step that is neither direct nor O_SYNC when the run has a page cache.
import type { WorkloadSimulation } from '../sim-view';
import type { Step } from './types';
import type { GenInstance } from './types';
import { dirtyPages, pageSpan, readHit, type PageCacheState } from '../page-cache';
import { journalData, journalMetadata } from '../journal';
import { reiserfsData, reiserfsMetadata } from '../reiserfs-journal';
import { propInc } from '../bdi-stats';
import { newBdpCall, ratelimitDue } from '../balance-dirty';
import { dirtiedDue } from '../dirty-throttle';
import { wbWakeupDelayed } from '../flusher';

/** What a buffered step costs the CPU when the page cache serves it: a system call and a
 * copy of its pages (chosen: about 1 µs each on the papers' machines). */
export function cachedCostNs(step: Step): number {
  const [a, b] = pageSpan(step.sector, step.nSectors);
  return SYSCALL_NS + (b - a + 1) * PAGE_COPY_NS;
}
const SYSCALL_NS = 1000;
const PAGE_COPY_NS = 1000;

/** The thread's own file, for writeback's grouping, when its step names none. */
const OWN_FILE_BASE = 1e9;

/**
 * A buffered step meets the page cache: a write dirties its pages; a read whose pages are
 * all cached is served from memory. True when no bio is needed. On 2.6 a write then goes
 * through balance_dirty_pages_ratelimited: when a balance_dirty_pages call is due it is left
 * in g.writer.bdp for the caller to run (balance-dirty.ts: over its limit the writer writes
 * pages back itself; it wakes the flusher). Kernel 6.18's balance_dirty_pages is IO-less
 * (since 3.2 the writer only pauses and the flusher writes: dirty-throttle.ts); it is due
 * after nr_dirtied_pause pages.
 */
export function throughPageCache(
  sim: WorkloadSimulation,
  pc: PageCacheState,
  g: GenInstance,
  instIndex: number,
  step: Step,
  now: number,
): boolean {
  if (!step.write) {
    if (!readHit(pc, step.sector, step.nSectors)) return false;
    g.cachedOps++;
    g.cachedSectors += step.nSectors;
    return true;
  }
  g.cachedOps++;
  g.cachedSectors += step.nSectors;
  const file = step.file ?? OWN_FILE_BASE + instIndex;
  const j = g.journal >= 0 ? sim.state.workload.journals[g.journal]! : null;
  const r = g.reiserJournal >= 0 ? sim.state.workload.reiserfs!.journals[g.reiserJournal]! : null;
  const [a, b] = pageSpan(step.sector, step.nSectors);
  const journalled = (j !== null || r !== null) && step.meta === true;
  let added = 0;
  if (j && journalled) journalMetadata(sim, j, step.sector, step.nSectors, now);
  else if (r && journalled) reiserfsMetadata(sim, r, step.sector, step.nSectors, now);
  else {
    // reiserfs_commit_page looks at each buffer before marking it dirty
    if (r) reiserfsData(sim, r, a, b, now);
    added = dirtyPages(pc, file, step.sector, step.nSectors, Math.ceil(step.nSectors / 8), now);
    wbWakeupDelayed(sim, now); // __mark_inode_dirty (6.18)
    propInc(pc.bdi.dirties, g.writer.dirties, added); // account_page_dirtied → task_dirty_inc
    if (j) journalData(sim, j, a, b, now);
  }
  // a journalled metadata update dirties no page: no balance_dirty_pages
  if (journalled) return true;
  if (pc.wb) {
    // 6.18: the pages it dirtied (folio_account_dirtied) make its call due, or not
    if (dirtiedDue(pc.wb, g.writer.task, added)) g.writer.bdp = newBdpCall(g.writer.task.nrDirtied);
    return true;
  }
  const chunk = ratelimitDue(pc, b - a + 1);
  if (chunk > 0) g.writer.bdp = newBdpCall(chunk); // the caller runs it
  return true;
}
