// The deadline I/O scheduler (src/engine/iosched/deadline.ts), LINUX-SCHEDULERS.md §3.4:
// how it dispatches (batches, direction, expiry, the sweep), what that guarantees, and the
// decision records it writes on the way. The scene is deadline-harness.ts's.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '../../src/engine/events';
import { DEADLINE_RULES } from '../../src/engine/iosched/deadline';
import { proc } from '../helpers/scenario';
import { BUSY, rd, wr } from '../helpers/traced-run';
import {
  MS,
  batchRules,
  idAt,
  order,
  pickRule,
  picks,
  reads,
  run,
  simAt,
  syncWrites,
  view,
  type Run,
} from './deadline-harness';

describe('deadline: dispatch (§3.4)', () => {
  // read_expire 0: every read is expired once it has waited at all.
  const expiredStream = () =>
    run([reads(BUSY, rd(5000, 1), rd(1000, 2), rd(6000, 3), rd(7000, 4), rd(8000, 5))], {
      read_expire: 0,
      fifo_batch: 3,
    });

  it('§3.4 step 2: continues the batch while batching < fifo_batch, even past an expired FIFO head', () => {
    const r = expiredStream();
    expect(order(r)).toEqual(['R5000', 'R6000', 'R7000', 'R1000', 'R8000']);
    // R1000 was expired all along; mid-batch nobody looks.
    expect(pickRule(r, 6000)).toBe('continue-batch');
    expect(pickRule(r, 7000)).toBe('continue-batch');
    const cont = picks(r).find((d) => d.chosen === idAt(r, 7000))!;
    expect(cont.text).toContain('batching 2 < fifo_batch 3');
    expect(cont.candidates.map((c) => c.note)).toEqual([
      expect.stringMatching(/expired .* ago: deadlines are checked only when a batch starts/),
    ]);
  });

  it('§3.4 step 2: a batch ends after fifo_batch requests; the next one starts anew', () => {
    const r = expiredStream();
    // batches: BUSY | R5000 R6000 R7000 | R1000 R8000
    expect(batchRules(r)).toEqual(['new-batch-read', 'new-batch-read', 'new-batch-read']);
    expect(pickRule(r, 1000)).toBe('fifo-expired');
    const dirRecord = r.decisions.filter((d) => d.rule === 'new-batch-read')[2]!;
    expect(dirRecord.text).toContain('the last one reached fifo_batch 3');
  });

  it('§3.4 step 3: a new batch prefers reads over older waiting writes (starved < writes_starved)', () => {
    const r = run([reads(BUSY, rd(4000, 2)), syncWrites(wr(2000, 1))]);
    expect(order(r)).toEqual(['R4000', 'W2000']);
    expect(batchRules(r)).toEqual(['new-batch-read', 'new-batch-read', 'new-batch-write-only']);
    const dirRecord = r.decisions.filter((d) => d.rule === 'new-batch-read')[1]!;
    expect(dirRecord.text).toContain('starved 0 < writes_starved 2; starved → 1');
    expect(dirRecord.candidates).toEqual([
      { rq: idAt(r, 2000), estimateNs: null, note: expect.stringContaining('reads preferred') },
    ]);
  });

  it.each([
    [2, 'RRWRRWRR'],
    [1, 'RWRWRRRR'],
    [0, 'WWRRRRRR'],
  ])(
    '§3.4 step 3: writes_starved = %i — after that many read batches with writes waiting, a write batch (%s)',
    (writesStarved, expected) => {
      const r = run(
        [
          reads(BUSY, ...[1, 2, 3, 4, 5, 6].map((i) => rd(i * 10000, 1))),
          syncWrites(wr(15000, 2), wr(35000, 2)),
        ],
        { fifo_batch: 1, writes_starved: writesStarved },
      );
      expect(
        order(r)
          .map((o) => o[0])
          .join(''),
      ).toBe(expected);
      const firstWrite = [...expected].indexOf('W');
      expect(batchRules(r)[1 + firstWrite]).toBe('new-batch-write-starved');
    },
  );

  it('§3.4 step 3: with no reads queued the batch is WRITE and starved resets to 0', () => {
    // writes_starved 1, fifo_batch 1. R1000 is preferred once (starved → 1); then only the
    // long W2000 is left: a write-only batch, starved → 0. While it runs R3000 and W4000
    // arrive: reads are preferred again — had starved stayed 1, W4000 would go first.
    const r = run(
      [reads(BUSY, rd(1000, 1), rd(3000, 120)), syncWrites(wr(2000, 1, 256), wr(4000, 120))],
      { fifo_batch: 1, writes_starved: 1 },
    );
    expect(order(r)).toEqual(['R1000', 'W2000', 'R3000', 'W4000']);
    expect(batchRules(r)).toEqual([
      'new-batch-read',
      'new-batch-read',
      'new-batch-write-only',
      'new-batch-read',
      'new-batch-write-only',
    ]);
    const w2000 = r.d.find((e) => e.sector === 2000)!;
    const r3000 = r.trace.find((e) => e.action === 'I' && e.sector === 3000)!;
    expect(r3000.tNs).toBeGreaterThan(w2000.tNs); // R3000 arrived while W2000 ran
  });

  it('§3.4 step 4: an expired FIFO head starts the batch, even below the sweep', () => {
    // The sweep climbs R10000, R12000, …; R100 arrived at 3 ms (deadline 203 ms) below it.
    const r = victimRun();
    expect(pickRule(r, 100)).toBe('fifo-expired');
    const rec = picks(r).find((d) => d.chosen === idAt(r, 100))!;
    expect(rec.text).toMatch(/^deadline: read FIFO head expired [\d.]+ ms ago → dispatch R 100\+8/);
    expect(rec.candidates[0]!.note).toContain('passed over, a deadline expired');
    // Before it expired, new batches went on with the sweep, passing it over.
    const before = picks(r).filter((d) => d.tNs < 203 * MS && d.rule === 'sweep-continues');
    expect(before.length).toBeGreaterThan(0);
    for (const d of before) expect(d.candidates[0]!.rq).toBe(idAt(r, 100));
  });

  it('§3.4 step 4: a FIFO head expires only strictly after its deadline (now > deadline)', () => {
    // read_expire 0: R9000 reaches an idle disk at its deadline exactly — not expired;
    // R1000 waits behind it and is expired by then.
    const r = run([reads(rd(9000, 0), rd(1000, 1))], { read_expire: 0 });
    expect(pickRule(r, 9000)).toBe('sweep-ended-fifo-head');
    expect(picks(r)[0]!.text).toContain('deadline is now (not expired');
    expect(pickRule(r, 1000)).toBe('fifo-expired');
  });

  it('§3.4 step 4: with nothing expired a new batch continues the sweep from next_rq', () => {
    const r = run([reads(BUSY, rd(5000, 1), rd(1000, 2), rd(6000, 3), rd(7000, 4))], {
      fifo_batch: 1,
    });
    // FIFO order would be 5000 1000 6000 7000; every dispatch is a new batch (fifo_batch 1)
    expect(order(r)).toEqual(['R5000', 'R6000', 'R7000', 'R1000']);
    expect(pickRule(r, 6000)).toBe('sweep-continues');
    expect(pickRule(r, 7000)).toBe('sweep-continues');
    const rec = picks(r).find((d) => d.chosen === idAt(r, 6000))!;
    expect(rec.text).toMatch(/read FIFO head R 1000\+8 not expired \(deadline in [\d.]+ ms\)/);
  });

  it('§3.4 step 4: a sweep that runs off the top restarts at the oldest request — no wrap', () => {
    // C-LOOK would wrap to the lowest sector (R100); deadline takes the FIFO head (R300).
    const r = run([reads(BUSY, rd(500, 1), rd(300, 2), rd(900, 3), rd(100, 4))]);
    expect(order(r)).toEqual(['R500', 'R900', 'R300', 'R100']);
    expect(pickRule(r, 900)).toBe('continue-batch');
    expect(pickRule(r, 300)).toBe('sweep-ended-fifo-head');
    const rec = picks(r).find((d) => d.chosen === idAt(r, 300))!;
    expect(rec.text).toContain('the sweep passed the highest sector; no wrap');
  });

  it('§3.4 step 6: a dispatch clears the other direction’s next_rq — a read batch after a write batch restarts at the read FIFO head', () => {
    // R200 leaves next_rq[READ] = R300; the write batch clears it; so the next read batch
    // starts at the oldest read, R400, not at R300.
    const r = run([reads(BUSY, rd(200, 1), rd(400, 2), rd(300, 3)), syncWrites(wr(10000, 1))], {
      fifo_batch: 1,
      writes_starved: 1,
    });
    expect(order(r)).toEqual(['R200', 'W10000', 'R400', 'R300']);
    expect(pickRule(r, 400)).toBe('sweep-ended-fifo-head');
    const rec = picks(r).find((d) => d.chosen === idAt(r, 400))!;
    expect(rec.text).toContain('no next_rq[READ] (the last batch was WRITE)');
  });

  it('§3.4 step 6: a dispatch counts batching, sets next_rq to the sector successor and last_sector to the end', () => {
    const procs = [reads(BUSY, rd(5000, 1), rd(1000, 2), rd(6000, 3, 8), rd(7000, 4))];
    // at 10 ms BUSY is on the disk: it was the first batch's only request
    let v = view(simAt(procs, {}, 10));
    expect(v).toMatchObject({ batching: 1, starved: 0, lastSector: BUSY.sector + 128 });
    expect(v.nextRq).toEqual({ read: null, write: null });
    // after BUSY and R5000: next_rq[READ] is R6000 (id 3), last_sector the end of R5000
    const r = run(procs);
    const second = r.d[2]!.tNs; // R6000's dispatch
    v = view(simAt(procs, {}, second / MS));
    expect(v).toMatchObject({ batching: 1, lastSector: 5008, nextRq: { read: 3, write: null } });
    v = view(simAt(procs, {}, second / MS + 1e-6));
    expect(v).toMatchObject({ batching: 2, lastSector: 6016, nextRq: { read: 4, write: null } });
  });
});

/** Reads climbing from R10000 every 2 ms, and R100 at 3 ms below them. */
function victimRun(): Run {
  const stream = Array.from({ length: 40 }, (_, i) => rd(10000 + 2000 * i, 1 + 2 * i));
  return run([reads(BUSY, ...stream), proc({ name: 'victim', requests: [rd(100, 3)] })], {
    read_expire: 200,
    fifo_batch: 4,
  });
}

describe('deadline: properties (§3.4)', () => {
  it('§3.4: deadlines are checked only when a batch starts — a request leaves within one batch of expiring', () => {
    const r = victimRun();
    const deadlineNs = 203 * MS;
    const victim = r.d.find((e) => e.sector === 100)!;
    expect(victim.tNs).toBeGreaterThan(deadlineNs);
    const late = r.d.filter((e) => e.tNs > deadlineNs && e.tNs < victim.tNs);
    expect(late.length).toBeLessThan(4); // the rest of the batch running at the deadline
    expect(late.length).toBeGreaterThan(0); // … which it did not cut short
  });

  it('starvation: with writes streaming, no read waits past read_expire + one batch', () => {
    const stream = (writesStarved: number) => {
      const r = run(
        [
          proc({ name: 'w', mode: 'open', rateIops: 150, arrival: 'fixed', op: 'write' }),
          proc({ name: 'r', count: 4, op: 'read' }),
        ],
        { writes_starved: writesStarved },
        3000,
      );
      const inserted = new Map<number, TraceEvent>();
      const dispatched = new Map<number, number>();
      let maxServiceNs = 0;
      for (const e of r.trace) {
        if (e.action === 'I') inserted.set(e.rq, e);
        if (e.action === 'D') dispatched.set(e.rq, e.tNs);
        if (e.action === 'C') maxServiceNs = Math.max(maxServiceNs, e.tNs - dispatched.get(e.rq)!);
      }
      const end = r.sim.state.now;
      let maxReadWaitNs = 0; // still-waiting reads count up to the end of the run
      for (const [id, i] of inserted) {
        if (!i.write) maxReadWaitNs = Math.max(maxReadWaitNs, (dispatched.get(id) ?? end) - i.tNs);
      }
      return { r, maxReadWaitNs, boundNs: 500 * MS + 17 * maxServiceNs };
    };
    const { r, maxReadWaitNs, boundNs } = stream(2);
    // writes did stream: write batches were forced over waiting reads again and again
    expect(batchRules(r).filter((x) => x === 'new-batch-write-starved').length).toBeGreaterThan(5);
    expect(r.d.filter((e) => !e.write).length).toBeGreaterThan(50);
    expect(maxReadWaitNs).toBeLessThanOrEqual(boundNs);
    // the bound rests on writes_starved: with 0, writes always win and reads starve
    const starved = stream(0);
    expect(starved.maxReadWaitNs).toBeGreaterThan(starved.boundNs);
  });
});

describe('deadline: decision records', () => {
  it('one record picks each dispatched request; a new batch adds its direction record first; rules are from the closed list', () => {
    const r = victimRun();
    expect(picks(r)).toHaveLength(r.d.length);
    expect(picks(r).map((d) => d.chosen)).toEqual(r.d.map((e) => e.rq));
    for (let i = 0; i < r.decisions.length; i++) {
      const d = r.decisions[i]!;
      expect(DEADLINE_RULES).toContain(d.rule);
      expect(d.text).toMatch(/^deadline: /);
      if (d.rule.startsWith('new-batch')) {
        const next = r.decisions[i + 1]!;
        expect(['fifo-expired', 'sweep-ended-fifo-head', 'sweep-continues']).toContain(next.rule);
        expect(next.chosen).toBe(d.chosen);
      }
    }
  });

  it('golden: the writes_starved cycle READ, READ, WRITE (tests/iosched/golden/deadline-starved.txt)', () => {
    // 10 reads and 4 writes queued behind BUSY; fifo_batch 2, writes_starved 2 (default).
    const r = run(
      [
        reads(BUSY, ...[1, 3, 5, 7, 9, 11, 13, 15, 17, 19].map((i) => rd(i * 1000, 1))),
        syncWrites(...[2, 6, 10, 14].map((i) => wr(i * 1000, 2))),
      ],
      { fifo_batch: 2 },
    );
    const lines = [
      '# deadline, fifo_batch 2, writes_starved 2: 10 reads and 4 sync writes queued behind',
      '# a 64 KiB read. One line per D: the request, then for the first request of a batch',
      '# the rule that chose its direction, then the rule that picked the request.',
    ];
    let dirRule = '';
    for (const d of r.decisions) {
      if (d.rule.startsWith('new-batch')) {
        dirRule = d.rule;
        continue;
      }
      const e = r.d.find((x) => x.rq === d.chosen)!;
      const what = `${e.write ? 'W' : 'R'} ${e.sector}+${e.nSectors}`;
      lines.push(`D ${what.padEnd(14)} ${dirRule.padEnd(24)} ${d.rule}`);
      dirRule = '';
    }
    const text = lines.join('\n') + '\n';
    const path = fileURLToPath(new URL('golden/deadline-starved.txt', import.meta.url));
    if (process.env.UPDATE_GOLDEN) writeFileSync(path, text);
    expect(text).toBe(readFileSync(path, 'utf8'));
  });
});
