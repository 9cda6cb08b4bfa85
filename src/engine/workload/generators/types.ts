// Named workload generators (issue 7 item 4): the request streams of the seeds' benchmarks —
// fio jobs (Bautista et al.), FFSB profiles (Heger & Quinn), Postmark with a file-system
// personality (Riska et al.), concurrent kernel builds, a TPC-B-like transaction stream.
// A scenario process names one with `generator: {...}`; each family is one file here.
// A family turns its parameters into operations, each a short list of steps (bios); the
// runtime (runtime.ts) issues them: a sync step blocks the thread until it completes, an
// async step (a buffered write the page cache will write back) does not, up to a dirty
// limit. All state is plain data (it is structuredClone'd with the simulation).
import type { Rng } from '../../sim/rng';
import type { RangeWrite } from '../../disk/range';
import type { WriterThrottle } from '../balance-dirty';

/** One bio a generator asks for. */
export interface Step {
  sector: number;
  nSectors: number;
  write: boolean;
  /** sync: the thread waits for it (reads, O_SYNC / commit writes); async: buffered */
  sync: boolean;
  /** the thread thinks (computes) this long before issuing it, ms */
  thinkMs: number;
  /** a range write (the drive picks the address; `sector` is a placeholder) */
  range?: RangeWrite;
  /** the file it belongs to, for the page cache's writeback (absent: the thread's own) */
  file?: number;
  /** buffered, but not through the page cache's writeback: the file system writes it
   * itself (a journal) */
  direct?: boolean;
  /** a metadata block update: with a journalling thread (journal.ts) it joins the running
   * transaction instead of dirtying the page cache */
  meta?: boolean;
  /** a journal write as the generator models it without a page cache; with a journalling
   * thread (journal.ts) kjournald writes the journal instead and this step is skipped */
  journal?: boolean;
  /** the file's pages in [sector, sector + nSectors) are deleted: no I/O (a page cache
   * drops them, dirty or not; without one, nothing happens); with `file`, that file is
   * deleted (its inode goes) */
  drop?: boolean;
}

/** Where one thread (process instance) of a generator works. */
export interface GenEnv {
  /** the process's span (the whole disk by default) */
  spanStart: number;
  spanSectors: number;
  /** this instance: k of count; its own region (the span split in count 4 KiB-aligned parts) */
  k: number;
  count: number;
  regionStart: number;
  regionSectors: number;
}

/** A generator family: its defaults and how it makes operations. */
export interface GenFamily<Spec, St> {
  kind: string;
  /** threads when the process gives no `count` */
  defaultThreads(spec: Spec): number;
  /** sync requests one thread keeps in flight (fio iodepth); 1 for a plain thread */
  depth(spec: Spec): number;
  /** async (buffered) bios one thread may have in flight; absent: no cap of its own (the
   * request pool and the dirty threshold hold a writer: runtime.ts) */
  asyncLimit?(spec: Spec): number;
  /** open-loop families: mean time between operations of one thread, ms; null = closed loop */
  openMeanMs(spec: Spec, count: number): number | null;
  init(spec: Spec, env: GenEnv, rng: Rng): St;
  /** whether the thread's file system journals through jbd when a page cache is on (then
   * model.ts adds a kjournald thread for it: journal.ts) */
  journalled?(spec: Spec): boolean;
  /** whether the thread's file system is ReiserFS, whose journal is modelled when a page
   * cache is on (then model.ts adds sync_supers and reiserfs/0: reiserfs-journal.ts) */
  reiserfs?(spec: Spec): boolean;
  /** where its journal lies (when journalled) */
  journalArea?(spec: Spec, st: St): { startSector: number; sectors: number };
  /** append the next operation's steps to `out` (at least one) */
  next(spec: Spec, st: St, env: GenEnv, rng: Rng, out: Step[]): void;
}

/** Fields every generator spec has (after defaults). */
export interface GenCommon {
  /** the generator starts issuing at this time, ms */
  startMs: number;
  /** it stops issuing this long after it started, ms; null = until the run stops */
  durationMs: number | null;
}

/** One thread's generator state (plain data). */
export interface GenInstance {
  /** the family's own state */
  st: unknown;
  env: GenEnv;
  /** steps of the current operation not yet issued */
  pending: Step[];
  syncOut: number;
  asyncOut: number;
  /** waiting for a completion (or a request) before the next step */
  blocked: boolean;
  /** its bios sleeping in get_request for a free request: the thread sleeps with them */
  sleeping: number;
  /** an Issue event for it is on the clock */
  armed: boolean;
  /** stops issuing at this time, ns; −1 = never */
  endNs: number;
  /** steps the page cache served without a bio (writes it absorbed, reads it hit), and
   * their sectors */
  cachedOps: number;
  cachedSectors: number;
  /** held while its ReiserFS journal commit runs (reiserfs-threads.ts releases it) */
  throttled: boolean;
  /** its balance_dirty_pages (2.6: balance-dirty.ts; 6.18: dirty-throttle.ts) */
  writer: WriterThrottle;
  /** its file system's journal (workload.journals: journal.ts), −1 = none */
  journal: number;
  /** its ReiserFS journal (workload.reiserfs.journals: reiserfs-journal.ts), −1 = none */
  reiserJournal: number;
}
