// B-WF2Q+ as block/bfq-wf2q.c has it, without groups: one service tree per I/O priority
// class, its virtual time advancing by each service over the sum of the weights; an entity
// is eligible once its start is at or below the virtual time, and the eligible one with
// the smallest finish is served. Entities that empty keep their weight in the sum on the
// idle tree until the virtual time passes their finish (bfq_forget_idle).
import { WFQ_SERVICE_SHIFT } from './bfq-tunables';
import {
  NOT_ON_TREE,
  ON_ACTIVE,
  ON_IDLE,
  classIdx,
  type BfqQueue,
  type BfqState,
  type ServiceTree,
} from './bfq-types';

/** bfq_delta: service scaled by 2^WFQ_SERVICE_SHIFT over a weight */
export function bfqDelta(service: number, weight: number): number {
  return Math.floor((service * 2 ** WFQ_SERVICE_SHIFT) / weight);
}

/** bfq_calc_finish */
export function calcFinish(q: BfqQueue, service: number): void {
  q.finish = q.start + bfqDelta(service, q.weight);
}

const treeOf = (s: BfqState, q: BfqQueue) => s.trees[classIdx(q)]!;

function remove(list: number[], id: number): void {
  const i = list.indexOf(id);
  if (i >= 0) list.splice(i, 1);
}

/** bfq_active_insert: also at the head of bfqd->active_list (injection scans it) */
function activeInsert(s: BfqState, st: ServiceTree, q: BfqQueue): void {
  st.active.push(q.id);
  q.tree = ON_ACTIVE;
  s.activeList.unshift(q.id);
}

export function activeExtract(s: BfqState, st: ServiceTree, q: BfqQueue): void {
  remove(st.active, q.id);
  q.tree = NOT_ON_TREE;
  remove(s.activeList, q.id);
}

function idleExtract(st: ServiceTree, q: BfqQueue): void {
  remove(st.idle, q.id);
  q.tree = NOT_ON_TREE;
}

/** bfq_forget_entity: out of the tree's weight sum */
function forgetEntity(st: ServiceTree, q: BfqQueue): void {
  q.onSt = false;
  st.wsum -= q.weight;
}

/** bfq_forget_idle: the whole idle tree once nothing is active and V passed its last
 * finish; else the first idle entity whose finish V has reached. */
export function forgetIdle(s: BfqState, st: ServiceTree): void {
  if (st.idle.length === 0) return;
  let first = s.queues[st.idle[0]!]!;
  let last = first;
  for (const id of st.idle) {
    const q = s.queues[id]!;
    if (q.finish < first.finish) first = q;
    if (q.finish > last.finish) last = q;
  }
  if (st.active.length === 0 && last.finish <= st.vtime) st.vtime = last.finish;
  if (first.finish <= st.vtime) {
    idleExtract(st, first);
    forgetEntity(st, first);
  }
}

/** __bfq_entity_update_weight_prio: a pending weight change (ioprio or raising) applies. */
export function updateWeightPrio(s: BfqState, q: BfqQueue): void {
  if (!q.prioChanged) return;
  const st = treeOf(s, q);
  const prev = q.weight;
  const next = q.origWeight * q.wrCoeff;
  st.wsum -= prev;
  if (prev !== next) weightsTreeRemove(s, q);
  q.weight = next;
  if (prev !== next && q.wrCoeff === 1) weightsTreeAdd(s, q);
  st.wsum += q.weight;
  q.prioChanged = false;
}

/** bfq_weights_tree_add / _remove: the weights of non-raised queues with pending I/O */
export function weightsTreeAdd(s: BfqState, q: BfqQueue): void {
  if (q.inWeightsTree) return;
  q.inWeightsTree = true;
  const w = s.weights;
  let i = 0;
  while (i < w.length && w[i]![0] < q.weight) i++;
  if (i < w.length && w[i]![0] === q.weight) w[i]![1]++;
  else w.splice(i, 0, [q.weight, 1]);
}

export function weightsTreeRemove(s: BfqState, q: BfqQueue): void {
  if (!q.inWeightsTree) return;
  q.inWeightsTree = false;
  const w = s.weights;
  for (let i = 0; i < w.length; i++) {
    if (w[i]![0] !== q.weight) continue;
    if (--w[i]![1] === 0) w.splice(i, 1);
    return;
  }
}

/** bfq_update_fin_time_enqueue: finish from the budget, back-shifted if asked, active. */
function finTimeEnqueue(s: BfqState, q: BfqQueue, backshifted: boolean): void {
  updateWeightPrio(s, q);
  const st = treeOf(s, q);
  calcFinish(q, q.budget);
  if (backshifted && st.vtime > q.finish) {
    const delta = st.vtime - q.finish;
    q.start += delta;
    q.finish += delta;
  }
  activeInsert(s, st, q);
}

/** __bfq_activate_entity: a queue becomes busy. A queue that was waiting for its next
 * request (non_blocking_wait_rq) keeps its old finish as its start even if V moved on. */
function activateEntity(s: BfqState, q: BfqQueue, nonBlockingWaitRq: boolean): void {
  const st = treeOf(s, q);
  let backshifted = false;
  let minVstart = st.vtime;
  if (nonBlockingWaitRq && st.vtime > q.finish) {
    backshifted = true;
    minVstart = q.finish;
  }
  if (q.tree === ON_IDLE) {
    idleExtract(st, q);
    q.start = minVstart > q.finish ? minVstart : q.finish;
  } else {
    q.start = minVstart;
    st.wsum += q.weight;
    q.onSt = true;
  }
  finTimeEnqueue(s, q, backshifted);
}

/** __bfq_requeue_entity: the in-service queue goes back with its start moved past the
 * service it got; another active one is repositioned. */
function requeueEntity(s: BfqState, q: BfqQueue): void {
  const st = treeOf(s, q);
  if (q.id === s.inService) {
    calcFinish(q, q.service);
    q.start = q.finish;
    if (q.tree === ON_ACTIVE) activeExtract(s, st, q);
  } else {
    activeExtract(s, st, q);
  }
  finTimeEnqueue(s, q, false);
}

/** bfq_activate_requeue_entity */
export function activateRequeue(s: BfqState, q: BfqQueue, nonBlockingWaitRq: boolean): void {
  if (q.id === s.inService || q.tree === ON_ACTIVE) requeueEntity(s, q);
  else activateEntity(s, q, nonBlockingWaitRq);
}

/** __bfq_deactivate_entity: an emptied queue, charged for its service if in service, goes
 * to the idle tree while its finish is ahead of V, else out of the weight sum. */
export function deactivateEntity(s: BfqState, q: BfqQueue, insIntoIdle: boolean): void {
  if (!q.onSt) return;
  const st = treeOf(s, q);
  const wasInService = q.id === s.inService;
  if (wasInService) calcFinish(q, q.service);
  if (q.tree === ON_ACTIVE) activeExtract(s, st, q);
  else if (!wasInService && q.tree === ON_IDLE) idleExtract(st, q);
  if (!insIntoIdle || q.finish <= st.vtime) forgetEntity(st, q);
  else {
    st.idle.push(q.id);
    q.tree = ON_IDLE;
  }
}

/** bfq_bfqq_served's entity part: the service counts, and V advances by it over the
 * weight sum. */
export function served(s: BfqState, q: BfqQueue, service: number): void {
  const st = treeOf(s, q);
  q.service += service;
  st.vtime += bfqDelta(service, st.wsum);
  forgetIdle(s, st);
}

/** bfq_bfqq_served: also the queue's service since it became backlogged (its first
 * service then is first_IO_time) and while raised */
export function bfqqServed(s: BfqState, q: BfqQueue, service: number, j: number): void {
  if (q.serviceFromBacklogged === 0) q.firstIoJ = j;
  if (q.wrCoeff > 1) q.serviceFromWr += service;
  q.serviceFromBacklogged += service;
  served(s, q, service);
}

/** bfq_first_active_entity: the eligible (start ≤ V) entity with the smallest finish. */
export function firstActive(s: BfqState, st: ServiceTree, vtime: number): BfqQueue | null {
  let best: BfqQueue | null = null;
  for (const id of st.active) {
    const q = s.queues[id]!;
    if (q.start <= vtime && (best === null || q.finish < best.finish)) best = q;
  }
  return best;
}

/** bfq_calc_vtime_jump: V jumps to the smallest start when no entity is eligible. */
export function vtimeJump(s: BfqState, st: ServiceTree): number {
  let min = Infinity;
  for (const id of st.active) min = Math.min(min, s.queues[id]!.start);
  return min > st.vtime ? min : st.vtime;
}

/** bfq_update_vtime */
export function updateVtime(s: BfqState, st: ServiceTree, v: number): void {
  if (v > st.vtime) {
    st.vtime = v;
    forgetIdle(s, st);
  }
}
