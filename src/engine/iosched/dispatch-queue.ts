// The dispatch queue's own paths (LINUX-SCHEDULERS.md §1.5), apart from host.ts so that the
// driver's common path there stays small enough for V8 to inline what it calls: a request
// the scheduler released goes straight to the driver when the queue is empty (host.ts).
import { requestAt } from '../request';
import type { BlockSimulation } from './sim-view';
import { insertAt } from './common';
import type { ElevatorType } from './types';

/** The head of a non-empty queue. A lone entry leaves by pop: shift trims the array's store
 * and the next push grows it again, an allocation every few requests. */
export function takeFirst(q: number[]): number {
  if (q.length === 1) return q.pop()!;
  return q.shift()!;
}

/** A released request joins a non-empty dispatch queue, as the scheduler asks; the head
 * leaves for the driver. */
export function dispatchInsert(
  sim: BlockSimulation,
  e: ElevatorType<unknown>,
  slot: number,
): number {
  const dq = sim.state.host.dispatchQueue;
  if (e.dispatchInsert === 'append') dq.push(slot);
  else dispatchSort(sim, slot);
  return takeFirst(dq);
}

/** elv_dispatch_sort: keep one ascending sweep after the boundary, then one below it;
 * never pass a request of the other direction. */
function dispatchSort(sim: BlockSimulation, slot: number): void {
  const h = sim.state.host;
  const dq = h.dispatchQueue;
  const table = sim.state.requests;
  const rq = requestAt(table, slot);
  const boundary = h.endSector;
  let i = dq.length;
  while (i > 0) {
    const pos = requestAt(table, dq[i - 1]!);
    if (pos.write !== rq.write) break;
    if (rq.sector >= boundary) {
      if (pos.sector < boundary) {
        i--;
        continue;
      }
    } else if (pos.sector >= boundary) break;
    if (rq.sector >= pos.sector) break;
    i--;
  }
  insertAt(dq, i, slot);
}
