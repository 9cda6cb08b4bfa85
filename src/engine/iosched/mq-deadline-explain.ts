// Decision records for mq-deadline (mq-deadline.ts): the rule, the requests weighed with
// why each lost, and one line in the kernel's terms. Called only while ctx.recording.
import { MS, jiffiesNow } from './common';
import { label } from './deadline-explain';
import { READ, WRITE, type Dir } from './deadline-state';
import {
  PRIO_NAMES,
  ddQueued,
  type MqDeadlineRule,
  type MqDeadlineState,
  type Prio,
} from './mq-deadline-state';
import type { Candidate, ElevatorContext } from './types';

const DIR = ['READ', 'WRITE'] as const;

/** What dispatchClass chose and by which rules. */
export interface Pick {
  prio: Prio;
  slot: number;
  dir: Dir;
  /** the new batch's direction rule; null when the batch went on */
  dirRule: MqDeadlineRule | null;
  startRule: MqDeadlineRule;
  starvedBefore?: number;
  /** chosen by the prio-aging pass */
  aged?: boolean;
}

function ms(ns: number): string {
  return `${+(ns / MS).toFixed(3)} ms`;
}

/** The FIFO heads of every class and direction other than the chosen request. */
function others(s: MqDeadlineState, chosen: number, ctx: ElevatorContext): Candidate[] {
  const out: Candidate[] = [];
  s.prio.forEach((pp, p) => {
    for (const d of [READ, WRITE] as const) {
      const head = pp.fifoList[d][0];
      if (head === undefined || head === chosen) continue;
      const left = ctx.rq(head).fifoNs - ctx.now;
      out.push({
        slot: head,
        note:
          `${PRIO_NAMES[p]} ${DIR[d]} FIFO head, ` +
          (left > 0 ? `deadline in ${ms(left)}` : `deadline passed ${ms(-left)} ago`),
      });
    }
  });
  return out;
}

const dirText: Partial<Record<MqDeadlineRule, (s: MqDeadlineState, p: Pick) => string>> = {
  'new-batch-read': () => 'new batch: READ (reads are preferred)',
  'new-batch-write-starved': (s, p) =>
    `new batch: WRITE (reads were preferred ${p.starvedBefore} times, writes_starved ${s.writesStarved})`,
  'new-batch-write-only': () => 'new batch: WRITE (no reads queued in this class)',
};

const startText: Record<string, string> = {
  'continue-batch': 'continue the batch at the first request at or above latest_pos',
  'fifo-expired': 'the FIFO head has reached its deadline (jiffies ≥ deadline) → start there',
  'sweep-ended-fifo-head': 'nothing at or above latest_pos → start at the FIFO head',
  'sweep-continues': 'nothing expired → go on from latest_pos',
};

export function explainDispatch(s: MqDeadlineState, pick: Pick, ctx: ElevatorContext): void {
  const cls = PRIO_NAMES[pick.prio];
  const what = label(pick.slot, ctx);
  const candidates = others(s, pick.slot, ctx);
  if (pick.aged) {
    ctx.decide(
      'prio-aged' satisfies MqDeadlineRule,
      pick.slot,
      candidates,
      `mq-deadline: two or more classes busy and a ${cls} request is older than ` +
        `prio_aging_expire (${s.prioAgingExpireJ} jiffies) → serve ${cls} ahead of its turn`,
    );
  }
  if (pick.dirRule) {
    ctx.decide(
      pick.dirRule,
      pick.slot,
      candidates,
      `mq-deadline ${cls}: ${dirText[pick.dirRule]!(s, pick)}`,
    );
  }
  ctx.decide(
    pick.startRule,
    pick.slot,
    candidates,
    `mq-deadline ${cls}: ${startText[pick.startRule]} → dispatch ${what} ` +
      `(batching ${s.batching}/${s.fifoBatch}, jiffies ${jiffiesNow(ctx)})`,
  );
}

/** A refusal: a higher class has requests on the device, and lower ones wait for them. */
export function explainWait(s: MqDeadlineState, blockedBy: Prio, ctx: ElevatorContext): void {
  const waiting = s.prio.some((pp) => pp.fifoList[READ].length + pp.fifoList[WRITE].length > 0);
  if (!waiting) return; // empty, not a refusal
  ctx.decide(
    'wait-higher-prio' satisfies MqDeadlineRule,
    -1,
    others(s, -1, ctx),
    `mq-deadline: ${PRIO_NAMES[blockedBy]} has ${ddQueued(s.prio[blockedBy])} request(s) on the ` +
      'device (dd_queued) → lower classes wait, unless one ages past prio_aging_expire',
  );
}
