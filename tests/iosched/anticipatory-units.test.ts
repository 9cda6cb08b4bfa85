// AS, the pure parts (LINUX-SCHEDULERS.md §4): as_choose_req and as_find_next_rq as
// tables, the per-process statistics, can_break's order, the close window, write-batch
// auto-tuning, and tunable defaults pinned against the kernel's at HZ 100/250/1000.
import { describe, expect, it } from 'vitest';
import { AS_TUNABLES, anticipatory, updateWriteBatch } from '../../src/engine/iosched/anticipatory';
import {
  anticExpired,
  canAnticipate,
  canBreak,
  closeWindow,
} from '../../src/engine/iosched/anticipatory-antic';
import { chooseReq, findNextRq, seekCost } from '../../src/engine/iosched/anticipatory-choose';
import { MAXBACK, msToJiffies } from '../../src/engine/iosched/anticipatory-state';
import {
  decay,
  ioContext,
  maxThinkJ,
  updateSeekDist,
  updateThinkTime,
} from '../../src/engine/iosched/anticipatory-stats';
import { defaultAt } from '../../src/engine/iosched/types';
import { harness, MS } from './anticipatory-harness';

describe('as_choose_req (§4.4): a pure comparator of two start sectors from the head', () => {
  // [head, s1, s2, winner, why]
  const table: Array<[number, number, number, 1 | 2, string]> = [
    [1000, 1100, 1300, 1, 'both ahead: the nearer'],
    [1000, 1300, 1100, 2, 'both ahead: the nearer (either order)'],
    [1000, 1000, 1300, 1, 'at the head counts as ahead, distance 0'],
    [1000, 1200, 800, 1, '200 ahead beats 200 behind (× 2 = 400)'],
    [1000, 900, 1150, 2, 'behind 100 costs 200 > 150 ahead'],
    [1000, 900, 1250, 1, 'behind 100 costs 200 < 250 ahead: a short backward seek wins'],
    [1000, 900, 1200, 2, 'tie (100 behind × 2 = 200 ahead): the higher sector'],
    [1000, 1200, 900, 1, 'tie: the higher sector (either order)'],
    [MAXBACK + 10, 10, 5_000_000, 1, 'exactly MAXBACK behind is still not wrapped'],
    [MAXBACK + 10, 9, 5_000_000, 2, 'one sector more behind is wrapped: any non-wrapped wins'],
    [MAXBACK + 10, 5_000_000, 9, 1, 'wrapped loses (either order)'],
    [3 * MAXBACK, 7, 9, 1, 'both wrapped: the lower'],
    [3 * MAXBACK, 9, 7, 2, 'both wrapped: the lower (either order)'],
  ];
  it.each(table)('head %i: %i vs %i → request %i (%s)', (head, s1, s2, winner) => {
    expect(chooseReq(head, s1, s2)).toBe(winner);
  });

  it('seekCost: ahead = distance, behind ≤ MAXBACK = distance × BACK_PENALTY 2, beyond = wrapped', () => {
    expect(seekCost(100, 150)).toEqual({ wrapped: false, distance: 50 });
    expect(seekCost(100, 60)).toEqual({ wrapped: false, distance: 80 });
    expect(seekCost(MAXBACK + 1, 0).wrapped).toBe(true);
    expect(seekCost(MAXBACK, 0)).toEqual({ wrapped: false, distance: 2 * MAXBACK });
  });

  it('as_find_next_rq: successor vs predecessor; after the highest, the lowest (wrap)', () => {
    const h = harness();
    const rqs = [1000, 2000, 3000, 4000].map((sector) => h.add(7, sector));
    const list = h.s.sortList[1];
    const slot = (i: number) => rqs[i]!.slot;
    // From 2008 (after 2000): successor 3000 (992) beats predecessor 1000 (1008 × 2).
    expect(findNextRq(list, slot(1), 2008, h.ctx)).toBe(slot(2));
    // From 4008 after 4000 (the highest): the lowest, 1000, is 3008 behind → 6016; the
    // predecessor 3000 is 1008 behind → 2016: the short backward seek wins.
    expect(findNextRq(list, slot(3), 4008, h.ctx)).toBe(slot(2));
    // With the head 2 GiB on, both are wrapped: the lower one (the wrap to the lowest).
    expect(findNextRq(list, slot(3), 4 * MAXBACK, h.ctx)).toBe(slot(0));
  });
});

describe('per-process statistics (§4.3): decaying fixed-point averages', () => {
  it('samples step 0 → 32 → 60 → 84 → 105 and settle at 249 (of 256)', () => {
    const seq = [0];
    for (let i = 0; i < 60; i++) seq.push(decay(seq[seq.length - 1]!, 256));
    expect(seq.slice(0, 5)).toEqual([0, 32, 60, 84, 105]);
    expect(seq[60]).toBe(249);
  });

  it('think time: the mean is total / samples, rounded; a first sample feeds the new-process mean and decays exit_prob', () => {
    const h = harness();
    const aic = ioContext(h.s, 1);
    h.s.exitProb = 64;
    updateThinkTime(h.s, aic, 16); // jiffies
    expect(aic.ttimeSamples).toBe(32);
    // (total + 128) / samples: the rounding term adds 128/32 = 4 jiffies to a first sample.
    expect(aic.ttimeMeanJ).toBe(20);
    expect(h.s.newTtimeMeanJ).toBe(2); // one sample in a decaying mean from 0: 16/8
    expect(h.s.exitProb).toBe(56); // × 7/8
    updateThinkTime(h.s, aic, 0);
    expect(aic.ttimeMeanJ).toBe(Math.floor(((7 * 16 * 32) / 8 + 128) / 60)); // 9
    expect(h.s.newTtimeMeanJ).toBe(2); // only a process's first sample counts
  });

  it('the rounding term: a process that never thinks looks like 4, 2, 1, 1, 0 jiffies', () => {
    const h = harness();
    const aic = ioContext(h.s, 1);
    const means = [1, 2, 3, 4, 5, 6].map(() => (updateThinkTime(h.s, aic, 0), aic.ttimeMeanJ));
    expect(means).toEqual([4, 2, 1, 1, 1, 0]);
  });

  it('think samples are capped at MAX_THINKTIME (HZ/50 = 20 ms) less one jiffy', () => {
    expect(maxThinkJ(harness({}, 1000).s)).toBe(19);
    expect(maxThinkJ(harness({}, 250).s)).toBe(4); // 16 ms
    expect(maxThinkJ(harness({}, 100).s)).toBe(1); // 10 ms
    const h = harness();
    h.add(1, 1000);
    const first = h.dispatch()!;
    h.complete(first); // IORUNNING, last_end_request = 0
    h.now = 500 * MS;
    h.add(1, 1008);
    // One sample of 4 jiffies (not 125): (4·32 + 128) / 32 = 8 jiffies.
    expect(h.s.aic[1]!.ttimeTotal).toBe(decay(0, 256 * 4));
    expect(h.s.aic[1]!.ttimeMeanJ).toBe(8);
  });

  it('seek distances are clamped: ≤ 4·mean + 1 GiB for the first samples, then ≤ 4·mean + 64 MiB', () => {
    const h = harness();
    const aic = ioContext(h.s, 1);
    updateSeekDist(h.s, aic, 10_000_000);
    expect(aic.seekMean).toBe(2 * 1024 * 1024); // clamped to 0·4 + 2 Mi sectors
    expect(h.s.newSeekMean).toBe(Math.floor(10_000_000 / 8)); // the new-process mean is not
    for (let i = 0; i < 20; i++) updateSeekDist(h.s, aic, 100);
    expect(aic.seekSamples).toBeGreaterThan(60);
    const { seekMean: mean, seekTotal: total } = aic;
    updateSeekDist(h.s, aic, 1e12);
    expect(aic.seekTotal).toBe(decay(total, 256 * (mean * 4 + 2 * 1024 * 64)));
  });

  it('as_update_iohist: no sample for a first request, 0 while something is queued, nothing for async', () => {
    const h = harness();
    const aic = ioContext(h.s, 1);
    const r1 = h.add(1, 1000);
    expect(aic.ttimeSamples).toBe(0); // first request: no history yet
    expect(aic.lastRequestPos).toBe(1008);
    h.now = 3 * MS;
    h.add(1, 5000); // r1 still queued: think time 0, seek 3992
    expect(aic.ttimeSamples).toBe(32);
    expect(aic.ttimeMeanJ).toBe(4); // (0 + 128) / 32 — the kernel's rounding
    expect(aic.seekMean).toBe(3992);
    const before = { ...aic };
    h.add(1, 9000, { write: true }); // async: no statistics
    expect(aic.ttimeSamples).toBe(before.ttimeSamples);
    expect(aic.lastRequestPos).toBe(5008);
    expect(r1.fifoNs).toBe(124 * MS); // read_expire at HZ 250: jiffy 31
    // Once a request has completed (IORUNNING), a new one samples now − last completion,
    // unless the process still has one queued or in the dispatch queue.
    h.s.batchDir = 1;
    const d = h.dispatch()!;
    h.now = 10 * MS;
    h.complete(d);
    h.now = 12 * MS;
    h.add(1, 20_000); // two of its requests are still queued: sample 0
    expect(aic.ttimeTotal).toBe(decay(decay(0, 0), 0));
  });

  it('as_update_iohist: with nothing of its own in flight, the sample is the time since its last completion', () => {
    const h = harness();
    h.add(1, 1000);
    const d = h.dispatch()!;
    h.now = 10 * MS; // jiffy 2
    h.complete(d);
    h.now = 12.5 * MS; // jiffy 3: one jiffy later by the kernel's count
    h.add(1, 20_000);
    expect(h.s.aic[1]!.ttimeTotal).toBe(decay(0, 256 * 1));
  });
});

describe('as_can_break_anticipation (§4.6): the tests, in the kernel order', () => {
  /** A state anticipating on pid 1: its request completed in jiffy 10, the head is at
   * 100008, and it is still jiffy 10 (antic_expire is 1 jiffy at HZ 250). */
  function waiting(o: { samples?: boolean; thinkJ?: number } = {}) {
    const h = harness();
    const aic = ioContext(h.s, 1);
    aic.ioStarted = aic.ioRunning = true;
    if (o.samples ?? true) {
      aic.ttimeSamples = 249;
      aic.ttimeMeanJ = o.thinkJ ?? 0;
      aic.seekSamples = 249;
      aic.seekMean = 100;
    }
    Object.assign(h.s, {
      anticPid: 1,
      anticStatus: 'WAIT_NEXT',
      anticStartJ: 10, // jiffies (40 ms at HZ 250)
      iocFinished: true,
      batchDir: 1,
      lastSector: [0, 100008],
    });
    h.now = 44 * MS;
    return h;
  }
  const rq = (pid: number, sector: number, sync = true) =>
    ({ pid, sector, nSectors: 8, sync, write: !sync }) as never;

  it('1 hit: a request of the anticipated process itself', () => {
    expect(canBreak(waiting().s, rq(1, 9_999_999), 10)).toBe('anticipation-hit');
  });
  it('2 timeout: antic_expire has passed since the completion (timer not yet run)', () => {
    const h = waiting();
    expect(anticExpired(h.s, 10)).toBe(false);
    expect(canBreak(h.s, rq(2, 9_999_999), 11)).toBe('anticipation-timeout'); // 1 jiffy on
  });
  it('4 queued / 5 dispatched: the anticipated process has other requests in AS or the dispatch queue', () => {
    const h = waiting();
    h.s.aic[1]!.nrQueued = 1;
    expect(canBreak(h.s, rq(2, 9_999_999), 10)).toBe('anticipation-broken-queued');
    h.s.aic[1]!.nrQueued = 0;
    h.s.aic[1]!.nrDispatched = 1;
    expect(canBreak(h.s, rq(2, 9_999_999), 10)).toBe('anticipation-broken-dispatched');
  });
  it('6 close: inside the window, or nearer than the mean seek; async requests never are', () => {
    // (each on a fresh state: a close request changes the anticipated process's history)
    const at = (sector: number, sync = true) => canBreak(waiting().s, rq(2, sector, sync), 10);
    expect(at(100008 + 8192)).toBe('anticipation-broken-close-request');
    expect(at(100008 + 8193)).toBeNull();
    expect(at(100008 - 4096)).toBe('anticipation-broken-close-request');
    expect(at(100008 - 4097)).toBeNull();
    expect(at(100008 + 8192, false)).toBeNull();
    const h = waiting();
    h.s.aic[1]!.seekMean = 50_000;
    expect(canBreak(h.s, rq(2, 100008 + 49_999), 10)).toBe('anticipation-broken-seek');
    const g = waiting();
    g.s.aic[1]!.seekMean = 8194; // outside the window but nearer than the mean seek
    expect(canBreak(g.s, rq(2, 100008 + 8193), 10)).toBe('anticipation-broken-seek');
  });
  it('6 close: the cooperating request is fed into the anticipated process statistics', () => {
    const h = waiting();
    canBreak(h.s, rq(2, 100100), 10);
    expect(h.s.aic[1]!.lastRequestPos).toBe(100108);
  });
  it('7 exited (never in Spindle): break once exit_no_coop > 50 %', () => {
    const h = waiting();
    h.s.aic[1]!.running = false;
    h.s.exitNoCoop = 129;
    expect(canBreak(h.s, null, 10)).toBe('anticipation-broken-exited');
    h.s.exitNoCoop = 128;
    expect(canBreak(h.s, null, 10)).toBeNull();
  });
  it('8 no history: break if new processes think longer than antic_expire, or exit_prob × exit_no_coop > 50 %', () => {
    const h = waiting({ samples: false });
    expect(canBreak(h.s, null, 10)).toBeNull();
    h.s.newTtimeMeanJ = 2;
    expect(canBreak(h.s, null, 10)).toBe('anticipation-broken-new-process');
    h.s.newTtimeMeanJ = 0;
    h.s.exitProb = 200;
    h.s.exitNoCoop = 200;
    expect(canBreak(h.s, null, 10)).toBe('anticipation-broken-exited');
  });
  it('9 think time: break when the mean think time exceeds antic_expire (1 jiffy at HZ 250)', () => {
    expect(canBreak(waiting({ thinkJ: 1 }).s, null, 10)).toBeNull();
    expect(canBreak(waiting({ thinkJ: 2 }).s, null, 10)).toBe('anticipation-broken-think-time');
  });

  it('as_can_anticipate: not after an async dispatch, and not again once FINISHED', () => {
    const h = waiting();
    const far = rq(2, 9_999_999);
    expect(canAnticipate(h.s, far, 10)).toBe('wait');
    h.s.anticStatus = 'FINISHED';
    expect(canAnticipate(h.s, far, 10)).toBe('finished');
    h.s.anticPid = -1;
    expect(canAnticipate(h.s, far, 10)).toBe('no-anticipation-async');
  });

  it('the close window: 8192 sectors, doubling every jiffy of the wait, all-close past antic_expire or 20 ms', () => {
    const h = waiting();
    h.s.anticExpireJ = 10; // 40 ms at HZ 250
    expect(closeWindow(h.s, 10)).toBe(8192); // the completion's own jiffy
    expect(closeWindow(h.s, 11)).toBe(16384);
    expect(closeWindow(h.s, 12)).toBe(32768);
    expect(closeWindow(h.s, 15)).toBe(8192 * 32); // 5 jiffies = 20 ms at HZ 250
    expect(closeWindow(h.s, 16)).toBe('all'); // past 20 ms
    h.s.anticExpireJ = 2;
    expect(closeWindow(h.s, 13)).toBe('all'); // past antic_expire
    h.s.iocFinished = false; // WAIT_REQ: not timing yet
    expect(closeWindow(h.s, 16)).toBe(8192);
  });
});

describe('tunables (§4.1): kernel defaults in jiffies, shown in ms', () => {
  const byName = (n: string) => AS_TUNABLES.find((t) => t.name === n)!;
  // The kernel divides HZ as integers: HZ/8 at HZ 250 is 31 jiffies = 124 ms, not 125.
  const table: Array<[string, number, number, number]> = [
    ['read_expire', 120, 124, 125], // HZ/8
    ['write_expire', 250, 248, 250], // HZ/4
    ['read_batch_expire', 500, 500, 500], // HZ/2
    ['write_batch_expire', 120, 124, 125], // HZ/8
    ['antic_expire', 10, 4, 6], // HZ/150, at least 1 jiffy
  ];
  it.each(table)('%s: %i ms at HZ 100, %i at HZ 250, %i at HZ 1000', (name, h100, h250, h1000) => {
    const t = byName(name);
    expect([defaultAt(t, 100), defaultAt(t, 250), defaultAt(t, 1000)]).toEqual([h100, h250, h1000]);
    expect(t.default).toBe(h1000);
    expect(t.unit).toBe('ms');
  });

  it('exactly the five sysfs names; est_time is read-only and shown by inspect()', () => {
    expect(AS_TUNABLES.map((t) => t.name)).toEqual(table.map((r) => r[0]));
    const h = harness();
    expect(anticipatory.inspect(h.s, h.ctx).estTime).toEqual({
      exitProbabilityPct: 0,
      exitWithoutCooperatorPct: 0,
      newThinkTimeMs: 0,
      newSeekDistanceSectors: 0,
    });
  });

  it('values are stored as whole jiffies (msecs_to_jiffies rounds up): 6 ms at HZ 250 is 8 ms', () => {
    expect(msToJiffies(6, 250)).toBe(2);
    expect(harness({ antic_expire: 6 }, 250).s.anticExpireJ).toBe(2); // shown as 8 ms
    expect(harness({ antic_expire: 6 }, 1000).s.anticExpireJ).toBe(6);
    expect(harness({}, 250).s.anticExpireJ).toBe(1);
    expect(harness({}, 100).s.anticExpireJ).toBe(1);
    expect(harness({ antic_expire: 0 }, 250).s.anticExpireJ).toBe(0);
    expect(harness({ read_expire: 125 }, 250).s.fifoExpireJ[1]).toBe(32); // 128 ms
  });

  it('initial write_batch_count = write_batch_expire in jiffies / 10, at least 2: 12 / 3 / 2', () => {
    expect(harness({}, 1000).s.writeBatchCount).toBe(12);
    expect(harness({}, 250).s.writeBatchCount).toBe(3);
    expect(harness({}, 100).s.writeBatchCount).toBe(2);
  });
});

describe('write_batch_count auto-tuning (§4.7, update_write_batch)', () => {
  // [count before, async batch took (jiffies), budget used up, idled, count after];
  // target write_batch_expire = 31 jiffies (124 ms at HZ 250)
  const table: Array<[number, number, boolean, boolean, number]> = [
    [8, 32, true, false, 7], // a little long: −1
    [8, 94, true, false, 4], // more than 3× the target: halve
    [8, 93, true, false, 7], // exactly 3×: −1
    [8, 94, true, true, 8], // idled (uncontended): not timed
    [8, 31, true, false, 8], // on target: unchanged
    [8, 25, true, false, 9], // short and the budget was used up: +1
    [8, 10, true, false, 16], // target > 3× the time: double
    [8, 10, false, false, 8], // short but the budget not used up: unchanged
    [1, 100, true, false, 1], // minimum 1
  ];
  it.each(table)(
    '%i, batch took %i jiffies (used up %s, idled %s) → %i',
    (n, j, used, idled, after) => {
      const h = harness();
      const now = 1000;
      Object.assign(h.s, {
        writeBatchCount: n,
        currentWriteCount: used ? 0 : 1,
        writeBatchIdled: idled,
        // the async batch started at now − j, planned to end write_batch_expire later
        currentBatchExpiresJ: now - j + h.s.batchExpireJ[0],
      });
      updateWriteBatch(h.s, now);
      expect(h.s.writeBatchCount).toBe(after);
    },
  );
});
