// mq-deadline's sysfs attributes (deadline_attrs): 2.6 deadline's five, with the same
// defaults and store limits (LINUX-SCHEDULERS.md §9.2), prio_aging_expire and async_depth
// (6.18's; it moves to the queue, queue/async_depth, after 6.18). Times are stored in
// jiffies. docs/iosched/mq-deadline.md lists the same table.
import { DEADLINE_TUNABLES, storeTunable } from './deadline';
import type { TunableSpec } from './types';

export const MQ_DEADLINE_TUNABLES: readonly TunableSpec[] = [
  ...DEADLINE_TUNABLES,
  {
    name: 'prio_aging_expire',
    default: 10000,
    unit: 'ms',
    min: 0,
    max: 2147483647,
    doc: 'A BE or IDLE request inserted this long ago is served before higher classes (when two or more classes are busy).',
  },
  {
    // dd_depth_updated sets it to nr_requests when the scheduler is attached, so by default
    // it limits nothing; a value at or above nr_requests limits nothing either
    name: 'async_depth',
    default: 2147483647,
    unit: 'requests',
    min: 1,
    max: 2147483647,
    doc: 'Kernel 6.18: the most scheduler tags writes and async requests may hold (dd_limit_depth); sync reads may take them all. The kernel starts it at nr_requests: no limit.',
  },
];

export const tunable = (values: Record<string, number>, name: string): number =>
  storeTunable(MQ_DEADLINE_TUNABLES, values, name);
