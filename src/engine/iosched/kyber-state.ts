// Kyber's state and the names of its rules, apart from its policy so the decision texts
// (kyber-explain.ts) and the inspection view (kyber-view.ts) can read them without importing it.
import { KYBER_LATENCY_BUCKETS } from './kyber-tunables';

/** Why a request left, why none did, or why a depth changed. */
export type KyberRule =
  /** the current domain is still entitled to its batch and had a request and a token */
  | 'continue-batch'
  /** the batch was used up, or its domain had no request or no token: the next domain */
  | 'new-batch'
  /** a refusal: every domain with requests is out of tokens (trace_kyber_throttled) */
  | 'throttled'
  /** kyber_timer_fn: congestion (some domain's I/O p90 over its target) → a domain meeting
   * its target gets fewer tokens */
  | 'scale-down'
  /** kyber_timer_fn: the domain's total p99 is over its target → more tokens */
  | 'scale-up';

export const KYBER_RULES: readonly KyberRule[] = [
  'continue-batch',
  'new-batch',
  'throttled',
  'scale-down',
  'scale-up',
];

/** [domain < OTHER][type][bucket] */
export type Histograms = number[][][];

/** What the last timer run did to one domain (for the inspection view). */
export interface Adjustment {
  jiffy: number;
  p90: number;
  p99: number;
  from: number;
  to: number;
}

export interface KyberState {
  /** domain_tokens: each domain's depth (sb.depth) and the tokens held */
  depth: number[];
  used: number[];
  /** kqd->async_depth: the scheduler tags an async request may hold */
  asyncDepth: number;
  /** the software queue's per-domain lists (kcq->rq_list; non-empty = its kcq_map bit) */
  kcq: number[][];
  /** khd->rqs: requests flushed from the software queue, waiting for a token */
  rqs: number[][];
  curDomain: number;
  batching: number;
  /** the per-CPU histograms (one CPU here) and kqd->latency_buckets they are summed into */
  cpuBuckets: Histograms;
  buckets: Histograms;
  /** kqd->latency_timeout per domain, jiffies; 0 = unset */
  latencyTimeoutJ: number[];
  /** kqd->domain_p99: a bucket remembered for the next congested window, −1 = none */
  domainP99: number[];
  /** kqd->latency_targets, ns: read and write from sysfs, discard 5 s */
  targets: number[];
  /** the jiffy the timer is pending for, −1 if not */
  timerJ: number;
  /** rq->start_time_ns (allocation) and rq->io_start_time_ns (device start), by slot */
  startNs: number[];
  ioStartNs: number[];
  /** the last scaling of each domain, and the dispatch refusals per domain */
  lastAdjust: Array<Adjustment | null>;
  throttled: number[];
  /** the kernel's HZ (calculate_percentile waits up to HZ jiffies) */
  hz: number;
}

/** The bucket holding the given percentile of a histogram, without the kernel's
 * side effects (the inspection view; calculate_percentile's last loop). −1 if empty. */
export function percentileBucket(buckets: readonly number[], percentile: number): number {
  const samples = buckets.reduce((a, b) => a + b, 0);
  if (samples === 0) return -1;
  let rank = Math.ceil((samples * percentile) / 100);
  let b = 0;
  for (; b < KYBER_LATENCY_BUCKETS - 1; b++) {
    if (buckets[b]! >= rank) break;
    rank -= buckets[b]!;
  }
  return b;
}
