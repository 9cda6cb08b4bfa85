// A small ElevatorContext for driving Kyber's hooks directly (kyber*.test.ts): a table of
// requests, the timers set and the decision records made.
import { kyber, type KyberState } from '../../src/engine/iosched/kyber';
import type { Candidate, ElevatorContext } from '../../src/engine/iosched/types';
import type { IoRequest } from '../../src/engine/request';

export interface Fake extends ElevatorContext {
  now: number;
  table: IoRequest[];
  timers: number[];
  records: Array<{ rule: string; chosen: number; text: string }>;
}

export function fakeCtx(hz = 250): Fake {
  const f = {
    now: 0,
    hz,
    table: [] as IoRequest[],
    timers: [] as number[],
    records: [] as Fake['records'],
    recording: true,
    rq: (slot: number) => f.table[slot]!,
    bio: () => {
      throw new Error('no bios here');
    },
    inDriver: () => 0,
    deviceDepth: () => 32,
    nonRotational: () => true,
    setTimer: (at: number) => f.timers.push(at),
    clearTimer: () => {},
    decide: (rule: string, chosen: number, _c: Candidate[], text: string) =>
      f.records.push({ rule, chosen, text }),
    message: () => {},
    kick: () => {},
  };
  return f as Fake;
}

/** A request in the fake table, allocated (setRequest) and inserted (add) now. */
export function insert(s: KyberState, ctx: Fake, write: boolean, sector = ctx.table.length * 1000) {
  const rq = {
    slot: ctx.table.length,
    id: ctx.table.length + 1,
    write,
    sector,
    nSectors: 8,
    sched: -1,
  };
  ctx.table.push(rq as IoRequest);
  kyber.setRequest!(s, rq as IoRequest, undefined as never, ctx);
  kyber.add(s, rq as IoRequest, ctx);
  return rq as IoRequest;
}

export function fresh(hz = 250, t: Record<string, number> = {}) {
  const ctx = fakeCtx(hz);
  const s = kyber.init(t, ctx);
  kyber.depthUpdated!(s, 64);
  return { s, ctx };
}

/** Dispatch until refused: the domains (R/W) of what left, in order. */
export function drain(s: KyberState, ctx: Fake, max = 1000): string[] {
  const out: string[] = [];
  for (let i = 0; i < max; i++) {
    const slot = kyber.dispatch(s, false, ctx);
    if (slot < 0) break;
    out.push(ctx.table[slot]!.write ? 'W' : 'R');
  }
  return out;
}
