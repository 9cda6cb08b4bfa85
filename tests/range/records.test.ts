// Decision records for range writes: what the page needs to draw HRS's choice.
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { GROUP_START } from '../../src/engine/disk/range-experiments';
import { completions, rangeScenario, runCollect } from './helpers';

// whole simulation runs: slower than unit tests on a shared machine
vi.setConfig({ testTimeout: 60_000 });

const group = { startSector: GROUP_START, sectors: 32768 };

describe('range decision records', () => {
  const { events, decisions } = runCollect(
    rangeScenario({ span: group, range: { sizeSectors: 32768 }, queueDepth: 4, requests: 60 }),
  );
  const withRanges = decisions.filter((d) => d.ranges && d.ranges.length > 0);

  it('HRS: every piece with its track, seek, rotation (or pruned), and the chosen block', () => {
    expect(withRanges.length).toBeGreaterThan(50);
    const c = new Map(completions(events).map((e) => [e.rq, e.sector]));
    let visited = 0;
    let unvisited = 0;
    for (const d of withRanges) {
      expect(d.rule).toBe('hrs-shortest-positioning');
      const own = d.ranges!.find((r) => r.rq === d.chosen)!;
      expect(own.scheduler).toBe('hrs');
      // group-sized: the scan reaches a few of its tracks; the rest are counted as unvisited
      expect(own.ranges).toEqual([{ begin: GROUP_START, end: GROUP_START + 32768 }]);
      expect(own.pieces.length + own.unvisited).toBeGreaterThanOrEqual(Math.ceil(32768 / 88));
      if (c.has(d.chosen)) expect(own.sector).toBe(c.get(d.chosen));
      const estimated = own.pieces.filter((p) => !p.pruned);
      expect(estimated.length).toBeGreaterThan(0);
      visited += own.pieces.length;
      unvisited += own.unvisited;
      // (checked in a plain loop: thousands of expect() calls would be slow)
      const bad = own.pieces.filter(
        (p) =>
          p.firstSector > p.lastSector ||
          p.seekNs < 0 ||
          (p.pruned && (p.rotationNs !== null || p.sector !== -1)) ||
          (p.pruned && p.seekNs < own.estimateNs!),
      );
      expect(bad).toEqual([]);
      const best = own.pieces.find((p) => p.sector === own.sector)!;
      expect(best.seekNs + best.rotationNs!).toBeCloseTo(own.estimateNs!, 6);
      const cand = d.candidates.find((x) => x.rq === d.chosen)!;
      expect(cand.estimateNs).toBeCloseTo(own.estimateNs!, 6);
      expect(d.text).toMatch(
        /HRS: the closest free block of a range write → W \d+\+8 reachable in [\d.]+ ms \(\d+ ready; \d+ range writes?, \d+ track pieces, \d+ pruned; \d+ estimates(, \d+ of them for appending right after the last write)?\)/,
      );
    }
    // most of a group-sized range's tracks are too far to be worth an estimate
    expect(unvisited).toBeGreaterThan(5 * visited);
  });

  it('HRS’s estimates add up in the text: one per examined piece and per ordinary request, and one per write for appending right after the last write (said when there are any)', () => {
    const lesson = JSON.parse(
      readFileSync('public/scenarios/range-writes-small-files-one-full.json', 'utf8'),
    ) as Record<string, unknown>;
    let said = 0;
    for (const d of runCollect(lesson).decisions) {
      const m =
        /\((\d+) ready; (\d+) range writes?, (\d+) track pieces, (\d+) pruned; (\d+) estimates(?:, (\d+) of them for appending right after the last write)?\)/.exec(
          d.text ?? '',
        );
      if (!m) continue;
      const [ready, writes, pieces, pruned, estimates] = [1, 2, 3, 4, 5].map((i) => Number(m[i]));
      const appends = estimates! - (pieces! - pruned!) - (ready! - writes!);
      expect(appends).toBeGreaterThanOrEqual(0);
      expect(appends).toBeLessThanOrEqual(writes!); // the last write's end lies on one piece
      expect(Number(m[6] ?? 0)).toBe(appends);
      if (appends > 0) said++;
    }
    expect(said).toBeGreaterThan(0);
  });

  it('ECS records name their rule and scheduler', () => {
    const r = runCollect(
      rangeScenario({
        span: group,
        range: { sizeSectors: 88 },
        rangeScheduler: 'ecs',
        ecsTargets: 4,
        requests: 10,
      }),
    );
    const ds = r.decisions.filter((d) => d.ranges);
    expect(ds.length).toBe(10);
    for (const d of ds) {
      expect(d.rule).toBe('ecs-shortest-positioning');
      expect(d.ranges![0]!.scheduler).toBe('ecs');
    }
  });
});
