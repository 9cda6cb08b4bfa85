// I/O injection (block/bfq-iosched.c): while the device idles for the empty in-service
// queue, BFQ may dispatch other queues' requests into the "service hole" — the async
// I/O of the same process, the queue that wakes it (its waker, bfq_check_waker), the
// queue it wakes, or any queue with budget left as long as fewer than `inject_limit`
// requests are in flight (bfq_choose_bfqq_for_injection). The limit adapts: the total
// service time of the queue's "first requests" (from their arrival on an empty queue to
// their completion) is measured with nothing in flight (the baseline) and with injection;
// under 1.5 × the baseline the limit grows, else it shrinks (bfq_update_inject_limit).
import { msecsToJiffies } from './common';
import { explainWaker } from './bfq-explain';
import { idlingBoostsThr } from './bfq-expire';
import { servToCharge } from './bfq-queue';
import { BFQQ_SECT_THR_NONROT } from './bfq-tunables';
import { budgetLeft, jiffies, type BfqQueue, type BfqState, type InjectWhy } from './bfq-types';
import type { ElevatorContext } from './types';

/** bfq_reset_inject_limit: start from 0 (short think time) or 1, baseline unknown */
export function resetInjectLimit(s: BfqState, q: BfqQueue, j: number): void {
  q.lastServTimeNs = 0;
  s.waitedRq = -1;
  q.injectLimit = q.hasShortTtime ? 0 : 1;
  q.decreaseTimeJ = j;
}

/** q's waker is w (woken_list kept on the waker, the newest first) */
export function setWaker(s: BfqState, q: BfqQueue, w: number): void {
  const old = s.queues[q.wakerQ];
  if (old) old.woken = old.woken.filter((id) => id !== q.id);
  q.wakerQ = w;
  q.tentativeWakerQ = -1;
  s.queues[w]!.woken.unshift(q.id);
}

/** bfq_check_waker: q (long think time) got I/O within 4 ms of a completion of another
 * queue; the third time in a row within 128 × slice_idle, that queue is its waker. */
function checkWaker(s: BfqState, q: BfqQueue, ctx: ElevatorContext): void {
  const lc = s.lastCompletedQ;
  const now = ctx.now;
  if (lc < 0 || lc === q.id || q.hasShortTtime || now - s.lastCompletionNs >= 4_000_000) return;
  if (lc !== q.tentativeWakerQ || now > q.wakerDetectionStartedNs + 128 * s.t.sliceIdleNs) {
    q.tentativeWakerQ = lc;
    q.numWakerDetections = 1;
    q.wakerDetectionStartedNs = now;
  } else q.numWakerDetections++;
  if (q.numWakerDetections === 3) {
    setWaker(s, q, lc);
    if (ctx.recording) explainWaker(s, q, ctx);
  }
}

/** bfq_add_request's part for a sync queue whose process has no other request in BFQ:
 * waker detection, the periodic reset of the limit, and the start of a measurement of a
 * first request's total service time (with the drive empty, or after injection). */
export function injectOnArrival(s: BfqState, q: BfqQueue, ctx: ElevatorContext): void {
  const j = jiffies(ctx);
  checkWaker(s, q, ctx);
  if (q.decreaseTimeJ + msecsToJiffies(1000, s.hz) <= j) resetInjectLimit(s, q, j);
  if (
    q.id === s.inService &&
    (s.rqInDriver === 0 || (q.lastServTimeNs > 0 && s.rqsInjected && s.rqInDriver > 0)) &&
    q.decreaseTimeJ + msecsToJiffies(10, s.hz) <= j
  ) {
    s.lastEmptyOccupiedNs = ctx.now;
    s.waitDispatch = true; // waited_rq is set when this request is dispatched
    if (s.rqInDriver === 0) s.rqsInjected = false;
  }
}

/** bfq_update_has_short_ttime's reset: the think time changed state before a baseline
 * was measured (after 100 ms, or at once when it became long) */
export function injectOnTtimeChange(s: BfqState, q: BfqQueue, wasShort: boolean, j: number) {
  if (wasShort === q.hasShortTtime || q.lastServTimeNs !== 0) return;
  if (q.decreaseTimeJ + msecsToJiffies(100, s.hz) <= j || !q.hasShortTtime)
    resetInjectLimit(s, q, j);
}

/** bfq_update_inject_limit, at the completion of the waited request (still counted in
 * the driver: 1 means nothing else was in flight) */
export function updateInjectLimit(s: BfqState, q: BfqQueue, ctx: ElevatorContext): void {
  const tot = ctx.now - s.lastEmptyOccupiedNs;
  const old = q.injectLimit;
  if (q.lastServTimeNs > 0 && s.rqsInjected) {
    const threshold = Math.floor((q.lastServTimeNs * 3) / 2);
    if (tot >= threshold && old > 0) {
      q.injectLimit--;
      q.decreaseTimeJ = jiffies(ctx);
    } else if (tot < threshold && old <= s.maxRqInDriver) q.injectLimit++;
  }
  if ((q.lastServTimeNs === 0 && s.rqInDriver === 1) || tot < q.lastServTimeNs) {
    if (q.lastServTimeNs === 0) q.injectLimit = Math.max(1, old); // a baseline at last
    q.lastServTimeNs = tot;
  } else if (!s.rqsInjected && s.rqInDriver === 1) q.lastServTimeNs = tot;
  s.waitedRq = -1;
  s.rqsInjected = false;
}

const fits = (s: BfqState, q: BfqQueue | undefined, ctx: ElevatorContext): q is BfqQueue =>
  !!q && q.busy && q.nextRq >= 0 && servToCharge(s, q, ctx.rq(q.nextRq)) <= budgetLeft(q);

/** bfq_choose_bfqq_for_injection: the first active queue with budget for its next
 * request, while fewer than inject_limit requests are in flight (raised queues only if
 * the in-service one is raised with a short think time; one large request at most on an
 * SSD) */
function chooseForInjection(s: BfqState, inServ: BfqQueue, ctx: ElevatorContext) {
  let limit = inServ.injectLimit;
  const always = inServ.wrCoeff === 1 || !inServ.hasShortTtime;
  // limit 0 with no baseline yet becomes 1 once idling lasted bfq_slice_idle — added to a
  // jiffies count, the ns value (8,000,000) puts that beyond any run, as in the kernel
  if (
    limit === 0 &&
    inServ.lastServTimeNs === 0 &&
    inServ.waitRequest &&
    s.lastIdlingStartJ + s.t.sliceIdleNs <= jiffies(ctx)
  )
    limit = 1;
  if (s.rqInDriver >= limit) return null;
  for (const id of s.activeList) {
    const q = s.queues[id]!;
    if (q.sortList.length === 0 || !(always || q.wrCoeff > 1)) continue;
    const next = ctx.rq(q.nextRq);
    if (servToCharge(s, q, next) > budgetLeft(q)) continue;
    if (!s.rot && next.nSectors >= BFQQ_SECT_THR_NONROT && s.rqInDriver >= 1) continue;
    s.rqsInjected = true;
    return q;
  }
  return null;
}

export type { InjectWhy } from './bfq-types';

/** bfq_select_queue while plugging for the empty in-service queue q: the queue to inject
 * from, or null to keep idling */
export function pickInjection(
  s: BfqState,
  q: BfqQueue,
  ctx: ElevatorContext,
): { q: BfqQueue; why: InjectWhy } | null {
  const a = q.bic >= 0 ? s.bics[q.bic]!.asyncQ : -1;
  const asyncQ = a >= 0 ? s.queues[a] : undefined;
  if (fits(s, asyncQ, ctx) && ctx.rq(asyncQ.nextRq).pid === q.bic)
    return { q: asyncQ, why: 'async' };
  const waker = q.wakerQ >= 0 ? s.queues[q.wakerQ] : undefined;
  if (fits(s, waker, ctx)) return { q: waker, why: 'waker' };
  const blocked = q.woken.length > 0 ? s.queues[q.woken[0]!] : undefined;
  if (fits(s, blocked, ctx)) return { q: blocked, why: 'woken' };
  if (!idlingBoostsThr(s, q) && (q.wrCoeff === 1 || s.wrBusyQueues > 1 || !q.hasShortTtime)) {
    const c = chooseForInjection(s, q, ctx);
    if (c) return { q: c, why: 'limit' };
  }
  return null;
}
