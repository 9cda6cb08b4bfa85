// The run log's range-write records placed on the platter (src/worker/range-log.ts): the
// block a range decision chose is where the write's completion (its C event, placed by the
// log's own sector → cylinder/head/angle) says it was written; every examined piece lies on
// its track inside the write's ranges; the ranges' tracks cover exactly the ranges' sectors.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildModel, createSimulation, loadScenario, step } from '../../src/engine';
import '../../src/engine/iosched/registry';
import { createLogSink } from '../../src/worker/log';

function runLesson(file: string, completions: number) {
  const json: unknown = JSON.parse(readFileSync(`public/scenarios/${file}`, 'utf8'));
  const scenario = loadScenario(json, file);
  const model = buildModel(scenario, scenario.seed);
  const sink = createLogSink(model.disk.geometry);
  const sim = createSimulation(model, sink);
  sink.bind(sim);
  while (step(sim) && sink.completions < completions);
  return { sink, geometry: model.disk.geometry };
}

describe('range-write records in the run log', () => {
  for (const file of ['range-writes-journal.json', 'range-writes-small-files.json']) {
    it(`${file}: the chosen block is where the write completes; pieces lie on their tracks`, () => {
      const { sink, geometry } = runLesson(file, 60);
      const ranged = sink.decisions.filter((d) => d.ranges && d.ranges.length > 0);
      expect(ranged.length).toBeGreaterThan(20);
      let checked = 0;
      for (const d of ranged) {
        const r = d.ranges!.find((x) => x.rq === d.chosen)!;
        expect(r.block).not.toBeNull();
        const c = sink.events.find((e) => e.action === 'C' && e.rq === d.chosen);
        if (!c) continue; // still in flight when the run stopped
        expect(c.sector).toBe(r.sector);
        expect(r.block!.cylinder).toBe(c.cylinder);
        expect(r.block!.head).toBe(c.head);
        expect(r.block!.startAngle).toBeCloseTo(c.angle, 9);
        expect(r.block!.endAngle - r.block!.startAngle).toBeGreaterThan(0);
        checked++;
        for (const x of d.ranges!) {
          const sectors = x.ranges.reduce((n, y) => n + y.end - y.begin, 0);
          const tracks = new Set(x.tracks.map((t) => `${t.cylinder}:${t.head}`));
          // each track's share of the ranges, in revolutions, adds up to the ranges' sectors
          let covered = 0;
          for (const t of x.tracks) {
            const z = geometry.zones.find(
              (zz) => t.cylinder >= zz.firstCylinder && t.cylinder <= zz.lastCylinder,
            )!;
            covered += (t.endAngle - t.startAngle) * z.sectorsPerTrack;
          }
          expect(covered).toBeCloseTo(sectors, 6);
          for (const p of x.pieces) {
            expect(tracks.has(`${p.cylinder}:${p.head}`)).toBe(true);
            expect(p.startAngle).toBeGreaterThanOrEqual(0);
            expect(p.startAngle).toBeLessThan(1);
            expect(p.endAngle).toBeGreaterThan(p.startAngle);
            if (p.sector >= 0) expect(p.bestEnd).toBeGreaterThan(p.bestStart);
          }
        }
      }
      expect(checked).toBeGreaterThan(20);
    });
  }
});
