// What a run tells the outside world, in blktrace's vocabulary (ARCHITECTURE.md):
// I/O events named by action code, the drive's service phases, and decision records.

/** blktrace action codes: Q queued, G get request, M/F back/front merge, I inserted,
 * D dispatched to the device, C completed, P/U/T plug/unplug/timer unplug,
 * S sleep (no request free), X split, A remap, R requeue, m message. */
export type BlkAction =
  'Q' | 'G' | 'M' | 'F' | 'I' | 'D' | 'C' | 'P' | 'U' | 'T' | 'S' | 'X' | 'A' | 'R' | 'm';

export interface TraceEvent {
  tNs: number;
  action: BlkAction;
  /** the request (its id), −1 before a bio has one (Q, S) or for queue events (P, U) */
  rq: number;
  /** the bio (its id) for bio events (Q, M, F, G, S), −1 otherwise */
  bio?: number;
  pid: number;
  /** process instance index in the workload */
  proc: number;
  sector: number;
  nSectors: number;
  write: boolean;
  sync: boolean;
  /** free text for 'm' messages */
  message?: string;
  /** P/U/T: requests allocated on the queue at that moment (blkparse prints it after U) */
  count?: number;
  /** the task name when it is not a workload process (a timer's "swapper", "kblockd/0") */
  comm?: string;
  /** kernel 6.18's flush machinery (iosched/blk-flush.ts): a bio's REQ_PREFLUSH and REQ_FUA
   * (RWBS F…F), a request's FUA left for the device, and the flush command (RWBS FN) */
  preflush?: boolean;
  fua?: boolean;
  flushOp?: boolean;
}

/** One media access by the mechanism, for drawing the arm and platter. */
export interface ServiceRecord {
  rq: number;
  startNs: number;
  seekEndNs: number;
  mediaStartNs: number;
  mediaEndNs: number;
  /** the mechanism may take the next command */
  freeNs: number;
  fromCylinder: number;
  toCylinder: number;
  head: number;
}

/** A scheduling choice and why; the explanation text is rendered from it (src/engine/explain). */
export interface DecisionRecord {
  tNs: number;
  layer: 'disk' | 'iosched';
  /** the rule that fired, from the deciding scheduler's closed list */
  rule: string;
  chosen: number;
  /** every request considered, with the drive's positioning estimate where one was made,
   * and the scheduler's note on it ("FIFO not expired", "other direction") */
  candidates: Array<{ rq: number; estimateNs: number | null; note?: string }>;
  /** the scheduler's one-line explanation, in the kernel's terms */
  text?: string;
  /** range writes weighed in this decision (the drive's HRS/ECS), for drawing on the platter */
  ranges?: RangeDecisionRecord[];
}

/** One range write in a drive decision: the track pieces examined and the block chosen. */
export interface RangeDecisionRecord {
  rq: number;
  scheduler: 'hrs' | 'ecs';
  /** the write's ranges, [begin, end) sectors */
  ranges: Array<{ begin: number; end: number }>;
  /** the track pieces examined (HRS: those its scan from the arm reached, in that order) */
  pieces: RangePieceRecord[];
  /** HRS: pieces never reached — the least seek at their distance could not beat the best */
  unvisited: number;
  /** the start it would take (the chosen write's address), −1 if none beat the best */
  sector: number;
  /** its positioning estimate, ns (null: none beat the best so far) */
  estimateNs: number | null;
}

/** One track's share of a range write's ranges (candidate starts firstSector…lastSector). */
export interface RangePieceRecord {
  cylinder: number;
  head: number;
  firstSector: number;
  lastSector: number;
  /** seek (and settle) to the track, ns */
  seekNs: number;
  /** the rotational wait to its best start, ns; null if not estimated */
  rotationNs: number | null;
  /** its best start, −1 if not estimated or every start is in use */
  sector: number;
  /** HRS skipped it: its seek alone was no better than the best so far */
  pruned: boolean;
}

export interface TraceSink {
  trace(e: TraceEvent): void;
  service(s: ServiceRecord): void;
  decision(d: DecisionRecord): void;
}
