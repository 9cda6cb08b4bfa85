// The service tree (one ordered list of busy queues: RT first, IDLE last, then by key),
// the per-level prio trees of queues by next_rq sector, and the close-cooperator search
// built on them. LINUX-SCHEDULERS.md §5.4, §5.6 step 4. The kernel's red-black trees are
// arrays here, kept in the same in-order sequence.
import { insertAt, removeAt } from './common';
import {
  CFQ_IDLE_DELAY_MS,
  CFQ_PREEMPT_LEAD_MS,
  CFQQ_SEEK_THR,
  CLASS_IDLE,
  CLASS_RT,
  jiffiesNow,
  logq,
  msecsToJiffies,
  sampleValid,
  seeky,
  type CfqQueue,
  type CfqState,
} from './cfq-types';
import { prioSlice, queueSlice } from './cfq-queue';
import type { ElevatorContext } from './types';

function sectorOfNext(s: CfqState, q: CfqQueue, ctx: ElevatorContext): number {
  return ctx.rq(q.nextRq).sector;
}

/**
 * cfq_slice_offset: lower priorities start further back, by the number of busy queues.
 * The kernel computes it in unsigned int: a queue whose slice is longer than a level-0
 * sync slice (only with odd tunables, e.g. slice_async > slice_sync) wraps to ~2^32
 * jiffies, which on a 64-bit kernel puts it at the very back. Spindle does the same.
 */
function sliceOffset(s: CfqState, q: CfqQueue): number {
  const diff = (prioSlice(s, true, 0) - queueSlice(s, q)) >>> 0;
  return ((s.busyQueues - 1) * diff) % 2 ** 32;
}

/** Service-tree order: does `a` (with key) go before `b`? RT first, IDLE last, then key. */
function before(a: CfqQueue, key: number, b: CfqQueue): boolean {
  const art = a.ioprioClass === CLASS_RT;
  const brt = b.ioprioClass === CLASS_RT;
  if (art !== brt) return art;
  const aidle = a.ioprioClass === CLASS_IDLE;
  const bidle = b.ioprioClass === CLASS_IDLE;
  if (aidle !== bidle) return !aidle;
  return key < b.rbKey;
}

/**
 * cfq_service_tree_add: (re)insert with a new key.
 * - IDLE class: the last queue's key (or now) + 200 ms;
 * - normal: now + offset − slice_resid (the residual is consumed);
 * - front (preemption): the first queue's key (or now) − 1 s.
 */
export function serviceTreeAdd(
  s: CfqState,
  q: CfqQueue,
  front: boolean,
  ctx: ElevatorContext,
): void {
  const now = jiffiesNow(ctx);
  const tree = s.serviceTree;
  let key: number;
  if (q.ioprioClass === CLASS_IDLE) {
    const lastId = tree[tree.length - 1];
    key = msecsToJiffies(CFQ_IDLE_DELAY_MS, ctx.hz);
    key += lastId !== undefined && lastId !== q.id ? s.queues[lastId]!.rbKey : now;
  } else if (!front) {
    key = sliceOffset(s, q) + now - q.sliceResid;
    q.sliceResid = 0;
  } else {
    const firstId = tree[0];
    key = -msecsToJiffies(CFQ_PREEMPT_LEAD_MS, ctx.hz);
    key += firstId !== undefined ? s.queues[firstId]!.rbKey : now;
  }
  if (q.onTree) {
    if (key === q.rbKey) return; // same position, nothing to do
    removeAt(tree, tree.indexOf(q.id));
  }
  // equal keys go to the right of existing ones
  let i = 0;
  while (i < tree.length && !before(q, key, s.queues[tree[i]!]!)) i++;
  insertAt(tree, i, q.id);
  q.rbKey = key;
  q.onTree = true;
}

export function serviceTreeRemove(s: CfqState, q: CfqQueue): void {
  if (!q.onTree) return;
  removeAt(s.serviceTree, s.serviceTree.indexOf(q.id));
  q.onTree = false;
}

/** The leftmost queue, or null. */
export function serviceTreeFirst(s: CfqState): CfqQueue | null {
  const id = s.serviceTree[0];
  return id === undefined ? null : s.queues[id]!;
}

// ── prio trees: queues of one original level, by the sector of their next_rq ──

export function prioTreeRemove(s: CfqState, q: CfqQueue): void {
  if (q.pRoot < 0) return;
  const t = s.prioTrees[q.pRoot]!;
  removeAt(t, t.indexOf(q.id));
  q.pRoot = -1;
}

/**
 * Binary search of a prio tree by live next_rq sectors: the queue whose next_rq starts at
 * `sector`, else the last queue the search visited (the kernel's "parent of the NULL
 * leaf", one of the two sector neighbours). Returns [exact or −1, index of parent or −1].
 */
function prioTreeLookup(
  s: CfqState,
  tree: number[],
  sector: number,
  ctx: ElevatorContext,
): [number, number] {
  const exact = prioTreeExact(s, tree, sector, ctx);
  return [exact, lookupParent];
}

/** The parent index of the last prioTreeExact search (a second result without a tuple). */
let lookupParent = -1;

/** prioTreeLookup's exact queue (or −1), its parent index left in lookupParent. */
function prioTreeExact(s: CfqState, tree: number[], sector: number, ctx: ElevatorContext): number {
  let lo = 0;
  let hi = tree.length - 1;
  let parent = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    parent = mid;
    const at = sectorOfNext(s, s.queues[tree[mid]!]!, ctx);
    if (sector > at) lo = mid + 1;
    else if (sector < at) hi = mid - 1;
    else {
      lookupParent = mid;
      return tree[mid]!;
    }
  }
  lookupParent = parent;
  return -1;
}

/** cfq_prio_tree_add: (re)position by next_rq; IDLE queues and empty ones stay out, and so
 * does a queue whose next_rq sector another queue of the tree already holds. */
export function prioTreeAdd(s: CfqState, q: CfqQueue, ctx: ElevatorContext): void {
  prioTreeRemove(s, q);
  if (q.ioprioClass === CLASS_IDLE || q.nextRq < 0) return;
  const tree = s.prioTrees[q.ioprio]!;
  const sector = sectorOfNext(s, q, ctx);
  // runs at every request: the search without its result tuple
  if (prioTreeExact(s, tree, sector, ctx) >= 0) return;
  let i = 0;
  while (i < tree.length && sectorOfNext(s, s.queues[tree[i]!]!, ctx) < sector) i++;
  insertAt(tree, i, q.id);
  q.pRoot = q.ioprio;
}

/** cfq_resort_rr_list: a busy queue takes its new place in both trees. */
export function resortRrList(s: CfqState, q: CfqQueue, ctx: ElevatorContext): void {
  if (!q.onRr) return;
  serviceTreeAdd(s, q, false, ctx);
  prioTreeAdd(s, q, ctx);
}

/** cfq_add_cfqq_rr: the queue got its first request: it becomes busy. */
export function addCfqqRr(s: CfqState, q: CfqQueue, ctx: ElevatorContext): void {
  logq(ctx, q, 'add_to_rr');
  q.onRr = true;
  s.busyQueues++;
  resortRrList(s, q, ctx);
}

/** cfq_del_cfqq_rr: the queue has no more requests queued. */
export function delCfqqRr(s: CfqState, q: CfqQueue, ctx: ElevatorContext): void {
  logq(ctx, q, 'del_from_rr');
  q.onRr = false;
  serviceTreeRemove(s, q);
  prioTreeRemove(s, q);
  s.busyQueues--;
}

// ── close cooperators (§5.6 step 4) ──

/** cfq_rq_close: within the queue's mean seek distance of the head (4 MiB until valid). */
export function rqClose(s: CfqState, q: CfqQueue, sector: number): boolean {
  const sdist = sampleValid(q.seekSamples) ? q.seekMean : CFQQ_SEEK_THR;
  return Math.abs(sector - s.lastPosition) <= sdist;
}

/** cfqq_close: a queue of the same level whose next_rq is at or near the head. */
function queueClose(s: CfqState, cur: CfqQueue, ctx: ElevatorContext): CfqQueue | null {
  const tree = s.prioTrees[cur.ioprio]!;
  if (tree.length === 0) return null;
  const sector = s.lastPosition;
  const [exact, parentAt] = prioTreeLookup(s, tree, sector, ctx);
  if (exact >= 0) return s.queues[exact]!;
  const parent = s.queues[tree[parentAt]!]!;
  if (rqClose(s, cur, sectorOfNext(s, parent, ctx))) return parent;
  // then the neighbour on the other side of the head
  const other = sectorOfNext(s, parent, ctx) < sector ? parentAt + 1 : parentAt - 1;
  const id = tree[other];
  if (id === undefined) return null;
  const q = s.queues[id]!;
  return rqClose(s, cur, sectorOfNext(s, q, ctx)) ? q : null;
}

/** cfq_close_cooperator: a sync, non-seeky queue working near a sync, non-seeky one. */
export function closeCooperator(s: CfqState, cur: CfqQueue, ctx: ElevatorContext): CfqQueue | null {
  if (!cur.sync || seeky(cur)) return null;
  const q = queueClose(s, cur, ctx);
  if (!q || !q.sync || seeky(q)) return null;
  return q;
}

/** cfq_setup_merge: arrange for the queue with fewer processes to join the other one. */
export function setupMerge(s: CfqState, cur: CfqQueue, target: CfqQueue): void {
  if (target.procRefs === 0) return;
  // avoid a circular chain and skip interim merges
  let t = target;
  while (t.newQueue >= 0) {
    const next = s.queues[t.newQueue]!;
    if (next === cur) return;
    t = next;
  }
  const refs = cur.procRefs;
  const newRefs = t.procRefs;
  if (refs === 0 || newRefs === 0) return;
  if (newRefs >= refs) {
    cur.newQueue = t.id;
    t.procRefs += refs;
  } else {
    t.newQueue = cur.id;
    cur.procRefs += newRefs;
  }
}
