// Kyber's sysfs attributes (kyber_sched_attrs: read_lat_nsec, write_lat_nsec) and the
// constants of block/kyber-iosched.c that are not tunable: the domains, their token
// depths, batch sizes and the discard target, the async share of the tags and the
// histogram's shape. docs/iosched/kyber.md lists the same table.
import type { TunableSpec } from './types';

/** The scheduling domains (kyber_sched_domain: by the request's operation). */
export const KYBER_READ = 0;
export const KYBER_WRITE = 1;
export const KYBER_DISCARD = 2;
export const KYBER_OTHER = 3;
export const KYBER_NUM_DOMAINS = 4;
export const DOMAIN_NAMES = ['READ', 'WRITE', 'DISCARD', 'OTHER'] as const;

/** kyber_depth: each domain's most tokens (requests on the device), device-wide */
export const KYBER_DEPTH = [256, 128, 64, 16] as const;
/** kyber_batch_size: requests of one domain dispatched in a row */
export const KYBER_BATCH_SIZE = [16, 8, 1, 1] as const;
/** kyber_latency_targets[KYBER_DISCARD]: 5 s, not a sysfs attribute */
export const DISCARD_LAT_NSEC = 5_000_000_000;
/** KYBER_ASYNC_PERCENT: async requests may hold this share of the scheduler tags */
export const KYBER_ASYNC_PERCENT = 75;
/** KYBER_LATENCY_SHIFT: a histogram bucket is target >> 2 wide */
export const KYBER_LATENCY_SHIFT = 2;
/** KYBER_GOOD_BUCKETS: the first four buckets are at or under the target */
export const KYBER_GOOD_BUCKETS = 1 << KYBER_LATENCY_SHIFT;
/** KYBER_LATENCY_BUCKETS: four more for 1¼ … over 1¾ × the target */
export const KYBER_LATENCY_BUCKETS = 2 << KYBER_LATENCY_SHIFT;
/** the histogram types: total (from allocation) and I/O (from the device start) */
export const KYBER_TOTAL_LATENCY = 0;
export const KYBER_IO_LATENCY = 1;
/** calculate_percentile waits for this many samples, or one second (HZ jiffies) */
export const KYBER_MIN_SAMPLES = 500;

// kstrtoull takes any u64; a JavaScript number is exact up to 2^53 − 1
const U64_MAX_EXACT = Number.MAX_SAFE_INTEGER;

export const KYBER_TUNABLES: readonly TunableSpec[] = [
  {
    name: 'read_lat_nsec',
    default: 2_000_000,
    unit: 'ns',
    min: 0,
    max: U64_MAX_EXACT,
    doc: 'The latency target for reads: a window whose read p99 (from allocation to completion) is over it makes Kyber give reads more tokens; congestion elsewhere takes tokens from reads while they meet it.',
  },
  {
    name: 'write_lat_nsec',
    default: 10_000_000,
    unit: 'ns',
    min: 0,
    max: U64_MAX_EXACT,
    doc: 'The latency target for writes, used as read_lat_nsec is for reads.',
  },
];

export const kyberTunable = (values: Record<string, number>, name: string): number =>
  Math.floor(values[name] ?? KYBER_TUNABLES.find((t) => t.name === name)!.default);
