// BFQ's sysfs attributes (bfq_attrs in block/bfq-iosched.c, 6.x) and the constants of
// bfq-iosched.c / bfq-iosched.h / bfq-wf2q.c that are not tunable. docs/iosched/bfq.md
// lists the same table. Times arrive as sysfs writes them (ms or µs) and are kept in ns,
// or in jiffies for timeout_sync.
import type { TunableSpec } from './types';

const INT_MAX = 2147483647;

/** jiffies_to_msecs(HZ / 8): what timeout_sync shows by default at this HZ */
export const timeoutSyncDefaultMs = (hz: number) => (Math.floor(hz / 8) * 1000) / hz;

export const BFQ_TUNABLES: readonly TunableSpec[] = [
  {
    name: 'fifo_expire_sync',
    default: 125,
    unit: 'ms',
    min: 1,
    max: INT_MAX,
    doc: 'A sync request waiting longer than this is served next when its queue is in service (checked once per service slot).',
  },
  {
    name: 'fifo_expire_async',
    default: 250,
    unit: 'ms',
    min: 1,
    max: INT_MAX,
    doc: 'The same deadline for async requests.',
  },
  {
    name: 'back_seek_max',
    default: 16384,
    unit: 'KiB',
    min: 0,
    max: INT_MAX,
    doc: 'How far behind the head a request may be and still be chosen as the next one of its queue.',
  },
  {
    name: 'back_seek_penalty',
    default: 2,
    unit: 'count',
    min: 1,
    max: INT_MAX,
    doc: 'A backward seek counts this many times its distance when the next request of a queue is chosen.',
  },
  {
    name: 'slice_idle',
    default: 8,
    unit: 'ms',
    min: 0,
    max: INT_MAX,
    doc: 'How long the device is idled for the in-service sync queue once it is empty (0: never). slice_idle_us is the same value in µs.',
  },
  {
    name: 'slice_idle_us',
    default: 8000,
    unit: 'us',
    min: 0,
    max: INT_MAX,
    doc: 'slice_idle in µs; when it differs from its default it is the one used.',
  },
  {
    name: 'max_budget',
    default: 0,
    unit: 'sectors',
    min: 0,
    max: INT_MAX,
    doc: 'The most sectors a queue may be served in one turn; 0: automatic (16384 until the peak rate is known).',
  },
  {
    name: 'timeout_sync',
    default: 124,
    defaultForHz: timeoutSyncDefaultMs,
    unit: 'ms',
    min: 1,
    max: INT_MAX,
    doc: 'A queue in service longer than this (HZ/8 by default) expires for budget timeout; a slow one is charged its time, not its sectors.',
  },
  {
    name: 'strict_guarantees',
    default: 0,
    unit: 'bool',
    min: 0,
    max: 1,
    doc: '1: always idle for an empty sync queue and keep one request at a time on the device (guarantees over throughput); raises slice_idle to 8 ms if lower.',
  },
  {
    name: 'low_latency',
    default: 1,
    unit: 'bool',
    min: 0,
    max: 1,
    doc: 'Raise the weight of queues deemed interactive or soft real-time (weight raising).',
  },
];

export const bfqTunable = (values: Record<string, number>, name: string): number => {
  const spec = BFQ_TUNABLES.find((t) => t.name === name)!;
  return Math.floor(values[name] ?? spec.default);
};

// ── constants (not sysfs) ──
/** bfq_default_max_budget, sectors */
export const BFQ_DEFAULT_MAX_BUDGET = 16 * 1024;
/** bfq_stats_min_budgets: budgets assigned before the statistics count */
export const BFQ_STATS_MIN_BUDGETS = 194;
/** bfq_async_charge_factor: an async request is charged 3 × its sectors */
export const BFQ_ASYNC_CHARGE_FACTOR = 3;
/** BFQ_MIN_TT: a think time under 2 ms is immediate; a seeky queue idles at most this */
export const BFQ_MIN_TT_NS = 2_000_000;
/** BFQ_HW_QUEUE_THRESHOLD, BFQ_HW_QUEUE_SAMPLES: hw_tag detection */
export const BFQ_HW_QUEUE_THRESHOLD = 3;
export const BFQ_HW_QUEUE_SAMPLES = 32;
/** BFQQ_SEEK_THR (sectors), BFQQ_SECT_THR_NONROT; BFQQ_SEEKY: > 19 of the last 32 seeky */
export const BFQQ_SEEK_THR = 8 * 100;
export const BFQQ_SECT_THR_NONROT = 2 * 32;
export const BFQQ_SEEKY_COUNT = 19;
/** WFQ_SERVICE_SHIFT: virtual time is service << 22 / weight */
export const WFQ_SERVICE_SHIFT = 22;
/** IOPRIO_NR_LEVELS, BFQ_WEIGHT_CONVERSION_COEFF: weight = (8 − level) × 10 */
export const IOPRIO_NR_LEVELS = 8;
export const BFQ_WEIGHT_CONVERSION_COEFF = 10;
/** bfq_sample_valid: more than 80 think-time samples */
export const BFQ_TTIME_VALID_SAMPLES = 80;
/** the wait_request small-request rule in bfq_rq_enqueued: under 32 sectors */
export const BFQ_SMALL_REQ_SECTORS = 32;
// weight raising (bfq_init_queue's defaults)
/** bfq_wr_coeff; BFQ_SOFTRT_WEIGHT_FACTOR */
export const BFQ_WR_COEFF = 30;
export const BFQ_SOFTRT_WEIGHT_FACTOR = 100;
/** bfq_wr_rt_max_time 300 ms, bfq_wr_min_idle_time 2 s, bfq_wr_min_inter_arr_async 500 ms */
export const BFQ_WR_RT_MAX_TIME_MS = 300;
export const BFQ_WR_MIN_IDLE_TIME_MS = 2000;
export const BFQ_WR_MIN_INTER_ARR_ASYNC_MS = 500;
/** bfq_wr_max_softrt_rate, sectors per second */
export const BFQ_WR_MAX_SOFTRT_RATE = 7000;
/** max_service_from_wr: interactive raising ends after this many sectors */
export const BFQ_MAX_SERVICE_FROM_WR = 120000;
/** ref_rate (sectors/µs << 16) and ref_wr_duration (ms; "actually 8 s / 3 s" with the
 * initial peak rate, 2/3 of ref_rate), [rotational, non-rotational] */
export const BFQ_REF_RATE = [14000, 33000] as const;
export const BFQ_REF_WR_DURATION_MS = [7000, 2500] as const;
/** BFQ_RATE_SHIFT */
export const BFQ_RATE_SHIFT = 16;
// the peak-rate estimator (bfq_update_peak_rate)
/** BFQ_RATE_MIN_SAMPLES, BFQ_RATE_MIN_INTERVAL (ns), BFQ_RATE_REF_INTERVAL (ns) */
export const BFQ_RATE_MIN_SAMPLES = 32;
export const BFQ_RATE_MIN_INTERVAL_NS = 300_000_000;
export const BFQ_RATE_REF_INTERVAL_NS = 1_000_000_000;
/** a dispatch after 100 ms with nothing in flight closes the observation interval */
export const BFQ_RATE_IDLE_NS = 100_000_000;
// queue merging (bfq_setup_cooperator) and bursts (bfq_handle_burst)
/** BFQQ_CLOSE_THR: a request within 8192 sectors of another queue's next one is close */
export const BFQQ_CLOSE_THR = 8 * 1024;
/** bfq_merge_time_limit: HZ/10 after its first service a queue can no longer merge */
export const bfqMergeTimeLimitJ = (hz: number) => Math.floor(hz / 10);
/** bfq_activation_stable_merging, bfq_late_stable_merging (ms) */
export const BFQ_ACTIVATION_STABLE_MERGING_MS = 600;
export const BFQ_LATE_STABLE_MERGING_MS = 600;
/** bfq_large_burst_thresh, bfq_burst_interval (ms) */
export const BFQ_LARGE_BURST_THRESH = 8;
export const BFQ_BURST_INTERVAL_MS = 180;
