// AS per-process statistics (LINUX-SCHEDULERS.md §4.3; docs/iosched/anticipatory.md):
// think time and seek distance as decaying fixed-point averages, updated when a process
// submits a sync request, plus the global "new process" means and the exit statistics.
//
// Think times are whole jiffies, as in the kernel, and so is its rounding: the mean is
// (total + 128) / samples, which adds 4 jiffies after a first sample (samples = 32), 2
// after the second — at HZ 250 a new process is not anticipated on for its first requests.
// Spindle's processes never exit during a run, so `running` stays true: exit_no_coop
// never moves, and exit_prob only decays with each new process and rises when an
// anticipation on a process without think-time history times out.
import type { IoRequest } from '../request';
import { jiffyNs, type AsIoContext, type AsState } from './anticipatory-state';

/** The kernel's decaying average step: 7/8 of the old value plus 1/8 of the new one. */
export function decay(old: number, sample256: number): number {
  return Math.floor((7 * old + sample256) / 8);
}

/** The io context of a process, created at its first request (as_get_io_context). */
export function ioContext(s: AsState, pid: number): AsIoContext {
  let aic = s.aic[pid];
  if (!aic) {
    aic = {
      pid,
      running: true,
      ioStarted: false,
      ioRunning: false,
      nrQueued: 0,
      nrDispatched: 0,
      lastEndRequestJ: 0,
      lastRequestPos: 0,
      ttimeSamples: 0,
      ttimeTotal: 0,
      ttimeMeanJ: 0,
      seekSamples: 0,
      seekTotal: 0,
      seekMean: 0,
    };
    s.aic[pid] = aic;
  }
  return aic;
}

/** as_update_thinktime: one think-time sample (jiffies). A process's first sample also
 * feeds the new-process mean and makes exiting look less likely. */
export function updateThinkTime(s: AsState, aic: AsIoContext, ttimeJ: number): void {
  if (aic.ttimeSamples === 0) {
    s.newTtimeTotal = decay(s.newTtimeTotal, 256 * ttimeJ);
    s.newTtimeMeanJ = Math.floor(s.newTtimeTotal / 256);
    s.exitProb = Math.floor((7 * s.exitProb) / 8);
  }
  aic.ttimeSamples = decay(aic.ttimeSamples, 256);
  aic.ttimeTotal = decay(aic.ttimeTotal, 256 * ttimeJ);
  aic.ttimeMeanJ = Math.floor((aic.ttimeTotal + 128) / aic.ttimeSamples);
}

/** as_update_seekdist: one seek-distance sample (sectors), clamped so that an odd far
 * request does not blow the mean up: ≤ 4·mean + 1 GiB for the first samples, then
 * ≤ 4·mean + 64 MiB. */
export function updateSeekDist(s: AsState, aic: AsIoContext, sdist: number): void {
  if (aic.seekSamples === 0) {
    s.newSeekTotal = decay(s.newSeekTotal, 256 * sdist);
    s.newSeekMean = Math.floor(s.newSeekTotal / 256);
  }
  const cap = aic.seekMean * 4 + (aic.seekSamples <= 60 ? 2 * 1024 * 1024 : 2 * 1024 * 64);
  const d = Math.min(sdist, cap);
  aic.seekSamples = decay(aic.seekSamples, 256);
  aic.seekTotal = decay(aic.seekTotal, 256 * d);
  aic.seekMean = Math.floor((aic.seekTotal + Math.floor(aic.seekSamples / 2)) / aic.seekSamples);
}

/** The think-time cap: MAX_THINKTIME (HZ/50 jiffies = 20 ms) less one jiffy. */
export function maxThinkJ(s: AsState): number {
  return Math.floor(s.hz / 50) - 1;
}

/**
 * as_update_iohist: a sync request `rq` is being queued for `aic` (its own, or — from
 * can_break — a cooperating process's close request). Called before nr_queued counts it.
 * Think time = now − last sync completion when nothing of the process is queued or in the
 * dispatch queue (requests already in the driver do not count, as in the kernel), else 0.
 */
export function updateIoHistory(s: AsState, aic: AsIoContext, rq: IoRequest, nowJ: number): void {
  if (!rq.sync) return;
  if (aic.ioRunning || aic.ioStarted) {
    let ttime = 0;
    if (aic.ioRunning && aic.nrQueued + aic.nrDispatched === 0) {
      ttime = Math.min(nowJ - aic.lastEndRequestJ, maxThinkJ(s));
    }
    updateThinkTime(s, aic, ttime);
    updateSeekDist(s, aic, Math.abs(rq.sector - aic.lastRequestPos));
  }
  aic.lastRequestPos = rq.sector + rq.nSectors;
  aic.ioStarted = true;
}

/** as_put_io_context: a sync request of the process is done (completed, or merged away —
 * the kernel counts both): remember when, for the next think-time sample. */
export function putIoContext(s: AsState, rq: IoRequest, nowJ: number): void {
  const aic = s.aic[rq.pid];
  if (rq.sync && aic) {
    aic.ioRunning = true;
    aic.lastEndRequestJ = nowJ;
  }
}

/** The read-only est_time file: exit probabilities and the new-process means. (The
 * kernel prints the new think time in jiffies but labels it ms; here it is ms.) */
export function estTime(s: AsState): Record<string, number> {
  return {
    exitProbabilityPct: Math.floor((100 * s.exitProb) / 256),
    exitWithoutCooperatorPct: Math.floor((100 * s.exitNoCoop) / 256),
    newThinkTimeMs: jiffyNs(s.newTtimeMeanJ, s.hz) / 1e6,
    newSeekDistanceSectors: s.newSeekMean,
  };
}
