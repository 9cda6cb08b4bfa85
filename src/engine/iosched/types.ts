// The contract between the block layer (blk.ts, the framework) and an I/O scheduler,
// after the 2.6 kernel's elevator_ops (LINUX-SCHEDULERS.md §1). The framework owns
// bios, request allocation, merging mechanics, plugging and the dispatch queue; a
// scheduler owns only its policy and its own state (plain data, so snapshots work).
import type { Bio, IoRequest } from '../request';

export type { Bio } from '../request';

/** One tunable, declared once; the UI, the CLI, the loader and the docs all read this. */
export interface TunableSpec {
  /** the Linux sysfs name, e.g. "read_expire" */
  name: string;
  /** the kernel default (at HZ = 1000 if it depends on HZ; see defaultAt) */
  default: number;
  /** where the kernel default is a jiffy count, its value at a given HZ */
  defaultForHz?: (hz: number) => number;
  unit: 'ms' | 'us' | 'ns' | 'requests' | 'sectors' | 'bool' | 'count' | 'KiB';
  min: number;
  max: number;
  /** one sentence: what it does */
  doc: string;
}

export function defaultAt(t: TunableSpec, hz: number): number {
  return t.defaultForHz ? t.defaultForHz(hz) : t.default;
}

/** One candidate a scheduler weighed, and why it lost (or won). */
export interface Candidate {
  slot: number;
  note: string;
}

/**
 * What a scheduler may do and see while the framework calls it. `now` is the current
 * simulated time (ns); times a scheduler keeps are ns too.
 */
export interface ElevatorContext {
  readonly now: number;
  /** the kernel's timer frequency (100, 250 or 1000): jiffy-granular tunables depend on it */
  readonly hz: number;
  rq(slot: number): IoRequest;
  bio(slot: number): Bio;
  /** requests dispatched to the device and not yet completed */
  inDriver(): number;
  /** the device's tag depth (queue depth) */
  deviceDepth(): number;
  /** the device has no seek penalty (the kernel's blk_queue_nonrot: an SSD) */
  nonRotational(): boolean;
  /** arm the scheduler's one timer (AS anticipation, CFQ idle/slice): `timer()` runs at t */
  setTimer(atNs: number): void;
  clearTimer(): void;
  /** a decision record: the rule from the scheduler's closed list, the candidates, and a
   * one-line explanation in the kernel's terms (cheap no-op when nothing listens) */
  decide(rule: string, chosen: number, candidates: Candidate[], text: string): void;
  /** true when decision records are being collected (skip building them otherwise) */
  readonly recording: boolean;
  /** a blktrace 'm' message line, e.g. "cfq1234 slice expired" */
  message(text: string): void;
  /**
   * Run the queue now (the kernel's kblockd work / __blk_run_queue). Like the kernel, the
   * framework runs the queue on unplug, on completion and after timer(); it does NOT run
   * it after add() into a queue that already held requests. So a scheduler that stops
   * idling because a request arrived (AS breaking anticipation, CFQ's waited-for queue
   * getting its request, a CFQ preemption) must call kick() from add(), as the kernel does.
   */
  kick(): void;
}

export interface ElevatorType<S> {
  name: string;
  /** one line for menus and docs */
  title: string;
  tunables: readonly TunableSpec[];
  /** how the dispatch queue takes what dispatch() released: deadline appends, the
   * others sort-insert ascending after the head position (LINUX-SCHEDULERS.md §1.5) */
  dispatchInsert: 'append' | 'sort';
  /** no merging and no plugging at all (Spindle's "none" baseline) */
  passthrough?: boolean;
  /** before 2.6.19's generic back-merge hash, this scheduler merged only through the
   * one-hit cache (noop in 2.6.16, as Riska et al. observed) */
  legacyOneHitOnly?: boolean;
  init(tunables: Record<string, number>, ctx: ElevatorContext): S;

  // ── merging (the framework does the mechanics; these are the scheduler's hooks) ──
  /** a request in the scheduler starting exactly at `endSector` that `bio` could join at
   * the front, or −1 (deadline: only with front_merges; AS: always; CFQ: own queue only) */
  frontMergeCandidate?(s: S, bio: Bio, endSector: number, ctx: ElevatorContext): number;
  /** may `bio` join `rq`? (CFQ: not a sync bio into an async request, same queue) */
  allowMerge?(s: S, rq: IoRequest, bio: Bio, ctx: ElevatorContext): boolean;
  /** a bio joined `rq` (front: its start sector changed — re-sort it) */
  merged?(s: S, rq: IoRequest, front: boolean, ctx: ElevatorContext): void;
  /** `absorbed` was merged into `survivor` and leaves the scheduler */
  requestsMerged?(s: S, survivor: IoRequest, absorbed: IoRequest, ctx: ElevatorContext): void;
  /** sector neighbours for request–request merging (noop: FIFO neighbours) */
  formerRequest?(s: S, rq: IoRequest, ctx: ElevatorContext): number;
  latterRequest?(s: S, rq: IoRequest, ctx: ElevatorContext): number;

  // ── allocation and life cycle ──
  /** kernel 6.18, blk-mq's limit_depth: the most scheduler tags a request for `bio` may
   * hold (the sbitmap shallow depth, over the whole bitmap), Infinity for no limit */
  limitDepth?(s: S, bio: Bio): number;
  /** the smallest shallow depth limitDepth may give (blk_mq_set_min_shallow_depth): it
   * sets the tag pool's wake batch (tags-mq.ts). Absent: it limits nothing */
  minShallowDepth?: number;
  /** kernel 6.18's depth_updated: told nr_requests (the tag pool's depth) when the pool is
   * sized, the scheduler sets its limits and returns its min shallow depth (in place of
   * minShallowDepth; Kyber: 75% of nr_requests) */
  depthUpdated?(s: S, nrRequests: number): number;
  /** the bio merge of a scheduler with a bio_merge hook that searches a list with
   * blk_bio_list_merge (Kyber: the bio's domain list in the software queue) instead of
   * elv_merge's cache, hash and sort tree: the request slots, oldest first */
  bioMergeList?(s: S, bio: Bio): readonly number[];
  /** false: the framework does not run the queue after timer() (Kyber's timer only
   * resizes its domains). Absent: it does, as for AS and CFQ */
  timerRunsQueue?: boolean;
  /** 'must' lets a process allocate past nr_requests (AS/CFQ, for the process they wait on) */
  mayQueue?(s: S, bio: Bio, ctx: ElevatorContext): 'must' | 'may';
  /** a request was allocated for `bio` (G): attach scheduler data (CFQ's queue) */
  setRequest?(s: S, rq: IoRequest, bio: Bio, ctx: ElevatorContext): void;
  /** the request enters the scheduler (I) */
  add(s: S, rq: IoRequest, ctx: ElevatorContext): void;
  /** the request enters at the head of the scheduler's own dispatch list
   * (BLK_MQ_INSERT_AT_HEAD: a flush sequence's data step, blk-flush.ts), for blk-mq
   * schedulers that keep one (BFQ's bfqd->dispatch, Kyber's domain lists); mq-deadline's
   * is the framework's dispatch queue */
  addHead?(s: S, rq: IoRequest, ctx: ElevatorContext): void;
  /** move ONE request toward the device: its slot, or −1 (empty, or idling on purpose —
   * then it has armed its timer). force: drain, no idling (barriers, elevator switch) */
  dispatch(s: S, force: boolean, ctx: ElevatorContext): number;
  /** the driver took the request (D) */
  activate?(s: S, rq: IoRequest, ctx: ElevatorContext): void;
  /** the driver gave it back (R) */
  deactivate?(s: S, rq: IoRequest, ctx: ElevatorContext): void;
  /** the device completed it (after C) */
  completed(s: S, rq: IoRequest, ctx: ElevatorContext): void;
  /** the request is freed (after completion or merge): drop references */
  putRequest?(s: S, rq: IoRequest, ctx: ElevatorContext): void;
  /** the scheduler's timer fired; the framework runs the queue afterwards */
  timer?(s: S, ctx: ElevatorContext): void;
  /** requests held by the scheduler (not yet dispatched) */
  queued(s: S): number;
  /** a read-only view of its internals for the UI, named as the kernel names them */
  inspect(s: S, ctx: ElevatorContext): Record<string, unknown>;
  /** multiply-adds spent on computation the kernel's schedulers do not do (cfq-ann's
   * network), so far; `spindle run --json` reports it as work.iosched.multiplyAdds.
   * Absent: none (0) */
  multiplyAdds?(s: S): number;
}
