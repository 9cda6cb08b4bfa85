// The drive's queue by cylinder: what SPTF needs to walk outward from the arm instead of
// over the whole queue (sptf-queue.ts, issue 19). Kept beside the queue itself, entry for
// entry: every command that joins or leaves the drive's queue goes through enqueue/dequeue.
// Buckets of neighbouring cylinders rather than one sorted list: joining and leaving cost
// a push and a swap, where a sorted list shifts half the queue each time (a deep queue
// changes on every command). Plain data (snapshots clone the drive's state).
import { removeAt } from '../arrays';
import type { IoRequest } from '../request';

/** At most this many buckets: a queue of tens fills them one or two deep, and the walk
 * outward from the arm looks at a few buckets (at depth 32 on the C2247A, 32 buckets of
 * 128 cylinders ran fastest of 16, 32, 64 and 128). */
const MAX_BUCKETS = 32;

export interface CylinderIndex {
  /** log2 of the cylinders one bucket spans */
  shift: number;
  /** by bucket (cylinder >> shift): its requests as pairs [slot, cylinder, slot, cylinder,
   * …], in no particular order */
  buckets: number[][];
  /** how many of the queue's requests are drive-internal (destages) */
  internal: number;
  /** no request in the queue becomes eligible later than this, ns: an upper bound (raised
   * as requests join, lowered only when SPTF counts its candidates one by one) */
  eligibleByNs: number;
}

export function createCylinderIndex(cylinders: number): CylinderIndex {
  let shift = 0;
  while (cylinders > MAX_BUCKETS << shift) shift++;
  const n = Math.max(1, Math.ceil(cylinders / (1 << shift)));
  return {
    shift,
    buckets: Array.from({ length: n }, () => []),
    internal: 0,
    eligibleByNs: -Infinity,
  };
}

/** The part of the drive's state this file keeps: the queue and, for SPTF, its index. */
export interface IndexedQueue {
  /** commands waiting for the mechanism (request slots), in arrival order */
  queue: number[];
  byCylinder: CylinderIndex | null;
}

/** A located request (its cylinder known) joins the drive's queue. */
export function enqueue(drive: IndexedQueue, rq: IoRequest): void {
  drive.queue.push(rq.slot);
  const ix = drive.byCylinder;
  if (ix === null) return;
  ix.buckets[bucketOf(ix, rq.cylinder)]!.push(rq.slot, rq.cylinder);
  if (rq.internal) ix.internal++;
  if (rq.eligibleNs > ix.eligibleByNs) ix.eligibleByNs = rq.eligibleNs;
}

/** The request at index `i` of the drive's queue leaves it (the mechanism starts it). */
export function dequeue(drive: IndexedQueue, i: number, rq: IoRequest): void {
  removeAt(drive.queue, i);
  const ix = drive.byCylinder;
  if (ix === null) return;
  let pairs = ix.buckets[bucketOf(ix, rq.cylinder)]!;
  let k = 0;
  while (k < pairs.length && pairs[k] !== rq.slot) k += 2;
  if (k >= pairs.length) {
    // a range write placed as it was chosen (range-pick.ts commitPlacement) has moved since
    // it joined: it is filed under the cylinder it had then
    for (const other of ix.buckets) {
      k = 0;
      while (k < other.length && other[k] !== rq.slot) k += 2;
      if (k < other.length) {
        pairs = other;
        break;
      }
    }
    if (k >= pairs.length) throw new Error(`request ${rq.id} is not in the drive's queue index`);
  }
  // the last pair takes its place
  const last = pairs.length - 2;
  pairs[k] = pairs[last]!;
  pairs[k + 1] = pairs[last + 1]!;
  pairs.pop();
  pairs.pop();
  if (rq.internal) ix.internal--;
}

/** The bucket holding a cylinder (one off the disk's end goes to the nearest bucket). */
export function bucketOf(ix: CylinderIndex, cylinder: number): number {
  const b = cylinder >> ix.shift;
  const last = ix.buckets.length - 1;
  return b < 0 ? 0 : b > last ? last : b;
}
