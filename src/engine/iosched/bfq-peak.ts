// BFQ's peak-rate estimator (block/bfq-iosched.c: bfq_update_peak_rate,
// bfq_update_rate_reset, bfq_reset_rate_computation) and what it tunes: with max_budget
// 0 (automatic), bfq_max_budget becomes what the device transfers at the peak rate in one
// timeout_sync (bfq_calc_max_budget), and the interactive raising lasts rate_dur_prod /
// peak_rate (bfq_wr_duration). The rate is sampled on dispatches, over observation
// intervals of about 1 s; a mostly sequential interval (or a faster one) moves the
// estimate through a low-pass filter weighted by how sequential and how long it was.
import { BFQ_MIN_TT_NS, BFQ_RATE_SHIFT } from './bfq-tunables';
import {
  BFQ_RATE_IDLE_NS,
  BFQ_RATE_MIN_INTERVAL_NS,
  BFQ_RATE_MIN_SAMPLES,
  BFQ_RATE_REF_INTERVAL_NS,
} from './bfq-tunables';
import { rqSeeky } from './bfq-queue';
import type { BfqState } from './bfq-types';
import type { ElevatorContext } from './types';
import type { IoRequest } from '../request';

/** bfq_calc_max_budget: sectors served at the peak rate in one timeout_sync */
export function calcMaxBudget(s: BfqState): number {
  const timeoutMs = Math.floor((s.t.timeoutJ * 1000) / s.hz); // jiffies_to_msecs
  return Math.floor((s.peakRate * 1000 * timeoutMs) / 2 ** BFQ_RATE_SHIFT);
}

/** bfq_reset_rate_computation: a new interval starts at this dispatch (or at the next) */
export function resetRateComputation(s: BfqState, rq: IoRequest | null, now: number): void {
  if (rq) {
    s.lastDispatchNs = s.firstDispatchNs = now;
    s.peakRateSamples = 1;
    s.sequentialSamples = 0;
    s.totSectorsDispatched = s.lastRqMaxSize = rq.nSectors;
  } else s.peakRateSamples = 0;
}

/** bfq_update_rate_reset: close the interval; with ≥ 32 samples over ≥ 300 ms, a rate
 * that is sequential enough (or higher) moves the peak rate; then start afresh. */
export function updateRateReset(s: BfqState, rq: IoRequest | null, now: number): void {
  if (s.peakRateSamples >= BFQ_RATE_MIN_SAMPLES && s.deltaFromFirstNs >= BFQ_RATE_MIN_INTERVAL_NS) {
    // a completion after the last dispatch extends the interval to it
    s.deltaFromFirstNs = Math.max(s.deltaFromFirstNs, s.lastCompletionNs - s.firstDispatchNs);
    const us = Math.floor(s.deltaFromFirstNs / 1000);
    let rate = Math.floor((s.totSectorsDispatched * 2 ** BFQ_RATE_SHIFT) / us);
    const sequential = s.sequentialSamples >= (3 * s.peakRateSamples) >> 2;
    if ((sequential || rate > s.peakRate) && rate <= 20 * 2 ** BFQ_RATE_SHIFT) {
      // the weight of the new sample: 0 … 8, from how sequential and how long
      let weight = Math.floor((9 * s.sequentialSamples) / s.peakRateSamples);
      weight = Math.min(8, Math.floor((weight * s.deltaFromFirstNs) / BFQ_RATE_REF_INTERVAL_NS));
      const divisor = 10 - weight;
      s.peakRate = Math.floor((s.peakRate * (divisor - 1)) / divisor);
      rate = Math.floor(rate / divisor);
      s.peakRate = Math.max(1, s.peakRate + rate);
      s.peakRateUpdates++;
      // update_thr_responsiveness_params
      if (s.t.userMaxBudget === 0) s.maxBudget = calcMaxBudget(s);
    }
  }
  resetRateComputation(s, rq, now);
}

/** bfq_update_peak_rate, on every dispatch (before it counts as in the driver); it also
 * records where the head goes (last_position, in_serv_last_pos). */
export function updatePeakRate(
  s: BfqState,
  rq: IoRequest,
  inService: boolean,
  ctx: ElevatorContext,
): void {
  const now = ctx.now;
  if (s.peakRateSamples === 0) resetRateComputation(s, rq, now);
  else if (now - s.lastDispatchNs > BFQ_RATE_IDLE_NS && s.rqInDriver === 0)
    updateRateReset(s, rq, now); // the device idled for long: this interval is over
  else {
    s.peakRateSamples++;
    const close = s.rqInDriver > 0 || now - s.lastCompletionNs < BFQ_MIN_TT_NS;
    if (close && !rqSeeky(s, s.lastPosition, rq)) s.sequentialSamples++;
    s.totSectorsDispatched += rq.nSectors;
    // the largest request of the last 32 dispatches
    if (s.peakRateSamples % 32) s.lastRqMaxSize = Math.max(rq.nSectors, s.lastRqMaxSize);
    else s.lastRqMaxSize = rq.nSectors;
    s.deltaFromFirstNs = now - s.firstDispatchNs;
    if (s.deltaFromFirstNs >= BFQ_RATE_REF_INTERVAL_NS) updateRateReset(s, rq, now);
  }
  s.lastPosition = rq.sector + rq.nSectors;
  if (inService) s.inServLastPos = s.lastPosition;
  s.lastDispatchNs = now;
}

/** bfq_completed_request's check: a completion so late that the largest recent request
 * was served under 1M sectors/s ends the interval; then last_completion moves on. */
export function rateOnCompletion(s: BfqState, now: number): void {
  const deltaUs = Math.floor((now - s.lastCompletionNs) / 1000);
  if (
    deltaUs > BFQ_MIN_TT_NS / 1000 &&
    (s.lastRqMaxSize * 2 ** BFQ_RATE_SHIFT) / deltaUs < 2 ** (BFQ_RATE_SHIFT - 10)
  )
    updateRateReset(s, null, now);
  s.lastCompletionNs = now;
}
