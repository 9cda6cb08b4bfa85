// blk-mq's tag pool, as kernel 6.18 has it (block/blk-mq-tag.c blk_mq_get_tag /
// blk_mq_put_tag over lib/sbitmap.c): ONE tag space per queue, shared by reads and writes,
// sync and async — no per-class pools, no io_context batching, no 3/2 overshoot and no
// congestion marks (all of that is 2.6's get_request, host.ts). With a scheduler attached
// a request takes a scheduler tag, nr_requests of them (blk_mq_default_nr_requests:
// 2 × min(the driver's queue depth, BLKDEV_DEFAULT_RQ 128)); with `none` it takes a driver
// tag, the driver's queue depth. A scheduler may limit how deep a request reaches
// (limit_depth: mq-deadline's async_depth for async requests and writes); since 6.17 that
// "shallow depth" counts tags over the whole bitmap, not per sbitmap word.
//
// A bio that finds no tag sleeps (no trace event; its process's plug is flushed first, UT)
// on one of SBQ_WAIT_QUEUES wait queues, each sleeper on the next queue in turn
// (bt_wait_ptr). A freed tag wakes no one until wake_batch tags were freed while someone
// slept (sbitmap_queue_wake_up); then wake_batch sleepers wake, taken queue by queue from
// wake_index, each queue oldest first (__sbitmap_queue_wake_up). A free tag is taken by
// whoever asks first: a new bio does not queue behind the sleepers, and a woken sleeper
// that finds the tags gone again sleeps, on the next wait queue in turn.
//
// BLOCKED: a process asleep in blk_mq_get_tag submits nothing more until it wakes. A
// process whose bios arrive at given times (a replay, a fixed list) still has them queued
// (Q) and merged at those times; those that need a request wait behind its sleeping one
// and ask for tags, in order, once it has its own.
//
// Spindle counts tags instead of keeping the bitmap: which bits a request gets depends
// on per-CPU allocation hints the kernel seeds at random. So a shallow-limited request
// finds a tag while fewer than the limit are held by shallow-limited requests (the most
// the kernel lets them hold); the kernel may refuse earlier, when sync reads happen to
// sit in the bits the limit leaves open.
import { bioAt } from '../request';
import type { BlockSimulation } from './sim-view';
import { flushTaskPlug } from './plug-task';
import type { Bio } from './types';
import { mqTagDepth } from './mq-defaults';

export { BLKDEV_DEFAULT_RQ, mqTagDepth } from './mq-defaults';

/** SBQ_WAIT_QUEUES and SBQ_WAKE_BATCH (include/linux/sbitmap.h) */
export const SBQ_WAIT_QUEUES = 8;
export const SBQ_WAKE_BATCH = 8;

/** The request class for the tag pool: limited by the scheduler's shallow depth or not. */
export const SHALLOW = 0;
export const FULL_DEPTH = 1;

export interface MqTags {
  /** tags in the pool: nr_requests (scheduler tags) or the driver's depth (`none`) */
  depth: number;
  /** sbitmap's wake_batch */
  wakeBatch: number;
  /** tags held, and those held by shallow-limited requests */
  used: number;
  shallowUsed: number;
  /** bio slots asleep, per wait queue, oldest first */
  wait: number[][];
  /** hctx->wait_index: the queue the next sleeper joins; sbq->wake_index: the next woken */
  waitIndex: number;
  wakeIndex: number;
  /** sleepers in all queues (ws_active) */
  sleeping: number;
  /** tags freed while someone slept, not yet paid out in wakeups (completion_cnt − wakeup_cnt) */
  freedUnpaid: number;
  /** woken sleepers about to retry (bio slots, in wake order) */
  woken: number[];
  /** by pid, a process asleep for a tag: the bios it submitted since, in order */
  blocked: Record<number, number[]>;
}

export function createMqTags(): MqTags {
  return {
    depth: 0,
    wakeBatch: 1,
    used: 0,
    shallowUsed: 0,
    wait: Array.from({ length: SBQ_WAIT_QUEUES }, () => []),
    waitIndex: 0,
    wakeIndex: 0,
    sleeping: 0,
    freedUnpaid: 0,
    woken: [],
    blocked: {},
  };
}

/** sbq_calc_wake_batch (6.17 on): min(depth, min_shallow_depth) / 8, within 1..8. */
export function mqWakeBatch(depth: number, minShallowDepth: number): number {
  const n = Math.floor(Math.min(depth, minShallowDepth) / SBQ_WAIT_QUEUES);
  return Math.min(SBQ_WAKE_BATCH, Math.max(1, n));
}

/** Size the pool for this run (at the simulation's start). */
export function initMqTags(sim: BlockSimulation): void {
  const t = sim.state.host.mq;
  const q = sim.model.iosched.queue;
  const e = sim.elevator;
  const tagSet = sim.model.disk.params.maxQueueDepth;
  t.depth = mqTagDepth(tagSet, !e.passthrough, q.nrRequestsSet ? q.nrRequests : null);
  // a scheduler that limits depth declares its smallest shallow depth (mq-deadline: 1), or
  // derives it from nr_requests (depth_updated; Kyber: its async_depth)
  const minShallow = e.depthUpdated
    ? e.depthUpdated(sim.state.host.elevator, t.depth)
    : (e.minShallowDepth ?? Infinity);
  t.wakeBatch = mqWakeBatch(t.depth, minShallow);
}

/**
 * __blk_mq_get_tag: a tag for a request limited to `shallow` tags (Infinity: none), as
 * its class (SHALLOW or FULL_DEPTH), or −1 when none is free to it.
 */
export function mqTryGet(t: MqTags, shallow: number): number {
  if (t.used >= t.depth) return -1;
  if (shallow < t.depth) {
    if (t.shallowUsed >= shallow) return -1;
    t.shallowUsed++;
    t.used++;
    return SHALLOW;
  }
  t.used++;
  return FULL_DEPTH;
}

/** bt_wait_ptr: the wait queue a bio that found no tag will sleep on; the next one after. */
export function mqWaitPtr(t: MqTags): number {
  const ws = t.waitIndex;
  t.waitIndex = (ws + 1) % SBQ_WAIT_QUEUES;
  return ws;
}

/** sbitmap_prepare_to_wait + io_schedule: the bio sleeps on wait queue `ws`, last. */
export function mqSleep(t: MqTags, ws: number, bioSlot: number): void {
  t.wait[ws]!.push(bioSlot);
  t.sleeping++;
}

/**
 * blk_mq_put_tag → sbitmap_queue_clear → sbitmap_queue_wake_up(1): the tag is free; once
 * wake_batch tags were freed while someone slept, wake_batch sleepers move to `woken`.
 */
export function mqPut(t: MqTags, cls: number): void {
  t.used--;
  if (cls === SHALLOW) t.shallowUsed--;
  if (t.sleeping === 0) return; // nobody waits: the free is not counted
  t.freedUnpaid++;
  if (t.freedUnpaid < t.wakeBatch) return;
  t.freedUnpaid -= t.wakeBatch;
  // __sbitmap_queue_wake_up: from wake_index, advancing before each queue is looked at
  let nr = t.wakeBatch;
  for (let i = 0; i < SBQ_WAIT_QUEUES && nr > 0; i++) {
    const ws = t.wait[t.wakeIndex]!;
    t.wakeIndex = (t.wakeIndex + 1) % SBQ_WAIT_QUEUES;
    while (nr > 0 && ws.length > 0) {
      t.woken.push(ws.shift()!);
      t.sleeping--;
      nr--;
    }
  }
}

/** The scheduler's limit_depth for this bio: the shallow depth, Infinity for none. */
function shallowOf(sim: BlockSimulation, bio: Bio): number {
  const e = sim.elevator;
  return e.limitDepth ? e.limitDepth(sim.state.host.elevator, bio) : Infinity;
}

/**
 * blk_mq_get_new_requests → blk_mq_get_tag: a request (G) with a tag, or the bio sleeps.
 * Before it sleeps (io_schedule) its process's plug is flushed (UT); the sleep itself
 * is not traced — 6.18 has no S.
 */
export function mqGetRequest(sim: BlockSimulation, bio: Bio, now: number): void {
  const t = sim.state.host.mq;
  // its process sleeps in blk_mq_get_tag: this bio waits until it wakes (see BLOCKED)
  const behind = t.blocked[bio.pid];
  if (behind !== undefined) {
    behind.push(bio.slot);
    return;
  }
  const cls = mqTryGet(t, shallowOf(sim, bio));
  if (cls >= 0) {
    sim.core.newRequest(sim, bio, cls, now);
    return;
  }
  const ws = mqWaitPtr(t);
  flushTaskPlug(sim, bio.pid, now, true);
  mqSleep(t, ws, bio.slot);
  t.blocked[bio.pid] = [];
}

/** A request was freed: its tag goes back, and the sleepers it wakes try again in turn. */
export function mqRequestFreed(sim: BlockSimulation, cls: number, now: number): void {
  const t = sim.state.host.mq;
  mqPut(t, cls);
  while (t.woken.length > 0) {
    const slot = t.woken.shift()!;
    const bio = bioAt(sim.state.bios, slot);
    // woken, it takes bt_wait_ptr again before it retries
    const ws = mqWaitPtr(t);
    const got = mqTryGet(t, shallowOf(sim, bio));
    if (got < 0) {
      mqSleep(t, ws, slot); // the tags went to others first: asleep again
      continue;
    }
    sim.core.newRequest(sim, bio, got, now);
    sim.submitter.bioWakes(sim, bio, now);
    // awake, the process goes on with the bios it submitted meanwhile, in order
    const behind = t.blocked[bio.pid]!;
    delete t.blocked[bio.pid];
    for (const next of behind) {
      const b = bioAt(sim.state.bios, next);
      mqGetRequest(sim, b, now);
      if (b.rq >= 0) sim.submitter.bioWakes(sim, b, now);
    }
  }
}

/** Whether this bio waits for a tag: the last to sleep on its queue, or last behind its
 * sleeping process. */
export function mqSleeps(t: MqTags, bioSlot: number, pid: number): boolean {
  const behind = t.blocked[pid];
  if (behind !== undefined && behind[behind.length - 1] === bioSlot) return true;
  for (const ws of t.wait) if (ws[ws.length - 1] === bioSlot) return true;
  return false;
}
