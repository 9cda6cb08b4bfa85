// The 2.6 block layer's request pool (LINUX-SCHEDULERS.md §1): get_request's test for a
// free request (nr_requests per class, batching processes past the limit), the process that
// sleeps for one (S), and __freed_request's wake-up. Kernel 6.18 takes a tag instead
// (tags-mq.ts). Apart from host.ts so its rare branches stay out of the hot path's functions.
import { bioAt } from '../request';
import type { BlockSimulation } from './sim-view';
import { emitBio } from './emit';
import { unplug } from './plug-queue';
import { isBatching, setBatching } from './ioc-batching';
import type { Bio } from './types';

/** Reads and sync writes are sync (rq_is_sync); they carry the unplug hint too. */
export function isSync(bio: Bio): boolean {
  return !bio.write || bio.sync;
}

/** The request-pool class: sync/async since 2.6.30, read/write before. */
export function poolClass(sim: BlockSimulation, bio: Bio): 0 | 1 {
  // `=== true`: an explicit test is one compare (host.ts says why)
  return (sim.model.iosched.queue.poolBySync === true ? isSync(bio) : !bio.write) ? 1 : 0;
}

/**
 * get_request's test: may the process have a request of class c now? It counts it if so.
 * The allocation that fills the pool marks it full and makes its process a batcher; once
 * full, only batchers (and the scheduler's "must") get one, up to half again over
 * nr_requests. Who else sleeps for one plays no part. The batch is counted down only at the
 * limit (the kernel looks the io_context up only there).
 */
export function takeRequest(sim: BlockSimulation, bio: Bio, c: 0 | 1, now: number): boolean {
  const h = sim.state.host;
  const nr = sim.model.iosched.queue.nrRequests;
  const mayQueue = sim.elevator.mayQueue?.(h.elevator, bio, sim.ctx) ?? 'may';
  // rare: the pool's limit, kept out so V8 inlines this common path into its caller
  if (h.allocated[c] + 1 >= nr) return takeRequestAtLimit(sim, bio, c, mayQueue, now);
  if (h.allocated[c] >= Math.floor((3 * nr) / 2)) return false;
  h.allocated[c]++;
  return true;
}

/** takeRequest when this allocation fills the pool (or it is full already). */
function takeRequestAtLimit(
  sim: BlockSimulation,
  bio: Bio,
  c: 0 | 1,
  mayQueue: 'must' | 'may',
  now: number,
): boolean {
  const h = sim.state.host;
  const nr = sim.model.iosched.queue.nrRequests;
  if (!h.full[c]) {
    setBatching(h.batchers, bio.pid, now);
    h.full[c] = true;
  } else if (mayQueue !== 'must' && !isBatching(h.batchers, bio.pid, now)) return false;
  if (h.allocated[c] >= Math.floor((3 * nr) / 2)) return false;
  h.allocated[c]++;
  if (isBatching(h.batchers, bio.pid, now)) h.batchers[bio.pid]!.left--;
  return true;
}

/** S: the process sleeps at the tail of its class's wait queue; it unplugs first. */
export function sleepForRequest(sim: BlockSimulation, bio: Bio, c: 0 | 1, now: number): void {
  if (sim.sink !== null) emitBio(sim, 'S', bio, now);
  sim.state.host.waiters[c].push(bio.slot);
  unplug(sim, now);
}

/**
 * __freed_request: below nr_requests again, the class is no longer full and the first
 * process sleeping for one wakes (one per freed request, as wake_up wakes one exclusive
 * waiter). It wakes a batcher and tries get_request again, sleeping again if it fails.
 */
export function requestFreed(sim: BlockSimulation, c: number, now: number): void {
  const h = sim.state.host;
  if (h.allocated[c]! + 1 > sim.model.iosched.queue.nrRequests) return;
  h.full[c] = false;
  // rare: a process sleeping for a request, kept out so V8 inlines this common path
  if (h.waiters[c]!.length > 0) wakeRequestWaiter(sim, c, now);
}

/** The first process sleeping for a request of class c wakes and tries again. */
function wakeRequestWaiter(sim: BlockSimulation, c: number, now: number): void {
  const h = sim.state.host;
  const bio = bioAt(sim.state.bios, h.waiters[c]!.shift()!);
  const cls = c as 0 | 1;
  setBatching(h.batchers, bio.pid, now);
  if (!takeRequest(sim, bio, cls, now)) {
    sleepForRequest(sim, bio, cls, now);
    return;
  }
  sim.core.newRequest(sim, bio, cls, now);
  sim.submitter.bioWakes(sim, bio, now);
}
