// Decision records for the deadline scheduler (deadline.ts): the requests it weighed,
// with why each lost, and one line in the kernel's terms. Called only while
// ctx.recording, so an unrecorded run builds no strings. Docs: docs/iosched/deadline.md.
import { MS } from './common';
import type { DeadlineRule, DeadlineState, Dir } from './deadline-state';
import type { Candidate, ElevatorContext } from './types';

const DIR = ['READ', 'WRITE'] as const;
const dirWord = ['read', 'write'] as const;

/** blkparse-like: direction, start sector + length in sectors ("W 81920+8"). */
export function label(slot: number, ctx: ElevatorContext): string {
  const rq = ctx.rq(slot);
  return `${rq.write ? 'W' : 'R'} ${rq.sector}+${rq.nSectors}`;
}

function ms(ns: number): string {
  return `${+(ns / MS).toFixed(3)} ms`;
}

/** Where a request stands against its FIFO deadline right now. */
function deadlineNote(slot: number, ctx: ElevatorContext): string {
  const left = ctx.rq(slot).fifoNs - ctx.now;
  if (left > 0) return `deadline in ${ms(left)}`;
  if (left === 0) return 'deadline is now (not expired: expiry is strictly after it)';
  return `expired ${ms(-left)} ago`;
}

export function explainAlias(slot: number, by: number, ctx: ElevatorContext): void {
  ctx.decide(
    'alias' satisfies DeadlineRule,
    slot,
    [],
    `deadline: request ${by} was inserted at the same start sector as ${label(slot, ctx)} ` +
      `(sort-tree alias), which was moved straight to the dispatch queue → dispatch it`,
  );
}

export function explainContinue(s: DeadlineState, slot: number, ctx: ElevatorContext): void {
  const dir: Dir = ctx.rq(slot).write ? 1 : 0;
  const candidates: Candidate[] = [];
  for (const d of [0, 1] as const) {
    const head = s.fifoList[d][0];
    if (head === undefined || head === slot) continue;
    candidates.push({
      slot: head,
      note:
        d === dir
          ? `${dirWord[d]} FIFO head, ${deadlineNote(head, ctx)}: deadlines are checked only when a batch starts`
          : `${dirWord[d]} FIFO head: a batch is ${DIR[dir]}s only`,
    });
  }
  ctx.decide(
    'continue-batch' satisfies DeadlineRule,
    slot,
    candidates,
    `deadline: continue the ${DIR[dir]} batch (batching ${s.batching} < fifo_batch ${s.fifoBatch}) ` +
      `→ dispatch next_rq ${label(slot, ctx)}, the sector successor of the last dispatch`,
  );
}

export interface NewBatch {
  dir: Dir;
  dirRule: DeadlineRule;
  startRule: DeadlineRule;
  /** `starved` before step 3 touched it */
  starvedBefore: number;
  /** the next_rq step 1 found (−1: none, so the batch could not go on) */
  next: number;
  /** the batch's first request */
  slot: number;
}

/** Two records: the direction (step 3), then the first request (step 4). */
export function explainNewBatch(s: DeadlineState, b: NewBatch, ctx: ElevatorContext): void {
  const { dir, slot, starvedBefore: sb } = b;
  const ws = s.writesStarved;
  const last = s.lastDir;
  const why =
    b.next >= 0
      ? `the last one reached fifo_batch ${s.fifoBatch}`
      : last === -1
        ? 'the first one'
        : `no next_rq: the ${DIR[last]} sweep has no higher request`;
  const otherHead = s.fifoList[1 - dir]![0];
  const dirCandidates: Candidate[] = [];
  let reason: string;
  if (b.dirRule === 'new-batch-read') {
    reason =
      otherHead === undefined
        ? 'no writes queued'
        : `reads preferred while writes wait: starved ${sb} < writes_starved ${ws}; starved → ${sb + 1}`;
    if (otherHead !== undefined) {
      dirCandidates.push({
        slot: otherHead,
        note: `write FIFO head waits: reads preferred (starved ${sb} < writes_starved ${ws})`,
      });
    }
  } else if (b.dirRule === 'new-batch-write-starved') {
    reason = `reads were preferred ${sb}× with writes waiting: starved ${sb} ≥ writes_starved ${ws}; starved → 0`;
    dirCandidates.push({ slot: otherHead!, note: 'read FIFO head waits: writes are starved' });
  } else {
    reason = 'no reads queued; starved → 0';
  }
  ctx.decide(
    b.dirRule,
    slot,
    dirCandidates,
    `deadline: new batch (${why}), direction ${DIR[dir]} (${reason})`,
  );

  const head = s.fifoList[dir][0]!;
  const nextRq = s.nextRq[dir];
  const startCandidates: Candidate[] = [];
  let text: string;
  if (b.startRule === 'fifo-expired') {
    text = `${dirWord[dir]} FIFO head expired ${ms(ctx.now - ctx.rq(head).fifoNs)} ago → dispatch ${label(slot, ctx)} from the FIFO head`;
    if (nextRq >= 0 && nextRq !== head) {
      startCandidates.push({
        slot: nextRq,
        note: `next_rq, where the ${DIR[dir]} sweep stopped: passed over, a deadline expired`,
      });
    }
  } else if (b.startRule === 'sweep-ended-fifo-head') {
    const cause =
      last === -1
        ? 'nothing dispatched yet'
        : last !== dir
          ? `the last batch was ${DIR[last]}`
          : 'the sweep passed the highest sector; no wrap';
    text = `no next_rq[${DIR[dir]}] (${cause}) → start from the ${dirWord[dir]} FIFO head ${label(slot, ctx)}, the oldest (${deadlineNote(head, ctx)})`;
  } else {
    text = `${dirWord[dir]} FIFO head ${label(head, ctx)} not expired (${deadlineNote(head, ctx)}) → continue the sweep at next_rq ${label(slot, ctx)}`;
    if (head !== slot) {
      startCandidates.push({
        slot: head,
        note: `FIFO head, not expired (${deadlineNote(head, ctx)}): the sweep goes on`,
      });
    }
  }
  ctx.decide(b.startRule, slot, startCandidates, `deadline: ${text}`);
}
