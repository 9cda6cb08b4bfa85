// BFQ's weight raising under low_latency (block/bfq-iosched.c): a sync queue that becomes
// busy after idling at least bfq_wr_min_idle_time (2 s) is deemed interactive and its
// weight is multiplied by bfq_wr_coeff (30) for bfq_wr_duration; one whose next request
// comes after soft_rt_next_start, with nothing in flight, is deemed soft real-time (× 30 ×
// 100 for 300 ms, renewed while it keeps the pace). Raising ends when its time is up or,
// for an interactive queue, after max_service_from_wr sectors.
import { msecsToJiffies } from './common';
import {
  BFQ_MAX_SERVICE_FROM_WR,
  BFQ_REF_RATE,
  BFQ_REF_WR_DURATION_MS,
  BFQ_SOFTRT_WEIGHT_FACTOR,
  BFQ_WR_COEFF,
  BFQ_WR_MAX_SOFTRT_RATE,
  BFQ_WR_MIN_IDLE_TIME_MS,
  BFQ_WR_RT_MAX_TIME_MS,
} from './bfq-tunables';
import { bfqMinBudget, totallySeeky } from './bfq-queue';
import { jiffies, type BfqQueue, type BfqState } from './bfq-types';
import { updateWeightPrio } from './bfq-wf2q';
import type { ElevatorContext } from './types';

export const rtMaxTime = (s: BfqState) => msecsToJiffies(BFQ_WR_RT_MAX_TIME_MS, s.hz);
const minIdleTime = (s: BfqState) => msecsToJiffies(BFQ_WR_MIN_IDLE_TIME_MS, s.hz);

/** bfq_init_queue: rate_dur_prod and the initial peak rate, 2/3 of the reference */
export function initRates(s: BfqState): void {
  const i = s.rot ? 0 : 1;
  s.rateDurProd = BFQ_REF_RATE[i] * msecsToJiffies(BFQ_REF_WR_DURATION_MS[i], s.hz);
  s.peakRate = Math.floor((BFQ_REF_RATE[i] * 2) / 3);
}

/** bfq_wr_duration: rate_dur_prod / peak_rate, within 3 … 25 s (jiffies) */
export function wrDuration(s: BfqState): number {
  const dur = Math.floor(s.rateDurProd / s.peakRate);
  return Math.min(Math.max(dur, msecsToJiffies(3000, s.hz)), msecsToJiffies(25000, s.hz));
}

/** bfq_bfqq_end_wr: after interactive raising soft_rt_next_start restarts from now (an
 * application that loaded may go on at a soft real-time pace) */
export function endWr(s: BfqState, q: BfqQueue, ctx: ElevatorContext): void {
  if (q.wrCurMaxTime !== rtMaxTime(s)) q.softRtNextStart = jiffies(ctx);
  if (q.busy) s.wrBusyQueues--;
  q.wrCoeff = 1;
  q.wrCurMaxTime = 0;
  q.lastWrStartFinish = jiffies(ctx);
  q.prioChanged = true;
}

/** switch_back_to_interactive_wr */
export function backToInteractive(s: BfqState, q: BfqQueue): void {
  q.wrCoeff = BFQ_WR_COEFF;
  q.wrCurMaxTime = wrDuration(s);
  q.lastWrStartFinish = q.wrStartAtSwitchToSrt;
}

/** bfq_bfqq_idle_for_long_time: nothing in flight since ≥ 2 s */
function idleForLongTime(s: BfqState, q: BfqQueue, j: number): boolean {
  return q.dispatched === 0 && q.budgetTimeout + minIdleTime(s) < j;
}

export interface WrArrival {
  interactive: boolean;
  softRt: boolean;
  inBurst: boolean;
  wrOrDeserves: boolean;
}

/** bfq_bfqq_handle_idle_busy_switch's classification of a queue becoming busy: never
 * raised in a large burst; a queue shared by merging only if stably merged */
export function classify(
  s: BfqState,
  q: BfqQueue,
  stablyMerged: boolean,
  ctx: ElevatorContext,
): WrArrival {
  const j = jiffies(ctx);
  const defaultWeight = q.origWeight === 40;
  const inBurst = q.inLargeBurst;
  const softRt =
    BFQ_WR_MAX_SOFTRT_RATE > 0 &&
    !totallySeeky(q) &&
    !inBurst &&
    q.softRtNextStart < j &&
    q.dispatched === 0 &&
    defaultWeight;
  const interactive = !inBurst && idleForLongTime(s, q, j) && defaultWeight;
  const own = q.bic >= 0 || stablyMerged;
  const wrOrDeserves =
    s.t.lowLatency && (q.wrCoeff > 1 || (q.sync && own && (interactive || softRt)));
  return { interactive, softRt, inBurst, wrOrDeserves };
}

/** bfq_bfqq_idle_for_long_time, exported for the burst-list clean-up */
export const idleLong = (s: BfqState, q: BfqQueue, j: number) => idleForLongTime(s, q, j);

/** bfq_update_bfqq_wr_on_rq_arrival */
export function wrOnArrival(
  s: BfqState,
  q: BfqQueue,
  oldWr: number,
  a: WrArrival,
  ctx: ElevatorContext,
) {
  const j = jiffies(ctx);
  if (oldWr === 1 && a.wrOrDeserves) {
    if (a.interactive) {
      q.serviceFromWr = 0;
      q.wrCoeff = BFQ_WR_COEFF;
      q.wrCurMaxTime = wrDuration(s);
    } else {
      q.wrStartAtSwitchToSrt = -Infinity;
      q.wrCoeff = BFQ_WR_COEFF * BFQ_SOFTRT_WEIGHT_FACTOR;
      q.wrCurMaxTime = rtMaxTime(s);
    }
    // a budget close to the backlog: low latency over throughput
    q.budget = Math.min(q.budget, 2 * bfqMinBudget(s));
  } else if (oldWr > 1) {
    if (a.interactive) {
      q.wrCoeff = BFQ_WR_COEFF;
      q.wrCurMaxTime = wrDuration(s);
    } else if (a.inBurst) q.wrCoeff = 1;
    else if (a.softRt) {
      if (q.wrCurMaxTime !== rtMaxTime(s)) {
        q.wrStartAtSwitchToSrt = q.lastWrStartFinish;
        q.wrCurMaxTime = rtMaxTime(s);
        q.wrCoeff = BFQ_WR_COEFF * BFQ_SOFTRT_WEIGHT_FACTOR;
      }
      q.lastWrStartFinish = j;
    }
  }
  if (oldWr !== q.wrCoeff) q.prioChanged = true;
}

/** bfq_update_wr_data (at each dispatch of the in-service queue): raising ends when its
 * time is up (soft real-time going back to interactive if that period lasts), or after
 * max_service_from_wr sectors of interactive raising; the weight follows at once. */
export function updateWrData(s: BfqState, q: BfqQueue, ctx: ElevatorContext): void {
  const j = jiffies(ctx);
  if (q.wrCoeff > 1) {
    if (q.inLargeBurst) endWr(s, q, ctx);
    else if (q.lastWrStartFinish + q.wrCurMaxTime < j) {
      if (q.wrCurMaxTime !== rtMaxTime(s) || q.wrStartAtSwitchToSrt + wrDuration(s) < j)
        endWr(s, q, ctx);
      else {
        backToInteractive(s, q);
        q.prioChanged = true;
      }
    }
    if (
      q.wrCoeff > 1 &&
      q.wrCurMaxTime !== rtMaxTime(s) &&
      q.serviceFromWr > BFQ_MAX_SERVICE_FROM_WR
    )
      endWr(s, q, ctx);
  }
  if (q.weight > q.origWeight !== q.wrCoeff > 1) updateWeightPrio(s, q);
}

/** bfq_update_io_seektime's end: a soft real-time queue gone totally seeky loses it. */
export function seekyEndsSoftRt(s: BfqState, q: BfqQueue, ctx: ElevatorContext): void {
  if (q.wrCoeff > 1 && q.wrCurMaxTime === rtMaxTime(s) && totallySeeky(q)) {
    if (q.wrStartAtSwitchToSrt + wrDuration(s) < jiffies(ctx)) endWr(s, q, ctx);
    else {
      backToInteractive(s, q);
      q.prioChanged = true;
    }
  }
}

/** bfq_bfqq_softrt_next_start: when its next request may come to be deemed soft RT */
export function softrtNextStart(s: BfqState, q: BfqQueue, ctx: ElevatorContext): number {
  return Math.max(
    q.softRtNextStart,
    q.lastIdleBklogged + Math.floor((s.hz * q.serviceFromBacklogged) / BFQ_WR_MAX_SOFTRT_RATE),
    jiffies(ctx) + Math.floor((s.t.sliceIdleNs * s.hz) / 1e9) + 4, // nsecs_to_jiffies
  );
}
