// mq-deadline's state, priority classes and the names of its rules, apart from its policy
// so the decision texts (mq-deadline-explain.ts) can read them without importing it.
import type { SortList } from './common';
import { DEADLINE_RULES, type DeadlineRule, type Dir } from './deadline-state';

/** mq-deadline's priority levels (enum dd_prio), highest first. */
export const RT = 0;
export const BE = 1;
export const IDLE = 2;
export type Prio = typeof RT | typeof BE | typeof IDLE;
export const PRIO_NAMES = ['RT', 'BE', 'IDLE'] as const;

/** ioprio_class_to_prio: class 0 (none) and 2 are BE, 1 is RT, 3 is IDLE. */
export function prioOf(ioprioClass: number): Prio {
  return ioprioClass === 1 ? RT : ioprioClass === 3 ? IDLE : BE;
}

/** Why a request left, or why none did: deadline's rules (per class; no alias rule; a FIFO
 * head expires at jiffies ≥ its deadline) and two of mq-deadline's own. A new batch gives
 * two records, as in deadline.ts. */
export type MqDeadlineRule =
  | Exclude<DeadlineRule, 'alias'>
  /** two or more classes busy and a lower-class request inserted ≥ prio_aging_expire ago */
  | 'prio-aged'
  /** a refusal: lower classes wait while a higher class has requests on the device */
  | 'wait-higher-prio';

export const MQ_DEADLINE_RULES: readonly MqDeadlineRule[] = [
  ...DEADLINE_RULES.filter((r): r is Exclude<DeadlineRule, 'alias'> => r !== 'alias'),
  'prio-aged',
  'wait-higher-prio',
];

/** dd_per_prio: one class's lists and counters. Pairs are [READ, WRITE]. */
export interface PerPrio {
  sortList: [SortList, SortList];
  fifoList: [number[], number[]];
  /** start sector of the latest request dispatched in each direction (latest_pos) */
  latestPos: [number, number];
  /** io_stats_per_prio: inserted − finished is dd_queued (queued + on the device) */
  inserted: number;
  merged: number;
  dispatched: number;
  finished: number;
}

export interface MqDeadlineState {
  prio: [PerPrio, PerPrio, PerPrio];
  lastDir: Dir;
  batching: number;
  starved: number;
  /** fifo_expire[READ|WRITE] and prio_aging_expire, jiffies (the store converts ms) */
  fifoExpireJ: [number, number];
  prioAgingExpireJ: number;
  fifoBatch: number;
  writesStarved: number;
  frontMerges: boolean;
  /** async_depth: the shallow depth for writes and async requests (kernel 6.18) */
  asyncDepth: number;
}

/** dd_queued: requests of this class in the scheduler or on the device. */
export function ddQueued(pp: PerPrio): number {
  return pp.inserted - pp.finished;
}
