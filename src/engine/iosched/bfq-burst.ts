// Large bursts (block/bfq-iosched.c, bfq_handle_burst): when many queues are created
// shortly after each other — a service starting threads, `git grep` — their processes
// want throughput, not low latency. BFQ lists the queues created within
// bfq_burst_interval (180 ms) of the last one; when the list reaches
// bfq_large_burst_thresh (8), all of them, and every queue created in the burst after
// that, are in a large burst: they are not weight-raised (bfq-wr.ts).
import { msecsToJiffies } from './common';
import { explainBurst } from './bfq-explain';
import { BFQ_BURST_INTERVAL_MS, BFQ_LARGE_BURST_THRESH } from './bfq-tunables';
import { jiffies, totBusy, type BfqQueue, type BfqState } from './bfq-types';
import type { ElevatorContext } from './types';

/** bfq_reset_burst_list: a new burst starts with q, if nothing else is busy */
function resetBurstList(s: BfqState, q: BfqQueue): void {
  for (const id of s.burstList) s.queues[id]!.inBurstList = false;
  s.burstList = [];
  if (totBusy(s) === 0) {
    s.burstList.push(q.id);
    q.inBurstList = true;
    s.burstSize = 1;
  } else s.burstSize = 0;
}

/** bfq_add_to_burst: at the threshold the whole list is marked and dropped */
function addToBurst(s: BfqState, q: BfqQueue, ctx: ElevatorContext): void {
  s.burstSize++;
  if (s.burstSize === BFQ_LARGE_BURST_THRESH) {
    s.largeBurst = true;
    for (const id of s.burstList) {
      const b = s.queues[id]!;
      b.inLargeBurst = true;
      b.inBurstList = false;
    }
    q.inLargeBurst = true;
    s.burstList = [];
    if (ctx.recording) explainBurst(s, q, ctx);
  } else {
    s.burstList.unshift(q.id);
    q.inBurstList = true;
  }
}

/** bfq_handle_burst, for a queue just created while a burst goes on or nothing is busy */
export function handleBurst(s: BfqState, q: BfqQueue, ctx: ElevatorContext): void {
  const j = jiffies(ctx);
  if (q.inBurstList || q.inLargeBurst || q.splitJ + msecsToJiffies(10, s.hz) >= j) return;
  if (s.lastInsInBurstJ + msecsToJiffies(BFQ_BURST_INTERVAL_MS, s.hz) < j) {
    s.largeBurst = false; // the burst is over: q may start the next one
    resetBurstList(s, q);
  } else if (s.largeBurst) q.inLargeBurst = true;
  else addToBurst(s, q, ctx);
  s.lastInsInBurstJ = j;
}
