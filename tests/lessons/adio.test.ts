// The ADIO lesson (public/scenarios/adio.json): the timeline its text describes, read from
// its decision records through the engine (the CLI's JSON carries none).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { DecisionRecord, TraceSink } from '../../src/engine/events';
import { loadScenario } from '../../src/engine/scenario/load';
import { runScenario } from '../../src/engine/run';
import '../../src/engine/iosched/registry';

const FILE = 'public/scenarios/adio.json';

function adioDecisions(): DecisionRecord[] {
  const raw = JSON.parse(readFileSync(FILE, 'utf8')) as Record<string, unknown>;
  const out: DecisionRecord[] = [];
  const sink: TraceSink = {
    trace: () => {},
    service: () => {},
    decision: (d) => {
      if (/^(adapt-keep|switch-to|switch-done)/.test(d.rule)) out.push(d);
    },
  };
  runScenario(loadScenario(raw, FILE), { sink });
  return out;
}

describe('lesson: ADIO switches CFQ → deadline → CFQ (Seelam et al.)', () => {
  const d = adioDecisions();
  const missers = (x: DecisionRecord) =>
    Number(/(\d+) process\(es\) missed/.exec(x.text ?? '')![1]);
  const maxMs = (x: DecisionRecord) => Number(/max latency (\d+\.\d) ms/.exec(x.text ?? '')![1]);

  it('at the first period’s end, two or more of the eight readers missed 200 ms on CFQ: switch to deadline, done once CFQ has drained', () => {
    const toDl = d.find((x) => x.rule === 'switch-to-deadline')!;
    expect(toDl.tNs).toBe(1e9);
    expect(missers(toDl)).toBeGreaterThanOrEqual(2);
    const done = d.find((x) => x.rule === 'switch-done' && x.tNs > toDl.tNs)!;
    expect(done.text).toMatch(/cfq → deadline/);
  });

  it('while the eight still run, ADIO stays on deadline although they still miss', () => {
    const toDl = d.find((x) => x.rule === 'switch-to-deadline')!;
    const next = d.find((x) => x.rule === 'adapt-keep' && x.tNs > toDl.tNs)!;
    expect(next.tNs).toBeLessThan(3e9);
    expect(missers(next)).toBeGreaterThanOrEqual(2);
    expect(next.text).toMatch(/stay on deadline/);
  });

  it('after they stop, back to CFQ only once the largest latency is under half the bound', () => {
    const back = d.find((x) => x.rule === 'switch-to-cfq')!;
    expect(back.tNs).toBeGreaterThan(3e9);
    expect(maxMs(back)).toBeLessThan(100);
    // the periods between: nobody missed, but the largest latency was still ≥ 100 ms
    const between = d.filter((x) => x.rule === 'adapt-keep' && x.tNs > 3e9 && x.tNs < back.tNs);
    for (const x of between) {
      expect(missers(x)).toBe(0);
      expect(maxMs(x)).toBeGreaterThanOrEqual(100);
    }
    // and it stays there
    expect(d.filter((x) => x.tNs > back.tNs).every((x) => x.rule !== 'switch-to-deadline')).toBe(
      true,
    );
  });
});
