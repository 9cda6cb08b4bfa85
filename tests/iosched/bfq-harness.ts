// Drive BFQ's hooks directly (bfq-*.test.ts): a fake context with a request table, requests
// made, inserted, dispatched and completed one by one, as blk-mq would call the hooks.
import { fakeCtx, type Fake } from './kyber-harness';
import { bfq, type BfqState } from '../../src/engine/iosched/bfq';
import type { IoRequest } from '../../src/engine/request';

export function bfqFresh(o: { hz?: number; t?: Record<string, number>; ssd?: boolean } = {}) {
  const ctx = fakeCtx(o.hz ?? 250);
  (ctx as unknown as { nonRotational: () => boolean }).nonRotational = () => !!o.ssd;
  const s = bfq.init({ low_latency: 0, ...o.t }, ctx);
  bfq.depthUpdated!(s, 64);
  return { s, ctx };
}

/** a request of process `pid` in the table (not yet inserted) */
export function mkRq(
  ctx: Fake,
  o: {
    pid: number;
    sector: number;
    n?: number;
    write?: boolean;
    sync?: boolean;
    level?: number;
    /** ioprio class: 1 RT, 2 BE, 3 IDLE (default none: BE 4, or BE at `level`) */
    cls?: number;
  },
): IoRequest {
  const write = o.write ?? false;
  const rq = {
    slot: ctx.table.length,
    id: ctx.table.length + 1,
    proc: o.pid,
    pid: o.pid,
    write,
    sync: o.sync ?? !write,
    sector: o.sector,
    nSectors: o.n ?? 8,
    sched: -1,
    fifoNs: -1,
    ioprioClass: o.cls ?? (o.level === undefined ? 0 : 2),
    ioprioLevel: o.level ?? 4,
    bios: [],
  };
  ctx.table.push(rq as unknown as IoRequest);
  return rq as unknown as IoRequest;
}

/** allocate (bfq_prepare_request) and insert (bfq_insert_request) a request */
export function insert(s: BfqState, ctx: Fake, o: Parameters<typeof mkRq>[1]): IoRequest {
  const rq = mkRq(ctx, o);
  bfq.setRequest!(s, rq, undefined as never, ctx);
  bfq.add(s, rq, ctx);
  return rq;
}

export const dispatch = (s: BfqState, ctx: Fake) => bfq.dispatch(s, false, ctx);

/** the request completes (bfq_finish_requeue_request) */
export function complete(s: BfqState, ctx: Fake, slot: number): void {
  const rq = ctx.table[slot]!;
  bfq.completed(s, rq, ctx);
  bfq.putRequest!(s, rq, ctx);
}

export const queueOfPid = (s: BfqState, pid: number) => s.queues[s.syncOf[pid]!]!;
export const MS = 1e6;
