// Every real trace in tests/data/linux-6.18 through the real parser, streamed in odd
// chunk sizes, and through the real CLI: blkparse's own summary (summary.json) exactly —
// Total and per-CPU blocks, depth, events, throughput — and btt's rows (btt.json) within 1%.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { BttRow } from '../../src/engine/trace/btt';
import { TraceParser, type ParseReport } from '../../src/engine/trace/parse';
import type { BlockFigures } from '../../src/engine/trace/summary';
import { dataPath } from '../helpers/data';
import { spindleJson } from '../cli/run-cli';

const DIR = dataPath('linux-6.18');
const TRACES = readdirSync(DIR, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

interface CK {
  count: number;
  kib: number;
  kib_is_lower_bound?: boolean;
}
type Block = Record<string, CK | number>;
interface SummaryJson {
  cpus: Record<string, Block>;
  total: Block;
  throughput_kib_s: { read: number; write: number };
  events: number;
  total_printed: boolean;
  anomalies?: Array<{ field?: string; scope?: string } | string>;
}
interface BttJson {
  all_devices: Record<string, { min: number; avg: number; max: number; n: number } | null>;
  merge_ratio_q_over_d: number;
  merge: { q: number; d: number; blk_total: number; blk_min: number; blk_max: number };
}

/** Spindle's figures in summary.json's names. */
function asBlkparse(b: BlockFigures): Record<string, CK | number> {
  return {
    reads_queued: b.reads.queued,
    writes_queued: b.writes.queued,
    read_dispatches: b.reads.dispatched,
    write_dispatches: b.writes.dispatched,
    reads_requeued: b.reads.requeued,
    writes_requeued: b.writes.requeued,
    reads_completed: b.reads.completed,
    writes_completed: b.writes.completed,
    read_merges: { count: b.reads.merges, kib: b.reads.mergesKib },
    write_merges: { count: b.writes.merges, kib: b.writes.mergesKib },
    io_unplugs: b.unplugs.io,
    timer_unplugs: b.unplugs.timer,
  };
}

/** Compare one block; a "MiB"-printed size is a lower bound (README item 13). */
function expectBlock(ours: BlockFigures, theirs: Block, where: string): void {
  const mine = asBlkparse(ours);
  for (const [k, v] of Object.entries(mine)) {
    const t = theirs[k];
    if (typeof v === 'number') {
      expect(v, `${where} ${k}`).toBe(t);
      continue;
    }
    const tc = t as CK;
    expect(v.count, `${where} ${k}.count`).toBe(tc.count);
    if (tc.kib_is_lower_bound) {
      expect(v.kib, `${where} ${k}.kib ≥ printed`).toBeGreaterThanOrEqual(tc.kib);
    } else expect(v.kib, `${where} ${k}.kib`).toBe(tc.kib);
  }
}

function parseFile(path: string, chunk: number): ParseReport {
  const text = gunzipSync(readFileSync(path)).toString('utf8');
  const p = new TraceParser();
  for (let i = 0; i < text.length; i += chunk) p.feed(text.slice(i, i + chunk));
  const { report, fatal } = p.end();
  expect(fatal).toBeNull();
  return report;
}

const ROWS: Array<[keyof ParseReport['btt'], string]> = [
  ['q2q', 'Q2Q'],
  ['q2g', 'Q2G'],
  ['s2g', 'S2G'],
  ['g2i', 'G2I'],
  ['q2m', 'Q2M'],
  ['i2d', 'I2D'],
  ['m2d', 'M2D'],
  ['d2c', 'D2C'],
  ['q2c', 'Q2C'],
];

function expectBtt(r: ParseReport, btt: BttJson, name: string): void {
  for (const [ours, theirs] of ROWS) {
    const row = r.btt[ours] as BttRow;
    const t = btt.all_devices[theirs];
    if (t === null || t === undefined) {
      expect(row.n, `${name} ${theirs}: btt printed no row`).toBe(0);
      continue;
    }
    expect(row.n, `${name} ${theirs}.n`).toBe(t.n);
    expect(
      Math.abs(row.avg - t.avg) / t.avg,
      `${name} ${theirs}.avg ${row.avg} vs ${t.avg}`,
    ).toBeLessThan(0.01);
    expect(row.min).toBeCloseTo(t.min, 8);
    expect(row.max).toBeCloseTo(t.max, 8);
  }
  expect(
    Math.abs(r.btt.mergeRatio - btt.merge_ratio_q_over_d) / btt.merge_ratio_q_over_d,
  ).toBeLessThan(0.01);
  expect(r.btt.merge.q).toBe(btt.merge.q);
  expect(r.btt.merge.d).toBe(btt.merge.d);
  expect(r.btt.merge.blkTotal).toBe(btt.merge.blk_total);
  expect(r.btt.merge.blkMin).toBe(btt.merge.blk_min);
  expect(r.btt.merge.blkMax).toBe(btt.merge.blk_max);
}

describe.each(TRACES)('linux-6.18/%s', (name) => {
  const folder = join(DIR, name);
  const summary = JSON.parse(readFileSync(join(folder, 'summary.json'), 'utf8')) as SummaryJson;
  const btt = JSON.parse(readFileSync(join(folder, 'btt.json'), 'utf8')) as BttJson;
  const trace = join(folder, 'trace.txt.gz');

  it("equals blkparse's summary exactly (Total, every CPU, depth, events, throughput)", () => {
    const r = parseFile(trace, 65_537);
    expect(r.malformed).toBe(0);
    expect(r.devices).toEqual(['7,0']);
    expectBlock(r, summary.total, 'Total');
    for (const [cpu, block] of Object.entries(summary.cpus)) {
      expectBlock(r.cpus[cpu]!, block, cpu);
      expect(r.depth.read, `${cpu} read depth`).toBe(block.read_depth);
      expect(r.depth.write, `${cpu} write depth`).toBe(block.write_depth);
    }
    expect(Object.keys(r.cpus).sort()).toEqual(Object.keys(summary.cpus).sort());
    expect(r.events).toBe(summary.events);
    expect(r.perDevice['7,0']!.events).toBe(summary.events);
    expect(r.throughputKiBs).toEqual(summary.throughput_kib_s);
    expect(r.timeReversals).toBe(0);
  });

  it("reads blkparse's printed summary block at the end of the file", () => {
    const r = parseFile(trace, 1 << 20);
    const printed = r.printedSummary['loop0']!;
    expect(printed.events).toBe(summary.events);
    expect(printed.throughput).toMatchObject(summary.throughput_kib_s);
    const total = printed.blocks['Total']!;
    expect(total['Reads Queued']!.count).toBe((summary.total.reads_queued as CK).count);
    expect(total['Writes Completed']!.kib).toBe((summary.total.writes_completed as CK).kib);
  });

  it("gives btt's All Devices rows (within 1%, same N) and merge table", () => {
    expectBtt(parseFile(trace, 4093), btt, name);
  });

  it('gives the same figures through `spindle parse --json`', async () => {
    const r = await spindleJson<ParseReport>(['parse', trace, '--json']);
    expectBlock(r, summary.total, 'Total');
    expectBtt(r, btt, name);
    expect(r.devices).toEqual(['7,0']);
    expect(r.events).toBe(summary.events);
  });
});
