// The 2.6.32 flusher's work (fs/fs-writeback.c of 2.6.32: wb_do_writeback, wb_writeback,
// wb_check_old_data_flush), as flusher.ts runs it a bio at a time:
//  - work items first: background writeback (for_background), queued by balance_dirty_pages;
//    then, if dirty_writeback_centisecs have passed since the last, a kupdate round
//    (for_kupdate: files dirtied dirty_expire_centisecs ago);
//  - each is wb_writeback's loop of writeback_inodes_wb calls ("chunks", writeback.ts) of
//    nr_to_write = MAX_WRITEBACK_PAGES shared by the files a chunk visits; before each,
//    background writeback stops under dirty_background_ratio (over_bground_thresh, >=);
//  - after a chunk: nr_to_write spent → the next chunk; some left and no more_io → the work
//    is done (background writeback too, over the threshold or not); more_io and something
//    written → the next chunk; nothing written → wait for the oldest file on b_more_io if
//    another thread is writing it (inode_wait_for_writeback: I_SYNC), then the next chunk.
// Simplified: kupdate's nr_pages (dirty pages + inodes in use) is not modelled as a limit.
import {
  MAX_WRITEBACK_PAGES,
  expiredBeforeNs,
  globalLimits,
  type PageCacheState,
} from './page-cache';
import { chunkNextBio, newChunk, type WbChunk, type WritebackBio } from './writeback';

/** What 2.6.32's wb_writeback keeps in the flusher thread's state (flusher.ts FlusherState,
 * by shape: the flusher calls this file) */
interface Flusher26 {
  chunk: WbChunk | null;
  kupdate: boolean;
  kupdateBeforeNs: number;
  lastOldFlushNs: number;
  bgQueued: boolean;
  bgRunning: boolean;
  waitFile: number;
}

/** The flusher's next bio on 2.6.32 (null: its work is done, or it waits for a file:
 * fl.waitFile). `periodNs`: dirty_writeback_centisecs. */
export function nextBio26(
  pc: PageCacheState,
  fl: Flusher26,
  busy: ReadonlySet<number>,
  now: number,
  periodNs: number,
): WritebackBio | null {
  // each round of this loop either sends a bio, ends a chunk or ends a work item; a chunk
  // that writes nothing moves a file off b_io, so the loop ends (the bound is a safety stop)
  for (let round = 0; round < 4 * (pc.files.size + pc.io.length + 4); round++) {
    const c = fl.chunk;
    if (c) {
      const b = chunkNextBio(pc, c, busy, now);
      if (b) return b;
      fl.chunk = null;
      if (c.left <= 0) continue; // nr_to_write spent: "see if we have more"
      if (!c.moreIo)
        endWork(fl); // "didn't write everything and we don't have more IO"
      else if (c.left === c.budget) {
        // nothing written: wait for the oldest file on b_more_io
        const w = pc.moreIo[0];
        if (w !== undefined && busy.has(w)) {
          fl.waitFile = w; // inode_wait_for_writeback (writebackMovedOn wakes it)
          return null;
        }
      }
      continue;
    }
    if (!fl.kupdate) {
      if (!fl.bgRunning && fl.bgQueued) {
        fl.bgQueued = false;
        fl.bgRunning = true;
      }
      if (fl.bgRunning) {
        if (pc.dirty >= globalLimits(pc).background)
          fl.chunk = newChunk(pc, MAX_WRITEBACK_PAGES, false, Infinity, now);
        else fl.bgRunning = false; // under the threshold: the work is done
        continue;
      }
      if (now < fl.lastOldFlushNs + periodNs) return null;
      fl.kupdate = true;
      fl.kupdateBeforeNs = expiredBeforeNs(pc, now);
      fl.lastOldFlushNs = now;
    }
    fl.chunk = newChunk(pc, MAX_WRITEBACK_PAGES, true, fl.kupdateBeforeNs, now);
  }
  endWork(fl);
  return null;
}

/** The work item in progress is done (wb_writeback returns). */
function endWork(fl: Flusher26): void {
  if (fl.kupdate) fl.kupdate = false;
  else fl.bgRunning = false;
}
