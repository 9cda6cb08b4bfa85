// Per-task plugging, the block layer of Linux 2.6.39 onwards as blk-mq has it in 6.x
// (LINUX-SCHEDULERS.md §9.1; the kernel's blk_add_rq_to_plug, blk_attempt_plug_merge,
// blk_mq_flush_plug_list). There is no queue plug and no unplug timer: each process
// gathers the requests it submits in one go in a plug of its own — P when the first
// arrives — and a bio may merge into the plug's newest request first. The plug is flushed
// when the process's submission ends (U with the number of requests) or when the process
// sleeps (UT): its requests enter the scheduler in order (I each; `none` issues them
// directly) and the queue runs. A plug holding 32 requests, or whose newest request has
// 128 KiB (while merging is on: nomerges < 2), is flushed before the next one joins. In
// Spindle a submission is what one process issues at one instant: the flush is an event at
// that instant after every issue — unless the process holds its plug over several issues
// (holdTaskPlug: a replayed trace's Qs between one P and its U, submitted by a task that did
// not sleep between them), when the flush comes after the last of them (releaseTaskPlug).
import { requestAt, type IoRequest } from '../request';
import { pushEvent } from '../sim/heap';
import { EventKind, EventPriority } from '../sim/events';
import type { BlockSimulation } from './sim-view';
import { emitPlug } from './emit';
import { joinBio, mergeOk } from './merge';
import type { Bio } from './types';

/** BLK_MAX_REQUEST_COUNT: a plug takes this many requests before it is flushed */
export const PLUG_MAX_REQUESTS = 32;
/** BLK_PLUG_FLUSH_SIZE: a request this large (bytes) flushes the plug before the next */
export const PLUG_FLUSH_BYTES = 128 * 1024;

/** One process's plug: its requests in submission order, and whether its flush is due. */
export interface TaskPlug {
  rqs: number[];
  flushDue: boolean;
  /** the process goes on submitting under this plug (blk_start_plug without its
   * blk_finish_plug yet): no flush at this instant */
  held: boolean;
}

/** blk_attempt_plug_merge: the bio joins the newest request of its process's plug — the
 * scheduler's allow_merge is not asked (BFQ's could not answer: the request has no queue
 * before it is inserted). */
export function plugMerge(sim: BlockSimulation, bio: Bio, now: number): boolean {
  const plug = sim.state.host.taskPlugs[bio.pid];
  if (plug === undefined || plug.rqs.length === 0) return false;
  const rq = requestAt(sim.state.requests, plug.rqs[plug.rqs.length - 1]!);
  if (!mergeOk(sim, rq, bio, false)) return false;
  if (rq.nSectors + bio.nSectors > sim.model.iosched.queue.maxSectors) return false;
  const back = rq.sector + rq.nSectors === bio.sector;
  if (!back && rq.sector !== bio.sector + bio.nSectors) return false;
  joinBio(sim, rq, bio, !back, now);
  return true;
}

/** blk_add_rq_to_plug: a new request (after G) waits in its process's plug. */
export function addToPlug(sim: BlockSimulation, rq: IoRequest, bio: Bio, now: number): void {
  const plugs = sim.state.host.taskPlugs;
  const plug = (plugs[bio.pid] ??= { rqs: [], flushDue: false, held: false });
  const n = plug.rqs.length;
  if (n > 0) {
    const last = requestAt(sim.state.requests, plug.rqs[n - 1]!);
    // the size rule is for merging: with nomerges 2 only the count flushes the plug
    const big = sim.model.iosched.queue.nomerges !== 2 && last.nSectors * 512 >= PLUG_FLUSH_BYTES;
    if (n >= PLUG_MAX_REQUESTS || big) flushTaskPlug(sim, bio.pid, now, false);
  }
  if (plug.rqs.length === 0 && sim.sink) emitPlug(sim, 'P', now, 0, bio);
  plug.rqs.push(rq.slot);
  if (!plug.held) flushAtThisInstant(sim, plug, bio.pid, now);
}

function flushAtThisInstant(sim: BlockSimulation, plug: TaskPlug, pid: number, now: number): void {
  if (plug.flushDue) return;
  plug.flushDue = true;
  pushEvent(sim.state.heap, now, EventPriority.HostTimer, EventKind.PlugFlush, pid);
}

/** blk_start_plug over more than one issue: the process's next issue joins this
 * submission, whenever it comes (it is running, not sleeping: a task that sleeps with a
 * plug flushes it, UT — as one sleeping for a tag still does). */
export function holdTaskPlug(sim: BlockSimulation, pid: number): void {
  const plugs = sim.state.host.taskPlugs;
  (plugs[pid] ??= { rqs: [], flushDue: false, held: false }).held = true;
}

/** blk_finish_plug after the last issue of a held submission: the flush, at this instant
 * after every issue at it (the last bio may have merged in the plug: no addToPlug). */
export function releaseTaskPlug(sim: BlockSimulation, pid: number, now: number): void {
  const plug = sim.state.host.taskPlugs[pid];
  if (plug === undefined || !plug.held) return;
  plug.held = false;
  if (plug.rqs.length > 0) flushAtThisInstant(sim, plug, pid, now);
}

/** The process's submission is over: blk_finish_plug. */
export function onPlugFlush(sim: BlockSimulation, pid: number, now: number): void {
  const plug = sim.state.host.taskPlugs[pid];
  if (plug === undefined) return;
  plug.flushDue = false;
  if (plug.held) return; // the submission goes on: releaseTaskPlug flushes it
  flushTaskPlug(sim, pid, now, false);
}

/**
 * blk_mq_flush_plug_list: U (or UT when the process is about to sleep) with the number
 * of requests, each into the scheduler (I) in submission order, then run the queue.
 */
export function flushTaskPlug(
  sim: BlockSimulation,
  pid: number,
  now: number,
  fromSchedule: boolean,
): void {
  const plug = sim.state.host.taskPlugs[pid];
  if (plug === undefined || plug.rqs.length === 0) return;
  const slots = plug.rqs;
  plug.rqs = [];
  const table = sim.state.requests;
  const first = requestAt(table, slots[0]!);
  if (sim.sink) emitPlug(sim, fromSchedule ? 'T' : 'U', now, slots.length, first);
  const h = sim.state.host;
  const e = sim.elevator;
  for (const slot of slots) {
    const rq = requestAt(table, slot);
    if (e.passthrough) {
      // no scheduler: blk-mq issues the plug's requests directly (no I)
      e.add(h.elevator, rq, sim.ctx);
      continue;
    }
    sim.core.insert(sim, rq, now);
  }
  sim.core.runQueue(sim, now);
}
