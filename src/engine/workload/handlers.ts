// The workload's events, registered with the loop (sim/loop.ts): a process issues, the
// flusher runs, a journal's threads run (ext3's kjournald, ReiserFS's sync_supers and
// reiserfs/0).
import { EventKind } from '../sim/events';
import type { RegisterHandler } from '../sim/loop';
import { onWriteback } from './flusher';
import { onJournal } from './journal';
import { onReiserfsThread, onReiserfsWork, onSyncSupers } from './reiserfs-threads';
import type { WorkloadSimulation } from './sim-view';
import { onIssue } from './workload';

function writeback(sim: WorkloadSimulation, a: number, _rq: number, t: number): void {
  onWriteback(sim, a, t);
}

function syncSupers(sim: WorkloadSimulation, _a: number, _rq: number, t: number): void {
  onSyncSupers(sim, t);
}

function reiserfsWork(sim: WorkloadSimulation, a: number, _rq: number, t: number): void {
  onReiserfsWork(sim, a, t);
}

export function registerWorkloadEvents(on: RegisterHandler<WorkloadSimulation>): void {
  on(EventKind.Issue, onIssue);
  on(EventKind.Writeback, writeback);
  on(EventKind.Journal, onJournal);
  on(EventKind.ReiserfsThread, onReiserfsThread);
  on(EventKind.SyncSupers, syncSupers);
  on(EventKind.ReiserfsWork, reiserfsWork);
}
