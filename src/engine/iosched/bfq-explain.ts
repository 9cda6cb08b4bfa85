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
} from './bfq-types';
import type { Candidate, ElevatorContext } from './types';

/** The rules of BFQ's decision records. */
export type BfqRule =
  | 'keep-queue'
  | 'new-queue'
  | 'fifo-expired'
  | `expire-${BfqExpiration}`
  | 'idle'
  | 'weight-raised';

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
