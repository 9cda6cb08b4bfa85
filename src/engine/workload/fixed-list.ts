// Fixed request lists (a scenario's `requests`): each entry issued at its time (atMs), after
// a completion (thinkTimeMs — DiskSim's validation traces), after a given earlier entry
// completes (afterDone + thinkTimeMs) or after the previous entry is issued (gapMs) — the
// last two are closed-mode trace replay's dependent and independent requests.
import { allocBio } from '../request';
import type { Bio } from '../iosched/types';
import { pushEvent } from '../sim/heap';
import { EventKind, EventPriority } from '../sim/events';
import type { WorkloadSimulation } from './sim-view';
import type { FixedRequest, ProcessSpec } from './process-spec';
import type { ListWaits, ProcInstance } from './instance';

const MS = 1e6;

export type { ListWaits } from './instance';

/** The waits of a list with afterDone entries; null for any other process. */
export function createListWaits(p: ProcessSpec): ListWaits | null {
  return p.requests?.some((r) => r.afterDone !== undefined)
    ? { doneNs: new Float64Array(p.requests.length).fill(-1), entryOfBio: new Map() }
    : null;
}

/**
 * The list's previous entry was just issued; the next one goes on the clock now if it can:
 * a timed entry at its time, a gap entry this long after now, an afterDone entry whose
 * request has completed this long after that completion (if not, listBioDone puts it on
 * the clock when it does). A think-time entry without afterDone waits for a completion.
 */
export function scheduleAfterIssue(
  sim: WorkloadSimulation,
  inst: ProcInstance,
  instIndex: number,
  next: FixedRequest,
  now: number,
): void {
  let at: number;
  if (next.gapMs !== undefined) at = now + next.gapMs * MS;
  else if (next.afterDone !== undefined) {
    const done = inst.listWaits!.doneNs[next.afterDone]!;
    if (done < 0) return;
    at = Math.max(now, done + next.thinkTimeMs! * MS);
  } else if (next.thinkTimeMs === null) at = Math.max(now, next.atMs * MS);
  else return;
  pushEvent(sim.state.heap, at, EventPriority.Issue, EventKind.Issue, instIndex);
}

export function listBio(
  sim: WorkloadSimulation,
  inst: ProcInstance,
  i: number,
  p: ProcessSpec,
  now: number,
): Bio {
  const entry = inst.listIndex++;
  const r = p.requests![entry]!;
  const write = r.op === 'write';
  const sync = r.sync ?? p.sync ?? !write;
  const bio = allocBio(
    sim.state.bios,
    sim.state.nextBioId++,
    i,
    inst.pid,
    write,
    sync,
    r.sector,
    Math.round(r.sizeKiB * 2),
    now,
  );
  if (r.serviceMs != null) bio.serviceNs = r.serviceMs * MS;
  if (r.preflush === true) bio.preflush = true;
  if (r.fua === true) bio.fua = true;
  inst.listWaits?.entryOfBio.set(bio.id, entry);
  return bio;
}

/** A bio of a list completed: the next entry may wait for it (afterDone) or for any
 * completion (think time); a gap, a timed entry or one waiting for another entry is on the
 * clock already or will be. */
export function listBioDone(
  sim: WorkloadSimulation,
  inst: ProcInstance,
  bio: Bio,
  now: number,
): void {
  const p = sim.model.processes[inst.spec]!;
  const next = p.requests![inst.listIndex];
  const waits = inst.listWaits;
  let entry = -1;
  if (waits) {
    entry = waits.entryOfBio.get(bio.id)!;
    waits.entryOfBio.delete(bio.id);
    waits.doneNs[entry] = now;
  }
  if (next && next.thinkTimeMs !== null && next.gapMs === undefined) {
    if (next.afterDone === undefined || next.afterDone === entry)
      pushEvent(
        sim.state.heap,
        now + next.thinkTimeMs * MS,
        EventPriority.Issue,
        EventKind.Issue,
        bio.proc,
      );
  }
}
