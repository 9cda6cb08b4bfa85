// The kernel-builds lesson (issue 7 item 4): the seeds' arrival rates, and what the lesson
// tells a student to expect, through the real CLI on the committed scenario file.
import { describe, expect, it, vi } from 'vitest';
import type { RunSummary } from '../../src/engine/summary';
import { SCENARIOS, spindleJson } from '../cli/run-cli';

// whole lesson runs: seconds each, far more on a loaded shared machine
vi.setConfig({ testTimeout: 120_000 });

describe('lesson: two and four kernel builds', () => {
  it('the builds offer one request every 19 ms (two builds) and every 12 ms (four)', async () => {
    for (const [builds, ms] of [
      [2, 19],
      [4, 12],
    ] as const) {
      const s = await spindleJson<RunSummary>([
        'run',
        `${SCENARIOS}/kernel-builds.json`,
        '--set',
        `workload.processes.0.generator.builds=${builds}`,
        '--json',
      ]);
      expect(s.processes).toHaveLength(builds);
      const perSecond = s.requests.queued / (s.simulatedTimeMs / 1000);
      expect(perSecond).toBeGreaterThan(0.95 * (1000 / ms));
      expect(perSecond).toBeLessThan(1.05 * (1000 / ms));
    }
  });

  // The lesson's "what to expect" (seed 1): two builds, mean Q2C 5.0 ms under CFQ, deadline
  // and anticipatory (p95 12.2–12.6, max 33–47 ms); four under CFQ 6.3 ms, Q2D 2.1 → 3.0 ms.
  it('lightly loaded, the schedulers hardly differ (mean Q2C within 5%); four builds wait longer in the queue', async () => {
    const run = (...set: string[]) =>
      spindleJson<RunSummary>(['run', `${SCENARIOS}/kernel-builds.json`, ...set, '--json']);
    const [cfq, deadline, as, four] = await Promise.all([
      run(),
      run('--set', 'iosched.name=deadline'),
      run('--set', 'iosched.name=anticipatory'),
      run('--set', 'workload.processes.0.generator.builds=4'),
    ]);
    const means = [cfq, deadline, as].map((s) => s.latencyMs.q2c.mean);
    expect(Math.max(...means) / Math.min(...means)).toBeLessThan(1.05);
    expect(four.latencyMs.q2c.mean).toBeGreaterThan(1.1 * cfq.latencyMs.q2c.mean);
    expect(four.latencyMs.q2d.mean).toBeGreaterThan(1.2 * cfq.latencyMs.q2d.mean);
  });
});
