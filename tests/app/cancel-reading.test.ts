// Issue 20 item 3: Cancel always ends a reading. The worker sees the cancel between the
// steps of its reading; a worker stuck inside one step never answers, and the page
// (trace-session.ts) terminates it after CANCEL_GRACE_MS, with a message. The page's side,
// with a real stuck step, is in tests/e2e/trace-hostile.test.ts.
import { describe, expect, it } from 'vitest';
import { CANCEL_GRACE_MS, stopsInTime, stoppedText } from '../../src/app/cancel-reading';

describe('cancelling a reading in a worker', () => {
  it('a worker that gives up when told: in time, at once', async () => {
    let finish: () => void = () => undefined;
    const work = new Promise<void>((resolve) => (finish = resolve));
    let asked = 0;
    const t0 = performance.now();
    const inTime = await stopsInTime(work, () => {
      asked++;
      finish();
      return Promise.resolve();
    });
    expect(inTime).toBe(true);
    expect(asked).toBe(1);
    expect(performance.now() - t0).toBeLessThan(CANCEL_GRACE_MS);
  });

  it('a worker stuck inside a step (never answers): not in time, after the grace time', async () => {
    const never = new Promise<void>(() => undefined);
    const t0 = performance.now();
    const inTime = await stopsInTime(never, () => never);
    const ms = performance.now() - t0;
    expect(inTime).toBe(false);
    expect(ms).toBeGreaterThanOrEqual(CANCEL_GRACE_MS - 5);
    // the page then terminates the worker: Cancel has its answer well within 1 s
    expect(CANCEL_GRACE_MS).toBeLessThanOrEqual(500);
  });

  it('a reading that failed meanwhile counts as ended', async () => {
    expect(await stopsInTime(Promise.reject(new Error('gone')), () => Promise.resolve())).toBe(
      true,
    );
  });

  it('says what happened, and what is still shown', () => {
    expect(stoppedText('hostile.txt', 'trace.txt')).toBe(
      'Reading hostile.txt was stopped: the trace reader did not answer within 0.4 s, so it was restarted. Still showing trace.txt.',
    );
    expect(stoppedText('hostile.txt', null)).toMatch(/restarted\.$/);
  });
});
