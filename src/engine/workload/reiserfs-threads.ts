// Who writes ReiserFS's journal in 2.6.32 (reiserfs-journal.ts has the rules). ReiserFS has
// no journal thread of its own (no kjournald); the I/O is done by whoever commits:
//  - `sync_supers` (mm/backing-dev.c bdi_sync_supers; one per system): its timer fires
//    every dirty_writeback_interval, rounded up to a whole second (arm_supers_timer:
//    round_jiffies_up), and wakes it; it calls write_super for each dirty super block in
//    turn (sync_supers), which for ReiserFS ends the running transaction and commits it,
//    waiting (reiserfs_sync_fs → journal_end_sync). A wake-up while it is still at work is
//    lost (it was running; it sleeps again once done).
//  - `reiserfs/0` (the commit workqueue, create_workqueue("reiserfs"): one thread per CPU,
//    named as blktrace shows it on CPU 0): runs a journal's queued commit work
//    (flush_async_commits), in the order the works were queued.
//  - the writer itself, under its own pid, in do_journal_end after it ended a transaction:
//    the in-place flush when the log needs room, and get_list_bitmap's commit when the new
//    transaction's list bitmap (one of JOURNAL_NUM_BITMAPS, round robin) still belongs to an
//    uncommitted list. It waits for that I/O (held until its commit is done).
// sync_supers and reiserfs/0 are processes model.ts adds (after the generators and
// kjournalds, before the flusher); the writer's journal bios are its own (its pid, counted
// as its I/O). Each context commits a journal's lists oldest first; one it finds being
// committed (or a flush under way) by another context it waits for (j_commit_mutex,
// j_flush_mutex). All state is plain data.
import type { Bio } from '../iosched/types';
import { pushEvent } from '../sim/heap';
import { EventKind, EventPriority } from '../sim/events';
import type { WorkloadModel, WorkloadSimulation } from './sim-view';
import { PAGE_SECTORS, takePages, underWriteback, writebackPeriodNs } from './page-cache';
import { kickFlusher, wbWakeupDelayed } from './flusher';
import { generatorFamily } from './generators/index';
import { generatorRelease, type GenInstance } from './generators/runtime';
import { dirtyInPlace, ioDone, ioSeesWriteback, ioWakes, submitNext } from './journal-io';
import {
  createReiserContext,
  createReiserJournal,
  endTransaction,
  logSector,
  nextOp,
  type ReiserContext,
  type ReiserJournal,
  type ReiserfsState,
  type ReiserList,
  type ReiserOp,
} from './reiserfs-journal';

const SECOND_NS = 1e9;
/** contexts: sync_supers, the commit workqueue, then each journal's writer (2 + journal) */
export const SYNC_SUPERS = 0;
export const COMMIT_WQ = 1;
const WRITER = 2;

/** A journal for each generator thread whose file system is ReiserFS, and the two threads
 * (null when there is none: model.ts adds the threads only then). */
export function createReiserfsState(
  model: WorkloadModel,
  instances: { spec: number; gen: GenInstance | null }[],
): ReiserfsState | null {
  const thread = (kind: 'sync' | 'work') =>
    instances.findIndex((i) => model.processes[i.spec]!.reiserfs === kind);
  if (thread('sync') < 0) return null;
  const journals: ReiserJournal[] = [];
  instances.forEach((inst, i) => {
    const spec = model.processes[inst.spec]!.generator;
    if (!spec || !generatorFamily(spec).reiserfs?.(spec)) return;
    const area = generatorFamily(spec).journalArea!(spec, inst.gen!.st);
    inst.gen!.reiserJournal = journals.length;
    journals.push(createReiserJournal(i, WRITER + journals.length, area));
  });
  return {
    journals,
    threads: [
      createReiserContext(SYNC_SUPERS, thread('sync'), false),
      createReiserContext(COMMIT_WQ, thread('work'), false),
    ],
  };
}

function state(sim: WorkloadSimulation): ReiserfsState {
  return sim.state.workload.reiserfs!;
}

function contextAt(rs: ReiserfsState, index: number): ReiserContext {
  return index < WRITER ? rs.threads[index]! : rs.journals[index - WRITER]!.writer;
}

/** The context runs at `atNs` (a ReiserfsThread event: a = context, rq = arming number). */
function arm(sim: WorkloadSimulation, c: ReiserContext, atNs: number): void {
  c.armed = true;
  c.armSeq++;
  pushEvent(sim.state.heap, atNs, EventPriority.Issue, EventKind.ReiserfsThread, c.index, c.armSeq);
}

/** sync_supers' timer: dirty_writeback_interval from now, rounded up to a whole second. */
export function armSyncSupers(sim: WorkloadSimulation, now: number): void {
  const period = writebackPeriodNs(sim.state.workload.pageCache!);
  const at = Math.ceil((now + period) / SECOND_NS) * SECOND_NS;
  pushEvent(sim.state.heap, at, EventPriority.Issue, EventKind.SyncSupers);
}

/** The timer fires: sync_supers wakes (unless still at work) and takes every dirty super
 * block in turn. */
export function onSyncSupers(sim: WorkloadSimulation, now: number): void {
  armSyncSupers(sim, now);
  const rs = state(sim);
  const th = rs.threads[SYNC_SUPERS]!;
  if (th.journal >= 0 || th.queue.length > 0 || th.armed) return; // the wake-up is lost
  rs.journals.forEach((j, i) => {
    if (j.sDirt) th.queue.push(i);
  });
  advance(sim, th, now);
}

/** A journal's commit work is due: it joins the workqueue (once). */
export function onReiserfsWork(sim: WorkloadSimulation, index: number, now: number): void {
  const rs = state(sim);
  rs.journals[index]!.workArmed = false;
  const th = rs.threads[COMMIT_WQ]!;
  if (th.queue.includes(index)) return;
  th.queue.push(index);
  if (th.journal < 0 && !th.armed) advance(sim, th, now);
}

/** The writer ended list `tid`: its do_journal_end flushes for log room, and commits the
 * lists up to the one holding the next transaction's list bitmap, if that is still
 * uncommitted; the writer waits meanwhile. */
export function writerEnded(
  sim: WorkloadSimulation,
  j: ReiserJournal,
  bitmapHolder: number,
  now: number,
) {
  const w = j.writer;
  if (w.journal >= 0 || nextOp(j, w.index, bitmapHolder, true) === null) return;
  w.journal = w.index - WRITER;
  w.target = bitmapHolder;
  const g = sim.state.workload.instances[j.owner]!.gen!;
  g.blocked = true;
  g.throttled = true;
  arm(sim, w, now);
}

/** A ReiserfsThread event: the context submits its phase's next bio, or goes on. */
export function onReiserfsThread(
  sim: WorkloadSimulation,
  index: number,
  seq: number,
  now: number,
): void {
  const c = contextAt(state(sim), index);
  if (!c.armed || seq !== c.armSeq) return; // superseded by a later arming
  c.armed = false;
  if (c.phase === 'idle') advance(sim, c, now);
  // the commit block and the journal header go by sync_dirty_buffer: WRITE_SYNC
  else if (submitNext(sim, c, now, c.phase === 'commit' || c.phase === 'header')) arm(sim, c, now);
}

/** The context's next operation, or (a thread) its next journal. */
function advance(sim: WorkloadSimulation, c: ReiserContext, now: number): void {
  const rs = state(sim);
  while (c.phase === 'idle') {
    if (c.journal < 0) {
      const next = c.queue.shift();
      if (next === undefined) return;
      const j = rs.journals[next]!;
      if (c.index === SYNC_SUPERS) {
        // write_super only for a dirty super block: journal_end_sync ends the transaction
        if (!j.sDirt) continue;
        endTransaction(sim, j, now);
      }
      // flush_async_commits: the youngest list, older ones first
      const youngest = j.lists[j.lists.length - 1];
      if (!youngest) continue;
      c.journal = next;
      c.target = youngest.tid;
    }
    const j = rs.journals[c.journal]!;
    const op = nextOp(j, c.index, c.target, c.index !== COMMIT_WQ);
    if (op === 'wait') {
      c.waiting = true; // woken when another context's operation ends
      return;
    }
    if (op) startOp(sim, c, j, op, now);
    else finishJob(sim, c, j, now);
  }
}

/** The context is done with its journal: sync_fs sets s_dirt = 0 ("even if it's not
 * true"); the writer goes on. */
function finishJob(sim: WorkloadSimulation, c: ReiserContext, j: ReiserJournal, now: number): void {
  c.journal = -1;
  if (c.index === SYNC_SUPERS) j.sDirt = false;
  if (c.index >= WRITER) generatorRelease(sim, j.owner, now);
}

function listOf(j: ReiserJournal, tid: number): ReiserList {
  return j.lists.find((l) => l.tid === tid)!;
}

function startOp(
  sim: WorkloadSimulation,
  c: ReiserContext,
  j: ReiserJournal,
  op: ReiserOp,
  now: number,
) {
  const pc = sim.state.workload.pageCache!;
  c.op = op;
  let pages: number[];
  if (op.kind === 'commit') {
    // write_ordered_buffers: the ordered data still dirty; those under writeback waited for
    const l = listOf(j, op.tid);
    l.committer = c.index;
    c.phase = 'data';
    const mine = l.t.data.filter((p) => j.dataOwner.get(p) === l.tid);
    c.awaited = mine.filter((p) => underWriteback(pc, p));
    pages = takePages(pc, mine);
    j.orderedPages += pages.length;
  } else {
    // flush_journal_list: each block whose latest list this is and which the running
    // transaction does not hold, if still dirty (or under writeback: waited for)
    const own: number[] = [];
    for (const tid of op.tids)
      for (const p of listOf(j, tid).t.meta)
        if (j.cpOwner.get(p) === tid && !j.running?.metaIn.has(p)) own.push(p);
    j.flusher = c.index;
    c.phase = 'inplace';
    c.awaited = own.filter((p) => underWriteback(pc, p));
    pages = takePages(pc, own);
    j.inPlaceBlocks += pages.length;
  }
  c.pending = pages.map((p) => p * PAGE_SECTORS);
  startPhase(sim, c, now);
}

function startPhase(sim: WorkloadSimulation, c: ReiserContext, now: number): void {
  if (c.pending.length > 0) arm(sim, c, now);
  else if (c.awaited.length === 0) nextPhase(sim, c, now);
  // else the flusher's writes end it
}

/** This phase's I/O is done: the next phase, or the operation is. */
function nextPhase(sim: WorkloadSimulation, c: ReiserContext, now: number): void {
  const j = state(sim).journals[c.journal]!;
  const op = c.op!;
  if (op.kind === 'commit') {
    const l = listOf(j, op.tid);
    const n = l.t.meta.length;
    if (c.phase === 'data') {
      // the descriptor and the copies, from the list's start
      c.phase = 'log';
      c.pending = Array.from({ length: n + 1 }, (_, i) => logSector(j, l.start + i));
    } else if (c.phase === 'log') {
      c.phase = 'commit';
      c.pending = [logSector(j, l.start + n + 1)];
    } else {
      finishCommit(sim, c, j, l, now);
      return;
    }
    j.logBlocks += c.pending.length;
  } else if (c.phase === 'inplace') {
    // update_journal_header_block: the new tail
    c.phase = 'header';
    c.pending = [j.headerSector];
  } else {
    finishFlush(j, op.tids);
    opDone(sim, c, now);
    return;
  }
  startPhase(sim, c, now);
}

/** dirty_one_transaction: the list's blocks are dirty in place, except those a newer list
 * logged or the running transaction holds. */
function finishCommit(
  sim: WorkloadSimulation,
  c: ReiserContext,
  j: ReiserJournal,
  l: ReiserList,
  now: number,
): void {
  l.committed = true;
  l.committer = -1;
  j.commits++;
  j.commitsBy[Math.min(c.index, WRITER) as 0 | 1 | 2]++;
  for (const p of l.t.data) if (j.dataOwner.get(p) === l.tid) j.dataOwner.delete(p);
  const mine = l.t.meta.filter((p) => j.cpOwner.get(p) === l.tid);
  dirtyInPlace(sim.state.workload.pageCache!, mine, j.running?.metaIn, now);
  wbWakeupDelayed(sim, now);
  kickFlusher(sim, now);
  opDone(sim, c, now);
}

/** The flushed lists leave the log. */
function finishFlush(j: ReiserJournal, tids: number[]): void {
  j.flushes++;
  j.flusher = -1;
  for (const tid of tids) {
    const l = listOf(j, tid);
    for (const p of l.t.meta) if (j.cpOwner.get(p) === tid) j.cpOwner.delete(p);
    j.lists.splice(j.lists.indexOf(l), 1);
  }
}

/** The operation is over: the context goes on, and so do those that waited for it. */
function opDone(sim: WorkloadSimulation, c: ReiserContext, now: number): void {
  c.op = null;
  c.phase = 'idle';
  arm(sim, c, now);
  const rs = state(sim);
  for (const o of [...rs.threads, ...rs.journals.map((j) => j.writer)])
    if (o.waiting) {
      o.waiting = false;
      arm(sim, o, now);
    }
}

/** The context whose bio this is: a thread's (by its process), or a writer's (by its id). */
export function reiserContextOf(sim: WorkloadSimulation, bio: Bio): ReiserContext | null {
  const rs = sim.state.workload.reiserfs;
  if (!rs) return null;
  return (
    rs.threads.find((t) => t.inst === bio.proc) ??
    rs.journals.find((j) => j.owner === bio.proc && j.writer.ids!.includes(bio.id))?.writer ??
    null
  );
}

/** The context's bio got the request it slept for: it goes on. */
export function reiserfsWakes(sim: WorkloadSimulation, c: ReiserContext, now: number): void {
  if (ioWakes(c)) arm(sim, c, now);
}

/** One of the context's bios completed; if it wrote a page, another context may wait for it. */
export function reiserfsDone(
  sim: WorkloadSimulation,
  c: ReiserContext,
  bio: Bio,
  now: number,
): void {
  const page = c.phase === 'data' || c.phase === 'inplace';
  if (ioDone(sim, c, bio, page)) nextPhase(sim, c, now);
  if (page) reiserfsSeesWriteback(sim, bio, now);
}

/** A page-cache page's write completed (the flusher's, or a context's): pages a context waits
 * for may be among them. */
export function reiserfsSeesWriteback(sim: WorkloadSimulation, bio: Bio, now: number): void {
  const rs = state(sim);
  for (const c of [...rs.threads, ...rs.journals.map((j) => j.writer)])
    if ((c.phase === 'data' || c.phase === 'inplace') && ioSeesWriteback(c, bio))
      nextPhase(sim, c, now);
}
