// Splitting a bio over max_sectors (split.ts; LINUX-SCHEDULERS.md §9.4, blkparse's X): the
// pieces, their X lines, one completion for the process, and btt's #Q/#D counting the Q once.
import { describe, expect, it } from 'vitest';
import type { TraceEvent, TraceSink } from '../../src/engine/events';
import { runScenario } from '../../src/engine/run';
import { BlkparseWriter } from '../../src/engine/trace/blkparse-writer';
import type { FixedRequest } from '../../src/engine/scenario/types';
import { proc, scenario } from '../helpers/scenario';

const MS = 1e6;
const read = (sector: number, sizeKiB: number, atMs = 0): FixedRequest => ({
  sector,
  sizeKiB,
  op: 'read',
  atMs,
  thinkTimeMs: null,
});

function run(requests: FixedRequest[], maxSectorsKb = 128, iosched = 'noop') {
  const trace: TraceEvent[] = [];
  const lines: string[] = [];
  const writer = new BlkparseWriter((l) => lines.push(l));
  const sink: TraceSink = {
    trace: (e) => {
      trace.push(e);
      writer.trace(e);
    },
    service: () => {},
    decision: () => {},
  };
  const { summary } = runScenario(
    scenario({
      iosched,
      queueDepth: 4,
      preset: 'sata-7200-500g',
      queue: { max_sectors_kb: maxSectorsKb },
      processes: [proc({ name: 'fio', requests })],
    }),
    { sink },
  );
  return { trace, lines, summary, of: (a: string) => trace.filter((e) => e.action === a) };
}

describe('bio splitting at max_sectors_kb (X)', () => {
  it('a 1 MiB bio with max_sectors_kb 128: one Q, seven X, eight 256-sector requests', () => {
    const r = run([read(1_572_864, 1024)]);
    expect(r.of('Q').map((e) => [e.sector, e.nSectors])).toEqual([[1_572_864, 2048]]);
    expect(r.of('X').map((e) => [e.sector, e.sector + e.nSectors])).toEqual(
      Array.from({ length: 7 }, (_, i) => [1_572_864 + 256 * i, 1_572_864 + 256 * (i + 1)]),
    );
    const d = r.of('D');
    expect(d.map((e) => e.nSectors)).toEqual(Array(8).fill(256));
    expect(d.map((e) => e.sector)).toEqual(
      Array.from({ length: 8 }, (_, i) => 1_572_864 + 256 * i),
    );
    // blkparse prints a split as "a / b", like the kernel's traces (kyber_seqread_1m_split)
    expect(r.lines.find((l) => / X /.test(l))).toMatch(/ X +R 1572864 \/ 1573120 \[/);
  });

  it('the pieces never merge back together (each is already max_sectors)', () => {
    const r = run([read(1_572_864, 1024)]);
    expect(r.of('M')).toHaveLength(0);
    expect(r.of('F')).toHaveLength(0);
  });

  it('the process sees one I/O, done when its last piece completes; #Q/#D counts the Q once', () => {
    const r = run([read(1_572_864, 1024)]);
    expect(r.summary.requests).toMatchObject({ queued: 1, dispatched: 8, completed: 8 });
    expect(r.summary.requests.iosCompleted).toBe(1);
    expect(r.summary.requests.mergeRatio).toBeCloseTo(1 / 8, 12);
    const lastC = Math.max(...r.of('C').map((e) => e.tNs));
    expect(r.summary.latencyMs.q2c.max).toBeCloseTo(lastC / MS, 6);
  });

  it('a bio within max_sectors is not split; the limit follows the setting', () => {
    expect(run([read(1000, 128)]).of('X')).toHaveLength(0);
    const half = run([read(1000, 1024)], 512);
    expect(half.of('X')).toHaveLength(1);
    expect(half.of('D').map((e) => e.nSectors)).toEqual([1024, 1024]);
    // an odd size: the last piece is the remainder
    expect(
      run([read(1000, 300)])
        .of('D')
        .map((e) => e.nSectors),
    ).toEqual([256, 256, 88]);
  });

  it('splits under the pass-through "none" too (the device takes no more than max_sectors)', () => {
    const r = run([read(0, 512)], 128, 'none');
    expect(r.of('X')).toHaveLength(3);
    expect(r.summary.requests.iosCompleted).toBe(1);
  });
});
