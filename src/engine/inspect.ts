// The block layer's read-only view for the UI: plug state, dispatch queue, pool, and the
// scheduler's own inspection.
import { requestAt } from './request';
import type { Simulation } from './simulation';
import { pageCacheView } from './workload/page-cache-view';
import { journalsView } from './workload/journal-inspect';

/** Requests waiting in the scheduler and the dispatch queue, for the UI. */
export function hostView(sim: Simulation): Record<string, unknown> {
  const h = sim.state.host;
  const table = sim.state.requests;
  return {
    scheduler: sim.elevator.name,
    // 2.6: the queue's plug; 6.18: each process's plug (pid → its requests' ids)
    ...(sim.model.iosched.queue.taskPlug
      ? {
          taskPlugs: Object.fromEntries(
            Object.entries(h.taskPlugs)
              .filter(([, p]) => p.rqs.length > 0)
              .map(([pid, p]) => [pid, p.rqs.map((slot) => requestAt(table, slot).id)]),
          ),
        }
      : { plugged: h.plugged }),
    dispatchQueue: h.dispatchQueue.map((slot) => requestAt(table, slot).id),
    inDriver: h.inDriver,
    // 2.6: the request pool per class; 6.18: blk-mq's one tag pool
    ...(sim.model.iosched.queue.taskPlug
      ? {
          tags: { depth: h.mq.depth, used: h.mq.used },
          sleeping: h.mq.sleeping,
          blockedBehind: Object.values(h.mq.blocked).reduce((n, b) => n + b.length, 0),
        }
      : {
          allocated: { async: h.allocated[0], sync: h.allocated[1] },
          sleeping: h.waiters[0].length + h.waiters[1].length,
        }),
    internals: sim.elevator.inspect(h.elevator, sim.ctx),
    // the layer above, when the run has one: the page cache's pages and its flusher
    ...(sim.state.workload.pageCache ? { pageCache: pageCacheView(sim) } : {}),
    // and the journals written through it (ext3's jbd, ReiserFS's)
    ...(sim.state.workload.journals.length > 0 || sim.state.workload.reiserfs
      ? { journals: journalsView(sim) }
      : {}),
  };
}
