// AS anticipation through the real engine (LINUX-SCHEDULERS.md §4.5–4.6): the state
// machine and each reason as_can_break_anticipation gives, one test per rule, on the HP
// C2247A at queue depth 1. AS keeps time in jiffies: at HZ 250 antic_expire is 1 jiffy and
// the wait ends at the next tick (0–4 ms after the completion); tests about a rule rather
// than the tick run at HZ 1000 (6 jiffies). Where a request must arrive just after another
// completes, a probe run without it finds that completion first (the runs are identical up
// to the arrival).
import { describe, expect, it } from 'vitest';
import {
  MS,
  cTime,
  dSectors,
  dTime,
  decisions,
  firstDecision,
  idOf,
  list,
  rulesOf,
  runAs,
  tick,
  writer,
} from './anticipatory-harness';

/** Reader A: 100000, then two more 4 KiB reads `think` ms after each completion. */
const reader = (think: number) =>
  list('a', [{ sector: 100_000 }, { sector: 100_008, think }, { sector: 100_016, think }]);
/** Process `name` reading `sector` at `tNs` (a probe run's completion time plus 1 ms). */
const lateRead = (name: string, sector: number, tNs: number) =>
  list(name, [{ sector, at: tNs / MS }]);
const WRITES = [1_500_000, 1_600_000, 1_700_000];

describe('anticipation (§4.5): the state machine', () => {
  it('anticipate-start, anticipation-hit: the disk idles for the reader, who comes back in 1 ms', () => {
    const r = runAs([reader(1), writer()], { hz: 1000 });
    expect(dSectors(r)).toEqual([100_000, 100_008, 100_016, ...WRITES]);
    const c1 = cTime(r, 100_000);
    const start = firstDecision(r, 'anticipate-start')!;
    expect(start.tNs).toBe(c1);
    expect(start.chosen).toBe(-1);
    expect(start.text).toMatch(/anticipating on pid 1000 .*antic_expire 6 ms.*3 async waiting/);
    const hits = decisions(r, 'anticipation-hit');
    expect(hits.map((h) => h.tNs)).toEqual([c1 + 1 * MS, cTime(r, 100_008) + 1 * MS]);
    expect(dTime(r, 100_008)).toBe(c1 + 1 * MS);
    // Deadline-like AS (antic_expire 0) sends the writes in between instead.
    const off = runAs([reader(1), writer()], { hz: 1000, tunables: { antic_expire: 0 } });
    expect(dSectors(off)).toEqual([100_000, ...WRITES, 100_008, 100_016]);
  });

  it('anticipation-timeout: at the tick antic_expire after the completion the writes go; exit_prob rises', () => {
    const r = runAs([list('a', [{ sector: 100_000 }]), writer()]);
    const c1 = cTime(r, 100_000);
    const timeout = firstDecision(r, 'anticipation-timeout')!;
    // HZ 250: antic_expire = 1 jiffy, so the timer fires at the next 4 ms tick.
    expect(timeout.tNs).toBe(tick(c1, 1));
    expect(timeout.tNs - c1).toBeLessThanOrEqual(4 * MS);
    expect(timeout.chosen).toBe(-1);
    expect(dTime(r, 1_500_000)).toBe(tick(c1, 1));
    expect(rulesOf(r).slice(0, 4)).toEqual([
      'read-batch',
      'anticipate-start',
      'anticipation-timeout',
      'write-batch',
    ]);
    // The process anticipated on had no think-time history: exit_prob = 256/8 → 12 %.
    expect(r.view.estTime).toMatchObject({ exitProbabilityPct: 12 });
    // At HZ 1000 the same wait is 6 jiffies.
    const fine = runAs([list('a', [{ sector: 100_000 }]), writer()], { hz: 1000 });
    const c = cTime(fine, 100_000);
    expect(firstDecision(fine, 'anticipation-timeout')!.tNs).toBe(tick(c, 6, 1000));
  });

  it('anticipation-timing: WAIT_REQ until the anticipated request completes, then WAIT_NEXT', () => {
    // Queue depth 2: a tag is free while the read is still on the disk. The writes are
    // plugged at 0.5 ms; the unplug timer runs the queue at 3.5 ms.
    const r = runAs([reader(10), writer()], { queueDepth: 2 });
    const c1 = cTime(r, 100_000);
    const start = firstDecision(r, 'anticipate-start')!;
    expect(start.tNs).toBe(3.5 * MS);
    expect(start.text).toMatch(/WAIT_REQ/);
    expect(firstDecision(r, 'anticipation-timing')!.tNs).toBe(c1);
    expect(firstDecision(r, 'anticipation-timing')!.text).toMatch(/until jiffy \d+/);
    expect(firstDecision(r, 'anticipation-timeout')!.tNs).toBe(tick(c1, 1));
    expect(dTime(r, 1_500_000)).toBe(tick(c1, 1));
  });

  it('anticipate-start late: the wait is timed from the completion (antic_start), not from the start', () => {
    // A completes with nothing else queued: AS does not wait on an empty queue. A write
    // plugs the queue 0.5 ms later; the unplug timer runs it at +3.5 ms and AS starts
    // waiting then — until antic_start + antic_expire (6 jiffies at HZ 1000).
    const a = () => list('a', [{ sector: 100_000 }, { sector: 100_008, think: 5 }]);
    const c1 = cTime(runAs([a()], { hz: 1000 }), 100_000);
    const w = list('w', [{ sector: 1_500_000, kib: 64, op: 'write', at: (c1 + 0.5 * MS) / MS }]);
    const r = runAs([a(), w], { hz: 1000 });
    const start = firstDecision(r, 'anticipate-start')!;
    expect(start.tNs).toBe(c1 + 3.5 * MS);
    const left = (tick(c1, 6, 1000) - start.tNs) / MS;
    expect(start.text).toContain(`WAIT_NEXT, ${Number(left.toFixed(2))} ms left`);
    expect(dSectors(r)).toEqual([100_000, 100_008, 1_500_000]);
    // Without anticipation the write goes at the unplug.
    const off = runAs([a(), w], { hz: 1000, tunables: { antic_expire: 0 } });
    expect(dTime(off, 1_500_000)).toBe(c1 + 3.5 * MS);
  });

  it('anticipating: while waiting AS dispatches nothing, even with a free tag and writes queued', () => {
    // Queue depth 2. The writes are plugged at 0.5 ms; at the unplug (3.5 ms) A's read is
    // still on the disk: WAIT_REQ. Its completion frees the tag and runs the queue: AS
    // refuses (WAIT_NEXT) until A's next read, 2 ms later.
    const a = list('a', [{ sector: 100_000 }, { sector: 100_008, think: 2 }]);
    const r = runAs([a, writer()], { hz: 1000, queueDepth: 2 });
    const c1 = cTime(r, 100_000);
    expect(firstDecision(r, 'anticipate-start')!.tNs).toBe(3.5 * MS);
    const refusal = firstDecision(r, 'anticipating')!;
    expect(refusal.tNs).toBe(c1);
    expect(refusal.chosen).toBe(-1);
    expect(refusal.text).toMatch(/still anticipating on pid 1000 \(WAIT_NEXT, [\d.]+ ms left/);
    expect(dSectors(r).slice(0, 2)).toEqual([100_000, 100_008]);
    expect(dTime(r, 100_008)).toBe(c1 + 2 * MS);
  });
});

describe('anticipation ends (§4.6): as_can_break_anticipation', () => {
  it('anticipation-broken-close-request: another process reads near the head — serve it now', () => {
    const a = () => list('a', [{ sector: 100_000 }]);
    const probe = runAs([a(), writer()], { hz: 1000 });
    const c1 = cTime(probe, 100_000);
    const r = runAs([a(), writer(), lateRead('b', 102_008, c1 + 1 * MS)], { hz: 1000 });
    const broken = firstDecision(r, 'anticipation-broken-close-request')!;
    expect(broken.tNs).toBe(c1 + 1 * MS);
    expect(broken.chosen).toBe(idOf(r, 102_008));
    // One jiffy into the wait the window has doubled once: 16384 sectors.
    expect(broken.text).toMatch(/window 16384 sectors/);
    expect(dSectors(r).slice(0, 2)).toEqual([100_000, 102_008]);
    expect(dTime(r, 102_008)).toBe(c1 + 1 * MS);
    // 20000 sectors on, the same request does not break it: the timeout does.
    const far = runAs([a(), writer(), lateRead('b', 120_008, c1 + 1 * MS)], { hz: 1000 });
    expect(rulesOf(far)).not.toContain('anticipation-broken-close-request');
    expect(firstDecision(far, 'anticipation-timeout')!.tNs).toBe(tick(c1, 6, 1000));
  });

  it("anticipation-broken-seek: outside the window but nearer than the process's mean seek distance", () => {
    // A strides 200000 sectors with no think time: three samples of 199992 give a mean of
    // 201182 — the kernel's integer sample counts (32, 60, 84) round it up a little.
    const strides = [0, 200_000, 400_000, 600_000];
    const a = () =>
      list(
        'a',
        strides.map((sector, i) => (i === 0 ? { sector } : { sector, think: 0 })),
      );
    const probe = runAs([a(), writer()], { hz: 1000 });
    const c4 = cTime(probe, 600_000);
    const r = runAs([a(), writer(), lateRead('b', 650_008, c4 + 1 * MS)], { hz: 1000 });
    const broken = firstDecision(r, 'anticipation-broken-seek')!;
    expect(broken.tNs).toBe(c4 + 1 * MS);
    expect(broken.text).toMatch(
      /50000 sectors from the head, nearer than pid 1000's mean seek distance 201182/,
    );
    expect(dTime(r, 650_008)).toBe(c4 + 1 * MS);
  });

  it('anticipation-broken-queued: no waiting while the process still has requests queued', () => {
    const a = list('a', [{ sector: 10_000 }, { sector: 90_000 }]);
    const b = list('b', [{ sector: 20_000, at: 0.1 }]);
    const r = runAs([a, b]);
    // After A's first read, B's is next in elevator order; A has 90000 queued: go on.
    expect(dSectors(r)).toEqual([10_000, 20_000, 90_000]);
    const d = firstDecision(r, 'anticipation-broken-queued')!;
    expect(d.chosen).toBe(idOf(r, 20_000));
    expect(d.text).toMatch(/pid 1000 still has 1 request\(s\) queued/);
  });

  it('anticipation-broken-think-time: a process thinking 10 ms (> antic_expire 6 ms) is not waited for', () => {
    const a = (think: number) =>
      list(
        'a',
        [100_000, 100_008, 100_016, 100_024].map((sector, i) =>
          i === 0 ? { sector } : { sector, think },
        ),
      );
    for (const think of [10, 2]) {
      const probe = runAs([a(think)], { hz: 1000 });
      const c3 = cTime(probe, 100_016);
      const r = runAs([a(think), lateRead('b', 1_500_000, c3 + 1 * MS)], { hz: 1000 });
      if (think === 10) {
        const d = firstDecision(r, 'anticipation-broken-think-time')!;
        expect(d.tNs).toBe(c3 + 1 * MS);
        expect(d.chosen).toBe(idOf(r, 1_500_000));
        expect(d.text).toMatch(/mean think 12 ms \(12 jiffies\) > antic_expire 6 ms/);
        expect(dSectors(r).slice(-2)).toEqual([1_500_000, 100_024]);
      } else {
        // Thinking 2 ms, A is waited for and its fourth read goes before B's.
        expect(rulesOf(r)).not.toContain('anticipation-broken-think-time');
        expect(firstDecision(r, 'anticipate-start')!.tNs).toBe(c3 + 1 * MS);
        expect(dSectors(r).slice(-2)).toEqual([100_024, 1_500_000]);
      }
    }
  });

  it('anticipation-broken-think-time at HZ 250: the rounding makes a new reader "think" 16 ms after one sample', () => {
    // (total + 128) / samples in jiffies: 4, then 2, then 1 jiffy for a reader that never
    // thinks — above antic_expire (1 jiffy) twice, so its 2nd and 3rd completions let the
    // writes through. At HZ 1000 (antic_expire 6 jiffies) the same reader is waited for.
    const a = () =>
      list(
        'a',
        [0, 1, 2, 3, 4].map((i) => (i === 0 ? { sector: i * 8 } : { sector: i * 8, think: 0 })),
      );
    const w = () =>
      list(
        'w',
        Array.from({ length: 12 }, (_, k) => ({
          sector: 1_500_000 + k * 256,
          kib: 64,
          op: 'write' as const,
          at: 0.5,
        })),
      );
    const r = runAs([a(), w()]);
    const texts = decisions(r, 'write-batch').map((d) => d.text!);
    expect(texts[0]).toMatch(/mean think 16 ms \(4 jiffies\) > antic_expire 4 ms \(1 jiffy\)/);
    expect(r.d.findIndex((e) => e.write)).toBe(2); // after the reader's 2nd read
    const fine = runAs([a(), w()], { hz: 1000 });
    expect(fine.d.findIndex((e) => e.write)).toBe(5); // after all five
  });

  it('anticipation-broken-new-process: no history, and new processes have been thinking > antic_expire', () => {
    // Six processes whose first think time is capped at 4 jiffies (HZ 250): the new-process
    // mean, a decaying average from 0, reaches 2 jiffies > antic_expire (1 jiffy).
    const slow = [1, 2, 3, 4, 5, 6].map((k) =>
      list(`p${k}`, [{ sector: k * 100_000 }, { sector: k * 100_000 + 8, think: 30 }]),
    );
    const p7 = list('p7', [{ sector: 50_000, at: 400 }]);
    const p8 = list('p8', [{ sector: 1_500_000, at: 400.5 }]);
    const r = runAs([...slow, p7, p8]);
    const d = firstDecision(r, 'anticipation-broken-new-process')!;
    expect(d.tNs).toBe(cTime(r, 50_000));
    expect(d.chosen).toBe(idOf(r, 1_500_000));
    expect(r.view.estTime).toMatchObject({ newThinkTimeMs: 8 });
    // With one slow process fewer the mean is 1 jiffy: P7 is waited for.
    const r5 = runAs([...slow.slice(1), p7, p8]);
    expect(rulesOf(r5)).not.toContain('anticipation-broken-new-process');
  });

  it('per-process statistics in inspect(): think-time and seek means, as the kernel averages them', () => {
    const a = list(
      'a',
      [0, 1, 2, 3, 4, 5].map((i) => (i === 0 ? { sector: 0 } : { sector: i * 8, think: 2 })),
    );
    const r = runAs([a], { hz: 1000 });
    const me = (r.view.perProcess as Array<Record<string, number>>).find((p) => p.pid === 1000)!;
    expect(me.samples).toBe(123); // five samples: 32, 60, 84, 105, 123
    // Five samples of 2 jiffies through the kernel's recurrence: 3 jiffies, not 2.
    let total = 0;
    for (let i = 0; i < 5; i++) total = Math.floor((7 * total + 256 * 2) / 8);
    expect(Math.floor((total + 128) / 123)).toBe(3);
    expect(me.thinkMeanMs).toBe(3);
    expect(me.seekMeanSectors).toBe(0);
    // Nothing else queued: dispatch returns before it would consider anticipating.
    expect(r.view.anticStatus).toBe('OFF');
    expect(r.view.anticPid).toBe(1000);
  });
});
