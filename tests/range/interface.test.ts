// The range-write interface end to end: the completion carries the chosen address, the
// drive never writes two requests to one block until a barrier, and runs are reproducible.
import { describe, expect, it, vi } from 'vitest';
import { loadScenario } from '../../src/engine/scenario/load';
import { runScenario } from '../../src/engine/run';
import { groupTrack, GROUP_START } from '../../src/engine/disk/range-experiments';
import { completions, rangeScenario, runCollect } from './helpers';

// whole simulation runs: slower than unit tests on a shared machine
vi.setConfig({ testTimeout: 60_000 });

const track = groupTrack();
const small = { startSector: GROUP_START, sectors: 200 * 8 };

describe('the completion reports the chosen address', () => {
  it('each C lies in the write’s span, aligned, and equals the decision record’s choice', () => {
    const { events, decisions } = runCollect(
      rangeScenario({
        span: small,
        range: { sizeSectors: 100 * 8, targets: 2 },
        queueDepth: 4,
        requests: 100,
      }),
    );
    const cs = completions(events);
    expect(cs.length).toBeGreaterThanOrEqual(100);
    const chosen = new Map<number, number>();
    for (const d of decisions)
      for (const r of d.ranges ?? []) if (r.rq === d.chosen) chosen.set(r.rq, r.sector);
    for (const c of cs) {
      expect(c.sector % 8).toBe(0);
      expect(c.sector).toBeGreaterThanOrEqual(small.startSector);
      expect(c.sector + c.nSectors).toBeLessThanOrEqual(small.startSector + small.sectors);
      expect(chosen.get(c.rq)).toBe(c.sector);
    }
  });

  it('D shows the placeholder (the first range’s start), C the address the drive chose', () => {
    const { events } = runCollect(
      rangeScenario({ span: small, range: { sizeSectors: 100 * 8, targets: 4 }, requests: 50 }),
    );
    const d = new Map(events.filter((e) => e.action === 'D').map((e) => [e.rq, e.sector]));
    const moved = completions(events).filter((c) => d.get(c.rq) !== c.sector);
    expect(moved.length).toBeGreaterThan(25);
  });
});

describe('blocks used since the last barrier', () => {
  it('without barriers no two writes share a block, even with overlapping ranges at depth 16', () => {
    const { events } = runCollect(
      rangeScenario({
        span: small,
        range: { sizeSectors: 50 * 8, targets: 3, barrierEvery: 0 },
        queueDepth: 16,
        requests: 120,
      }),
    );
    const blocks = completions(events).map((c) => c.sector);
    expect(new Set(blocks).size).toBe(blocks.length);
  });

  it('a multi-block write lands whole and contiguous (one request), overlapping no other', () => {
    const { events } = runCollect(
      rangeScenario({
        span: small,
        range: { sizeSectors: 40 * 8, targets: 2, barrierEvery: 0 },
        sizeKiB: 16,
        queueDepth: 8,
        requests: 30,
      }),
    );
    const cs = completions(events).sort((a, b) => a.sector - b.sector);
    expect(cs.length).toBe(30);
    for (let i = 0; i < cs.length; i++) {
      expect(cs[i]!.nSectors).toBe(32);
      expect(cs[i]!.sector % 8).toBe(0);
      if (i > 0) expect(cs[i]!.sector).toBeGreaterThanOrEqual(cs[i - 1]!.sector + 32);
    }
  });

  it('when every start of a write’s ranges is in use the run stops with that reason', () => {
    const json = rangeScenario({
      span: track,
      range: { sizeSectors: 88, barrierEvery: 0 },
      requests: 20,
    });
    expect(() => runScenario(loadScenario(json, 'x'))).toThrow(
      /every start in its ranges is in use/,
    );
  });

  it('a barrier before each write lets the drive use a block again', () => {
    const { events } = runCollect(
      rangeScenario({ span: track, range: { sizeSectors: 88, barrierEvery: 1 }, requests: 40 }),
    );
    const blocks = completions(events).map((c) => c.sector);
    expect(blocks.length).toBe(40);
    expect(new Set(blocks).size).toBeLessThanOrEqual(11); // one track holds 11 blocks
  });
});

describe('placement policies', () => {
  it('the cheap disk "first" writes each write at the first free start (no barrier: they fill in order)', () => {
    const { events } = runCollect(
      rangeScenario({
        span: track,
        range: { sizeSectors: 88, barrierEvery: 0 },
        rangeScheduler: 'first',
        requests: 11,
      }),
    );
    expect(completions(events).map((c) => c.sector)).toEqual(
      Array.from({ length: 11 }, (_, i) => track.startSector + 8 * i),
    );
  });

  it('HRS beats the cheap disk on time per write (the point of range writes)', () => {
    const run = (rangeScheduler: string) =>
      runScenario(
        loadScenario(
          rangeScenario({
            span: { startSector: GROUP_START, sectors: 32768 },
            range: { sizeSectors: 800 },
            rangeScheduler,
            requests: 300,
          }),
          'x',
        ),
      ).summary.latencyMs.d2c.mean;
    expect(run('hrs')).toBeLessThan(0.8 * run('random'));
  });

  it('under FCFS a range write is still placed (by HRS) when its turn comes', () => {
    const { events, decisions } = runCollect(
      rangeScenario({
        span: small,
        range: { sizeSectors: 800 },
        scheduler: 'fcfs',
        queueDepth: 4,
        requests: 40,
      }),
    );
    expect(decisions.every((d) => d.rule === 'fcfs-oldest' || d.rule === 'only-candidate')).toBe(
      true,
    );
    expect(completions(events).length).toBeGreaterThanOrEqual(40);
  });
});

describe('determinism and cost', () => {
  it('same seed ⇒ the same event log; another seed ⇒ another', () => {
    const log = (seed: number) =>
      JSON.stringify(
        runCollect(
          rangeScenario({
            span: small,
            range: { sizeSectors: 800, targets: 4 },
            queueDepth: 8,
            requests: 80,
            seed,
          }),
        ).events,
      );
    expect(log(3)).toBe(log(3));
    expect(log(4)).not.toBe(log(3));
  });

  it('a run without range writes keeps no range state and emits no range records', () => {
    const json = rangeScenario({
      span: small,
      range: { sizeSectors: 8 },
      queueDepth: 4,
      requests: 50,
    });
    const procs = (json.workload as { processes: Array<Record<string, unknown>> }).processes;
    delete procs[0]!.range;
    const { result, decisions } = runCollect(json);
    expect(result.simulation.state.drive.ranges).toBeNull();
    expect(decisions.some((d) => 'ranges' in d)).toBe(false);
    // SPTF: one estimate per ready command per decision
    const s = result.summary;
    expect(s.work.positioningEstimates).toBe(
      decisions.reduce((a, d) => a + d.candidates.length, 0),
    );
  });
});

describe('scenario checks', () => {
  const base = () => rangeScenario({ span: small, range: { sizeSectors: 800 } });
  it('range writes need the "none" block layer (it would merge and sort placeholders)', () => {
    const json = { ...base(), iosched: { name: 'noop' } };
    expect(() => loadScenario(json, 'x.json')).toThrow(
      /iosched.name: must be "none" when a process makes range writes/,
    );
  });
  it('a range must hold the write and fit in the span', () => {
    expect(() =>
      loadScenario(rangeScenario({ span: small, range: { sizeSectors: 4 } }), 'x.json'),
    ).toThrow(/range.sizeSectors: must hold the largest write, 8 sectors/);
    expect(() =>
      loadScenario(rangeScenario({ span: small, range: { sizeSectors: 99999 } }), 'x.json'),
    ).toThrow(/range.sizeSectors: must fit in the span of 1600 sectors/);
  });
  it('ecsTargets applies to the ECS placement only', () => {
    expect(() =>
      loadScenario(
        rangeScenario({ span: small, range: { sizeSectors: 800 }, ecsTargets: 4 }),
        'x.json',
      ),
    ).toThrow(/disk.ecsTargets: only applies to disk.rangeScheduler "ecs"/);
  });
});
