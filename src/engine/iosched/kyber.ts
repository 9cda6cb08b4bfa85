// Kyber as Linux 6.18 has it (block/kyber-iosched.c; docs/iosched/kyber.md): no sorting
// and no per-process queues, only throttling. Requests are split into domains by
// operation (read, write, discard, other); each domain may have at most its token depth
// of requests on the device, and a request takes its domain's token at dispatch and
// gives it back when it finishes. Completions feed per-domain latency histograms (total:
// from allocation; I/O: from the device start); a timer 100 ms after a completion sums
// them and scales the depths — down for domains meeting their target while any domain's
// I/O latency shows congestion, up for a domain missing its target. Dispatch takes
// batches from one domain at a time, round robin.
//
// One software queue: Spindle has no CPUs, so every process submits into one kcq (the
// kernel has one per CPU, flushed in CPU order). Token counts stand for the sbitmap's
// bits: a domain has a token free while fewer than its depth are held (a shrunk domain's
// high bits stay held until freed, as sbitmap_queue_resize leaves them).
import { jiffiesNow, jiffyNs } from './common';
import { explainDispatch, explainRefusal, explainAdjust } from './kyber-explain';
import {
  DISCARD_LAT_NSEC,
  KYBER_ASYNC_PERCENT,
  KYBER_BATCH_SIZE,
  KYBER_DEPTH,
  KYBER_GOOD_BUCKETS,
  KYBER_IO_LATENCY,
  KYBER_LATENCY_BUCKETS,
  KYBER_LATENCY_SHIFT,
  KYBER_MIN_SAMPLES,
  KYBER_NUM_DOMAINS,
  KYBER_OTHER,
  KYBER_READ,
  KYBER_TOTAL_LATENCY,
  KYBER_TUNABLES,
  KYBER_WRITE,
  kyberTunable,
} from './kyber-tunables';
import { kyberView } from './kyber-view';
import type { Bio, ElevatorContext, ElevatorType } from './types';
import type { IoRequest } from '../request';
import { percentileBucket, type Histograms, type KyberState } from './kyber-state';

export {
  KYBER_RULES,
  percentileBucket,
  type Adjustment,
  type Histograms,
  type KyberRule,
  type KyberState,
} from './kyber-state';

const histograms = (): Histograms =>
  Array.from({ length: KYBER_OTHER }, () =>
    Array.from({ length: 2 }, () => new Array<number>(KYBER_LATENCY_BUCKETS).fill(0)),
  );

/** kyber_sched_domain: by operation. Spindle's requests are reads and writes. */
export function domainOf(rq: { write: boolean }): number {
  return rq.write ? KYBER_WRITE : KYBER_READ;
}

/** add_latency_sample: the bucket for a latency, in quarters of the target. */
export function latencyBucket(target: number, latencyNs: number): number {
  if (latencyNs <= 0) return 0;
  const divisor = Math.max(Math.floor(target / 2 ** KYBER_LATENCY_SHIFT), 1);
  return Math.min(Math.floor((latencyNs - 1) / divisor), KYBER_LATENCY_BUCKETS - 1);
}

/**
 * calculate_percentile: the bucket of the percentile, or −1 until there are 500 samples or
 * a second has passed since the first (latency_timeout, shared by both types of the
 * domain); a result clears that histogram.
 */
export function calculatePercentile(
  s: KyberState,
  d: number,
  type: number,
  percentile: number,
  nowJ: number,
): number {
  const buckets = s.buckets[d]![type]!;
  const samples = buckets.reduce((a, b) => a + b, 0);
  if (samples === 0) return -1;
  if (s.latencyTimeoutJ[d] === 0) s.latencyTimeoutJ[d] = Math.max(nowJ + s.hz, 1);
  if (samples < KYBER_MIN_SAMPLES && s.latencyTimeoutJ[d]! > nowJ) return -1;
  s.latencyTimeoutJ[d] = 0;
  const b = percentileBucket(buckets, percentile);
  buckets.fill(0);
  return b;
}

/** kyber_resize_domain: clamp to 1 … kyber_depth; the held tokens stay held. */
function resizeDomain(s: KyberState, d: number, depth: number): void {
  s.depth[d] = Math.min(Math.max(depth, 1), KYBER_DEPTH[d]!);
}

/** kyber_timer_fn: sum the histograms, look for congestion, scale the depths. */
function timerFn(s: KyberState, ctx: ElevatorContext): void {
  const nowJ = jiffiesNow(ctx);
  s.timerJ = -1;
  for (let d = 0; d < KYBER_OTHER; d++)
    for (let t = 0; t < 2; t++) {
      const into = s.buckets[d]![t]!;
      const from = s.cpuBuckets[d]![t]!;
      for (let b = 0; b < KYBER_LATENCY_BUCKETS; b++) {
        into[b]! += from[b]!;
        from[b] = 0;
      }
    }
  // congestion: any domain's I/O-latency p90 beyond its target
  const p90s: number[] = [];
  let bad = false;
  for (let d = 0; d < KYBER_OTHER; d++) {
    const p90 = calculatePercentile(s, d, KYBER_IO_LATENCY, 90, nowJ);
    p90s.push(p90);
    if (p90 >= KYBER_GOOD_BUCKETS) bad = true;
  }
  for (let d = 0; d < KYBER_OTHER; d++) {
    let p99 = calculatePercentile(s, d, KYBER_TOTAL_LATENCY, 99, nowJ);
    // a p99 from an earlier window is kept for the next congested one, then used once
    if (bad) {
      if (p99 < 0) p99 = s.domainP99[d]!;
      s.domainP99[d] = -1;
    } else if (p99 >= 0) {
      s.domainP99[d] = p99;
    }
    if (p99 < 0) continue;
    // scale linearly with p99 against the target: 3/4 of it → 3/4 of the depth
    if (bad || p99 >= KYBER_GOOD_BUCKETS) {
      const from = s.depth[d]!;
      resizeDomain(s, d, (from * (p99 + 1)) >> KYBER_LATENCY_SHIFT);
      const adj = { jiffy: nowJ, p90: p90s[d]!, p99, from, to: s.depth[d]! };
      s.lastAdjust[d] = adj;
      // trace_kyber_adjust fires only on a change
      if (ctx.recording && adj.to !== from) explainAdjust(s, d, adj, ctx);
    }
  }
}

/** kyber_get_domain_token: a token of the current domain, if one is free. */
function getToken(s: KyberState): boolean {
  const d = s.curDomain;
  if (s.used[d]! >= s.depth[d]!) return false;
  s.used[d]!++;
  return true;
}

/**
 * kyber_dispatch_cur_domain: a flushed request takes a token; with none flushed, the
 * software queue is flushed into khd->rqs only if a token is free (else its requests stay
 * where bios can still merge into them). −1: no request or no token.
 */
function dispatchCurDomain(s: KyberState, ctx: ElevatorContext): number {
  const d = s.curDomain;
  const rqs = s.rqs[d]!;
  if (rqs.length === 0) {
    const kcq = s.kcq[d]!;
    if (kcq.length === 0) return -1;
    if (!getToken(s)) {
      s.throttled[d]!++;
      return -1;
    }
    for (const slot of kcq) rqs.push(slot); // kyber_flush_busy_kcqs
    kcq.length = 0;
  } else if (!getToken(s)) {
    s.throttled[d]!++;
    return -1;
  }
  s.batching++;
  const slot = rqs.shift()!;
  ctx.rq(slot).sched = d; // rq_set_domain_token
  return slot;
}

/** kyber_dispatch_request: go on with the batch, else the next domains in turn. */
function dispatch(s: KyberState, ctx: ElevatorContext): number {
  const from = s.curDomain;
  const batchBefore = s.batching;
  if (s.batching < KYBER_BATCH_SIZE[s.curDomain]!) {
    const slot = dispatchCurDomain(s, ctx);
    if (slot >= 0) {
      if (ctx.recording) explainDispatch(s, slot, 'continue-batch', from, batchBefore, ctx);
      return slot;
    }
  }
  s.batching = 0;
  for (let i = 0; i < KYBER_NUM_DOMAINS; i++) {
    s.curDomain = s.curDomain === KYBER_NUM_DOMAINS - 1 ? 0 : s.curDomain + 1;
    const slot = dispatchCurDomain(s, ctx);
    if (slot >= 0) {
      if (ctx.recording) explainDispatch(s, slot, 'new-batch', from, batchBefore, ctx);
      return slot;
    }
  }
  if (ctx.recording) explainRefusal(s, ctx);
  return -1;
}

/** kyber_completed_request: a latency sample of each type, and the timer 100 ms on. */
function completed(s: KyberState, rq: IoRequest, ctx: ElevatorContext): void {
  const d = domainOf(rq);
  if (d === KYBER_OTHER) return;
  const target = s.targets[d]!;
  const h = s.cpuBuckets[d]!;
  h[KYBER_TOTAL_LATENCY]![latencyBucket(target, ctx.now - s.startNs[rq.slot]!)]!++;
  h[KYBER_IO_LATENCY]![latencyBucket(target, ctx.now - s.ioStartNs[rq.slot]!)]!++;
  // timer_reduce(jiffies + HZ / 10): a pending timer is always the earlier one
  if (s.timerJ < 0) {
    s.timerJ = jiffiesNow(ctx) + Math.floor(ctx.hz / 10);
    ctx.setTimer(jiffyNs(s.timerJ, ctx.hz));
  }
}

export const kyber: ElevatorType<KyberState> = {
  name: 'kyber',
  title: 'kyber (Linux 6.x) — per-domain tokens scaled against read and write latency targets',
  tunables: KYBER_TUNABLES,
  dispatchInsert: 'append',
  // kyber_timer_fn only resizes the domains; it does not run the queue
  timerRunsQueue: false,

  // kyber_limit_depth: async requests (!op_is_sync: writes no one waits for) get the
  // shallow depth; reads and sync writes may take every tag
  limitDepth: (s, bio: Bio) => (bio.write && !bio.sync ? s.asyncDepth : Infinity),
  // kyber_depth_updated (6.18): 75% of nr_requests, also the pool's min shallow depth
  depthUpdated(s, nrRequests) {
    s.asyncDepth = Math.floor((nrRequests * KYBER_ASYNC_PERCENT) / 100);
    return s.asyncDepth;
  },

  init(t, ctx) {
    const s: KyberState = {
      depth: [...KYBER_DEPTH],
      used: [0, 0, 0, 0],
      asyncDepth: Infinity,
      kcq: [[], [], [], []],
      rqs: [[], [], [], []],
      curDomain: 0,
      batching: 0,
      cpuBuckets: histograms(),
      buckets: histograms(),
      latencyTimeoutJ: [0, 0, 0],
      domainP99: [-1, -1, -1],
      targets: [
        kyberTunable(t, 'read_lat_nsec'),
        kyberTunable(t, 'write_lat_nsec'),
        DISCARD_LAT_NSEC,
      ],
      timerJ: -1,
      startNs: [],
      ioStartNs: [],
      lastAdjust: [null, null, null],
      throttled: [0, 0, 0, 0],
      hz: ctx.hz,
    };
    return s;
  },

  // kyber_prepare_request: no token yet; blk_mq_rq_ctx_init stamps start_time_ns
  setRequest(s, rq, _bio, ctx) {
    rq.sched = -1;
    s.startNs[rq.slot] = ctx.now;
  },

  // kyber_insert_requests: at the tail of its domain's list in the software queue
  add(s, rq) {
    s.kcq[domainOf(rq)]!.push(rq.slot);
  },
  // … and with BLK_MQ_INSERT_AT_HEAD at its head (list_move): first of the domain's next
  // batch, still behind a token of its domain
  addHead(s, rq) {
    s.kcq[domainOf(rq)]!.unshift(rq.slot);
  },

  // kyber_bio_merge → blk_bio_list_merge over the bio's domain list in the software queue
  bioMergeList: (s, bio) => s.kcq[bio.write ? KYBER_WRITE : KYBER_READ]!,
  // blk_rq_merge_ok (5.x on): a bio joins only a request of its own I/O priority
  allowMerge: (_s, rq, bio) =>
    rq.ioprioClass === bio.ioprioClass && rq.ioprioLevel === bio.ioprioLevel,

  dispatch: (s, _force, ctx) => dispatch(s, ctx),

  // blk_mq_start_request: io_start_time_ns (again after a refused command is retried)
  activate(s, rq, ctx) {
    s.ioStartNs[rq.slot] = ctx.now;
  },

  completed,

  // kyber_finish_request → rq_clear_domain_token: the token goes back
  putRequest(s, rq) {
    if (rq.sched >= 0) s.used[rq.sched]!--;
    rq.sched = -1;
  },

  timer: timerFn,

  queued: (s) => {
    let n = 0;
    for (let d = 0; d < KYBER_NUM_DOMAINS; d++) n += s.kcq[d]!.length + s.rqs[d]!.length;
    return n;
  },

  inspect: (s, ctx) => kyberView(s, ctx),
};
