// What the simulation's events mean, and their order among equal times.

export const EventKind = {
  /** a process issues its next request (a: process instance) */
  Issue: 1,
  /** the drive's mechanism finished its work on a request (rq) and is free; with a = 1
   * the request also completes to the host then (one event instead of two) */
  MechanismFree: 2,
  /** the drive reports a request (rq) complete to the host */
  DriveComplete: 3,
  /** the idle drive looks for work (after arrivals at the same instant) */
  DrivePick: 4,
  /** an SSD channel finished a request (rq) */
  SsdDone: 5,
  /** the I/O scheduler's timer (anticipation, idle window) fires (a: its arming number) */
  HostTimer: 6,
  /** the block layer's unplug timer fires (a: the plug's number) */
  UnplugTimer: 7,
  /** the delay after the device refused a command is over (a: the block's number) */
  QueueDelay: 8,
  /** kernel 6.18: a process's submission is over, its plug is flushed (a: pid) */
  PlugFlush: 9,
  /** the page cache's flusher thread runs (a: its arming number; workload/flusher.ts) */
  Writeback: 10,
  /** a file system's kjournald runs (a: its journal's index, rq: its arming number;
   * workload/journal.ts) */
  Journal: 11,
  /** ReiserFS's sync_supers or reiserfs/0 thread runs (a: which, rq: its arming number;
   * workload/reiserfs-threads.ts) */
  ReiserfsThread: 12,
  /** the sync_supers thread's timer fires (workload/reiserfs-threads.ts) */
  SyncSupers: 13,
  /** a ReiserFS journal's queued commit work is due (a: the journal's index) */
  ReiserfsWork: 14,
  /** the fitted device's next request is done (a: its scheduling number; disk/fitted.ts) */
  FittedDone: 15,
} as const;

/**
 * Among events at the same instant: the mechanism decides first (so SPTF chooses
 * before the host's replacement request arrives, DISK-MODEL.md §6 row 15), then
 * completions are reported, then processes issue, and last an idle drive picks
 * among everything that arrived at that instant (so all of a batch is seen).
 */
export const EventPriority = {
  MechanismFree: 0,
  Complete: 1,
  Issue: 2,
  HostTimer: 3,
  Pick: 4,
} as const;
