// The flusher thread of kernel 2.6.32 ("flush-8:0", one per disk: fs/fs-writeback.c
// bdi_writeback_task) writing the page cache's dirty pages back (page-cache.ts).
//
//  - When it runs out of work it sleeps dirty_writeback_centisecs (bdi_writeback_task). Kernel
//    6.18 (wb_workfn): only while the disk has dirty files (wb_has_dirty_io); with none it
//    sleeps until a file is dirtied, then dirty_writeback_centisecs (wb_wakeup_delayed from
//    __mark_inode_dirty: wbWakeupDelayed).
//  - 2.6.32 (wb_do_writeback): its work items first — background writeback, queued by a
//    writer at the end of balance_dirty_pages (bdi_start_writeback) when the dirty pages
//    pass dirty_background_ratio and no item is queued (writeback_in_progress): chunks of
//    MAX_WRITEBACK_PAGES across the files on b_io (wb-writeback.ts, writeback.ts), while
//    the dirty pages are at or above the threshold (over_bground_thresh). Then, if dirty_writeback_centisecs have passed since
//    the last, a kupdate round (wb_check_old_data_flush): every file dirtied more than
//    dirty_expire_centisecs ago. Nothing else wakes it: not its own wake-ups over the
//    threshold, not a completion, not a journal commit; a work queued during a kupdate round
//    waits for its next wake-up (the wake-up of a running task is lost).
//  - It submits its bios back to back (async writes under its own pid), each built as it
//    is sent from the file's dirty pages looked up as it goes (writeback.ts chunkNextBio);
//    when no request is free it sleeps in get_request like any process, and goes on when
//    woken.
//  - On 2.6 a writer over its dirty limit writes pages back itself in balance_dirty_pages
//    (balance-dirty.ts), walking the same lists. On kernel 6.18 (IO-less
//    balance_dirty_pages, dirty-throttle.ts) writers only pause; a writer's call over the
//    background threshold wakes the flusher (kickFlusher), which runs wb_do_writeback's kupdate
//    and background works on the same lists (wb-writeback-618.ts: each file a chunk of its
//    own, writeback_chunk_size), and each pass (do_writepages) updates the disk's write
//    bandwidth estimate (wb-state.ts).
// The flusher is the last process instance of a run with a page cache (model.ts adds it).
import { allocBio } from '../request';
import type { Bio } from '../iosched/types';
import { bioSleeps, submitBio } from '../iosched/host';
import { pushEvent } from '../sim/heap';
import { EventKind, EventPriority } from '../sim/events';
import type { WorkloadSimulation } from './sim-view';
import { PAGE_SECTORS, writebackPeriodNs } from './page-cache';
import { domainDirtyLimits } from './wb-state';
import { nextBio26 } from './wb-writeback';
import { nextBio618, type Work618 } from './wb-writeback-618';
import { writebackDone, type WbChunk, type WritebackBio } from './writeback';

export interface FlusherState {
  /** its process instance */
  inst: number;
  /** the arming number the pending Writeback event must carry (older ones are stale) */
  armSeq: number;
  armed: boolean;
  armedAtNs: number;
  /** its last bio sleeps for a request */
  sleeping: boolean;
  /** the writeback_inodes_wb call (2.6.32) or the file's pass (6.18) in progress, or null */
  chunk: WbChunk | null;
  /** the kupdate round is on: files dirtied at or before kupdateBeforeNs are written */
  kupdate: boolean;
  kupdateBeforeNs: number;
  /** when the last kupdate round started (wb->last_old_flush), ns */
  lastOldFlushNs: number;
  /** 2.6.32: a background work item is queued (bdi_start_writeback with nr_pages 0), not yet
   * taken up — what writeback_in_progress sees */
  bgQueued: boolean;
  /** 2.6.32: it is doing that work (wb_writeback, for_background) */
  bgRunning: boolean;
  /** kernel 6.18: the wb_writeback work in progress (wb-writeback-618.ts), or null */
  work618: Work618 | null;
  /** kernel 6.18: wb_workfn is running (woken, not yet out of work) */
  running618: boolean;
  /** kernel 6.18: when a delayed wake queued while it runs is due (wb_wakeup_delayed), or −1 */
  delayedNs: number;
  /** 2.6.32: the file it waits for, another thread writing it back (inode_wait_for_writeback:
   * its pass wrote nothing, the file under I_SYNC), or −1 */
  waitFile: number;
}

export function createFlusher(inst: number): FlusherState {
  return {
    inst,
    armSeq: 0,
    armed: false,
    armedAtNs: 0,
    sleeping: false,
    chunk: null,
    kupdate: false,
    kupdateBeforeNs: 0,
    lastOldFlushNs: 0,
    bgQueued: false,
    bgRunning: false,
    waitFile: -1,
    work618: null,
    running618: false,
    delayedNs: -1,
  };
}

function arm(sim: WorkloadSimulation, fl: FlusherState, atNs: number): void {
  fl.armed = true;
  fl.armedAtNs = atNs;
  fl.armSeq++;
  pushEvent(sim.state.heap, atNs, EventPriority.Issue, EventKind.Writeback, fl.armSeq);
}

/** The flusher sleeps dirty_writeback_centisecs whenever it runs out of work. */
function periodNs(sim: WorkloadSimulation): number {
  return writebackPeriodNs(sim.state.workload.pageCache!);
}

/** The first wake-up: one period after the start (2.6.32). Kernel 6.18 sleeps until a file is
 * dirtied (wbWakeupDelayed). */
export function startFlusher(sim: WorkloadSimulation): void {
  if (kernel618(sim)) return;
  arm(sim, sim.state.workload.flusher!, periodNs(sim));
}

/** Kernel 6.18 wb_wakeup_delayed from __mark_inode_dirty (fs/fs-writeback.c), after pages were
 * dirtied: if the disk's writeback lists have just gone from empty to populated
 * (pc.listsPopulated), the flusher's delayed work is queued dirty_writeback_centisecs ahead —
 * unless already pending (queue_delayed_work); while it runs, it runs again then. */
export function wbWakeupDelayed(sim: WorkloadSimulation, now: number): void {
  const pc = sim.state.workload.pageCache!;
  if (!pc.listsPopulated) return;
  pc.listsPopulated = false;
  if (!kernel618(sim)) return;
  const fl = sim.state.workload.flusher!;
  // the file its pass is writing, all its pages sent, dirtied again: in the kernel still
  // I_DIRTY_PAGES under I_SYNC (cleared only after do_writepages), so no wake-up
  const passFile = fl.chunk?.pass?.file;
  if (passFile !== undefined && pc.files.size === 1 && pc.files.has(passFile)) return;
  if (fl.running618) {
    if (fl.delayedNs < 0) fl.delayedNs = now + periodNs(sim);
  } else if (!fl.armed) arm(sim, fl, now + periodNs(sim));
}

/** Kernel 6.18 wb_workfn's end: out of work, the flusher's delayed work is queued again
 * (wb_wakeup_delayed) only while the disk has dirty files (wb_has_dirty_io) — or it is already
 * pending, queued while it ran; with none it sleeps until a file is dirtied. */
function endRun618(sim: WorkloadSimulation, fl: FlusherState, now: number): void {
  fl.running618 = false;
  if (fl.delayedNs >= 0) arm(sim, fl, Math.max(now, fl.delayedNs));
  else if (sim.state.workload.pageCache!.files.size > 0) arm(sim, fl, now + periodNs(sim));
  fl.delayedNs = -1;
}

/** Kernel 6.18: wake the flusher now if it is waiting for its period and the dirty pages are
 * over the background threshold (wb_start_background_writeback, from balance_dirty_pages) —
 * or, `evenUnderBg`, whatever they are (balance_dirty_pages past the freerun ceiling: "start
 * writeback even when in laptop mode"; under the threshold it finds nothing to write, a
 * kupdate round aside, and sleeps: its period again from then while files are dirty). On
 * 2.6.32 nothing but balance_dirty_pages wakes it (startBackgroundWriteback): not a
 * completion, not a journal commit. */
export function kickFlusher(sim: WorkloadSimulation, now: number, evenUnderBg = false): void {
  if (!kernel618(sim)) return;
  const fl = sim.state.workload.flusher!;
  const pc = sim.state.workload.pageCache!;
  if (fl.sleeping || fl.chunk !== null || (fl.armed && fl.armedAtNs <= now)) return;
  if (!evenUnderBg && pc.dirty <= domainDirtyLimits(pc).bgThresh) return;
  arm(sim, fl, now);
}

function kernel618(sim: WorkloadSimulation): boolean {
  return sim.model.iosched.queue.kernel === '6.18';
}

/** 2.6.32 bdi_start_writeback(bdi, NULL, 0), from the end of balance_dirty_pages: a
 * background work item is queued and the flusher woken (wake_up_process) — if it sleeps
 * out its period; busy, it finds the item when done with what it is doing (lost during a
 * kupdate round: it then sleeps its period first). */
export function startBackgroundWriteback(sim: WorkloadSimulation, now: number): void {
  const fl = sim.state.workload.flusher!;
  fl.bgQueued = true;
  if (fl.sleeping || fl.chunk !== null || fl.kupdate || fl.waitFile >= 0) return;
  if (fl.armed && fl.armedAtNs <= now) return;
  arm(sim, fl, now);
}

/** A writer's writeback moved on (2.6.32): the flusher waiting for a file it was writing
 * goes on once no other thread is writing it (I_SYNC cleared: inode_sync_complete). */
export function writebackMovedOn(sim: WorkloadSimulation, now: number): void {
  const fl = sim.state.workload.flusher!;
  if (fl.waitFile < 0 || filesInWriteback(sim, fl.inst).has(fl.waitFile)) return;
  fl.waitFile = -1;
  arm(sim, fl, now);
}

/** writeback_in_progress (2.6.32): a work item is queued that the flusher has not taken up. */
export function writebackInProgress(sim: WorkloadSimulation): boolean {
  return sim.state.workload.flusher!.bgQueued;
}

/** The files other threads are writing back (I_SYNC: writeback_single_inode skips them,
 * WB_SYNC_NONE): the flusher's current pass, and writers' in balance_dirty_pages (2.6),
 * less thread `self`'s own. */
export function filesInWriteback(sim: WorkloadSimulation, self: number): Set<number> {
  const fl = sim.state.workload.flusher!;
  const busy = new Set<number>();
  if (self !== fl.inst && fl.chunk?.pass) busy.add(fl.chunk.pass.file);
  sim.state.workload.instances.forEach((inst, i) => {
    const pass = inst.gen?.writer.bdp?.chunk?.pass;
    if (i !== self && pass) busy.add(pass.file);
  });
  return busy;
}

/** A Writeback event: the flusher submits its next bio, or sleeps until there is work. */
export function onWriteback(sim: WorkloadSimulation, seq: number, now: number): void {
  const fl = sim.state.workload.flusher!;
  if (!fl.armed || seq !== fl.armSeq) return; // superseded by a later arming
  fl.armed = false;
  if (!kernel618(sim)) {
    onWriteback26(sim, fl, now);
    return;
  }
  const pc = sim.state.workload.pageCache!;
  fl.running618 = true;
  const b = nextBio618(pc, fl, now, sim.model.iosched.hz, periodNs(sim));
  if (b) send(sim, fl, b, now);
  else endRun618(sim, fl, now);
}

/** The flusher sends bio `b` (then goes on at once, or sleeps for a request), or with none
 * sleeps dirty_writeback_centisecs. */
function send(
  sim: WorkloadSimulation,
  fl: FlusherState,
  b: WritebackBio | null,
  now: number,
): void {
  if (!b) {
    arm(sim, fl, now + periodNs(sim));
    return;
  }
  const bio = submitKernelWrite(sim, fl.inst, b.first * PAGE_SECTORS, b.count * PAGE_SECTORS, now);
  if (bio.rq < 0 && bioSleeps(sim, bio.slot)) {
    fl.sleeping = true;
    return;
  }
  arm(sim, fl, now);
}

/** 2.6.32 bdi_writeback_task: the flusher sends its work's next bio (wb-writeback.ts); with
 * nothing to write, sleeps dirty_writeback_centisecs. */
function onWriteback26(sim: WorkloadSimulation, fl: FlusherState, now: number): void {
  const pc = sim.state.workload.pageCache!;
  const b = nextBio26(pc, fl, filesInWriteback(sim, fl.inst), now, periodNs(sim));
  if (!b && fl.waitFile >= 0) return; // asleep on a file's I_SYNC (writebackMovedOn wakes it)
  send(sim, fl, b, now);
}

/** A thread writing pages back (the flusher, kjournald, a throttled writer on 2.6) submits a
 * write under its own pid (async unless `sync`; a writer's with its I/O priority: class,
 * level). */
export function submitKernelWrite(
  sim: WorkloadSimulation,
  instIndex: number,
  sector: number,
  nSectors: number,
  now: number,
  sync = false,
  ioprio: readonly [number, number] | null = null,
): Bio {
  const inst = sim.state.workload.instances[instIndex]!;
  const bio: Bio = allocBio(
    sim.state.bios,
    sim.state.nextBioId++,
    instIndex,
    inst.pid,
    true,
    sync,
    sector,
    nSectors,
    now,
  );
  if (ioprio) [bio.ioprioClass, bio.ioprioLevel] = ioprio;
  inst.inFlight++;
  inst.issued++;
  submitBio(sim, bio, now);
  return bio;
}

/** The flusher's bio got the request it slept for: it goes on. */
export function flusherWakes(sim: WorkloadSimulation, now: number): void {
  const fl = sim.state.workload.flusher!;
  if (!fl.sleeping) return;
  fl.sleeping = false;
  arm(sim, fl, now);
}

/** One of the flusher's bios completed: its pages are clean. It wakes no flusher (6.18
 * __folio_end_writeback → wb_inode_writeback_end queues only the bandwidth update, bw_dwork;
 * pages dirtied again under writeback were counted dirty when dirtied). */
export function flusherDone(sim: WorkloadSimulation, bio: Bio): void {
  writebackDone(
    sim.state.workload.pageCache!,
    bio.sector / PAGE_SECTORS,
    bio.nSectors / PAGE_SECTORS,
  );
}
