// AS's anticipation (LINUX-SCHEDULERS.md §4.5–4.6; docs/iosched/anticipatory.md): the
// state machine's transitions, "close" requests, as_can_break_anticipation (why waiting
// stops, or is not worth starting) and as_can_anticipate. Times are jiffies.
import type { IoRequest } from '../request';
import type { ElevatorContext } from './types';
import {
  AnticStatus,
  fmtJ,
  jiffyNs,
  type AsIoContext,
  type AsState,
  type BreakReason,
} from './anticipatory-state';
import { decay, updateIoHistory } from './anticipatory-stats';

/** as_antic_expired: antic_expire has passed since the anticipated request completed. */
export function anticExpired(s: AsState, nowJ: number): boolean {
  return Math.abs(nowJ - s.anticStartJ) >= s.anticExpireJ;
}

/** Waiting in WAIT_REQ or WAIT_NEXT: dispatch returns nothing at all. */
export function anticipating(s: AsState): boolean {
  return s.anticStatus === AnticStatus.WAIT_REQ || s.anticStatus === AnticStatus.WAIT_NEXT;
}

/** as_antic_waitnext: time the wait from the completion. The timer fires when the jiffy
 * counter reaches antic_start + antic_expire — at HZ 250 with antic_expire = 1 jiffy,
 * anywhere from 0 to 4 ms after the completion, depending on where the tick falls. */
export function waitNext(s: AsState, ctx: ElevatorContext): void {
  ctx.setTimer(jiffyNs(s.anticStartJ + s.anticExpireJ, s.hz));
  s.anticStatus = AnticStatus.WAIT_NEXT;
}

/** as_antic_waitreq: start anticipating — WAIT_NEXT at once if the anticipated request
 * has already completed, else WAIT_REQ until it does (the timer starts then). */
export function waitReq(s: AsState, ctx: ElevatorContext): void {
  if (s.anticStatus !== AnticStatus.OFF) return;
  if (s.anticPid < 0 || s.iocFinished) waitNext(s, ctx);
  else s.anticStatus = AnticStatus.WAIT_REQ;
}

/** as_antic_stop: waiting ends (FINISHED). The kernel then has kblockd run the queue; the
 * caller does (ctx.kick() from add(); the framework after a completion or the timer).
 * Returns whether it was waiting. */
export function anticStop(s: AsState, ctx: ElevatorContext): boolean {
  if (!anticipating(s)) return false;
  if (s.anticStatus === AnticStatus.WAIT_NEXT) ctx.clearTimer();
  s.anticStatus = AnticStatus.FINISHED;
  return true;
}

/** as_antic_timeout, the timer: stop waiting; a process with no think-time history that
 * never came back makes exiting look likelier. */
export function anticTimeout(s: AsState): boolean {
  if (!anticipating(s)) return false;
  s.anticStatus = AnticStatus.FINISHED;
  const aic = s.aic[s.anticPid];
  if (aic) {
    if (aic.ttimeSamples === 0) s.exitProb = decay(s.exitProb, 256);
    if (!aic.running) s.exitNoCoop = decay(s.exitNoCoop, 256);
  }
  return true;
}

/** The "close" window around the head: 4 MiB to start with, doubling with every jiffy
 * of the wait, until 20 ms or antic_expire have passed (then everything is close). */
export function closeWindow(s: AsState, nowJ: number): number | 'all' {
  const delay = s.anticStatus === AnticStatus.OFF || !s.iocFinished ? 0 : nowJ - s.anticStartJ;
  if (delay === 0) return 8192;
  if (delay <= Math.floor((20 * s.hz) / 1000) && delay <= s.anticExpireJ) return 8192 * 2 ** delay;
  return 'all';
}

/** What the "close" test saw, for the decision text (taken before can_break's side
 * effects change the statistics). */
export interface CloseInfo {
  head: number; // last_sector of the batch class
  window: number | 'all'; // sectors
  distance: number; // |start − head|
  seekMean: number; // the anticipated process's mean seek (or the new-process mean)
}

export const noCloseInfo = (): CloseInfo => ({ head: 0, window: 0, distance: 0, seekMean: 0 });

/** as_close_req: how `rq` counts as close to the head (last_sector of the batch class):
 * inside the window ('window'), nearer than the process's mean seek ('seek'), or not. */
export function closeReq(
  s: AsState,
  aic: AsIoContext,
  rq: IoRequest,
  nowJ: number,
  info?: CloseInfo,
): 'window' | 'seek' | null {
  const last = s.lastSector[s.batchDir];
  const next = rq.sector;
  const delta = closeWindow(s, nowJ);
  const dist = Math.abs(next - last);
  const mean = aic.seekSamples === 0 ? s.newSeekMean : aic.seekMean;
  if (info) Object.assign(info, { head: last, window: delta, distance: dist, seekMean: mean });
  if (delta === 'all') return 'window';
  if (last <= next + delta / 2 && next <= last + delta) return 'window';
  return mean > dist ? 'seek' : null;
}

/**
 * as_can_break_anticipation: should waiting for the anticipated process stop (or not
 * start), given `rq` (a new request, or the next one in elevator order; null if none)?
 * Returns the reason, or null to keep waiting. Tests in the kernel's order (§4.6).
 * Side effect, as in the kernel: a close request of another process feeds the
 * anticipated process's statistics ("cooperating processes").
 */
export function canBreak(
  s: AsState,
  rq: IoRequest | null,
  nowJ: number,
  info?: CloseInfo,
): BreakReason | null {
  if (rq && rq.pid === s.anticPid) return 'anticipation-hit';
  // The time is up; the timer just has not run yet.
  if (s.iocFinished && anticExpired(s, nowJ)) return 'anticipation-timeout';
  const aic = s.aic[s.anticPid];
  if (!aic) return null;
  if (aic.nrQueued > 0) return 'anticipation-broken-queued';
  if (aic.nrDispatched > 0) return 'anticipation-broken-dispatched';
  if (rq && rq.sync) {
    const close = closeReq(s, aic, rq, nowJ, info);
    if (close) {
      if (!aic.running) {
        if (aic.ttimeSamples === 0) s.exitProb = decay(s.exitProb, 256);
        s.exitNoCoop = Math.floor((7 * s.exitNoCoop) / 8);
      }
      updateIoHistory(s, aic, rq, nowJ);
      return close === 'window' ? 'anticipation-broken-close-request' : 'anticipation-broken-seek';
    }
  }
  if (!aic.running) {
    if (aic.ttimeSamples === 0) s.exitProb = decay(s.exitProb, 256);
    if (s.exitNoCoop > 128) return 'anticipation-broken-exited';
  }
  if (aic.ttimeSamples === 0) {
    if (s.newTtimeMeanJ > s.anticExpireJ) return 'anticipation-broken-new-process';
    if (s.exitProb * s.exitNoCoop > 128 * 256) return 'anticipation-broken-exited';
  } else if (aic.ttimeMeanJ > s.anticExpireJ) return 'anticipation-broken-think-time';
  return null;
}

/** as_can_anticipate: wait for the anticipated process rather than serve `rq`? Returns
 * 'wait', or the reason not to ('no-anticipation-async', FINISHED, or a break reason). */
export function canAnticipate(
  s: AsState,
  rq: IoRequest | null,
  nowJ: number,
  info?: CloseInfo,
): 'wait' | 'no-anticipation-async' | 'finished' | BreakReason {
  if (s.anticPid < 0) return 'no-anticipation-async'; // the last request was async
  if (s.anticStatus === AnticStatus.FINISHED) return 'finished'; // do not restart at once
  return canBreak(s, rq, nowJ, info) ?? 'wait';
}

/** The think-time comparison behind a wait (or a refusal to wait), in the kernel's terms. */
export function thinkText(s: AsState): string {
  const aic = s.aic[s.anticPid];
  const limit = `antic_expire ${fmtJ(s.anticExpireJ, s.hz)}`;
  if (!aic || aic.ttimeSamples === 0) {
    const cmp = s.newTtimeMeanJ > s.anticExpireJ ? '>' : '≤';
    return `no think-time history; new-process mean ${fmtJ(s.newTtimeMeanJ, s.hz)} ${cmp} ${limit}`;
  }
  const cmp = aic.ttimeMeanJ > s.anticExpireJ ? '>' : '≤';
  return `mean think ${fmtJ(aic.ttimeMeanJ, s.hz)} ${cmp} ${limit}`;
}
