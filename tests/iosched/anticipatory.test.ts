// AS through the real engine, one test per rule of LINUX-SCHEDULERS.md §4 (named after
// the rule), on small hand-built scenarios on the HP C2247A at queue depth 1 (HZ 250:
// antic_expire 4 ms, read_expire 124 ms). Each checks the D order and the decision
// records. A process's first request finds the disk idle and is dispatched at once, so the
// scenarios keep the disk busy with it while the others arrive.
import { describe, expect, it } from 'vitest';
import { proc } from '../helpers/scenario';
import {
  MS,
  dSectors,
  dTime,
  decisions,
  firstDecision,
  idOf,
  list,
  rulesOf,
  runAs,
  writer,
} from './anticipatory-harness';

describe('dispatch (§4.7): batches in elevator order', () => {
  it('continue-batch: a sync batch sweeps up in elevator order from the head', () => {
    const r = runAs([
      list(
        'a',
        [1000, 5000, 3000, 2000, 4000].map((sector) => ({ sector })),
      ),
    ]);
    expect(dSectors(r)).toEqual([1000, 2000, 3000, 4000, 5000]);
    // The zeroed kernel state starts in an async batch: the first read starts a sync one.
    expect(rulesOf(r)).toEqual(['read-batch', ...Array(4).fill('continue-batch')]);
  });

  it('as_choose_req in the engine: a short backward seek (× 2) beats a longer forward one', () => {
    // Head at 10008: 9500 is 508 behind (cost 1016) against 11500 at 1492 ahead.
    const back = runAs([
      list(
        'a',
        [10000, 9500, 11500].map((sector) => ({ sector })),
      ),
    ]);
    expect(dSectors(back)).toEqual([10000, 9500, 11500]);
    // 9000 is 1008 behind (cost 2016 > 1492): forward first, then back.
    const fwd = runAs([
      list(
        'a',
        [10000, 9000, 11500].map((sector) => ({ sector })),
      ),
    ]);
    expect(dSectors(fwd)).toEqual([10000, 11500, 9000]);
  });

  it('continue-batch: a lone reader pushes its batch on with every request (read_batch_expire 50 ms)', () => {
    const reader = proc({
      name: 'reader',
      outstanding: 1,
      thinkTimeMs: 0,
      pattern: 'sequential',
      sizeKiB: 4,
      span: { startSector: 0, sectors: 400_000 },
    });
    const late = list('w', [{ sector: 1_500_000, at: 300, kib: 64, op: 'write' }]);
    const r = runAs([reader, late], { tunables: { read_batch_expire: 50 }, stopMs: 500 });
    // Reading alone for 300 ms never expired the batch: the write waits out a fresh 50 ms.
    const wait = (dTime(r, 1_500_000) - 300 * MS) / MS;
    expect(wait).toBeGreaterThan(45);
    expect(wait).toBeLessThan(80);
    expect(firstDecision(r, 'batch-expired-switch')!.chosen).toBe(idOf(r, 1_500_000));
  });

  it('fifo-expired: an expired sync request is served first, checked at most once per read_expire', () => {
    // After 100000: sector 50 far behind (oldest in the FIFO), then a forward sweep.
    const sweep = Array.from({ length: 10 }, (_, i) => ({ sector: 140_000 + i * 40_000 }));
    const entries = [{ sector: 100_000 }, { sector: 50 }, ...sweep];
    const r = runAs([list('a', entries)], { tunables: { read_expire: 30 } });
    const fifo = decisions(r, 'fifo-expired');
    // The elevator would leave 50 to the end; its deadline (30 ms) brings it forward.
    expect(fifo[0]!.chosen).toBe(idOf(r, 50));
    expect(fifo[0]!.tNs).toBeGreaterThan(30 * MS);
    expect(dSectors(r).indexOf(50)).toBeLessThan(dSectors(r).length - 1);
    expect(fifo[0]!.text).toMatch(/sync FIFO head rq \d+ \(pid 1000, sector 50\) expired/);
    // Rate limit: every later request has expired too, yet the FIFO is looked at no more
    // than once per read_expire, and the sweep goes on in between.
    expect(fifo.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < fifo.length; i++)
      expect(fifo[i]!.tNs - fifo[i - 1]!.tNs).toBeGreaterThanOrEqual(30 * MS);
    expect(decisions(r, 'continue-batch').length).toBeGreaterThan(fifo.length);
    // With a distant deadline, 50 waits for the end of the sweep.
    const lax = runAs([list('a', entries)], { tunables: { read_expire: 10_000 } });
    expect(dSectors(lax).at(-1)).toBe(50);
  });

  it('read-batch: when the async batch has nothing left, a sync batch starts at the sync FIFO head', () => {
    // (The lone write is plugged until the unplug timer, 3 ms; the read comes after.)
    const r = runAs([
      list('w', [{ sector: 1_500_000, kib: 64, op: 'write' }]),
      list('a', [{ sector: 1000, at: 5 }]),
    ]);
    expect(dSectors(r)).toEqual([1_500_000, 1000]);
    expect(rulesOf(r)).toEqual(['continue-batch', 'read-batch']);
  });

  it('write-batch: with no sync request queued an async batch starts at the async FIFO head', () => {
    const r = runAs([list('a', [{ sector: 1000 }]), writer()], { tunables: { antic_expire: 0 } });
    expect(dSectors(r)).toEqual([1000, 1_500_000, 1_600_000, 1_700_000]);
    expect(rulesOf(r)).toEqual(['read-batch', 'write-batch', 'continue-batch', 'continue-batch']);
    expect(firstDecision(r, 'write-batch')!.text).toMatch(/async batch of up to 6 requests/);
  });

  it('batch-expired-switch: read_batch_expire ends a sync batch, write_batch_expire an async one', () => {
    const reader = proc({
      name: 'reader',
      thinkTimeMs: 0,
      pattern: 'sequential',
      sizeKiB: 16,
      span: { startSector: 0, sectors: 400_000 },
    });
    // Random writes, so the block layer cannot merge them into one big request.
    const writers = proc({
      name: 'writer',
      outstanding: 8,
      op: 'write',
      pattern: 'random',
      sizeKiB: 64,
      span: { startSector: 1_500_000, sectors: 400_000 },
    });
    const r = runAs([reader, writers], {
      tunables: { read_batch_expire: 100, write_batch_expire: 60 },
      stopMs: 1000,
    });
    const pidOf = (id: number) => r.d.find((e) => e.rq === id)!.pid;
    const starts = r.dec.filter((x) =>
      ['read-batch', 'write-batch', 'batch-expired-switch'].includes(x.rule),
    );
    // Each switch to writes ends a sync batch whose clock started at its first completion
    // (new_batch): 100 ms = 25 jiffies later, the next dispatch switches.
    const lengths = starts.flatMap((x, i) => {
      const prev = starts[i - 1];
      if (x.rule !== 'batch-expired-switch' || pidOf(x.chosen) !== 1001) return [];
      if (!prev || pidOf(prev.chosen) !== 1000) return [];
      const clock = r.c.find((e) => e.pid === 1000 && e.tNs > prev.tNs)!.tNs;
      return [(x.tNs - clock) / MS];
    });
    expect(lengths.length).toBeGreaterThanOrEqual(2);
    for (const ms of lengths) {
      expect(ms).toBeGreaterThan(100);
      expect(ms).toBeLessThan(120);
    }
    // And write batches end too (write_batch_expire or their budget), back to reads.
    const toRead = starts.filter(
      (x) => x.rule === 'batch-expired-switch' && pidOf(x.chosen) === 1000,
    );
    expect(toRead.length).toBeGreaterThanOrEqual(2);
  });

  it('batch-expired-switch: an async batch also ends when its write_batch_count requests are spent', () => {
    // Small sequential writes are quick: the budget (6), not write_batch_expire, ends it.
    const reader = list('a', [{ sector: 1000 }, { sector: 1008, think: 0 }]);
    const writes = Array.from({ length: 12 }, (_, k) => ({
      sector: 1_500_000 + k * 16, // 4 KiB with gaps: no merging
      op: 'write' as const,
      at: 0.5,
    }));
    const r = runAs([reader, list('w', writes)], { tunables: { antic_expire: 0 } });
    expect(dSectors(r).indexOf(1008)).toBe(7); // r1, six writes, r2
    const sw = decisions(r, 'batch-expired-switch')[0]!;
    expect(sw.chosen).toBe(idOf(r, 1008));
    expect(sw.tNs - dTime(r, 1_500_000)).toBeLessThan(124 * MS);
  });

  it('batch-drain, then no-anticipation-async: a class switch waits for the old batch to leave the device', () => {
    const writes = [0, 1, 2, 3].map((k) => ({
      sector: 1_500_000 + k * 256, // 64 KiB with gaps: no merging
      kib: 64,
      op: 'write' as const,
    }));
    const r = runAs([list('w', writes), list('a', [{ sector: 1000, at: 1 }])], { queueDepth: 4 });
    expect(dSectors(r)).toEqual([...writes.map((w) => w.sector), 1000]);
    // (All four tags are busy at 1 ms: the driver asks again at each write completion.)
    const drains = decisions(r, 'batch-drain');
    const writeDone = r.c.filter((e) => e.write).map((e) => e.tNs);
    expect(drains.map((x) => x.tNs)).toEqual(writeDone.slice(0, 3));
    expect(drains.every((x) => x.chosen === -1)).toBe(true);
    expect(drains[0]!.text).toMatch(/waiting for 3 request\(s\) of the old batch/);
    // The read goes only when the last write has completed...
    const lastWrite = Math.max(...r.c.filter((e) => e.write).map((e) => e.tNs));
    expect(dTime(r, 1000)).toBe(lastWrite);
    // ...and, the last dispatched request being async, AS has no one to anticipate on.
    expect(r.dec.at(-1)!.rule).toBe('no-anticipation-async');
    // The drained switch set new_batch: the read's completion tuned the write budget 3 → 6.
    expect(r.state.writeBatchCount).toBe(6);
  });

  it('write_batch_count auto-tuning: doubled after an empty async batch, then cut while batches overrun', () => {
    const reader = list('a', [
      { sector: 1000 },
      ...[1008, 1016, 1024].map((s) => ({ sector: s, think: 0 })),
    ]);
    const writes = Array.from({ length: 30 }, (_, k) => ({
      sector: 1_500_000 + k * 128,
      kib: 64,
      op: 'write' as const,
      at: 0.5,
    }));
    const r = runAs([reader, list('w', writes)], { tunables: { antic_expire: 0 } });
    const budgets = decisions(r, 'write-batch').map((d) => Number(/up to (\d+)/.exec(d.text!)![1]));
    // 3 at HZ 250; the first sync completion sees an async batch of 0 ms: doubled to 6.
    expect(budgets[0]).toBe(6);
    // Six 64 KiB writes take longer than write_batch_expire (124 ms): −1 each time.
    expect(budgets.slice(0, 3)).toEqual([6, 5, 4]);
  });

  it('write_batch_idled: an async batch that ran uncontended is not timed (its budget is kept)', () => {
    // Writes alone for 800 ms, then one read: the async "batch" took 800 − 500 + 124 ms,
    // far beyond write_batch_expire, but no read competed, so the budget stays 3 (HZ 250).
    const writes = Array.from({ length: 40 }, (_, k) => ({
      sector: 1_500_000 + k * 256, // 64 KiB with gaps: no merging
      kib: 64,
      op: 'write' as const,
    }));
    const r = runAs([list('w', writes), list('a', [{ sector: 1000, at: 800 }])], {
      tunables: { antic_expire: 0 },
    });
    expect(decisions(r, 'write-batch')[0]!.text).toMatch(/up to 3 requests/);
  });

  it('antic_expire = 0: no anticipation at all — after each read the writes go (deadline-like)', () => {
    const reader = list('a', [
      { sector: 1000 },
      { sector: 1008, think: 1 },
      { sector: 1016, think: 1 },
    ]);
    const r = runAs([reader, writer()], { tunables: { antic_expire: 0 } });
    expect(rulesOf(r).some((x) => x.startsWith('anticipat'))).toBe(false);
    expect(dSectors(r)).toEqual([1000, 1_500_000, 1_600_000, 1_700_000, 1008, 1016]);
  });

  it('alias-dispatch: a second request at the same start sector sends the first straight to dispatch', () => {
    const r = runAs([
      list('a', [{ sector: 0 }]),
      list('b', [{ sector: 500_000, at: 0.1 }]),
      list('c', [
        { sector: 400_000, at: 0.15 },
        { sector: 500_000, at: 0.2 },
      ]),
    ]);
    // B's request skips the elevator (400000 would come first from the head at 8); then
    // C's 500000, 8 sectors behind the head, comes before its 400000.
    expect(r.d.map((e) => `${e.pid}:${e.sector}`)).toEqual([
      '1000:0',
      '1001:500000',
      '1002:500000',
      '1002:400000',
    ]);
    const alias = firstDecision(r, 'alias-dispatch')!;
    expect(alias.tNs).toBe(0.2 * MS);
    expect(alias.chosen).toBe(r.d[1]!.rq);
  });

  it('alias-dispatch: an aliased request takes no more bios (found by the property tests)', () => {
    // Three processes read sectors 0 and 64 again and again; the 4 KiB read at 56 would
    // front-merge into the aliased request at 64 if it were still mergeable.
    const p = (name: string, xs: Array<[number, number]>) =>
      list(
        name,
        xs.map(([sector, kib]) => ({ sector, kib })),
      );
    const r = runAs([
      p('p0', [
        [0, 0.5],
        [64, 0.5],
      ]),
      p('p1', [
        [64, 0.5],
        [0, 0.5],
      ]),
      p('p2', [
        [0, 0.5],
        [56, 4],
      ]),
    ]);
    expect(decisions(r, 'alias-dispatch').length).toBe(2);
    const ids = r.d.map((e) => e.rq);
    expect(new Set(ids).size).toBe(ids.length); // each request dispatched once
    const sectors = (es: typeof r.d) => es.reduce((n, e) => n + e.nSectors, 0);
    expect(sectors(r.c)).toBe(1 + 1 + 1 + 1 + 1 + 8);
  });
});

describe('deceptive idleness (Iyer & Druschel): the reason AS exists', () => {
  // A sequential synchronous reader (1 outstanding, no think time, 16 KiB) against a
  // streaming asynchronous writer (4 outstanding 64 KiB sequential writes elsewhere, which
  // the block layer merges), 5 s on the HP C2247A at queue depth 1, HZ 250. When written:
  // AS 603 reads (1.98 MB/s), antic_expire = 0: 38 reads (0.12 MB/s) — about 16×.
  const run = (antic?: number) => {
    const reader = proc({
      name: 'reader',
      thinkTimeMs: 0,
      pattern: 'sequential',
      sizeKiB: 16,
      span: { startSector: 0, sectors: 400_000 },
    });
    const writers = proc({
      name: 'writer',
      outstanding: 4,
      op: 'write',
      pattern: 'sequential',
      sizeKiB: 64,
      span: { startSector: 1_500_000, sectors: 400_000 },
    });
    const r = runAs([reader, writers], {
      tunables: antic === undefined ? {} : { antic_expire: antic },
      stopMs: 5000,
    });
    return { r, reads: r.processes.find((p) => p.name === 'reader')!.completed };
  };

  it('AS gives the reader at least 2× the throughput that antic_expire = 0 gives it', () => {
    const as = run();
    const off = run(0);
    expect(as.reads).toBeGreaterThanOrEqual(2 * off.reads);
    expect(off.reads).toBeGreaterThan(0);
    // The writer is not starved: read batches end after read_batch_expire.
    expect(as.r.processes.find((p) => p.name === 'writer')!.completed).toBeGreaterThan(0);
    expect(decisions(as.r, 'anticipation-hit').length).toBeGreaterThan(as.reads / 2);
  });
});
