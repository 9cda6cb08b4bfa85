// mq-deadline's sysfs attributes (deadline_attrs), declared once: names, Linux defaults,
// units and the store functions' limits. docs/iosched/mq-deadline.md lists the same table.
import type { TunableSpec } from './types';

const INT_MAX = 2147483647;
const INT_MIN = -2147483648;

/** The sysfs attributes (deadline_attrs) with mq-deadline's defaults and store limits. */
export const MQ_DEADLINE_TUNABLES: readonly TunableSpec[] = [
  {
    name: 'read_expire',
    default: 500,
    unit: 'ms',
    min: 0,
    max: INT_MAX,
    doc: "A read's deadline after it is inserted, kept in jiffies; looked at only when a batch starts.",
  },
  {
    name: 'write_expire',
    default: 5000,
    unit: 'ms',
    min: 0,
    max: INT_MAX,
    doc: "A write's deadline after it is inserted, kept in jiffies (a soft limit).",
  },
  {
    name: 'fifo_batch',
    default: 16,
    unit: 'requests',
    min: 0,
    max: INT_MAX,
    doc: 'Requests in one batch (one direction, ascending sectors) before direction and deadlines are looked at again.',
  },
  {
    name: 'writes_starved',
    default: 2,
    unit: 'count',
    min: INT_MIN,
    max: INT_MAX,
    doc: 'How many new batches in a row may choose reads while writes wait; the next one takes writes.',
  },
  {
    name: 'front_merges',
    default: 1,
    unit: 'bool',
    min: 0,
    max: 1,
    doc: "Look in the bio's class and direction sort list for a request it can join at the front.",
  },
  {
    name: 'prio_aging_expire',
    default: 10000,
    unit: 'ms',
    min: 0,
    max: INT_MAX,
    doc: 'A BE or IDLE request inserted this long ago is served before higher classes (when two or more classes are busy).',
  },
];

/** STORE_FUNCTION: an integer (kstrtoint), clamped to the attribute's limits. */
export function tunable(values: Record<string, number>, name: string): number {
  const spec = MQ_DEADLINE_TUNABLES.find((t) => t.name === name)!;
  const v = values[name];
  const n = v === undefined || !Number.isFinite(v) ? spec.default : Math.trunc(v);
  return Math.min(spec.max, Math.max(spec.min, n));
}
