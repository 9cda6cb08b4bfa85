// The lessons of issue 18 (today's schedulers on kernel 6.18), their claims checked through
// the real CLI on the committed scenario files, as a student would run them.
import { describe, expect, it, vi } from 'vitest';
import type { RunSummary } from '../../src/engine/summary';
import { SCENARIOS, spindleJson } from '../cli/run-cli';

vi.setConfig({ testTimeout: 120_000 });

type Run = RunSummary & {
  decisions?: { total: number; shown: Array<{ rule: string; text: string }> };
};
const proc = (s: RunSummary, name: string) => s.processes.find((p) => p.name === name)!;
const run = (file: string, ...args: string[]) =>
  spindleJson<Run>(['run', `${SCENARIOS}/${file}`, ...args, '--json']);

describe('lesson: Kyber, a latency target for reads', () => {
  it('the writes lose tokens below the drive’s 32 tags; the reader’s worst Q2C falls under 1.5 × read_lat_nsec, the writer keeps its throughput', async () => {
    const [kyber, none] = await Promise.all([
      run('kyber-read-latency.json', '--decisions', 'scale'),
      run('kyber-read-latency.json', '--set', 'iosched.name=none'),
    ]);
    // kyber_timer_fn: congestion from the reads' I/O p90, the writes meeting 10 ms → down
    const downs = kyber.decisions!.shown.filter((d) => d.rule === 'scale-down');
    expect(downs.length).toBeGreaterThanOrEqual(3);
    expect(downs.every((d) => d.text.includes('WRITE'))).toBe(true);
    expect(downs.at(-1)!.text).toMatch(/→ 16$/);
    // the reader: under 3 ms at worst with kyber (2 ms target), over 5 ms behind the writes with none
    expect(proc(kyber, 'reader').q2cMaxMs).toBeLessThan(3);
    expect(proc(kyber, 'reader').q2cMeanMs).toBeLessThan(2);
    expect(proc(none, 'reader').q2cMeanMs).toBeGreaterThan(5);
    // the writer keeps its throughput (within 2%)
    expect(proc(kyber, 'writer').iops).toBeGreaterThan(0.98 * proc(none, 'writer').iops);
  });
});

describe('lesson: BFQ’s low latency, an interactive reader beside a heavy writer', () => {
  it('weight raising: the reader’s queue preempts the writer’s and its mean Q2C is at least 30% lower; the writer loses under 1%; without it the writer’s autotuned budget makes the reader wait longer than behind none', async () => {
    const [on, off, none] = await Promise.all([
      run('bfq-low-latency.json', '--decisions', 'preempted,raised,inject'),
      run('bfq-low-latency.json', '--set', 'iosched.tunables.low_latency=0'),
      run('bfq-low-latency.json', '--set', 'iosched.name=none'),
    ]);
    expect(on.decisions!.shown.some((d) => d.rule === 'weight-raised')).toBe(true);
    expect(on.decisions!.shown.filter((d) => d.rule === 'expire-preempted').length).toBeGreaterThan(
      5,
    );
    // while idling for the raised reader, the writer's I/O is injected (bfq_select_queue)
    expect(on.decisions!.shown.some((d) => d.rule === 'inject')).toBe(true);
    const reader = (s: RunSummary) => proc(s, 'reader').q2cMeanMs;
    // measured: about 18 ms with raising, 80 ms without, 54 ms under none
    expect(reader(on)).toBeLessThan(0.7 * reader(off));
    expect(reader(on)).toBeLessThan(25);
    // without raising the reader waits for the writer's whole budget — one timeout_sync
    // at the peak rate (bfq_calc_max_budget) — longer than behind none's FIFO
    expect(reader(off)).toBeGreaterThan(reader(none));
    expect(proc(on, 'writer').iops).toBeGreaterThan(0.99 * proc(off, 'writer').iops);
  });
});
