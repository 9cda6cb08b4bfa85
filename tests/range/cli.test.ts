// `spindle range-sweep`: the paper's sweeps from the command line.
import { describe, expect, it, vi } from 'vitest';
import { spindle, spindleJson } from '../cli/run-cli';

// whole simulation runs: slower than unit tests on a shared machine
vi.setConfig({ testTimeout: 60_000 });

interface Out {
  sweep: string;
  disk: string;
  requests: number;
  rows: Array<{ key: Record<string, unknown>; figures: Record<string, number> }>;
}

describe('spindle range-sweep', () => {
  it('--json: one row per run, with time per request, positioning and estimates per decision', async () => {
    const o = await spindleJson<Out>([
      'range-sweep',
      'group',
      '--requests',
      '200',
      '--queue-depths',
      '1,4',
      '--json',
    ]);
    expect(o).toMatchObject({ sweep: 'group', disk: 'hp-c2247a', requests: 200 });
    expect(o.rows.map((r) => r.key)).toEqual([
      { rangeSectors: 0, queueDepth: 1 },
      { rangeSectors: 0, queueDepth: 4 },
      { rangeSectors: 32768, queueDepth: 1 },
      { rangeSectors: 32768, queueDepth: 4 },
    ]);
    for (const r of o.rows)
      expect(Object.keys(r.figures).sort()).toEqual(
        [
          'estimates',
          'estimatesPerDecision',
          'msPerRequest',
          'overheadMs',
          'rotationMs',
          'seekMs',
          'transferMs',
        ].sort(),
      );
    expect(o.rows[2]!.figures.msPerRequest!).toBeLessThan(o.rows[0]!.figures.msPerRequest! / 2);
  });

  it('a table without --json; an unknown sweep is a usage error', async () => {
    const t = await spindle(['range-sweep', 'same-track', '--requests', '100']);
    expect(t.code).toBe(0);
    expect(t.stdout.split('\n')[0]).toMatch(/^placement\s+ms\/req\s+seek\s+rotation/);
    const bad = await spindle(['range-sweep', 'nope']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^spindle: range-sweep takes one sweep: qd, track, group/);
  });
});
