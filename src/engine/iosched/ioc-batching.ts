// The 2.6 request pool's io_context batching (block/blk-core.c): the process whose
// allocation fills the pool, or that is woken with a request, may go past nr_requests for a
// while — BLK_BATCH_REQ requests, within BLK_BATCH_TIME.

/** A process allowed past a full pool for a while. */
interface Batcher {
  left: number;
  untilNs: number;
}

/** The batchers by pid (plain data: part of the host's state). */
export type Batchers = Record<number, Batcher>;

/** BLK_BATCH_REQ and BLK_BATCH_TIME (HZ/50 = 20 ms). */
const BATCH_REQUESTS = 32;
const BATCH_TIME_NS = 20e6;

/** ioc_batching: a fresh batcher (its whole batch left) has no time limit; one that has
 * used some may go on for BLK_BATCH_TIME after it became one. */
export function isBatching(batchers: Batchers, pid: number, now: number): boolean {
  const b = batchers[pid];
  return b !== undefined && (b.left === BATCH_REQUESTS || (b.left > 0 && now < b.untilNs));
}

/** ioc_set_batching: the process becomes a new batcher, unless it is one already. */
export function setBatching(batchers: Batchers, pid: number, now: number): void {
  if (isBatching(batchers, pid, now)) return;
  batchers[pid] = { left: BATCH_REQUESTS, untilNs: now + BATCH_TIME_NS };
}
