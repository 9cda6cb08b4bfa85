// The journals at this instant, for the UI's inspection panel (read-only): ext3's jbd
// (journal.ts) and ReiserFS's (reiserfs-journal.ts) — what the running transaction holds,
// what is being committed, and what is still in the log.
import type { WorkloadSimulation } from './sim-view';
import type { Transaction } from './journal-io';

const MS = 1e6;

function transactionView(t: Transaction | null, now: number): Record<string, number> | 'none' {
  if (!t) return 'none';
  return {
    ageMs: Math.round((now - t.startNs) / MS),
    metadataBlocks: t.meta.length,
    orderedPages: t.data.length,
  };
}

export function journalsView(sim: WorkloadSimulation): Array<Record<string, unknown>> {
  const now = sim.state.now;
  const w = sim.state.workload;
  const thread = (inst: number) => sim.model.processes[w.instances[inst]!.spec]!.name;
  const views: Array<Record<string, unknown>> = w.journals.map((j) => ({
    fs: 'ext3',
    thread: thread(j.inst),
    running: transactionView(j.running, now),
    committing: j.committing
      ? { ...(transactionView(j.committing, now) as object), writing: j.phase }
      : 'none',
    committedNotCheckpointed: j.checkpoints.length,
    commits: j.commits,
  }));
  for (const j of w.reiserfs?.journals ?? [])
    views.push({
      fs: 'reiserfs',
      running: transactionView(j.running, now),
      superBlockDirty: j.sDirt,
      inLog: {
        committed: j.lists.filter((l) => l.committed).length,
        toCommit: j.lists.filter((l) => !l.committed).length,
      },
      commits: j.commits,
    });
  return views;
}
