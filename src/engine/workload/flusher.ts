// The flusher thread of kernel 2.6.32 ("flush-8:0", one per disk: fs/fs-writeback.c
// bdi_writeback_task) writing the page cache's dirty pages back (page-cache.ts).
//
//  - When it runs out of work it sleeps dirty_writeback_centisecs; on waking, if that long
//    has passed since the last kupdate round, it writes back every file dirtied more than
//    dirty_expire_centisecs ago (wb_check_old_data_flush, "kupdate").
//  - It is woken at once when the dirty pages pass dirty_background_ratio, and writes the
//    oldest-dirtied files until they are below it again (background writeback).
//  - It submits one pass's bios back to back (async writes under its own pid), each page
//    going under writeback as its bio is sent (nextRun); when no request is free it sleeps
//    in get_request like any process, and goes on when woken.
//  - On 2.6 a writer over its dirty limit writes pages back itself in balance_dirty_pages
//    (balance-dirty.ts), from the same oldest-first list, and wakes the flusher when the
//    dirty pages exceed dirty_background_ratio. On kernel 6.18 (IO-less balance_dirty_pages)
//    writers held above dirty_ratio go on once the dirty pages and those under writeback
//    fall below it (`throttled`), and the flusher is woken as soon as a write crosses the
//    background threshold.
// The flusher is the last process instance of a run with a page cache (model.ts adds it).
import { allocBio } from '../request';
import type { Bio } from '../iosched/types';
import { bioSleeps, submitBio } from '../iosched/host';
import { pushEvent } from '../sim/heap';
import { EventKind, EventPriority } from '../sim/events';
import type { Simulation } from '../sim/simulation';
import {
  MAX_WRITEBACK_PAGES,
  PAGE_SECTORS,
  backgroundThresh,
  dirtyThresh,
  overDirtyLimit,
  type PageCacheState,
} from './page-cache';
import { startWriteback, takeWritebackPass, writebackDone, type WritebackBio } from './writeback';

const CENTISEC_NS = 1e7;

export interface FlusherState {
  /** its process instance */
  inst: number;
  /** the arming number the pending Writeback event must carry (older ones are stale) */
  armSeq: number;
  armed: boolean;
  armedAtNs: number;
  /** its last bio sleeps for a request */
  sleeping: boolean;
  /** bios of the current pass not yet submitted */
  pending: WritebackBio[];
  /** the kupdate round is on: files dirtied at or before kupdateBeforeNs are written */
  kupdate: boolean;
  kupdateBeforeNs: number;
  /** when the last kupdate round started (wb->last_old_flush), ns */
  lastOldFlushNs: number;
  /** kernel 6.18: writer instances held above dirty_ratio, in the order they stopped */
  throttled: number[];
}

export function createFlusher(inst: number): FlusherState {
  return {
    inst,
    armSeq: 0,
    armed: false,
    armedAtNs: 0,
    sleeping: false,
    pending: [],
    kupdate: false,
    kupdateBeforeNs: 0,
    lastOldFlushNs: 0,
    throttled: [],
  };
}

function arm(sim: Simulation, fl: FlusherState, atNs: number): void {
  fl.armed = true;
  fl.armedAtNs = atNs;
  fl.armSeq++;
  pushEvent(sim.state.heap, atNs, EventPriority.Issue, EventKind.Writeback, fl.armSeq);
}

/** The flusher sleeps dirty_writeback_centisecs whenever it runs out of work. */
function periodNs(sim: Simulation): number {
  return sim.state.workload.pageCache!.spec.dirty_writeback_centisecs * CENTISEC_NS;
}

/** The first wake-up: one period after the start. */
export function startFlusher(sim: Simulation): void {
  arm(sim, sim.state.workload.flusher!, periodNs(sim));
}

/** Wake the flusher now if it is waiting for its period (the dirty pages crossed the
 * background threshold). */
export function kickFlusher(sim: Simulation, now: number): void {
  const fl = sim.state.workload.flusher!;
  const pc = sim.state.workload.pageCache!;
  if (fl.sleeping || fl.pending.length > 0 || (fl.armed && fl.armedAtNs <= now)) return;
  if (pc.dirty <= backgroundThresh(pc)) return;
  arm(sim, fl, now);
}

/** The next pass's bios: background writeback first, then the kupdate round. */
function nextPass(sim: Simulation, fl: FlusherState): WritebackBio[] {
  const pc = sim.state.workload.pageCache!;
  const busy = filesInWriteback(sim, fl.inst);
  // a file whose pages are all still under writeback, or that a writer is writing back
  // (2.6), yields nothing (it goes to the back): try the others, at most once each
  for (let tries = pc.files.size; tries > 0; tries--) {
    const background = pc.dirty > backgroundThresh(pc);
    if (!background && !fl.kupdate) return [];
    const before = background ? Infinity : fl.kupdateBeforeNs;
    const bios = takeWritebackPass(pc, before, MAX_WRITEBACK_PAGES, busy);
    if (bios.length > 0) return bios;
    if (!background && !anyExpired(pc, fl.kupdateBeforeNs)) break;
  }
  fl.kupdate = false; // the kupdate round has nothing more to write
  return [];
}

/** The files other threads are writing back (I_SYNC: writeback_single_inode skips them,
 * WB_SYNC_NONE): the flusher's current pass, and writers' in balance_dirty_pages (2.6),
 * less thread `self`'s own. */
export function filesInWriteback(sim: Simulation, self: number): Set<number> {
  const fl = sim.state.workload.flusher!;
  const busy = new Set<number>();
  if (self !== fl.inst) for (const b of fl.pending) busy.add(b.file);
  sim.state.workload.instances.forEach((inst, i) => {
    if (i !== self) for (const b of inst.gen?.writer.bdp?.pending ?? []) busy.add(b.file);
  });
  return busy;
}

function anyExpired(pc: PageCacheState, beforeNs: number): boolean {
  for (const f of pc.files.values()) if (f.sinceNs <= beforeNs) return true;
  return false;
}

/** A Writeback event: the flusher submits its next bio, or sleeps until there is work. */
export function onWriteback(sim: Simulation, seq: number, now: number): void {
  const fl = sim.state.workload.flusher!;
  if (!fl.armed || seq !== fl.armSeq) return; // superseded by a later arming
  fl.armed = false;
  const pc = sim.state.workload.pageCache!;
  if (now >= fl.lastOldFlushNs + periodNs(sim)) {
    // kupdate (wb_check_old_data_flush): files dirtied more than dirty_expire_centisecs ago
    fl.kupdate = true;
    fl.kupdateBeforeNs = now - pc.spec.dirty_expire_centisecs * CENTISEC_NS;
    fl.lastOldFlushNs = now;
  }
  if (fl.pending.length === 0) fl.pending = nextPass(sim, fl);
  const b = nextRun(pc, fl.pending);
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

/** The next bio a writeback pass sends (startWriteback: the first run of a planned bio
 * still dirty; the rest goes back to the front), off `pending`; null when the pass is done. */
export function nextRun(pc: PageCacheState, pending: WritebackBio[]): WritebackBio | null {
  for (let b = pending.shift(); b; b = pending.shift()) {
    const { run, rest } = startWriteback(pc, b);
    if (rest) pending.unshift(rest);
    if (run) return run;
  }
  return null;
}

/** A thread writing pages back (the flusher, kjournald, a throttled writer on 2.6) submits a
 * write under its own pid (async unless `sync`; a writer's with its I/O priority: class,
 * level). */
export function submitKernelWrite(
  sim: Simulation,
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
export function flusherWakes(sim: Simulation, now: number): void {
  const fl = sim.state.workload.flusher!;
  if (!fl.sleeping) return;
  fl.sleeping = false;
  arm(sim, fl, now);
}

/**
 * One of the flusher's bios completed: its pages are clean; writers held above dirty_ratio
 * go on once below it (`release` resumes one).
 */
export function flusherDone(
  sim: Simulation,
  bio: Bio,
  now: number,
  release: (instIndex: number, now: number) => void,
): void {
  writebackDone(
    sim.state.workload.pageCache!,
    bio.sector / PAGE_SECTORS,
    bio.nSectors / PAGE_SECTORS,
  );
  releaseThrottled(sim, now, release);
  // pages dirtied again under writeback are dirty now: background writeback may resume
  kickFlusher(sim, now);
}

/** Pages were written: writers held above dirty_ratio go on once below it. */
export function releaseThrottled(
  sim: Simulation,
  now: number,
  release: (instIndex: number, now: number) => void,
): void {
  const pc = sim.state.workload.pageCache!;
  const fl = sim.state.workload.flusher!;
  if (fl.throttled.length > 0 && !overDirtyLimit(pc)) {
    const held = fl.throttled.splice(0);
    for (const i of held) release(i, now);
  }
}

/** The page cache and its flusher at this instant, for the UI's inspection panel. */
export function pageCacheView(sim: Simulation): Record<string, unknown> {
  const pc = sim.state.workload.pageCache!;
  const fl = sim.state.workload.flusher!;
  return {
    pages: pc.clean.size + pc.busy.size,
    dirty: pc.dirty,
    writeback: pc.writeback,
    backgroundThresh: backgroundThresh(pc),
    dirtyThresh: dirtyThresh(pc),
    dirtyFiles: pc.files.size,
    flusher: fl.sleeping ? 'sleeping for a request' : fl.pending.length > 0 ? 'writing' : 'idle',
    // 6.18: held above dirty_ratio; 2.6: in balance_dirty_pages (writing back or napping)
    writersWaiting:
      fl.throttled.length + sim.state.workload.instances.filter((i) => i.gen?.writer.bdp).length,
    dirtyExceeded: pc.bdi.dirtyExceeded,
    pagesWritten: pc.pagesWritten,
    pagesWrittenByWriters: pc.pagesWrittenByWriters,
  };
}
