// ext3's jbd journal with a page cache (src/engine/workload/journal.ts): each rule of 2.6.32's
// data=ordered commit that Spindle models, by name.
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/engine/run';
import { buildModel } from '../../src/engine/model';
import { createSimulation, runUntil, type Simulation } from '../../src/engine/simulation';
import type { TraceEvent } from '../../src/engine/events';
import { postmarkScenario, traced, type PostmarkOpts } from '../helpers/postmark-journal';
import {
  COMMIT_INTERVAL_NS,
  METADATA_FILE,
  TAGS_PER_DESCRIPTOR,
  journalData,
  journalMetadata,
} from '../../src/engine/workload/journal';
import { dirtyPages, dropPages } from '../../src/engine/workload/page-cache';

const P = 8; // sectors per page (a 4 KiB block)

/** Postmark SS on ext3 (or `fs`); `pageCache` null: none */
const postmark = (opts: PostmarkOpts) => postmarkScenario('ext3', opts);

const journalOf = (sim: Simulation) => sim.state.workload.journals[0]!;
const kjournaldPid = (sim: Simulation) =>
  sim.state.workload.instances.find((i) => i.name === 'kjournald')!.pid;

describe('jbd rules (ext3, data=ordered)', () => {
  it('each modified metadata block joins the running transaction once, however often it changes', () => {
    // the thread starts late: only these updates are made
    const sim = createSimulation(buildModel(postmark({ startMs: 60000 })));
    const j = journalOf(sim);
    for (let k = 0; k < 3; k++) journalMetadata(sim, j, 1000 * P, P, k);
    journalMetadata(sim, j, 2000 * P, P, 5);
    journalMetadata(sim, j, 1000 * P, P, 6);
    expect(j.running!.meta).toEqual([1000, 2000]);
    expect(j.running!.startNs).toBe(0);
    // and in a run: thousands of updates, each block once
    const run = createSimulation(buildModel(postmark({})));
    runUntil(run, 4.9e9);
    const t = journalOf(run).running!;
    expect(new Set(t.meta).size).toBe(t.meta.length);
    expect(run.state.workload.instances[0]!.gen!.cachedOps).toBeGreaterThan(10 * t.meta.length);
  }, 60000);

  it('kjournald commits a transaction JBD_DEFAULT_MAX_COMMIT_AGE (5 s) after it started, one at a time', () => {
    const { sim, q } = traced(postmark({}));
    const start = () => journalOf(sim).running!.startNs;
    runUntil(sim, 1e9); // the first update (after the first read's miss) started it
    const first = start();
    runUntil(sim, first + COMMIT_INTERVAL_NS - 1);
    expect(q.filter((e) => e.pid === kjournaldPid(sim))).toHaveLength(0);
    expect(journalOf(sim).commits).toBe(0);
    runUntil(sim, first + 2 * COMMIT_INTERVAL_NS + 2e9);
    const kj = q.filter((e) => e.pid === kjournaldPid(sim));
    expect(kj[0]!.tNs).toBe(first + COMMIT_INTERVAL_NS);
    expect(journalOf(sim).commits).toBe(2);
    // nothing else writes: the app's writes are absorbed, the flusher has nothing old enough
    expect(q.filter((e) => e.write && e.pid !== kjournaldPid(sim))).toHaveLength(0);
  }, 60000);

  it('a commit writes the ordered data first and waits for it, then a descriptor and the metadata copies from the journal head, then — once those are done — the commit block', () => {
    const { sim, q, c } = traced(postmark({ stopMs: 9000 }));
    runUntil(sim, 9e9);
    const j = journalOf(sim);
    expect(j.commits).toBe(1);
    const kj = q.filter((e) => e.pid === kjournaldPid(sim));
    const inLog = (e: TraceEvent) =>
      e.sector >= j.startSector && e.sector < j.startSector + j.sectors;
    const data = kj.filter((e) => !inLog(e));
    const log = kj.filter(inLog);
    expect(data.length).toBe(j.orderedPages);
    expect(data.length).toBeGreaterThan(0);
    // every data bio is queued before the first log block, and completed before it is queued
    const firstLog = log[0]!.tNs;
    expect(Math.max(...data.map((e) => e.tNs))).toBeLessThanOrEqual(firstLog);
    const dataDone = c.filter((e) => e.write && !inLog(e) && e.tNs <= firstLog + 1e9);
    expect(Math.max(...dataDone.map((e) => e.tNs))).toBeLessThanOrEqual(firstLog);
    // the log: descriptor + one copy per block (each once), sequential after the journal
    // superblock, the commit block last
    const meta = log.length - 2;
    expect(meta).toBeGreaterThan(0);
    expect(meta).toBeLessThanOrEqual(TAGS_PER_DESCRIPTOR);
    expect(log.map((e) => e.sector)).toEqual(log.map((_, i) => j.startSector + (i + 1) * P));
    expect(log.every((e) => e.nSectors === P && e.write)).toBe(true);
    expect(data.every((e) => e.nSectors === P && e.write && !e.sync)).toBe(true);
    // WRITE for the data and the log blocks, WRITE_SYNC (sync_dirty_buffer) for the commit block
    const commitBlock = log[log.length - 1]!;
    expect(log.map((e) => e.sync)).toEqual(log.map((e) => e === commitBlock));
    const logDone = c.filter((e) => inLog(e) && e.tNs <= commitBlock.tNs);
    expect(logDone.reduce((n, e) => n + e.nSectors, 0)).toBe((log.length - 1) * P);
    expect(j.logBlocks).toBe(log.length);
  }, 60000);

  it('a file deleted before the commit: its dirty pages are dropped and never written', () => {
    const sim = createSimulation(buildModel(postmark({ startMs: 60000 })));
    const j = journalOf(sim);
    const pc = sim.state.workload.pageCache!;
    const data = j.startSector + j.sectors + 100000 * P;
    const page = data / P;
    dirtyPages(pc, 7, data, 4 * P, 1, 0); // file 7: pages 0..3
    dirtyPages(pc, 8, data + 10 * P, P, 1, 0); // file 8: one page
    journalData(sim, j, page, page + 3, 0);
    journalData(sim, j, page + 10, page + 10, 0);
    journalMetadata(sim, j, 1000 * P, P, 0);
    dropPages(pc, data, 4 * P); // file 7 deleted
    runUntil(sim, 7e9);
    expect(j.commits).toBe(1);
    expect(j.orderedPages).toBe(1);
    expect(pc.pagesDropped).toBe(4);
    expect(pc.pagesWritten).toBe(1);
  });

  it('checkpoint: committed metadata blocks are dirty in place and written there by writeback; a block journalled again meanwhile stays the journal’s', () => {
    const { sim, q } = traced(
      postmark({
        startMs: 60000,
        pageCache: { dirty_expire_centisecs: 500, dirty_writeback_centisecs: 100 },
      }),
    );
    const j = journalOf(sim);
    const pc = sim.state.workload.pageCache!;
    const meta = j.startSector + j.sectors; // the metadata area follows the journal
    journalMetadata(sim, j, meta, 3 * P, 0); // three blocks
    runUntil(sim, 5e9 + 1); // the commit has begun: block 2 changes again
    journalMetadata(sim, j, meta + 2 * P, P, 5e9 + 1);
    runUntil(sim, 6e9);
    expect(j.commits).toBe(1);
    const first = meta / P;
    expect(pc.files.get(METADATA_FILE)!.pages).toEqual([first, first + 1]);
    runUntil(sim, 12e9);
    const flusher = sim.state.workload.instances.find((i) => i.name === 'flush-8:0')!.pid;
    // written in place once the bdev's pages expire (dirtied_when: the first commit's end);
    // block 2 went to the journal again (the second commit, at 10 s), dirty in place after it
    const inPlace = q.filter((e) => e.pid === flusher);
    expect(inPlace.map((e) => [e.sector, e.nSectors])).toEqual([
      [meta, P],
      [meta + P, P],
      [meta + 2 * P, P],
    ]);
    expect(inPlace[0]!.tNs).toBeGreaterThan(10e9);
    expect(j.commits).toBe(2);
    expect(pc.files.has(METADATA_FILE)).toBe(false);
  });

  it('a transaction holding a quarter of the journal (j_max_transaction_buffers) commits at once', () => {
    // a 4 MiB span: a 51-block journal, so 12 blocks fill a transaction
    const sim = createSimulation(buildModel(postmark({ startMs: 60000, sectors: 8192 })));
    const j = journalOf(sim);
    expect(j.sectors / P).toBe(51);
    for (let b = 0; b < 12; b++) journalMetadata(sim, j, (200 + b) * P, P, 0);
    expect(j.commitRequested).toBe(true);
    runUntil(sim, 1e9);
    expect(j.commits).toBe(1);
  });

  it('without a page cache nothing changes: no kjournald, a journal write per metadata update by the thread itself', () => {
    const r = runScenario(postmark({ pageCache: null, stopMs: 2000 }));
    expect(r.summary.processes.map((p) => p.name)).toEqual(['postmark']);
    expect(r.summary.journals).toBeUndefined();
    expect(r.simulation.state.workload.journals).toEqual([]);
  });

  it('XFS keeps its own log writes; ext2 has no journal: no kjournald', () => {
    for (const fs of ['xfs', 'ext2']) {
      const r = runScenario(postmark({ fs, stopMs: 500 }));
      expect(r.summary.processes.map((p) => p.name)).toEqual(['postmark', 'flush-8:0']);
    }
  });

  it('one kjournald per journalling thread, each with its own journal', () => {
    const s = postmark({ stopMs: 100 });
    s.workload.processes[0]!.count = 2;
    const sim = createSimulation(buildModel(s));
    const names = sim.state.workload.instances.map((i) => i.name);
    expect(names).toEqual(['postmark-0', 'postmark-1', 'kjournald-0', 'kjournald-1', 'flush-8:0']);
    const js = sim.state.workload.journals;
    expect(js.map((j) => [j.owner, j.inst])).toEqual([
      [0, 2],
      [1, 3],
    ]);
    expect(js[1]!.startSector).toBeGreaterThan(js[0]!.startSector);
  });

  it('same scenario and seed, same run; the state is plain data', () => {
    const a = runScenario(postmark({ stopMs: 7000 }));
    const b = runScenario(postmark({ stopMs: 7000 }));
    expect(b.summary).toEqual(a.summary);
    expect(a.summary.journals![0]!.commits).toBe(1);
    expect(structuredClone(a.simulation.state.workload.journals)).toEqual(
      a.simulation.state.workload.journals,
    );
  }, 60000);
});
