// The drive's queue by cylinder: what SPTF needs to walk outward from the arm instead of
// over the whole queue (sptf-queue.ts, issue 19). Buckets of neighbouring cylinders, each a
// list linked through the request slots: filing and unfiling cost a few stores, where a
// sorted list shifts half the queue each time (a deep queue changes on every command).
// Requests join the drive's queue at its end and are filed here only when SPTF next walks
// by cylinder (fileNew), so the queue's first `filed` requests are in the buckets, the rest
// not yet; a request leaving the queue goes through dequeue. A drive whose SPTF never walks
// by cylinder (a short queue) thus does no filing at all. Plain data (snapshots clone it).
import { requestAt, type IoRequest, type RequestTable } from '../request';

/** At most this many buckets: a queue of tens fills them one or two deep, and the walk
 * outward from the arm looks at a few buckets (at depth 32 on the C2247A, 32 buckets of
 * 128 cylinders ran fastest of 16, 32, 64 and 128). */
const MAX_BUCKETS = 32;

/** CylinderIndex.kind's bits */
export const WRITE = 1;
export const INTERNAL = 2;

export interface CylinderIndex {
  /** log2 of the cylinders one bucket spans */
  shift: number;
  /** by bucket (cylinder >> shift): the slot of its first request, −1 if it has none */
  first: number[];
  /** by request slot, for those filed: the next slot in its bucket (−1: the last) */
  next: number[];
  /** by slot: the previous slot in its bucket, or −1 − bucket for the first */
  prev: number[];
  /** by slot: the cylinder it is filed under */
  cylinder: number[];
  /** by slot: when it was filed, counting up (filed in queue order, so the queue's order:
   * SPTF's ties go to the earlier, sptf-queue.ts) */
  seq: number[];
  /** the next filing's seq */
  nextSeq: number;
  /** by slot, copied as it is filed, so the walk reads a read's estimate's inputs from
   * these few arrays, not from the request: its head and first sector's angle, when it is
   * eligible, and its kind (WRITE, INTERNAL bits). A queued request's place, eligibility and
   * kind are set before it joins the queue and do not change while it waits (a range write
   * is placed as it leaves: range-pick.ts commitPlacement, dequeue below) */
  head: number[];
  angle: number[];
  eligibleNs: number[];
  kind: number[];
  /** the drive's queue's first `filed` requests are filed; the later ones are not yet */
  filed: number;
  /** how many of the filed requests are drive-internal (destages), and writes (destages
   * among them) */
  internal: number;
  writes: number;
  /** no filed request becomes eligible later than this, ns: an upper bound (raised as
   * requests are filed, lowered only when SPTF counts its candidates one by one) */
  eligibleByNs: number;
}

export function createCylinderIndex(cylinders: number): CylinderIndex {
  let shift = 0;
  while (cylinders > MAX_BUCKETS << shift) shift++;
  const n = Math.max(1, Math.ceil(cylinders / (1 << shift)));
  return {
    shift,
    first: new Array<number>(n).fill(-1),
    next: [],
    prev: [],
    cylinder: [],
    seq: [],
    nextSeq: 0,
    head: [],
    angle: emptyDoubles(),
    eligibleNs: emptyDoubles(),
    kind: [],
    filed: 0,
    internal: 0,
    writes: 0,
    eligibleByNs: -Infinity,
  };
}

/** An empty array whose elements V8 keeps as doubles: an array's element kind is set by what
 * it first holds and kept when it is emptied. Made empty (`[]`), each new simulation's index
 * changed kind at its first filing, and the walk's optimised code, made for the last
 * simulation's arrays, was thrown away (a deopt, then a run unoptimised until made again). */
function emptyDoubles(): number[] {
  const a = [0.5];
  a.pop();
  return a;
}

/** File the requests that joined `queue` (located: their cylinders known) since the last
 * time: every request in it is then filed. */
export function fileNew(ix: CylinderIndex, table: RequestTable, queue: readonly number[]): void {
  for (let i = ix.filed; i < queue.length; i++) {
    const rq = requestAt(table, queue[i]!);
    const s = rq.slot;
    while (ix.next.length <= s) {
      ix.next.push(-1);
      ix.prev.push(-1);
      ix.cylinder.push(0);
      ix.seq.push(0);
      ix.head.push(0);
      ix.angle.push(0.5); // (doubles from the start: V8 keeps one element kind)
      ix.eligibleNs.push(0.5);
      ix.kind.push(0);
    }
    // first in its bucket
    const b = bucketOf(ix, rq.cylinder);
    const head = ix.first[b]!;
    ix.next[s] = head;
    ix.prev[s] = -1 - b;
    if (head >= 0) ix.prev[head] = s;
    ix.first[b] = s;
    ix.cylinder[s] = rq.cylinder;
    ix.seq[s] = ix.nextSeq++;
    ix.head[s] = rq.head;
    ix.angle[s] = rq.angle;
    ix.eligibleNs[s] = rq.eligibleNs;
    ix.kind[s] = (rq.write ? WRITE : 0) | (rq.internal ? INTERNAL : 0);
    if (rq.internal) ix.internal++;
    if (rq.write) ix.writes++;
    if (rq.eligibleNs > ix.eligibleByNs) ix.eligibleByNs = rq.eligibleNs;
  }
  ix.filed = queue.length;
}

/** The part of the drive's state this file keeps: the queue and, for SPTF, its index. */
export interface IndexedQueue {
  /** commands waiting for the mechanism (request slots), in arrival order */
  queue: number[];
  byCylinder: CylinderIndex | null;
}

/** The request at index `i` of the drive's queue leaves it (the mechanism starts it). A
 * filed one leaves the bucket it was filed in, even if it has moved since (a range write
 * placed as it was chosen, range-pick.ts commitPlacement). */
export function dequeue(drive: IndexedQueue, i: number, rq: IoRequest): void {
  // arrays.ts removeAt's loop, kept here: that one serves arrays of every kind, this one
  // only the queue's small integers (V8 compiles it for them alone)
  const queue = drive.queue;
  if (i >= 0) {
    for (let j = i + 1; j < queue.length; j++) queue[j - 1] = queue[j]!;
    queue.pop();
  }
  unfile(drive, i, rq);
}

/**
 * dequeue for a request known by its slot alone (SPTF's choice by cylinder): its place is
 * found from the queue's end, each request after it moving down one as the search passes
 * it — one loop over the requests after it, where finding its index and then shifting
 * walks the whole queue (half of it, on average, at depth 32). The same queue after.
 */
export function dequeueSlot(drive: IndexedQueue, rq: IoRequest): void {
  const queue = drive.queue;
  const slot = rq.slot;
  let i = queue.length - 1;
  let carry = queue.pop();
  while (carry !== slot && i > 0) {
    const moved = queue[--i]!;
    queue[i] = carry!;
    carry = moved;
  }
  if (carry !== slot) notQueued(slot);
  unfile(drive, i, rq);
}

function notQueued(slot: number): never {
  throw new Error(`request slot ${slot} is not in the drive's queue`);
}

/** The request that was at index `i` of the queue leaves the index, if it was filed. */
function unfile(drive: IndexedQueue, i: number, rq: IoRequest): void {
  const ix = drive.byCylinder;
  if (ix === null || i >= ix.filed) return;
  ix.filed--;
  const s = rq.slot;
  const p = ix.prev[s]!;
  const n = ix.next[s]!;
  if (p >= 0) ix.next[p] = n;
  else ix.first[-1 - p] = n;
  if (n >= 0) ix.prev[n] = p;
  if (rq.internal) ix.internal--;
  if (rq.write) ix.writes--;
}

/** The bucket holding a cylinder (one off the disk's end goes to the nearest bucket). */
export function bucketOf(ix: CylinderIndex, cylinder: number): number {
  const b = cylinder >> ix.shift;
  const last = ix.first.length - 1;
  return b < 0 ? 0 : b > last ? last : b;
}
