// Kernel 6.18's flush machinery (src/engine/iosched/blk-flush.ts) against block/blk-flush.c:
// each rule by the kernel function that has it, and the event sequences as the shared
// linux-6.18 small-files fsync trace shows them (a jbd2 commit block queued FWFSM on a
// write-back device without FUA: Q G, D FN, C FN, I, D, C with its data, D FN, C FN, then
// C with no sectors; python3's fsync flush `Q FWS`: Q G, D FN, C FN, C WS 0).
import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '../../src/engine/events';
import {
  REQ_FSEQ_DATA,
  REQ_FSEQ_POSTFLUSH,
  REQ_FSEQ_PREFLUSH,
  currentStep,
  flushPolicy,
} from '../../src/engine/iosched/blk-flush';
import type { FixedRequest } from '../../src/engine/scenario/types';
import { loadScenario } from '../../src/engine/scenario/load';
import { rwbs } from '../../src/engine/trace/blkparse-writer';
import { actions, runProcs, type BlockRun } from '../helpers/mq-run';
import { wr } from '../helpers/traced-run';

const fw = (
  sector: number,
  atMs: number,
  o: { preflush?: boolean; fua?: boolean; sizeKiB?: number } = {},
): FixedRequest => ({
  ...wr(sector, atMs, o.sizeKiB ?? 4),
  sync: true,
  ...(o.preflush ? { preflush: true } : {}),
  ...(o.fua ? { fua: true } : {}),
});
/** fsync's blkdev_issue_flush: an empty write with PREFLUSH */
const emptyFlush = (atMs: number): FixedRequest => fw(0, atMs, { preflush: true, sizeKiB: 0 });

const WB: BlockRun = { queue: { write_cache: 1, fua: 0 } };
/** each event as blkparse prints its action and RWBS, with the sectors of D and C */
const lines = (trace: TraceEvent[]) =>
  trace
    .filter((e) => e.action !== 'P' && e.action !== 'U')
    .map(
      (e) =>
        `${e.action} ${rwbs(e)}${e.action === 'C' || e.action === 'D' ? ` ${e.nSectors}` : ''}`,
    );

describe('blk_flush_policy: the steps a PREFLUSH/FUA request needs', () => {
  const wc = { wc: true, fua: false };
  it('with a write cache and no FUA: PREFLUSH for a preflush, POSTFLUSH for FUA, DATA for data', () => {
    expect(flushPolicy(8, true, true, wc)).toBe(
      REQ_FSEQ_PREFLUSH | REQ_FSEQ_DATA | REQ_FSEQ_POSTFLUSH,
    );
    expect(flushPolicy(8, false, true, wc)).toBe(REQ_FSEQ_DATA | REQ_FSEQ_POSTFLUSH);
    expect(flushPolicy(0, true, false, wc)).toBe(REQ_FSEQ_PREFLUSH);
  });
  it('a device that does FUA itself (QUEUE_FLAG_FUA) needs no post-flush', () => {
    expect(flushPolicy(8, true, true, { wc: true, fua: true })).toBe(
      REQ_FSEQ_PREFLUSH | REQ_FSEQ_DATA,
    );
    expect(flushPolicy(8, false, true, { wc: true, fua: true })).toBe(REQ_FSEQ_DATA);
  });
  it('without a write cache (QUEUE_FLAG_WC clear) only the data is left — an empty flush is nothing', () => {
    expect(flushPolicy(8, true, true, { wc: false, fua: false })).toBe(REQ_FSEQ_DATA);
    expect(flushPolicy(0, true, false, { wc: false, fua: false })).toBe(0);
  });
  it('blk_flush_cur_seq: the first step not yet done', () => {
    expect(currentStep(0)).toBe(REQ_FSEQ_PREFLUSH);
    expect(currentStep(REQ_FSEQ_PREFLUSH)).toBe(REQ_FSEQ_DATA);
    expect(currentStep(REQ_FSEQ_PREFLUSH | REQ_FSEQ_DATA)).toBe(REQ_FSEQ_POSTFLUSH);
  });
});

describe('blk_insert_flush and blk_flush_complete_seq: the sequence as the 6.18 trace shows it', () => {
  it('a preflush+FUA write on a write-back device without FUA: flush, data, flush, then C with no sectors', () => {
    const r = runProcs('mq-deadline', [[fw(1000, 0, { preflush: true, fua: true })]], WB);
    expect(lines(r.trace)).toEqual([
      'Q FWFS',
      'G FWFS',
      'D FN 0', // the pre-flush: no I — it bypasses the scheduler
      'C FN 0',
      'I WS', // the data, by kblockd's requeue work: PREFLUSH and FUA cleared, REQ_SYNC kept
      'D WS 8',
      'C WS 8',
      'D FN 0', // the post-flush stands in for FUA
      'C FN 0',
      'C WS 0', // REQ_FSEQ_DONE: blk_mq_end_request with no bytes left
    ]);
    // not through the process's plug: no P, no U
    expect(actions(r.trace).filter((a) => a === 'P' || a.startsWith('U'))).toEqual([]);
    // the process hears of it at the end of the sequence
    const m = r.sim.state.metrics;
    expect(m.iosCompleted).toBe(1);
  });

  it('an empty flush (fsync): one flush command, then C with no sectors', () => {
    const r = runProcs('mq-deadline', [[emptyFlush(0)]], WB);
    expect(lines(r.trace)).toEqual(['Q FWS', 'G FWS', 'D FN 0', 'C FN 0', 'C WS 0']);
  });

  it('no write cache: the preflush and FUA are dropped (the write goes as any, through the plug); an empty flush completes at once', () => {
    const nowc: BlockRun = { queue: { write_cache: 0 } };
    const r = runProcs('mq-deadline', [[fw(1000, 0, { preflush: true, fua: true })]], nowc);
    expect(actions(r.trace)).toEqual(['Q', 'G', 'P', 'U1', 'I', 'D', 'C']);
    expect(r.trace.filter((e) => e.flushOp)).toEqual([]);
    const e = runProcs('mq-deadline', [[emptyFlush(0)]], nowc);
    expect(lines(e.trace)).toEqual(['Q FWS', 'G FWS', 'C WS 0']);
    expect(e.trace.at(-1)!.tNs).toBe(0);
  });

  it('a device that does FUA: the pre-flush, then the data with FUA (WFS), and no post-flush', () => {
    const r = runProcs('mq-deadline', [[fw(1000, 0, { preflush: true, fua: true })]], {
      queue: { write_cache: 1, fua: 1 },
    });
    expect(lines(r.trace)).toEqual([
      'Q FWFS',
      'G FWFS',
      'D FN 0',
      'C FN 0',
      'I WFS',
      'D WFS 8',
      'C WFS 8',
      'C WFS 0',
    ]);
  });

  it('FUA alone without device FUA (REQ_FSEQ_DATA | REQ_FSEQ_POSTFLUSH): the data goes through the plug and the scheduler, then a post-flush', () => {
    const r = runProcs('mq-deadline', [[fw(1000, 0, { fua: true })]], WB);
    expect(actions(r.trace)).toEqual(['Q', 'G', 'P', 'U1', 'I', 'D', 'C', 'D', 'C', 'C']);
    expect(r.trace.filter((e) => e.flushOp).map((e) => e.action)).toEqual(['D', 'C']);
  });

  it('the data of a sequence goes before requests the scheduler already holds (inserted at the head)', () => {
    // a busy device (depth 1): two plain writes wait in mq-deadline while the pre-flush runs;
    // its sweep would take 600 first (below the last dispatch: back to the lowest)
    const r = runProcs(
      'mq-deadline',
      [
        [wr(500_000, 0, 64)],
        [fw(1000, 0.001, { preflush: true })],
        [wr(600, 0.002), wr(700, 0.002)],
      ],
      WB,
    );
    const d = r.d.filter((e) => !e.flushOp).map((e) => e.sector);
    expect(d).toEqual([500_000, 1000, 600, 700]);
  });

  it.each(['bfq', 'kyber'])(
    '%s: the data of a sequence goes at the head of its own dispatch list (bfqd->dispatch, the domain list)',
    (scheduler) => {
      // as above, the waiting writes synchronous: BFQ would keep their queue in service
      // (its budget lasts) and Kyber serve its domain list in order, both before a datum
      // added at the tail
      const syncWr = (sector: number) => ({ ...wr(sector, 0.002), sync: true });
      const r = runProcs(
        scheduler,
        [
          [wr(500_000, 0, 64)],
          [fw(1000, 0.001, { preflush: true })],
          [syncWr(600), syncWr(700), syncWr(800), syncWr(900)],
        ],
        WB,
      );
      const d = r.d.filter((e) => !e.flushOp).map((e) => e.sector);
      expect(d).toEqual([500_000, 1000, 600, 700, 800, 900]);
      // it entered the scheduler (I) once, after the pre-flush completed
      const i = r.trace.filter((e) => e.action === 'I' && e.sector === 1000);
      expect(i).toHaveLength(1);
    },
  );
});

describe('bio_split: the pieces of a split preflush write carry its flags', () => {
  it('each piece is its own sequence (bio_alloc_clone copies bi_opf)', () => {
    const r = runProcs('mq-deadline', [[fw(1000, 0, { preflush: true, sizeKiB: 1024 })]], WB);
    const g = r.trace.filter((e) => e.action === 'G');
    expect(g.map((e) => rwbs(e))).toEqual(['FWS', 'FWS']);
    // two pre-flushes: the second piece's waits for the first's data (C2), then goes
    expect(r.sim.state.host.flush.issued).toBe(2);
    expect(r.trace.filter((e) => e.action === 'C' && !e.flushOp && e.nSectors === 0)).toHaveLength(
      2,
    );
  });
});

describe('blk_kick_flush: one flush at a time serves every request waiting for one', () => {
  it('C1: flushes asked for while one runs wait for it, and then one flush serves them all', () => {
    // three empty flushes: the first's flush is running when the other two arrive
    const r = runProcs(
      'mq-deadline',
      [[emptyFlush(0)], [emptyFlush(0.001)], [emptyFlush(0.002)]],
      WB,
    );
    const flushes = r.trace.filter((e) => e.flushOp && e.action === 'D');
    expect(flushes).toHaveLength(2);
    expect(r.sim.state.host.flush.issued).toBe(2);
    expect(r.trace.filter((e) => e.action === 'C' && !e.flushOp)).toHaveLength(3);
  });

  it("C2: no flush while a sequence's data is on the device — its post-flush and a later pre-flush share one", () => {
    // A: preflush+FUA; B: an empty flush that arrives while A's pre-flush runs
    const r = runProcs(
      'mq-deadline',
      [[fw(1000, 0, { preflush: true, fua: true })], [emptyFlush(0.0001)]],
      WB,
    );
    // A's pre-flush; then A's data — B waits (C2) — then one flush for A's post and B's pre
    expect(r.sim.state.host.flush.issued).toBe(2);
    const seq = r.trace
      .filter((e) => e.action === 'D')
      .map((e) => (e.flushOp ? 'FN' : `W${e.nSectors}`));
    expect(seq).toEqual(['FN', 'W8', 'FN']);
    // B completes with A's end, at the second flush's completion
    const ends = r.trace.filter((e) => e.action === 'C' && !e.flushOp && e.nSectors === 0);
    expect(ends).toHaveLength(2);
    expect(ends[0]!.tNs).toBe(ends[1]!.tNs);
  });

  it('C3: a flush pending longer than FLUSH_PENDING_TIMEOUT (5 s) goes though sequence data is on the device', () => {
    // A's 32 MiB FUA write (DATA | POSTFLUSH) is on the device for seconds; B's empty flush
    // waits on the pending list (C2). A kick comes only with a step of a sequence: C's
    // preflush write, 6 s in, joins B's list and kicks — the list is 5 s old by then
    const r = runProcs(
      'none',
      [
        [fw(1000, 0, { fua: true, sizeKiB: 32768 })],
        [emptyFlush(1)],
        [fw(500_000, 6000, { preflush: true })],
      ],
      { queue: { write_cache: 1, fua: 0, max_sectors_kb: 32768 }, queueDepth: 2 },
    );
    const flushD = r.trace.filter((e) => e.flushOp && e.action === 'D').map((e) => e.tNs / 1e6);
    const dataC = r.trace.find((e) => e.action === 'C' && e.nSectors === 65536)!.tNs / 1e6;
    // the premise: A's write is still on the device 6 s in
    expect(dataC).toBeGreaterThan(6000);
    // B's and C's flush went at the 6 s kick, before A's data completed (C3), not after it
    expect(flushD[0]!).toBe(6000);
    expect(flushD[0]!).toBeLessThan(dataC);
    // the same with C at 4 s: the list is under 5 s old, the flush waits for A's data (C2)
    const early = runProcs(
      'none',
      [
        [fw(1000, 0, { fua: true, sizeKiB: 32768 })],
        [emptyFlush(1)],
        [fw(500_000, 4000, { preflush: true })],
      ],
      { queue: { write_cache: 1, fua: 0, max_sectors_kb: 32768 }, queueDepth: 2 },
    );
    const first = early.trace.find((e) => e.flushOp && e.action === 'D')!.tNs / 1e6;
    expect(first).toBe(
      early.trace.find((e) => e.action === 'C' && e.nSectors === 65536)!.tNs / 1e6,
    );
  });

  it('the flush command bypasses the scheduler: no G or I of its own, and it takes no scheduler tag', () => {
    const r = runProcs('mq-deadline', [[emptyFlush(0)]], WB);
    const rq = r.trace.find((e) => e.flushOp)!.rq;
    expect(r.trace.filter((e) => e.rq === rq).map((e) => e.action)).toEqual(['D', 'C']);
    expect(r.sim.state.host.mq.used).toBe(0);
  });
});

describe('a flush at the device (disk/flush-command.ts)', () => {
  it('a write-back drive answers a flush once the writes in its buffer are destaged', () => {
    // sata-7200-500g buffers writes (write-back): the flush waits for the write's destage
    const base: BlockRun = { queue: { write_cache: 1, fua: 0 }, queueDepth: 2 };
    const r = runProcs('none', [[wr(1_000_000, 0, 64)], [emptyFlush(0.01)]], {
      ...base,
      preset: 'sata-7200-500g',
    });
    const wC = r.trace.find((e) => e.action === 'C' && e.nSectors > 0)!;
    const fC = r.trace.find((e) => e.action === 'C' && e.flushOp)!;
    const alone = runProcs('none', [[emptyFlush(0.01)]], { ...base, preset: 'sata-7200-500g' });
    const aloneC = alone.trace.find((e) => e.action === 'C' && e.flushOp)!;
    const aloneD = alone.trace.find((e) => e.action === 'D' && e.flushOp)!;
    // nothing dirty: the command overhead only
    expect(aloneC.tNs - aloneD.tNs).toBeLessThan(1e6);
    // the write was reported done from the buffer well before the flush could be
    expect(fC.tNs - 0.01e6).toBeGreaterThan(aloneC.tNs - aloneD.tNs + 1e6);
    expect(wC.tNs).toBeLessThan(fC.tNs);
  });
});

describe('scenarios with flushes', () => {
  const withList = (kernel: string, requests: unknown[]) => ({
    name: 'x',
    iosched: { name: 'none', kernel },
    workload: { processes: [{ name: 'p', requests }] },
  });
  it('an empty flush is a write of 0 KiB with preflush, on kernel 6.18 only', () => {
    const flush = { sector: 0, sizeKiB: 0, op: 'write', atMs: 0, preflush: true };
    expect(() => loadScenario(withList('6.18', [flush]), 'x.json')).not.toThrow();
    expect(() => loadScenario(withList('2.6.32', [flush]), 'x.json')).toThrow(
      /requests\.0\.sizeKiB: is 0 \(an empty flush\), which only kernel 6\.18's flush machinery replays/,
    );
    // 0 KiB without preflush, or a read, is no request
    for (const bad of [
      { ...flush, preflush: false },
      { ...flush, op: 'read' },
    ])
      expect(() => loadScenario(withList('6.18', [bad]), 'x.json')).toThrow(/sizeKiB/);
  });
});
