// ReiserFS's journal with a page cache (src/engine/workload/reiserfs-journal.ts,
// reiserfs-threads.ts): each rule of 2.6.32's fs/reiserfs/journal.c that Spindle models, by
// name.
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/engine/run';
import { buildModel } from '../../src/engine/model';
import { createSimulation, runUntil, type Simulation } from '../../src/engine/simulation';
import type { TraceEvent } from '../../src/engine/events';
import { postmarkScenario, traced, type PostmarkOpts } from '../helpers/postmark-journal';
import { METADATA_FILE } from '../../src/engine/workload/journal-io';
import {
  COMMIT_WORK_DELAY_NS,
  JOURNAL_MAX_BATCH,
  logSector,
  nextOp,
  reiserfsData,
  reiserfsMetadata,
  type ReiserJournal,
} from '../../src/engine/workload/reiserfs-journal';
import { dirtyPages, takePages } from '../../src/engine/workload/page-cache';

const P = 8; // sectors per page (a 4 KiB block)

/** Postmark SS on ReiserFS (or `fs`); `pageCache` null: none */
const postmark = (opts: PostmarkOpts) => postmarkScenario('reiserfs', opts);

/** a run whose Postmark thread never starts (only the test's updates are made) */
const idle = (opts: PostmarkOpts = {}) =>
  traced(postmark({ startMs: 600000, stopMs: 600000, ...opts }));

const journalOf = (sim: Simulation) => sim.state.workload.reiserfs!.journals[0]!;
const pidOf = (sim: Simulation, name: string) =>
  sim.state.workload.instances.find((i) => i.name === name)!.pid;
/** the first metadata block after the journal area */
const metaBase = (j: ReiserJournal) => j.headerSector + P;
const inArea = (j: ReiserJournal, e: TraceEvent) =>
  e.sector >= j.superSector && e.sector <= j.headerSector;

/** `n` distinct metadata blocks from `from` (blocks after the journal area), at `now` */
function update(sim: Simulation, j: ReiserJournal, from: number, n: number, now: number): void {
  for (let b = 0; b < n; b++) reiserfsMetadata(sim, j, metaBase(j) + (from + b) * P, P, now);
}

describe('ReiserFS journal rules (2.6.32, data=ordered)', () => {
  it('a block is logged once per transaction however often it changes (journal_mark_dirty: buffer_journaled)', () => {
    const { sim } = idle();
    const j = journalOf(sim);
    const a = metaBase(j);
    for (let k = 0; k < 3; k++) reiserfsMetadata(sim, j, a, P, k);
    reiserfsMetadata(sim, j, a + 5 * P, P, 4);
    reiserfsMetadata(sim, j, a, P, 6);
    expect(j.running!.meta).toEqual([a / P, a / P + 5]);
    expect(j.sDirt).toBe(true);
    // and in a run: thousands of updates, each block once in its transaction
    const run = createSimulation(buildModel(postmark({})));
    runUntil(run, 4.9e9);
    for (const t of [journalOf(run).running!, ...journalOf(run).lists.map((l) => l.t)])
      expect(new Set(t.meta).size).toBe(t.meta.length);
  }, 60000);

  it('sync_supers commits a dirty super block’s transaction every dirty_writeback_interval (5 s), not at JOURNAL_MAX_TRANS_AGE (30 s); a clean one is left alone', () => {
    const { sim, q } = idle();
    const j = journalOf(sim);
    const sync = pidOf(sim, 'sync_supers');
    runUntil(sim, 0.2e9);
    update(sim, j, 0, 3, 0.2e9);
    runUntil(sim, 5e9 - 1);
    expect(q.filter((e) => e.pid === sync)).toHaveLength(0);
    runUntil(sim, 6e9);
    expect(q.filter((e) => e.pid === sync)[0]!.tNs).toBe(5e9);
    expect(j.commits).toBe(1);
    expect(j.commitsBy).toEqual([1, 0, 0]);
    expect(j.sDirt).toBe(false);
    // nothing changed since: the 10 s and 15 s syncs write nothing
    runUntil(sim, 16e9);
    expect(j.commits).toBe(1);
    expect(q.filter((e) => e.pid === sync && e.tNs > 6e9)).toHaveLength(0);
    // an update at 16.5 s: committed at 20 s
    update(sim, j, 10, 1, 16.5e9);
    runUntil(sim, 21e9);
    expect(j.commits).toBe(2);
    expect(q.filter((e) => e.pid === sync && e.tNs > 16e9)[0]!.tNs).toBe(20e9);
  });

  it('the writer ends a transaction older than JOURNAL_MAX_TRANS_AGE (30 s, whole seconds) at its journal_end; reiserfs/0 commits it HZ/10 later', () => {
    // sync_supers every 60 s: the age rule is reached first
    const { sim, q } = idle({ pageCache: { dirty_writeback_centisecs: 6000 } });
    const j = journalOf(sim);
    const wq = pidOf(sim, 'reiserfs/0');
    runUntil(sim, 0.5e9);
    update(sim, j, 0, 1, 0.5e9); // starts at second 0
    runUntil(sim, 30.9e9);
    update(sim, j, 1, 1, 30.9e9); // second 30: 30 − 0 is not more than 30
    expect(j.lists).toHaveLength(0);
    runUntil(sim, 31e9);
    update(sim, j, 2, 1, 31e9); // second 31: too old — it ends
    expect(j.lists.map((l) => l.t.meta.length)).toEqual([3]);
    expect(j.running).toBeNull();
    runUntil(sim, 32e9);
    const mine = q.filter((e) => e.pid === wq);
    expect(mine[0]!.tNs).toBe(31e9 + COMMIT_WORK_DELAY_NS);
    expect(j.commits).toBe(1);
    expect(j.commitsBy).toEqual([0, 1, 0]);
  });

  it('a handle that would fill the batch (j_max_batch 900) ends the transaction first; reiserfs/0 commits it HZ/10 later', () => {
    const { sim, q } = idle();
    const j = journalOf(sim);
    runUntil(sim, 1e9);
    // 1-block handles: the 898th would make 897 + 1 + 2 = 900
    update(sim, j, 0, JOURNAL_MAX_BATCH - 3, 1e9);
    expect(j.lists).toHaveLength(0);
    update(sim, j, 1000, 1, 1e9);
    expect(j.lists.map((l) => l.t.meta.length)).toEqual([JOURNAL_MAX_BATCH - 3]);
    expect(j.running!.meta).toHaveLength(1);
    runUntil(sim, 1.5e9);
    const wq = q.filter((e) => e.pid === pidOf(sim, 'reiserfs/0'));
    expect(wq[0]!.tNs).toBe(1e9 + COMMIT_WORK_DELAY_NS);
    expect(j.commitsBy).toEqual([0, 1, 0]);
  });

  it('a commit writes the ordered data first and waits for it, then the descriptor and the copies from j_start, then — once those are done — the commit block (WRITE_SYNC)', () => {
    const { sim, q, c } = idle();
    const j = journalOf(sim);
    const pc = sim.state.workload.pageCache!;
    runUntil(sim, 1e9);
    const data = metaBase(j) + 200000 * P;
    reiserfsData(sim, j, data / P, data / P + 3, 1e9); // before the write dirties them
    dirtyPages(pc, 7, data, 4 * P, 1, 1e9); // file 7: four pages
    update(sim, j, 0, 5, 1e9);
    runUntil(sim, 6e9);
    expect(j.commits).toBe(1);
    const sync = q.filter((e) => e.pid === pidOf(sim, 'sync_supers'));
    const log = sync.filter((e) => inArea(j, e));
    const ordered = sync.filter((e) => !inArea(j, e));
    expect(ordered.map((e) => e.sector)).toEqual([0, 1, 2, 3].map((i) => data + i * P));
    expect(j.orderedPages).toBe(4);
    // every data bio completed before the first log block is queued
    const firstLog = log[0]!.tNs;
    const dataDone = c.filter((e) => e.sector >= data && e.sector < data + 4 * P);
    expect(dataDone.reduce((n, e) => n + e.nSectors, 0)).toBe(4 * P); // merged or not
    expect(Math.max(...dataDone.map((e) => e.tNs))).toBeLessThanOrEqual(firstLog);
    // descriptor, five copies, commit block: seven consecutive log blocks from j_start (0)
    expect(log.map((e) => e.sector)).toEqual([0, 1, 2, 3, 4, 5, 6].map((i) => logSector(j, i)));
    expect(log.map((e) => e.sync)).toEqual([false, false, false, false, false, false, true]);
    const commitBlock = log[6]!;
    const logDone = c.filter((e) => inArea(j, e) && e.tNs <= commitBlock.tNs);
    expect(logDone.reduce((n, e) => n + e.nSectors, 0)).toBe(6 * P);
    expect(j.logBlocks).toBe(7);
    expect(j.start).toBe(7);
  });

  /** a data page written at 1 s (reiserfs_commit_page before the write dirties it), then
   * list 0 ends holding it (a full batch); reiserfs/0 commits it at 1.1 s */
  function pageOnEndedList() {
    const { sim, q } = idle();
    const j = journalOf(sim);
    const pc = sim.state.workload.pageCache!;
    const page = metaBase(j) / P + 200000;
    const write = (now: number) => {
      reiserfsData(sim, j, page, page, now);
      dirtyPages(pc, 7, page * P, P, 1, now);
    };
    runUntil(sim, 1e9);
    write(1e9);
    update(sim, j, 0, JOURNAL_MAX_BATCH - 3, 1e9);
    update(sim, j, 1000, 1, 1e9);
    return { sim, q, j, pc, page, write };
  }

  it('a data page written again while still dirty stays on its older list (reiserfs_commit_page adds only a buffer not dirty yet): the older commit writes it', () => {
    const { sim, q, j, page, write } = pageOnEndedList();
    runUntil(sim, 1.05e9);
    write(1.05e9); // still dirty: it stays on list 0
    expect(j.dataOwner.get(page)).toBe(0);
    expect(j.running!.data).toEqual([]);
    runUntil(sim, 2e9);
    expect(j.commitsBy).toEqual([0, 1, 0]);
    expect(j.orderedPages).toBe(1);
    const written = q.filter((e) => e.sector === page * P);
    expect(written.map((e) => [e.pid, e.tNs])).toEqual([[pidOf(sim, 'reiserfs/0'), 1.1e9]]);
  });

  it('a data page on an older list that is clean again (written back meanwhile) moves to the running transaction’s ordered list when written again (__add_jh)', () => {
    const { j, pc, page, write } = pageOnEndedList();
    expect(takePages(pc, [page])).toEqual([page]); // the flusher writes it: clean, under writeback
    write(1e9);
    expect(j.dataOwner.get(page)).toBe(-1);
    expect(j.running!.data).toEqual([page]);
  });

  it('the next transaction’s room reaches past the log’s end only when j_start + j_trans_max + 1 exceeds the log size (do_journal_end: a list at block 0 is not flushed when the sum equals it)', () => {
    const { sim } = idle();
    const j = journalOf(sim);
    const list = (start: number) => ({
      tid: 0,
      start,
      t: { startNs: 0, meta: [1], metaIn: new Set([1]), data: [], dataIn: new Set<number>() },
      committed: true,
      committer: -1,
    });
    j.start = j.size - j.transMax - 1;
    j.lists = [list(0)];
    expect(nextOp(j, 2, 0, true)).toBeNull();
    j.start = j.size - j.transMax;
    expect(nextOp(j, 2, 0, true)).toEqual({ kind: 'flush', tids: [0] });
    // and without wrapping: up to j_start + j_trans_max + 1 inclusive
    j.start = 100;
    j.lists = [list(100 + j.transMax + 1)];
    expect(nextOp(j, 2, 0, true)).toEqual({ kind: 'flush', tids: [0] });
    j.lists = [list(100 + j.transMax + 2)];
    expect(nextOp(j, 2, 0, true)).toBeNull();
  });

  it('log layout: each transaction takes its blocks + 2 from j_start, after the super block, wrapping block by block at the log’s end; the journal header follows the log', () => {
    const { sim, q } = idle();
    const j = journalOf(sim);
    expect(j.size).toBe(8190); // 32 MiB: super block, 8190 log blocks, header
    expect(j.logSector).toBe(j.superSector + P);
    expect(j.headerSector).toBe(j.logSector + j.size * P);
    j.start = j.size - 2; // the next transaction straddles the log's end
    runUntil(sim, 1e9);
    update(sim, j, 0, 3, 1e9);
    runUntil(sim, 6e9);
    const log = q.filter((e) => e.pid === pidOf(sim, 'sync_supers'));
    const blocks = log.map((e) => (e.sector - j.logSector) / P);
    expect(blocks).toEqual([j.size - 2, j.size - 1, 0, 1, 2]);
    expect(j.start).toBe(3);
  });

  it('committed blocks are dirty in place for writeback (dirty_one_transaction), but not one the running transaction logged again', () => {
    const { sim } = idle();
    const j = journalOf(sim);
    const pc = sim.state.workload.pageCache!;
    runUntil(sim, 1e9);
    update(sim, j, 0, 3, 1e9);
    runUntil(sim, 5e9 + 1); // the commit has begun: block 2 changes again
    update(sim, j, 2, 1, 5e9 + 1);
    runUntil(sim, 6e9);
    expect(j.commits).toBe(1);
    const first = metaBase(j) / P;
    expect(pc.files.get(METADATA_FILE)!.pages).toEqual([first, first + 1]);
  });

  it('when the next transaction’s room (j_trans_max + 1 blocks) reaches an older list, its still-dirty blocks are written in place and waited for, then the journal header (WRITE_SYNC) — before the commit (flush_journal_list)', () => {
    // a 4 MiB span: a 51-block journal area, so a 49-block log and j_trans_max 24
    const { sim, q } = idle({ sectors: 8192 });
    const j = journalOf(sim);
    expect([j.size, j.transMax, j.maxBatch]).toEqual([49, 24, 21]);
    const sync = pidOf(sim, 'sync_supers');
    runUntil(sim, 1e9);
    update(sim, j, 0, 10, 1e9); // list 0: log blocks 0–11
    runUntil(sim, 6e9);
    // list 1: 12–24; then j_start 25, and 25 + 24 + 1 = 50 > 49 wraps to block 1: it
    // reaches list 0 (at j_start 24 the sum, 49, would not exceed the log: no flush)
    update(sim, j, 20, 11, 6e9);
    runUntil(sim, 11e9);
    const late = q.filter((e) => e.pid === sync && e.tNs >= 10e9);
    const list0 = Array.from({ length: 10 }, (_, b) => metaBase(j) + b * P);
    expect(late.slice(0, 10).map((e) => e.sector)).toEqual(list0);
    expect(late[10]!.sector).toBe(j.headerSector);
    expect(late[10]!.sync).toBe(true);
    expect(late.slice(11).map((e) => (e.sector - j.logSector) / P)).toEqual(
      Array.from({ length: 13 }, (_, i) => 12 + i),
    );
    expect([j.flushes, j.inPlaceBlocks, j.commits]).toEqual([1, 10, 2]);
    expect(j.lists.map((l) => l.tid)).toEqual([1]);
  });

  it('the writer commits in its own context when the next transaction’s list bitmap (JOURNAL_NUM_BITMAPS 5) still belongs to an uncommitted list, and waits for it', () => {
    const { sim, q } = idle();
    const j = journalOf(sim);
    const g = sim.state.workload.instances[0]!.gen!;
    runUntil(sim, 1e9);
    // five full transactions at once: reiserfs/0 has not run yet
    for (let t = 0; t < 5; t++) update(sim, j, t * 1000, JOURNAL_MAX_BATCH - 3, 1e9);
    expect(j.lists).toHaveLength(4);
    expect(g.blocked).toBe(false);
    update(sim, j, 5000, 1, 1e9); // ends list 4: list 0 must be committed first
    expect(j.lists).toHaveLength(5);
    expect(g.blocked && g.throttled).toBe(true);
    runUntil(sim, 1e9 + COMMIT_WORK_DELAY_NS - 1);
    expect(j.commitsBy).toEqual([0, 0, 1]);
    const writer = q.filter((e) => e.pid === pidOf(sim, 'postmark') && inArea(j, e));
    expect(writer).toHaveLength(JOURNAL_MAX_BATCH - 3 + 2);
    expect(g.throttled).toBe(false);
  });

  it('without a page cache nothing changes: no ReiserFS threads, a journal write per metadata update by the thread itself', () => {
    const r = runScenario(postmark({ pageCache: null, stopMs: 2000 }));
    expect(r.summary.processes.map((p) => p.name)).toEqual(['postmark']);
    expect(r.summary.journals).toBeUndefined();
    expect(r.simulation.state.workload.reiserfs).toBeNull();
  });

  it('sync_supers and reiserfs/0 are one each however many ReiserFS threads, each thread with its own journal; ext3 keeps kjournald', () => {
    const s = postmark({ stopMs: 100 });
    s.workload.processes[0]!.count = 2;
    const sim = createSimulation(buildModel(s));
    const names = sim.state.workload.instances.map((i) => i.name);
    expect(names).toEqual(['postmark-0', 'postmark-1', 'sync_supers', 'reiserfs/0', 'flush-8:0']);
    const js = sim.state.workload.reiserfs!.journals;
    expect(js.map((j) => j.owner)).toEqual([0, 1]);
    expect(js[1]!.superSector).toBeGreaterThan(js[0]!.headerSector);
    const ext3 = createSimulation(buildModel(postmark({ fs: 'ext3', stopMs: 100 })));
    expect(ext3.state.workload.instances.map((i) => i.name)).toEqual([
      'postmark',
      'kjournald',
      'flush-8:0',
    ]);
    expect(ext3.state.workload.reiserfs).toBeNull();
  });

  it('same scenario and seed, same run; the summary reports the journal; the state is plain data', () => {
    const a = runScenario(postmark({ stopMs: 6000 }));
    const b = runScenario(postmark({ stopMs: 6000 }));
    expect(b.summary).toEqual(a.summary);
    const view = a.summary.journals![0]!;
    expect(view).toMatchObject({ fs: 'reiserfs' });
    expect(view.commits).toBeGreaterThan(0);
    expect(view.logBlocks).toBeGreaterThan(view.commits * 3);
    expect(structuredClone(a.simulation.state.workload.reiserfs)).toEqual(
      a.simulation.state.workload.reiserfs,
    );
  }, 60000);
});
