// Writeback calls (src/engine/workload/writeback.ts) run to their end in a unit test, their
// bios sent one after another as the flusher sends them when no request is ever short.
import { MAX_WRITEBACK_PAGES, type PageCacheState } from '../../src/engine/workload/page-cache';
import {
  chunkNextBio,
  newChunk,
  type WbChunk,
  type WritebackBio,
} from '../../src/engine/workload/writeback';

/** The rest of chunk `c`'s bios, sent at `nowNs`; `busy`: files other threads are writing. */
export function sendChunk(
  pc: PageCacheState,
  c: WbChunk,
  nowNs = 0,
  busy: ReadonlySet<number> = new Set(),
): WritebackBio[] {
  const out: WritebackBio[] = [];
  for (let b = chunkNextBio(pc, c, busy, nowNs); b; b = chunkNextBio(pc, c, busy, nowNs))
    out.push(b);
  return out;
}

/** One writeback_inodes_wb call of `budget` pages at `nowNs` (by default 1 s, after the
 * tests' dirtying; kupdate's when `beforeNs` is finite: files dirtied at or before it), run
 * to its end: the bios it sent. */
export function writeChunk(
  pc: PageCacheState,
  { budget = MAX_WRITEBACK_PAGES, beforeNs = Infinity, nowNs = 1e9 } = {},
): WritebackBio[] {
  return sendChunk(pc, newChunk(pc, budget, beforeNs !== Infinity, beforeNs, nowNs), nowNs);
}
