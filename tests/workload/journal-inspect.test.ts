// The inspection panel's view of the journals (journal-inspect.ts), read off live runs.
import { describe, expect, it, vi } from 'vitest';
import { runUntil } from '../../src/engine/simulation';
import { hostView } from '../../src/engine/inspect';
import { postmarkScenario, traced } from '../helpers/postmark-journal';

// whole simulation runs: slower than unit tests on a shared machine
vi.setConfig({ testTimeout: 60_000 });

type View = Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('the journals in the inspection', () => {
  it('ext3: kjournald’s running transaction, and the one it is committing with what it writes', () => {
    const { sim } = traced(postmarkScenario('ext3', {}));
    runUntil(sim, 2e9);
    let v = hostView(sim).journals as View;
    expect(v).toHaveLength(1);
    expect(v[0]!.fs).toBe('ext3');
    expect(v[0]!.thread).toBe('kjournald');
    expect(v[0]!.running.metadataBlocks).toBeGreaterThan(0);
    expect(v[0]!.running.ageMs).toBeGreaterThan(0);
    expect(v[0]!.committing).toBe('none');
    // the first commit starts 5 s after the transaction did
    const journal = sim.state.workload.journals[0]!;
    for (let t = 5e9; t < 7e9 && !journal.committing; t += 1e6) runUntil(sim, t);
    v = hostView(sim).journals as View;
    expect(['data', 'log', 'commit']).toContain(v[0]!.committing.writing);
    expect(v[0]!.committing.metadataBlocks).toBeGreaterThan(0);
  });
  it('ReiserFS: its running transaction, the super block’s dirty flag, the lists in its log', () => {
    const { sim } = traced(postmarkScenario('reiserfs', {}));
    runUntil(sim, 2e9);
    const v = hostView(sim).journals as View;
    expect(v).toHaveLength(1);
    expect(v[0]!.fs).toBe('reiserfs');
    expect(v[0]!.superBlockDirty).toBe(true);
    expect(v[0]!.running.metadataBlocks).toBeGreaterThan(0);
    expect(v[0]!.inLog.committed + v[0]!.inLog.toCommit).toBe(
      sim.state.workload.reiserfs!.journals[0]!.lists.length,
    );
  });
  it('without a page cache there are no journals to show', () => {
    const { sim } = traced(postmarkScenario('ext3', { pageCache: null }));
    runUntil(sim, 1e9);
    expect(hostView(sim).journals).toBeUndefined();
  });
});
