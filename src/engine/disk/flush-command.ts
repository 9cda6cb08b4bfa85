// A flush command (SYNCHRONIZE CACHE / FLUSH CACHE; the block layer's REQ_OP_FLUSH,
// iosched/blk-flush.ts) at the device. The fitted device serves it with the flush term fitted
// to the trace's own flush D→C pairs (disk/fitted.ts). A drive model answers after its
// command overhead, once its write-back buffer holds nothing dirty: with dirty segments it
// waits for their destages (the media writes the buffer already queued), then reports done.
// With nothing dirty — a write-through drive, or all destaged — it costs the overhead only.
import type { IoRequest } from '../request';
import { requestAt } from '../request';
import { pushEvent } from '../sim/heap';
import { EventKind, EventPriority } from '../sim/events';
import type { DiskSimulation } from './sim-view';
import { fittedSubmit } from './fitted';
import { commandOverheadNs } from './overheads';

export function acceptFlush(sim: DiskSimulation, rq: IoRequest, now: number): void {
  const d = sim.model.disk;
  if (d.params.fitted) {
    fittedSubmit(sim, rq, now);
    return;
  }
  const cmd = commandOverheadNs(sim, 'write');
  rq.eligibleNs = now + cmd;
  rq.startNs = now;
  rq.overheadNs = cmd + d.writeCompleteNs;
  const drive = sim.state.drive;
  if (drive.dirtySegments > 0) {
    drive.flushWaiting.push(rq.slot);
    return;
  }
  reportFlushDone(sim, rq, rq.eligibleNs);
}

function reportFlushDone(sim: DiskSimulation, rq: IoRequest, at: number): void {
  pushEvent(
    sim.state.heap,
    at + sim.model.disk.writeCompleteNs,
    EventPriority.Complete,
    EventKind.DriveComplete,
    0,
    rq.slot,
  );
}

/** A destage reached the media: with the buffer clean, the flushes waiting for it are done. */
export function flushAfterDestage(sim: DiskSimulation, now: number): void {
  const drive = sim.state.drive;
  if (drive.dirtySegments > 0 || drive.flushWaiting.length === 0) return;
  for (const slot of drive.flushWaiting.splice(0)) {
    const rq = requestAt(sim.state.requests, slot);
    reportFlushDone(sim, rq, Math.max(now, rq.eligibleNs));
  }
}
