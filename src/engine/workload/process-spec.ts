// What a scenario's process is, once checked (scenario/load.ts and scenario/process.ts read
// it from JSON; scenario/types.ts names it in a Scenario): how it issues I/O, a fixed list,
// a named generator or range writes. The workload runs it (workload.ts).
import type { GeneratorSpec } from './generators/index';

export interface SizeRange {
  min: number;
  max: number;
}

export interface FixedRequest {
  sector: number;
  sizeKiB: number;
  op: 'read' | 'write';
  /** issued at this time (ms from the start), unless thinkTimeMs is set */
  atMs: number;
  /** issued this long after the previous request of the list completes (a closed-loop
   * list, as DiskSim replays its validation traces); null = use atMs (or gapMs). With
   * afterDone: this long after that entry completes instead */
  thinkTimeMs: number | null;
  /** the index in the list of an earlier request whose completion this one waits for:
   * issued thinkTimeMs after it completes, and not before the previous entry is issued
   * (a replayed trace's dependent request) */
  afterDone?: number;
  /** issued this long after the previous entry of the list was issued, whatever has
   * completed (a replayed trace's independent request: bursts stay bursts) */
  gapMs?: number;
  /** a trace-timed device: complete this long after dispatch (the traced D2C) instead of
   * simulating the disk; absent or null = the disk model serves it */
  serviceMs?: number | null;
  /** this request's own sync flag (a replayed trace's RWBS "S"); absent or null = the
   * process's */
  sync?: boolean | null;
  /** kernel 6.18: the process keeps its plug open after this entry — the next entry (on the
   * clock: atMs or gapMs) joins the same submission and the plug is flushed after it, not
   * at this issue (a replayed trace's Qs between one P and its U) */
  plugged?: boolean;
  /** REQ_PREFLUSH: the device's write cache is flushed before this write's data (with
   * sizeKiB 0: the write is only a flush, as fsync's blkdev_issue_flush); REQ_FUA: its data
   * is on stable media when it completes (kernel 6.18's flush machinery, iosched/blk-flush.ts) */
  preflush?: boolean;
  fua?: boolean;
}

export interface ProcessSpec {
  name: string;
  count: number;
  mode: 'closed' | 'open';
  /** closed loop: requests each instance keeps in flight */
  outstanding: number;
  /** closed loop: pause between a completion and the next issue */
  thinkTimeMs: number;
  /** open loop: arrivals per second, per instance */
  rateIops: number;
  arrival: 'poisson' | 'fixed';
  op: 'read' | 'write' | 'mix';
  /** for op "mix": the fraction of reads */
  readFraction: number;
  /** null: reads sync, writes async (the kernel's default classification) */
  sync: boolean | null;
  pattern: 'random' | 'sequential';
  sizeKiB: number | SizeRange;
  /** the addresses it may touch; null = the whole disk */
  span: { startSector: number; sectors: number } | null;
  /** CFQ I/O priority, carried for the Linux schedulers */
  ioprio: { class: 'rt' | 'be' | 'idle'; level: number } | null;
  /** a fixed request list instead of a pattern (disk.py-style exercises) */
  requests: FixedRequest[] | null;
  /** a named workload generator instead of a pattern (workload/generators; absent or null: none) */
  generator?: GeneratorSpec | null;
  /** its writes are range writes (absent or null: ordinary writes) */
  range?: RangeSpec | null;
  /** the page cache's flusher thread (model.ts adds it; a scenario cannot) */
  flusher?: boolean;
  /** a file system's kjournald, journalling for the generator process of this index
   * (model.ts adds it with a page cache; a scenario cannot) */
  kjournald?: number;
  /** ReiserFS's journal threads: sync_supers ('sync') or the reiserfs/0 workqueue ('work')
   * (model.ts adds them with a page cache; a scenario cannot) */
  reiserfs?: 'sync' | 'work';
}

/** A process's range writes: each write may land in any of `targets` ranges of
 * `sizeSectors`, drawn in its span, at a start that is a multiple of `alignSectors`. */
export interface RangeSpec {
  sizeSectors: number;
  targets: number;
  alignSectors: number;
  /** a write issued as the process's Nth, 2Nth, … request is a barrier (the drive forgets
   * completed writes' blocks); 0 never */
  barrierEvery: number;
}
