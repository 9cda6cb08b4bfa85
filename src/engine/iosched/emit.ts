// blktrace events from the block layer, written to the run's sink.
import type { BlkAction } from '../events';
import { requestAt, type IoRequest } from '../request';
import type { BlockSimulation } from './sim-view';
import type { Bio } from './types';

export function emitRq(sim: BlockSimulation, action: BlkAction, rq: IoRequest, t: number): void {
  sim.sink!.trace({
    tNs: t,
    action,
    rq: rq.id,
    pid: rq.pid,
    proc: rq.proc,
    sector: rq.sector,
    nSectors: rq.nSectors,
    write: rq.write,
    sync: rq.sync,
    ...(rq.flushOp ? { flushOp: true } : {}),
    ...(rq.fua ? { fua: true } : {}),
  });
}

export function emitBio(sim: BlockSimulation, action: BlkAction, bio: Bio, t: number): void {
  sim.sink!.trace({
    tNs: t,
    action,
    rq: bio.rq >= 0 ? requestAt(sim.state.requests, bio.rq).id : -1,
    bio: bio.id,
    pid: bio.pid,
    proc: bio.proc,
    sector: bio.sector,
    nSectors: bio.nSectors,
    write: bio.write,
    sync: bio.sync,
    ...(bio.preflush ? { preflush: true } : {}),
    ...(bio.fua ? { fua: true } : {}),
  });
}

/** P, U or UT: by the process at hand (`bio`), or by the named kernel context. */
export function emitPlug(
  sim: BlockSimulation,
  action: 'P' | 'U' | 'T',
  t: number,
  count: number,
  /** the process (a bio or request of it), or the name of a kernel thread */
  by: { pid: number; proc: number } | string,
): void {
  const task = typeof by === 'string' ? null : by;
  sim.sink!.trace({
    tNs: t,
    action,
    rq: -1,
    pid: task ? task.pid : 0,
    proc: task ? task.proc : -1,
    sector: 0,
    nSectors: 0,
    write: false,
    sync: false,
    count,
    ...(task ? {} : { comm: by as string }),
  });
}
