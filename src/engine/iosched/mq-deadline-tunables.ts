// mq-deadline's sysfs attributes (deadline_attrs): 2.6 deadline's five, with the same
// defaults and store limits (LINUX-SCHEDULERS.md §9.2), and prio_aging_expire. Times are
// stored in jiffies. docs/iosched/mq-deadline.md lists the same table.
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
];

export const tunable = (values: Record<string, number>, name: string): number =>
  storeTunable(MQ_DEADLINE_TUNABLES, values, name);
