// Merging a bio into a pending request (LINUX-SCHEDULERS.md §1.4, the kernel's elv_merge
// and attempt_merge): the one-hit cache, the back-merge hash keyed by end sector, the
// scheduler's front-merge hook, the merge-ok rules, max_sectors, and the request–request
// merge that may follow. Emits M / F per bio.
import { requestAt, type IoRequest } from '../request';
import type { BlockSimulation } from './sim-view';
import { emitBio } from './emit';
import type { Bio } from './types';

/**
 * The back-merge hash (the kernel's elv_rqhash): 64 buckets of request slots, keyed by
 * end sector >> 3. Each request remembers the end it was hashed under (rq.hashEnd).
 */
export type MergeHash = number[][];

const HASH_BUCKETS = 64;

export function createMergeHash(): MergeHash {
  return Array.from({ length: HASH_BUCKETS }, () => []);
}

function bucketOf(h: MergeHash, end: number): number[] {
  return h[Math.floor(end / 8) % HASH_BUCKETS]!;
}

export function hashAdd(h: MergeHash, rq: IoRequest): void {
  rq.hashEnd = rq.sector + rq.nSectors;
  bucketOf(h, rq.hashEnd).push(rq.slot);
}

export function hashDel(h: MergeHash, rq: IoRequest): void {
  if (rq.hashEnd < 0) return;
  const bucket = bucketOf(h, rq.hashEnd);
  const i = bucket.indexOf(rq.slot);
  if (i >= 0) {
    bucket[i] = bucket[bucket.length - 1]!;
    bucket.pop();
  }
  rq.hashEnd = -1;
}

/** elv_rq_merge_ok: not started or barred, same direction, and the scheduler agrees —
 * unless it is not asked (6.18's plug merge: blk_attempt_bio_merge's sched_allow_merge
 * is false there). */
export function mergeOk(
  sim: BlockSimulation,
  rq: IoRequest,
  bio: Bio,
  askScheduler = true,
): boolean {
  if (!rq.mergeable || rq.write !== bio.write) return false;
  if (!askScheduler) return true;
  const allow = sim.elevator.allowMerge;
  return allow ? allow(sim.state.host.elevator, rq, bio, sim.ctx) : true;
}

type Found = { rq: IoRequest; front: boolean } | null;

/** Where the bio could go: the one-hit cache, then the hash, then the scheduler's tree. */
function findMerge(sim: BlockSimulation, bio: Bio): Found {
  const h = sim.state.host;
  const settings = sim.model.iosched.queue;
  const table = sim.state.requests;
  const end = bio.sector + bio.nSectors;
  if (settings.nomerges === 2) return null; // blk_queue_nomerges: no merge at all
  if (h.lastMerge >= 0) {
    const rq = requestAt(table, h.lastMerge);
    if (mergeOk(sim, rq, bio)) {
      if (rq.sector + rq.nSectors === bio.sector) return { rq, front: false };
      if (rq.sector === end) return { rq, front: true };
    }
  }
  if (settings.nomerges === 1) return null; // blk_queue_noxmerges: the one-hit cache only
  if (settings.backMergeHash || !sim.elevator.legacyOneHitOnly) {
    const bucket = bucketOf(h.hash, bio.sector);
    for (let i = bucket.length - 1; i >= 0; i--) {
      const rq = requestAt(table, bucket[i]!);
      if (rq.hashEnd !== bio.sector) continue;
      if (!rq.mergeable)
        hashDel(h.hash, rq); // stale: drop it, as the kernel does
      else if (mergeOk(sim, rq, bio)) return { rq, front: false };
    }
  }
  const hook = sim.elevator.frontMergeCandidate;
  if (hook) {
    const slot = hook(h.elevator, bio, end, sim.ctx);
    if (slot >= 0) {
      const rq = requestAt(table, slot);
      if (mergeOk(sim, rq, bio)) return { rq, front: true };
    }
  }
  return null;
}

/** The request gets the better I/O priority of the two (lower class, then lower level). */
function bestPrio(into: { ioprioClass: number; ioprioLevel: number }, from: typeof into): void {
  if (
    from.ioprioClass < into.ioprioClass ||
    (from.ioprioClass === into.ioprioClass && from.ioprioLevel < into.ioprioLevel)
  ) {
    into.ioprioClass = from.ioprioClass;
    into.ioprioLevel = from.ioprioLevel;
  }
}

/** Try to merge `bio` into a pending request. True if it joined one (M or F emitted). */
export function tryMerge(sim: BlockSimulation, bio: Bio, now: number): boolean {
  const h = sim.state.host;
  const found = findMerge(sim, bio);
  if (!found) return false;
  const { rq, front } = found;
  if (rq.nSectors + bio.nSectors > sim.model.iosched.queue.maxSectors) {
    // Too big: the request takes no more bios; the bio gets a request of its own.
    rq.mergeable = false;
    hashDel(h.hash, rq);
    if (h.lastMerge === rq.slot) h.lastMerge = -1;
    return false;
  }
  const e = sim.elevator;
  if (front) {
    joinBio(sim, rq, bio, true, now);
    const prev = e.formerRequest ? e.formerRequest(h.elevator, rq, sim.ctx) : -1;
    if (prev < 0 || !attemptMerge(sim, requestAt(sim.state.requests, prev), rq)) {
      e.merged?.(h.elevator, rq, true, sim.ctx);
      h.lastMerge = rq.slot;
    }
  } else {
    hashDel(h.hash, rq);
    joinBio(sim, rq, bio, false, now);
    hashAdd(h.hash, rq); // under its new end
    const next = e.latterRequest ? e.latterRequest(h.elevator, rq, sim.ctx) : -1;
    if (next < 0 || !attemptMerge(sim, rq, requestAt(sim.state.requests, next))) {
      e.merged?.(h.elevator, rq, false, sim.ctx);
      h.lastMerge = rq.slot;
    }
  }
  return true;
}

/** The bio joins `rq` at its front or back (F or M): its extent, bios, priority, counts.
 * Shared by the scheduler's merges (tryMerge) and 6.18's plug merge (plug-task.ts). */
export function joinBio(
  sim: BlockSimulation,
  rq: IoRequest,
  bio: Bio,
  front: boolean,
  now: number,
): void {
  const h = sim.state.host;
  bio.rq = rq.slot;
  bestPrio(rq, bio);
  if (bio.serviceNs > rq.serviceNs) rq.serviceNs = bio.serviceNs;
  if (sim.sink) emitBio(sim, front ? 'F' : 'M', bio, now);
  rq.nSectors += bio.nSectors;
  if (front) {
    rq.sector = bio.sector;
    rq.bios.unshift(bio.slot);
    h.frontMerges++;
  } else {
    rq.bios.push(bio.slot);
    h.backMerges++;
  }
}

/**
 * attempt_merge: `next` joins `req` if it starts where `req` ends, both can still merge,
 * they go the same way and the result fits max_sectors. The survivor keeps the earlier
 * start time; the scheduler moves the FIFO deadline (requestsMerged); `next` is freed.
 * Not traced in 2.6.
 */
function attemptMerge(sim: BlockSimulation, req: IoRequest, next: IoRequest): boolean {
  if (!req.mergeable || !next.mergeable) return false;
  if (req.sector + req.nSectors !== next.sector || req.write !== next.write) return false;
  if (req.nSectors + next.nSectors > sim.model.iosched.queue.maxSectors) return false;
  const h = sim.state.host;
  hashDel(h.hash, req);
  hashDel(h.hash, next);
  req.nSectors += next.nSectors;
  for (const b of next.bios) {
    req.bios.push(b);
    sim.state.bios.slots[b]!.rq = req.slot;
  }
  if (next.queuedNs < req.queuedNs) req.queuedNs = next.queuedNs;
  if (next.serviceNs > req.serviceNs) req.serviceNs = next.serviceNs;
  bestPrio(req, next);
  hashAdd(h.hash, req);
  sim.elevator.requestsMerged?.(h.elevator, req, next, sim.ctx);
  h.lastMerge = req.slot;
  h.sorted--;
  sim.core.release(sim, next);
  return true;
}

/** blk_bio_list_merge looks at this many requests from the list's tail */
export const LIST_MERGE_CHECKED = 8;

/**
 * blk_bio_list_merge: the bio joins one of the list's newest eight requests at its back or
 * front (blk_attempt_bio_merge). A request too large to take it (ll_back_merge_fn /
 * ll_front_merge_fn) is marked unmergeable and ends the search: the bio gets its own.
 * No request–request merge follows, and the one-hit cache is not consulted.
 */
export function tryListMerge(
  sim: BlockSimulation,
  bio: Bio,
  list: readonly number[],
  now: number,
): boolean {
  const table = sim.state.requests;
  const end = bio.sector + bio.nSectors;
  const last = Math.max(0, list.length - LIST_MERGE_CHECKED);
  for (let i = list.length - 1; i >= last; i--) {
    const rq = requestAt(table, list[i]!);
    if (!mergeOk(sim, rq, bio)) continue;
    const back = rq.sector + rq.nSectors === bio.sector;
    if (!back && rq.sector !== end) continue;
    if (rq.nSectors + bio.nSectors > sim.model.iosched.queue.maxSectors) {
      rq.mergeable = false; // req_set_nomerge
      return false;
    }
    joinBio(sim, rq, bio, !back, now);
    return true;
  }
  return false;
}
