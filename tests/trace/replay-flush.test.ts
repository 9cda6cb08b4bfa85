// The trace side of kernel 6.18's flush machinery (src/engine/trace/replay-flush.ts and its
// use in replay-source.ts, replay-scenario.ts, replay-loop.ts): RWBS flags as blkparse's
// fill_rwbs prints them, the flush commands' D→C pairs, each flagged Q's sequence end, and
// the traced device's write cache and FUA from meta.json or, without it, from the trace.
import { describe, expect, it } from 'vitest';
import '../../src/engine/iosched/registry';
import { rwbsFlags } from '../../src/engine/trace/replay-flush';
import { readTraceText } from '../../src/engine/trace/replay-source';
import { buildScenario, traceFlushCaps } from '../../src/engine/trace/replay-scenario';

let seq = 0;
const line = (t: number, pid: number, a: string, rwbs: string, rest: string): string =>
  `  7,0    1 ${String(++seq).padStart(8)} ${t.toFixed(9).padStart(15)} ${String(pid).padStart(5)}  ${a} ${rwbs.padStart(3)} ${rest}`;

/** jbd2 (pid 10): a journal block, then a commit block FWFSM whose sequence the kernel ran as
 * the small-files fsync trace shows (pre-flush, data, post-flush, C with no sectors); then
 * its next journal block 0.1 ms after that end. python3 (pid 20): an fsync flush Q FWS. */
function flushTrace(): string {
  seq = 0;
  return [
    line(0.0, 10, 'Q', 'WS', '100 + 8 [jbd2]'),
    line(0.00001, 10, 'G', 'WS', '100 + 8 [jbd2]'),
    line(0.00002, 10, 'D', 'WS', '100 + 8 [jbd2]'),
    line(0.0001, 0, 'C', 'WS', '100 + 8 [0]'),
    line(0.0002, 10, 'Q', 'FWFSM', '108 + 8 [jbd2]'),
    line(0.00021, 10, 'G', 'FWFSM', '108 + 8 [jbd2]'),
    line(0.00022, 24, 'D', 'FN', '[kworker/1:0H]'),
    line(0.0005, 0, 'C', 'FN', '0 [0]'),
    line(0.00051, 24, 'I', 'WSM', '108 + 8 [kworker/1:0H]'),
    line(0.00052, 24, 'D', 'WSM', '108 + 8 [kworker/1:0H]'),
    line(0.0006, 0, 'C', 'WSM', '108 + 8 [0]'),
    line(0.00061, 24, 'D', 'FN', '[kworker/1:0H]'),
    line(0.0009, 0, 'C', 'FN', '0 [0]'),
    line(0.00091, 0, 'C', 'WSM', '108 [0]'),
    line(0.00101, 10, 'Q', 'WS', '116 + 8 [jbd2]'),
    line(0.00102, 10, 'G', 'WS', '116 + 8 [jbd2]'),
    line(0.00103, 10, 'D', 'WS', '116 + 8 [jbd2]'),
    line(0.0011, 0, 'C', 'WS', '116 + 8 [0]'),
    line(0.002, 20, 'Q', 'FWS', '[python3]'),
    line(0.00201, 20, 'G', 'FWS', '[python3]'),
    line(0.00202, 24, 'D', 'FN', '[kworker/1:0H]'),
    line(0.0023, 0, 'C', 'FN', '0 [0]'),
    line(0.00231, 0, 'C', 'WS', '0 [0]'),
  ].join('\n');
}

describe('the trace side of the flush machinery', () => {
  it("blkparse's fill_rwbs: F first for a flush, then the direction, then F for FUA", () => {
    expect(rwbsFlags('FWFSM')).toEqual({ preflush: true, fua: true, flushOp: false });
    expect(rwbsFlags('FWS')).toEqual({ preflush: true, fua: false, flushOp: false });
    expect(rwbsFlags('WFS')).toEqual({ preflush: false, fua: true, flushOp: false });
    expect(rwbsFlags('FN')).toEqual({ preflush: true, fua: false, flushOp: true });
    expect(rwbsFlags('WSM')).toEqual({ preflush: false, fua: false, flushOp: false });
    expect(rwbsFlags('F')).toEqual({ preflush: false, fua: false, flushOp: false });
  });

  it('the flush commands pair D FN with C FN; a flagged Q ends at its C with no sectors', () => {
    const dev = readTraceText(flushTrace()).devices.get('7,0')!;
    expect(dev.flushes.pairs.map((p) => [p.dNs, p.cNs].map((t) => Math.round(t / 1e3)))).toEqual([
      [220, 500],
      [610, 900],
      [2020, 2300],
    ]);
    expect(dev.flushes.flaggedQs).toBe(2);
    const commit = dev.qs.find((q) => q.sector === 108)!;
    expect(commit).toMatchObject({ preflush: true, fua: true });
    // its data completed at 0.6 ms (per-bio figures count that C, as btt does); its process
    // heard at 0.91 ms, after the post-flush
    expect(Math.round(commit.doneNs / 1e3)).toBe(600);
    expect(Math.round(commit.endNs / 1e3)).toBe(910);
    const empty = dev.qs.find((q) => q.pid === 20)!;
    expect(empty).toMatchObject({ nSectors: 0, sector: 0, preflush: true, fua: false });
    expect(Math.round(empty.endNs / 1e3)).toBe(2310);
  });

  it('closed mode: the next Q depends on the sequence end, its think time from there', () => {
    const { scenario } = buildScenario(readTraceText(flushTrace()), {
      mode: 'closed',
      meta: { scheduler: 'mq-deadline' },
    });
    const jbd2 = scenario.workload.processes.find((p) => p.name.startsWith('jbd2'))!;
    expect(jbd2.requests![1]).toMatchObject({ preflush: true, fua: true });
    expect(jbd2.requests![2]!.afterDone).toBe(1);
    expect(jbd2.requests![2]!.thinkTimeMs).toBeCloseTo(0.1, 9); // 1.01 − 0.91, not 1.01 − 0.6
    const py = scenario.workload.processes.find((p) => p.name.startsWith('python3'))!;
    expect(py.requests![0]).toMatchObject({ sizeKiB: 0, preflush: true, op: 'write' });
  });

  it("the device's write cache and FUA: meta.json's, else the trace's flush commands and FUA dispatches", () => {
    const dev = readTraceText(flushTrace()).devices.get('7,0')!;
    expect(traceFlushCaps(dev, { writeCache: 'write through', fua: 1 })).toMatchObject({
      writeCache: false,
      fua: true,
      source: 'write cache from meta.json; FUA from meta.json',
    });
    // flush commands: a write cache; FUA writes followed by a flush: no FUA
    expect(traceFlushCaps(dev, {})).toEqual({
      writeCache: true,
      fua: false,
      source:
        'write cache from the trace (3 flush commands); FUA from the trace (FUA writes followed by flushes)',
    });
  });
});
