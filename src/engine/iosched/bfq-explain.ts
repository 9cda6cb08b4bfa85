// Decision records for BFQ (bfq.ts): which request left and why (the queue kept or newly
// chosen by B-WF2Q+, its next request or an expired FIFO head), why a queue expired (with
// the budget feedback and the time charge), and a refusal while the device idles for the
// in-service queue. Called only while ctx.recording.
import { MS } from './common';
import {
  budgetLeft,
  queueName,
  type BfqExpiration,
  type BfqQueue,
  type BfqState,
  type InjectWhy,
} from './bfq-types';
import type { Candidate, ElevatorContext } from './types';

/** The rules of BFQ's decision records. */
export type BfqRule =
  | 'keep-queue'
  | 'new-queue'
  | 'fifo-expired'
  | `expire-${BfqExpiration}`
  | 'idle'
  | 'weight-raised'
  | 'inject'
  | 'queue-merge'
  | 'queue-split'
  | 'waker-detected'
  | 'large-burst'
  | 'dispatch-list';

export const BFQ_RULES: readonly BfqRule[] = [
  'keep-queue',
  'new-queue',
  'fifo-expired',
  'expire-too-idle',
  'expire-budget-timeout',
  'expire-budget-exhausted',
  'expire-no-more-requests',
  'expire-preempted',
  'idle',
  'weight-raised',
  'inject',
  'queue-merge',
  'queue-split',
  'waker-detected',
  'large-burst',
  'dispatch-list',
];

const CLASS = ['RT', 'BE', 'IDLE'];
const vt = (v: number) => (v / 2 ** 22).toFixed(1);

/** The other busy queues: their next request, timestamps, and eligibility. */
function others(s: BfqState, chosen: BfqQueue | null): Candidate[] {
  const out: Candidate[] = [];
  for (const q of s.queues) {
    if (!q.busy || q === chosen || q.nextRq < 0) continue;
    const st = s.trees[q.ioprioClass - 1]!;
    out.push({
      slot: q.nextRq,
      note:
        `${queueName(q)} ${CLASS[q.ioprioClass - 1]} weight ${q.weight}: S ${vt(q.start)} F ${vt(q.finish)}` +
        (q.start <= st.vtime ? ' (eligible)' : ` (not eligible, V ${vt(st.vtime)})`),
    });
  }
  return out;
}

export function explainDispatch(
  s: BfqState,
  q: BfqQueue,
  slot: number,
  rule: BfqRule,
  fromFifo: boolean,
  ctx: ElevatorContext,
): void {
  const rq = ctx.rq(slot);
  const what = `${rq.write ? 'W' : 'R'} ${rq.sector}+${rq.nSectors}`;
  const st = s.trees[q.ioprioClass - 1]!;
  const head =
    rule === 'new-queue'
      ? `B-WF2Q+ in ${CLASS[q.ioprioClass - 1]}: ${queueName(q)} is eligible (S ${vt(q.start)} ≤ V ${vt(st.vtime)}) with the smallest finish ${vt(q.finish)} → in service, budget ${q.budget} sectors`
      : `${queueName(q)} stays in service (budget left ${budgetLeft(q)} of ${q.budget} sectors)`;
  const how = fromFifo
    ? `its FIFO head passed fifo_expire → ${what}`
    : `its next request by position (back_seek_max ${s.t.backMaxKiB} KiB) → ${what}`;
  ctx.decide(rule, slot, others(s, q), `bfq: ${head}; ${how}`);
  if (fromFifo)
    ctx.decide('fifo-expired' satisfies BfqRule, slot, [], `bfq: ${queueName(q)}: ${how}`);
}

/** a request from bfqd->dispatch, inserted at its head */
export function explainDispatchList(slot: number, ctx: ElevatorContext): void {
  const rq = ctx.rq(slot);
  const what = `${rq.write ? 'W' : 'R'} ${rq.sector}+${rq.nSectors}`;
  ctx.decide(
    'dispatch-list' satisfies BfqRule,
    slot,
    [],
    `bfq: ${what} was inserted at the head of bfqd->dispatch (a flush sequence's data) → before any queue`,
  );
}

const WHY: Record<BfqExpiration, string> = {
  'too-idle': 'the idle window closed with no new request',
  'budget-timeout': 'timeout_sync passed since it was set in service',
  'budget-exhausted': 'its next request does not fit the budget left',
  'no-more-requests': 'it is empty and idling is not worth it',
  preempted: 'a queue that became busy may be served first',
};

export function explainExpire(
  s: BfqState,
  q: BfqQueue,
  reason: BfqExpiration,
  d: {
    slow: boolean;
    charged: boolean;
    deltaMs: number;
    service: number;
    budget: number;
    maxBudget: number;
  },
  ctx: ElevatorContext,
): void {
  const charge = d.charged
    ? `; ${d.slow ? 'slow' : 'timed out with a third of its budget left'}: charged ${d.deltaMs} ms of time, not ${d.service} sectors`
    : `; charged its ${d.service} sectors`;
  ctx.decide(
    `expire-${reason}` satisfies BfqRule,
    -1,
    [],
    `bfq: ${queueName(q)} expires — ${WHY[reason]}${charge}; next budget ${d.maxBudget} → ${q.maxBudget} sectors`,
  );
}

export function explainIdle(s: BfqState, q: BfqQueue, idleNs: number, ctx: ElevatorContext): void {
  ctx.decide(
    'idle' satisfies BfqRule,
    -1,
    others(s, q),
    `bfq: ${queueName(q)} is empty but idling is better (${s.t.strictGuarantees ? 'strict_guarantees' : 'its service or the throughput needs it'}) → the device waits up to ${+(idleNs / MS).toFixed(3)} ms for its next request`,
  );
}

export function explainRaise(
  q: BfqQueue,
  interactive: boolean,
  durJ: number,
  hz: number,
  ctx: ElevatorContext,
) {
  ctx.decide(
    'weight-raised' satisfies BfqRule,
    -1,
    [],
    `bfq: ${queueName(q)} ${interactive ? 'was idle ≥ 2 s: interactive' : 'keeps a soft real-time pace'} → weight × ${q.wrCoeff} for ${Math.round((durJ * 1000) / hz)} ms (low_latency)`,
  );
}

const INJECT: Record<InjectWhy, string> = {
  async: 'the async I/O of its own process',
  waker: 'its waker queue (whose completions bring its next request)',
  woken: 'a queue it wakes',
  limit: 'a queue with budget left',
};

/** a request injected while the device idles for the empty in-service queue */
export function explainInject(
  s: BfqState,
  q: BfqQueue,
  slot: number,
  why: InjectWhy,
  ctx: ElevatorContext,
): void {
  const inServ = s.queues[s.inService]!;
  const rq = ctx.rq(slot);
  const limit =
    why === 'limit' ? ` (${s.rqInDriver} in flight < inject_limit ${inServ.injectLimit})` : '';
  ctx.decide(
    'inject' satisfies BfqRule,
    slot,
    others(s, q),
    `bfq: ${queueName(inServ)} is empty and the device idles for it → inject from ${INJECT[why]}${limit}: ${queueName(q)} ${rq.write ? 'W' : 'R'} ${rq.sector}+${rq.nSectors}`,
  );
}

export type MergeHow = 'close' | 'in-service' | 'stable' | 'early-stable';
const HOW: Record<MergeHow, string> = {
  close: 'its request is within 8192 sectors of that queue’s next one (a close cooperator)',
  'in-service': 'its request is within 8192 sectors of where the in-service queue was served',
  stable:
    'both were created within 180 ms, 600 ms ago, and idling does not boost it (stable merge)',
  'early-stable': 'both were created within 180 ms on a queueing SSD (stable merge at once)',
};

export function explainMerge(
  _s: BfqState,
  q: BfqQueue,
  nq: BfqQueue,
  how: MergeHow,
  ctx: ElevatorContext,
): void {
  ctx.decide(
    'queue-merge' satisfies BfqRule,
    -1,
    [],
    `bfq: ${queueName(q)} merges into ${queueName(nq)} — ${HOW[how]}; their requests are served from one shared queue, in sector order`,
  );
}

export function explainSplit(_s: BfqState, old: BfqQueue, q: BfqQueue, ctx: ElevatorContext): void {
  ctx.decide(
    'queue-split' satisfies BfqRule,
    -1,
    [],
    `bfq: shared ${queueName(old)} went seeky: the process leaves it for ${queueName(q)}, with its saved think time, I/O-boundness and raising`,
  );
}

export function explainWaker(s: BfqState, q: BfqQueue, ctx: ElevatorContext): void {
  ctx.decide(
    'waker-detected' satisfies BfqRule,
    -1,
    [],
    `bfq: ${queueName(q)} got new I/O within 4 ms of a completion of ${queueName(s.queues[q.wakerQ]!)} three times in a row: that queue is its waker, injected while it idles`,
  );
}

export function explainBurst(s: BfqState, q: BfqQueue, ctx: ElevatorContext): void {
  ctx.decide(
    'large-burst' satisfies BfqRule,
    -1,
    [],
    `bfq: ${queueName(q)} is the ${s.burstSize}th queue created within 180 ms of the last: a large burst — its queues are not weight-raised`,
  );
}
