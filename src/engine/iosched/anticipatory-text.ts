// AS decision texts and candidate lists (docs/iosched/anticipatory.md "Decision records"):
// one line per decision, in the kernel's terms. Built only while decisions are recorded.
import type { IoRequest } from '../request';
import type { Candidate, ElevatorContext } from './types';
import {
  ASYNC,
  AnticStatus,
  SYNC,
  dirName,
  fmtJ,
  fmtMs,
  jiffyNs,
  type AsRule,
  type AsState,
  type BreakReason,
} from './anticipatory-state';
import { thinkText, type CloseInfo } from './anticipatory-antic';

function rqName(rq: IoRequest): string {
  return `rq ${rq.id} (pid ${rq.pid}, sector ${rq.sector})`;
}

function waiting(s: AsState): string {
  const n = (d: 0 | 1) => s.fifoList[d].length;
  const parts = [];
  if (n(SYNC) > 0) parts.push(`${n(SYNC)} sync`);
  if (n(ASYNC) > 0) parts.push(`${n(ASYNC)} async`);
  return parts.length === 0 ? 'nothing else waits' : `${parts.join(' and ')} waiting`;
}

function fifoNote(s: AsState, slot: number, ctx: ElevatorContext): string {
  const dt = ctx.rq(slot).fifoNs - ctx.now;
  return dt >= 0 ? `expires in ${fmtMs(dt)}` : `expired ${fmtMs(-dt)} ago`;
}

/** What AS weighed: each class's next_rq and FIFO head. */
export function candidates(s: AsState, ctx: ElevatorContext): Candidate[] {
  const out: Candidate[] = [];
  for (const dir of [SYNC, ASYNC] as const) {
    const d = dirName(dir);
    const next = s.nextRq[dir];
    const head = s.fifoList[dir][0];
    if (next >= 0) out.push({ slot: next, note: `${d} next_rq (elevator order)` });
    if (head !== undefined && head !== next)
      out.push({ slot: head, note: `${d} FIFO head, ${fifoNote(s, head, ctx)}` });
    else if (head !== undefined)
      out[out.length - 1]!.note += `; FIFO head, ${fifoNote(s, head, ctx)}`;
  }
  return out;
}

/** The clause behind an as_can_break_anticipation answer. */
export function reasonText(
  s: AsState,
  why: BreakReason,
  rq: IoRequest | null,
  info: CloseInfo | null,
): string {
  const pid = `pid ${s.anticPid}`;
  const aic = s.aic[s.anticPid];
  const other = rq ? rqName(rq) : 'the request';
  switch (why) {
    case 'anticipation-hit':
      return `${pid} submitted ${other}`;
    case 'anticipation-timeout':
      return `antic_expire ${fmtJ(s.anticExpireJ, s.hz)} has passed since ${pid}'s request completed`;
    case 'anticipation-broken-queued':
      return `${pid} still has ${aic?.nrQueued ?? 0} request(s) queued`;
    case 'anticipation-broken-dispatched':
      return `${pid} has ${aic?.nrDispatched ?? 0} request(s) in the dispatch queue`;
    case 'anticipation-broken-close-request': {
      const w = info?.window ?? 8192;
      const win = w === 'all' ? 'the wait is over: any distance counts' : `window ${w} sectors`;
      return `${other} lies near the head at sector ${info?.head ?? '?'} (${win})`;
    }
    case 'anticipation-broken-seek':
      return `${other} is ${info?.distance ?? '?'} sectors from the head, nearer than ${pid}'s mean seek distance ${info?.seekMean ?? '?'}`;
    case 'anticipation-broken-exited':
      return `${pid} has exited`;
    case 'anticipation-broken-new-process':
    case 'anticipation-broken-think-time':
      return `${pid}: ${thinkText(s)} — it thinks too long`;
  }
}

/** Anticipation ends while waiting: a request arrived, or the timer fired. */
export function breakText(
  s: AsState,
  why: BreakReason,
  rq: IoRequest | null,
  info: CloseInfo | null,
): string {
  const clause = reasonText(s, why, rq, info);
  if (why === 'anticipation-hit') return `anticipation hit: ${clause}`;
  if (why === 'anticipation-timeout') return `anticipation timed out: ${clause}; ${waiting(s)}`;
  return `anticipation on pid ${s.anticPid} broken: ${clause}`;
}

/** A dispatch: which request, and the rule that picked it. */
export function dispatchText(
  s: AsState,
  rule: AsRule,
  slot: number,
  ctx: ElevatorContext,
  info: CloseInfo | null = null,
): string {
  const rq = ctx.rq(slot);
  const d = dirName(s.batchDir);
  const name = rqName(rq);
  switch (rule) {
    case 'continue-batch': {
      const budget =
        s.batchDir === ASYNC ? `; ${s.currentWriteCount} of ${s.writeBatchCount} writes left` : '';
      const ended = s.anticStatus === AnticStatus.FINISHED ? 'anticipation over; ' : '';
      return `${ended}${d} batch continues with ${name}, next in elevator order from sector ${s.lastSector[s.batchDir]}${budget}`;
    }
    case 'fifo-expired':
      return `${d} FIFO head ${name} ${fifoNote(s, slot, ctx)} — served before elevator order`;
    case 'batch-expired-switch': {
      const old =
        s.batchDir === SYNC
          ? 'async batch over (write_batch_expire or its request budget)'
          : 'sync batch over (read_batch_expire)';
      return `${old} with both classes queued — ${d} batch starts at the FIFO head ${name}`;
    }
    case 'read-batch':
      return `no async request left for the batch — sync batch starts at the FIFO head ${name}`;
    case 'write-batch':
      return `no sync request queued — async batch of up to ${s.writeBatchCount} requests starts at the FIFO head ${name}`;
    case 'alias-dispatch':
      return `a new request starts at sector ${rq.sector} too — ${name} goes straight to dispatch (alias)`;
    case 'forced-dispatch':
      return `forced dispatch (drain): ${name}`;
    case 'no-anticipation-async':
      return `last request dispatched was async: nothing to anticipate — ${name}`;
    default:
      return `not anticipating: ${reasonText(s, rule as BreakReason, rq, info)} — dispatch ${name}`;
  }
}

/** The device is left idle: anticipating, or draining for a batch change. */
export function waitText(s: AsState, rule: AsRule, ctx: ElevatorContext): string {
  const pid = `pid ${s.anticPid}`;
  if (rule === 'batch-drain')
    return `changing to a ${dirName(s.batchDir)} batch — waiting for ${s.nrDispatched} request(s) of the old batch to complete`;
  // The timer fires when the jiffy counter reaches antic_start + antic_expire.
  const end = s.anticStartJ + s.anticExpireJ;
  if (rule === 'anticipation-timing')
    return `${pid}'s request completed — anticipating its next one until jiffy ${end} (${fmtMs(jiffyNs(end, s.hz) - ctx.now)} from now)`;
  const left =
    s.anticStatus === AnticStatus.WAIT_NEXT
      ? `WAIT_NEXT, ${fmtMs(jiffyNs(end, s.hz) - ctx.now)} left, until jiffy ${end}`
      : 'WAIT_REQ, its request has not completed';
  if (rule === 'anticipating') return `still anticipating on ${pid} (${left}) — ${waiting(s)}`;
  return `anticipating on ${pid} (${thinkText(s)}; ${left}) — ${waiting(s)}`;
}
