// adio (ADIO/DASS, Seelam et al. as Bautista et al. describe it): each rule of its closed
// list and the documentation's tunables table. docs/iosched/adio.md.
import { declared, docTunables } from '../helpers/doc-tunables';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/engine/scenario/load';
import { runScenario } from '../../src/engine/run';
import type { DecisionRecord, TraceSink } from '../../src/engine/events';
import { ADIO_RULES, adio, type AdioState } from '../../src/engine/iosched/adio';
import '../../src/engine/iosched/registry';

function run(processes: object[], tunables: Record<string, number>, timeMs: number) {
  const decisions: DecisionRecord[] = [];
  const sink: TraceSink = {
    trace: () => {},
    service: () => {},
    decision: (d) => {
      decisions.push(d);
    },
  };
  const s = loadScenario(
    {
      name: 'adio',
      iosched: { name: 'adio', tunables },
      workload: { processes },
      stop: { timeMs },
    },
    'adio.json',
  );
  const r = runScenario(s, { sink });
  return {
    own: decisions.filter((d) => d.rule in ADIO_RULES),
    sim: r.simulation,
    state: r.simulation.state.host.elevator as AdioState,
  };
}
/** n random 4 KiB readers (one request in flight each) over the whole disk */
const readers = (n: number, extra: object = {}) => ({
  name: `r${n}`,
  generator: { kind: 'fio', job: 'rand-read', ...extra },
  count: n,
});

describe('adio rules', () => {
  it('adapt-keep: one random reader meets a 200 ms bound on CFQ: CFQ stays', () => {
    const r = run([readers(1)], {}, 5000);
    expect(r.own.length).toBeGreaterThanOrEqual(4);
    expect(r.own.every((d) => d.rule === 'adapt-keep')).toBe(true);
    expect(r.own[0]!.text).toMatch(
      /0 process\(es\) missed 200 ms, max latency \d+\.\d ms → stay on cfq/,
    );
    expect(r.state.cur!.name).toBe('cfq');
  });

  it('switch-to-deadline: eight random readers wait for each other’s CFQ slices; two or more miss the bound', () => {
    const r = run([readers(8)], {}, 3000);
    const sw = r.own.find((d) => d.rule === 'switch-to-deadline')!;
    expect(sw).toBeDefined();
    const missers = Number(/(\d+) process\(es\) missed/.exec(sw.text ?? '')![1]!);
    expect(missers).toBeGreaterThanOrEqual(2);
    // no switch before a period in which fewer than two missed
    for (const d of r.own.filter((x) => x.tNs < sw.tNs))
      expect(Number(/(\d+) process\(es\) missed/.exec(d.text ?? '')![1]!)).toBeLessThan(2);
    expect(r.own.some((d) => d.rule === 'switch-done' && d.tNs >= sw.tNs)).toBe(true);
  });

  it('min_missers: with a threshold above the readers’ count, CFQ stays', () => {
    const r = run([readers(8)], { min_missers: 9 }, 3000);
    expect(r.own.every((d) => d.rule === 'adapt-keep')).toBe(true);
  });

  it('switch-to-cfq: on deadline, once the load drops and the max latency is under half the bound, back to CFQ', () => {
    const r = run(
      [readers(8, { durationMs: 3000 }), { ...readers(1, { startMs: 3000 }), name: 'solo' }],
      {},
      8000,
    );
    const toDl = r.own.find((d) => d.rule === 'switch-to-deadline')!;
    const back = r.own.find((d) => d.rule === 'switch-to-cfq')!;
    expect(toDl.tNs).toBeLessThan(back.tNs);
    const max = Number(/max latency (\d+\.\d) ms/.exec(back.text ?? '')![1]!);
    expect(max).toBeLessThan(100);
    expect(r.state.cur!.name).toBe('cfq');
  });

  it('switch-drain-wait / switch-done: a switch completes only when the old elevator’s requests are freed', () => {
    const r = run([readers(8)], {}, 3000);
    const sw = r.own.find((d) => d.rule === 'switch-to-deadline')!;
    const after = r.own.filter((d) => d.tNs >= sw.tNs);
    const done = after.find((d) => d.rule === 'switch-done')!;
    const waits = after.filter((d) => d.rule === 'switch-drain-wait' && d.tNs < done.tNs);
    expect(done.tNs - sw.tNs).toBeCloseTo(10e6 * (waits.length + (waits.length > 0 ? 1 : 0)), 0);
  });
});

describe('adio documentation', () => {
  it('docs/iosched/adio.md lists the tunables exactly as declared, and every rule', () => {
    const { md, rows } = docTunables('adio.md', /^\| `[a-z_]+` +\| \d/);
    expect(rows).toEqual(declared(adio.tunables));
    for (const rule of Object.keys(ADIO_RULES)) expect(md).toContain(`| \`${rule}\``);
  });
});
