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

  it('small-files: one and sixteen processes × 0…90% full × with and without ranges', async () => {
    const o = await spindleJson<Out>(['range-sweep', 'small-files', '--requests', '60', '--json']);
    expect(o).toMatchObject({ sweep: 'small-files', requests: 60 });
    expect(o.rows.map((r) => r.key)).toEqual(
      [1, 16].flatMap((pids) =>
        [0, 0.25, 0.5, 0.75, 0.9].flatMap((fullness) =>
          ['no', 'yes'].map((ranges) => ({ pids, fullness, ranges })),
        ),
      ),
    );
    // sixteen processes, empty: the range writes take less time per file
    expect(o.rows[11]!.figures.msPerRequest!).toBeLessThan(o.rows[10]!.figures.msPerRequest!);
  });

  it('a table without --json; an unknown sweep is a usage error', async () => {
    const t = await spindle(['range-sweep', 'same-track', '--requests', '100']);
    expect(t.code).toBe(0);
    expect(t.stdout.split('\n')[0]).toMatch(/^placement\s+ms\/req\s+seek\s+rotation/);
    const bad = await spindle(['range-sweep', 'nope']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^spindle: range-sweep takes one sweep: qd, track, group/);
    expect(bad.stderr).toMatch(/hrs-ecs, small-files/);
  });

  it('--queue-depths only where a sweep has depths to set (it was ignored silently); 0 is not a depth', async () => {
    const ignored = await spindle(['range-sweep', 'targets', '--queue-depths', '4']);
    expect(ignored.code).toBe(2);
    expect(ignored.stderr).toBe(
      'spindle: --queue-depths applies to qd, track, group; targets runs its own depths (see spindle range-sweep --help)\n',
    );
    const zero = await spindle(['range-sweep', 'qd', '--requests', '0']);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toBe('spindle: --requests takes whole numbers from 1 (got 0)\n');
  });

  it('spindle export --format blkparse: the C line carries the address the drive chose', async () => {
    const r = await spindle([
      'export',
      'public/scenarios/range-writes-journal.json',
      '--format',
      'blkparse',
      '--set',
      'stop.requests=50',
    ]);
    expect(r.code).toBe(0);
    const sectors = (action: string): number[] =>
      r.stdout
        .split('\n')
        .map((l) => l.trim().split(/\s+/))
        .filter((f) => f[5] === action)
        .map((f) => Number(f[7]));
    const d = sectors('D');
    const c = sectors('C');
    expect(c.length).toBe(50);
    expect(new Set(d)).toEqual(new Set([1015808])); // the placeholder: the region's start
    expect(c.filter((s) => s !== 1015808).length).toBeGreaterThan(45);
    expect(c.every((s) => s >= 1015808 && s + 8 <= 1015808 + 8192 && s % 8 === 0)).toBe(true);
  });
});
