// BFQ's state as plain data (bfq.ts and its helpers; docs/iosched/bfq.md): one bfq_queue
// per process for its sync I/O and one per I/O priority for async I/O, each with its
// B-WF2Q+ entity (weight, budget, start and finish virtual times), and bfq_data's
// counters. Queues live in an array by id; trees hold ids.
import { jiffiesNow } from './common';
import type { ElevatorContext } from './types';

/** enum bfqq_expiration */
export type BfqExpiration =
  'too-idle' | 'budget-timeout' | 'budget-exhausted' | 'no-more-requests' | 'preempted';

export const NOT_ON_TREE = 0;
export const ON_ACTIVE = 1;
export const ON_IDLE = 2;

export interface BfqQueue {
  id: number;
  /** the process (sync) or −1 (an async queue, shared) */
  pid: number;
  sync: boolean;
  /** I/O priority class 1 RT, 2 BE, 3 IDLE, and level 0 … 7 */
  ioprioClass: number;
  ioprio: number;
  // ── the entity (bfq_entity) ──
  weight: number;
  origWeight: number;
  prioChanged: boolean;
  start: number;
  finish: number;
  budget: number;
  service: number;
  tree: number;
  /** on_st_or_in_serv: counted in its service tree's wsum */
  onSt: boolean;
  // ── the queue ──
  maxBudget: number;
  sortList: number[];
  fifo: number[];
  nextRq: number;
  /** next_rq came from the FIFO (bfq_check_fifo), for the decision record */
  nextFromFifo: boolean;
  queued: [number, number];
  dispatched: number;
  busy: boolean;
  waitRequest: boolean;
  nonBlockingWaitRq: boolean;
  fifoExpire: boolean;
  hasShortTtime: boolean;
  ioBound: boolean;
  /** jiffies; also when it last became empty with nothing in flight */
  budgetTimeout: number;
  seekHistory: number;
  lastRequestPos: number;
  ttimeLastEnd: number;
  ttimeSamples: number;
  ttimeTotal: number;
  ttimeMean: number;
  ioStartTime: number;
  totIdleTime: number;
  /** tot_idle_time past 2^63: halvings since it wrapped (see bfq-queue.ts), −1 if not */
  idleWrap: number;
  justCreated: boolean;
  inWeightsTree: boolean;
  // ── weight raising ──
  wrCoeff: number;
  wrCurMaxTime: number;
  lastWrStartFinish: number;
  wrStartAtSwitchToSrt: number;
  serviceFromWr: number;
  softRtNextStart: number;
  lastIdleBklogged: number;
  serviceFromBacklogged: number;
  softrtUpdate: boolean;
  // ── cooperation (queue merging) and bursts ──
  /** jiffies: created (creation_time), split from a shared queue (split_time), first
   * service of its current backlog (first_IO_time) */
  creationJ: number;
  splitJ: number;
  firstIoJ: number;
  /** the process that alone owns it (bfqq->bic), −1 once shared or merged away */
  bic: number;
  /** bfqq_process_refs: processes that send (or are about to send) their I/O here */
  procRefs: number;
  /** new_bfqq: the queue it is scheduled to merge into, −1 */
  newQueue: number;
  coop: boolean;
  splitCoop: boolean;
  /** its key in the position tree (next_rq's sector), −1 when not in it */
  posKey: number;
  inLargeBurst: boolean;
  inBurstList: boolean;
  // ── injection ──
  injectLimit: number;
  /** the baseline total service time of its first requests, ns (0: not sampled yet) */
  lastServTimeNs: number;
  decreaseTimeJ: number;
  wakerQ: number;
  tentativeWakerQ: number;
  numWakerDetections: number;
  wakerDetectionStartedNs: number;
  /** woken_list: queues whose waker this is, the most recently added first */
  woken: number[];
}

/** What BFQ keeps of a queue in its process's bfq_io_cq across a merge, to resume it on a
 * split (bfq_bfqq_save_state / bfq_bfqq_resume_state). */
export interface BfqSavedState {
  hasShortTtime: boolean;
  ioBound: boolean;
  lastServTimeNs: number;
  injectLimit: number;
  decreaseTimeJ: number;
  weight: number;
  ttimeSamples: number;
  ttimeTotal: number;
  ttimeMean: number;
  ttimeLastEnd: number;
  ioStartTime: number;
  totIdleTime: number;
  idleWrap: number;
  inLargeBurst: boolean;
  wasInBurstList: boolean;
  wrCoeff: number;
  wrStartAtSwitchToSrt: number;
  serviceFromWr: number;
  lastWrStartFinish: number;
  wrCurMaxTime: number;
}

/** bfq_io_cq: a process's link to its queues */
export interface BfqBic {
  /** its async queue (bic->bfqq[0]), −1 */
  asyncQ: number;
  /** requests of the process inserted and not yet completed (bic->requests) */
  requests: number;
  /** the queue a delayed stable merge would join (stable_merge_bfqq), −1 */
  stableMergeQ: number;
  stablyMerged: boolean;
  saved: BfqSavedState | null;
}

/** bfq_service_tree: one per class (RT, BE, IDLE) */
export interface ServiceTree {
  vtime: number;
  wsum: number;
  active: number[];
  idle: number[];
}

export interface BfqTunables {
  fifoExpireNs: [number, number];
  backMaxKiB: number;
  backPenalty: number;
  sliceIdleNs: number;
  userMaxBudget: number;
  timeoutJ: number;
  strictGuarantees: boolean;
  lowLatency: boolean;
}

export interface BfqState {
  t: BfqTunables;
  hz: number;
  rot: boolean;
  queues: BfqQueue[];
  /** a process's sync queue, and the async queue of a class.level, by key */
  syncOf: Record<number, number>;
  asyncOf: Record<string, number>;
  trees: [ServiceTree, ServiceTree, ServiceTree];
  inService: number;
  busyQueues: [number, number, number];
  wrBusyQueues: number;
  queuedTotal: number;
  rqInDriver: number;
  /** bfqd->dispatch: requests inserted at the head (a flush sequence's data), served
   * before any queue */
  dispatchList: number[];
  /** hw_tag: −1 unknown, 0 or 1; its sampling */
  hwTag: number;
  maxRqInDriver: number;
  hwTagSamples: number;
  budgetsAssigned: number;
  /** bfqd->bfq_max_budget (the user's, or the automatic one) */
  maxBudget: number;
  /** bfqd->peak_rate (sectors/µs << 16) and rate_dur_prod */
  peakRate: number;
  rateDurProd: number;
  lastPosition: number;
  lastBudgetStartNs: number;
  lastIdlingStartNs: number;
  lastIdlingStartJ: number;
  lastCompletionNs: number;
  classIdleLastService: number;
  /** queue_weights_tree: the weights of the non-raised queues that are busy or have I/O
   * in flight, ascending, each with how many queues have it */
  weights: Array<[weight: number, count: number]>;
  /** the idle slice timer is armed (ns), −1 if not */
  idleTimerAt: number;
  /** bfqd->async_depths[weight-raised queues busy][sync]: tags a write may hold */
  asyncDepths: [[number, number], [number, number]];
  expirations: Record<BfqExpiration, number>;
  // ── the peak-rate estimator (bfq_update_peak_rate) ──
  peakRateSamples: number;
  sequentialSamples: number;
  totSectorsDispatched: number;
  lastRqMaxSize: number;
  firstDispatchNs: number;
  lastDispatchNs: number;
  deltaFromFirstNs: number;
  /** peak-rate updates made (each recomputes the automatic max_budget) */
  peakRateUpdates: number;
  /** bfqd->nonrot_with_queueing: an SSD that queues (no queue merging there) */
  nonrotWithQueueing: boolean;
  // ── queue merging, bursts ──
  bics: Record<number, BfqBic>;
  /** queues with a next request, by its sector (bfqg->rq_pos_tree), ascending */
  posTree: number[];
  /** in_serv_last_pos: the end of the in-service queue's last dispatch */
  inServLastPos: number;
  lastBfqqCreated: number;
  burstList: number[];
  burstSize: number;
  largeBurst: boolean;
  lastInsInBurstJ: number;
  /** bfqd->active_list: the queues on an active tree, the last inserted first */
  activeList: number[];
  // ── injection ──
  rqsInjected: boolean;
  waitDispatch: boolean;
  waitedRq: number;
  lastEmptyOccupiedNs: number;
  lastCompletedQ: number;
  merges: number;
  splits: number;
  injected: number;
}

export const jiffies = (ctx: ElevatorContext) => jiffiesNow(ctx);

/** the service-tree index of a class: RT 0, BE 1, IDLE 2 */
export function classIdx(q: BfqQueue): number {
  return q.ioprioClass - 1;
}

export function budgetLeft(q: BfqQueue): number {
  return q.budget - q.service;
}

export function totBusy(s: BfqState): number {
  return s.busyQueues[0] + s.busyQueues[1] + s.busyQueues[2];
}

/** bfq_bfqq_name: bfq<pid>S, bfqSHARED-S once merged; async queues by class and level */
export const queueName = (q: BfqQueue) =>
  q.sync
    ? q.pid === -1
      ? 'bfqSHARED-S'
      : `bfq${q.pid}S`
    : `bfq${['RT', 'BE', 'IDLE'][q.ioprioClass - 1]}${q.ioprio}A`;

/** Why bfq_select_queue injected from another queue while plugging for the in-service one
 * (bfq-inject.ts): its async queue, its waker, a queue it woke, or under the inject limit. */
export type InjectWhy = 'async' | 'waker' | 'woken' | 'limit';
