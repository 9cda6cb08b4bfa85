// switcher (Bautista et al.): each rule of its closed list, the SR arithmetic, and the
// elevator switch it performs (drain, bypass, 10 ms polls). docs/iosched/switcher.md.
import { declared, docTunables } from '../helpers/doc-tunables';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/engine/scenario/load';
import { runScenario } from '../../src/engine/run';
import { buildModel } from '../../src/engine/model';
import { createSimulation, runUntil } from '../../src/engine/simulation';
import type { DecisionRecord, TraceEvent, TraceSink } from '../../src/engine/events';
import { SWITCHER_RULES, switcher, type SwitcherState } from '../../src/engine/iosched/switcher';
import '../../src/engine/iosched/registry';

interface Captured {
  decisions: DecisionRecord[];
  events: TraceEvent[];
}
function run(processes: object[], tunables: Record<string, number>, timeMs: number, seed = 1) {
  const c: Captured = { decisions: [], events: [] };
  const sink: TraceSink = {
    trace: (e) => {
      c.events.push({ ...e });
    },
    service: () => {},
    decision: (d) => {
      c.decisions.push(d);
    },
  };
  const s = loadScenario(
    {
      name: 'sw',
      seed,
      iosched: {
        name: 'switcher',
        tunables: { sample_period_ms: 500, ema_window_ms: 2000, ...tunables },
      },
      workload: { processes },
      stop: { timeMs },
    },
    'sw.json',
  );
  const r = runScenario(s, { sink });
  const own = c.decisions.filter((d) => d.rule in SWITCHER_RULES);
  return {
    ...c,
    own,
    summary: r.summary,
    sim: r.simulation,
    state: r.simulation.state.host.elevator as SwitcherState,
  };
}
const fio = (job: string, extra: object = {}) => ({
  name: job,
  generator: { kind: 'fio', job, fileMiB: 64, ...extra },
});

describe('switcher rules', () => {
  it('sample-keep: a random workload keeps CFQ at every sample', () => {
    const r = run([fio('rand-read')], {}, 5000);
    expect(r.own.length).toBeGreaterThanOrEqual(9);
    expect(r.own.every((d) => d.rule === 'sample-keep')).toBe(true);
    expect(r.own[0]!.text).toMatch(
      /reads dominate .* avg 4\.0 KiB, .* SR 0\.03 < 0\.75 → random: cfq/,
    );
    expect(r.state.cur!.name).toBe('cfq');
  });

  it('switch-to-cfq: starting on anticipatory, the first sample of 4 KiB random reads switches', () => {
    const r = run([fio('rand-read')], { start_anticipatory: 1 }, 3000);
    expect(r.own[0]!.rule).toBe('switch-to-cfq');
    expect(r.own[0]!.tNs).toBe(500e6);
    expect(r.state.cur!.name).toBe('cfq');
    expect(r.state.switches).toBe(1);
  });

  it('switch-to-anticipatory: after a step from 4 KiB to 128 KiB reads, when the EMA reaches 0.75 of the peak', () => {
    // SR_n = (128 − 124·d^n) / 128 with d = e^(−500/2000): SR ≥ 0.75 first at n = 6 samples
    const r = run(
      [fio('rand-read', { durationMs: 5000 }), fio('seq-read', { startMs: 5000 })],
      {},
      12000,
    );
    const sw = r.own.find((d) => d.rule === 'switch-to-anticipatory')!;
    expect(sw).toBeDefined();
    // the first sample wholly inside the sequential phase ends at 5.5 s; the sixth at 8 s
    const d = Math.exp(-0.25);
    const n = Math.ceil(Math.log(32 / 124) / Math.log(d));
    expect(n).toBe(6);
    expect(sw.tNs / 1e6).toBeGreaterThanOrEqual(5000 + (n - 1) * 500);
    expect(sw.tNs / 1e6).toBeLessThanOrEqual(5000 + (n + 1) * 500);
    expect(sw.text).toMatch(/SR 0\.(7[5-9]|[89]\d) ≥ 0\.75 → sequential: anticipatory/);
    expect(r.state.cur!.name).toBe('anticipatory');
  });

  it('switch-drain-wait and switch-done: the switch waits in 10 ms steps until the old elevator’s requests are freed', () => {
    // buffered random writes keep many requests inside CFQ when the switch begins
    const r = run([fio('rand-write', { durationMs: 3000 })], { start_anticipatory: 1 }, 6000);
    const start = r.own.find((x) => x.rule === 'switch-to-cfq')!;
    const waits = r.own.filter((x) => x.rule === 'switch-drain-wait');
    const done = r.own.find((x) => x.rule === 'switch-done')!;
    expect(waits.length).toBeGreaterThan(0);
    for (let i = 0; i < waits.length; i++)
      expect(waits[i]!.tNs - start.tNs).toBeCloseTo((i + 1) * 10e6, 0);
    expect(done.tNs - start.tNs).toBeCloseTo((waits.length + 1) * 10e6, 0);
    expect(done.text).toMatch(/anticipatory → cfq took \d+\.0 ms/);
    // while it lasts, no request the new elevator would hold exists: the old one's requests
    // are dispatched first (forced), then the ones that arrived during the switch, in order
    const during = r.events.filter((e) => e.tNs > start.tNs && e.tNs <= done.tNs);
    const queued = during.filter((e) => e.action === 'I').map((e) => e.rq);
    const dispatched = during
      .filter((e) => e.action === 'D' && queued.includes(e.rq))
      .map((e) => e.rq);
    expect(dispatched.length).toBeGreaterThan(0);
    expect(dispatched).toEqual(
      [...dispatched].sort((a, b) => queued.indexOf(a) - queued.indexOf(b)),
    );
  });

  it('every switcher decision names a rule from its closed list', () => {
    const r = run(
      [fio('rand-read', { durationMs: 2000 }), fio('seq-read', { startMs: 2000 })],
      {},
      8000,
    );
    const rules = new Set(r.decisions.map((d) => d.rule));
    for (const rule of ['sample-keep', 'switch-to-anticipatory', 'switch-done'])
      expect(rules.has(rule)).toBe(true);
  });
});

describe('switcher as a whole', () => {
  it('is deterministic: same seed, same decisions', () => {
    const a = run([fio('file-server')], { start_anticipatory: 1 }, 3000);
    const b = run([fio('file-server')], { start_anticipatory: 1 }, 3000);
    expect(b.own.map((d) => [d.tNs, d.rule, d.text])).toEqual(
      a.own.map((d) => [d.tNs, d.rule, d.text]),
    );
    expect(b.summary).toEqual(a.summary);
  });

  it('stops sampling when the disk is idle, so a finite workload ends', () => {
    const s = loadScenario(
      {
        name: 'idle',
        iosched: { name: 'switcher', tunables: { sample_period_ms: 100 } },
        workload: {
          processes: [{ name: 'p', requests: [{ sector: 100, sizeKiB: 4, op: 'read', atMs: 0 }] }],
        },
      },
      'idle.json',
    );
    const r = runScenario(s);
    expect(r.summary.requests.completed).toBe(1);
    expect(r.summary.simulatedTimeMs).toBeLessThan(1000);
  });

  it('inspection during a switch names the old elevator, still attached while it drains (2.6.32 elevator_switch), and the switch under way', () => {
    const s = loadScenario(
      {
        name: 'mid-switch',
        iosched: { name: 'switcher', tunables: { sample_period_ms: 500, start_anticipatory: 1 } },
        workload: {
          processes: [
            { name: 'g', count: 4, generator: { kind: 'fio', job: 'rand-write', fileMiB: 64 } },
          ],
        },
        stop: { timeMs: 1000 },
      },
      'mid-switch.json',
    );
    const sim = createSimulation(buildModel(s));
    runUntil(sim, 505e6); // the first sample (500 ms) switched to CFQ; AS still drains
    const st = sim.state.host.elevator as SwitcherState;
    expect(st.switchStartNs).toBeGreaterThanOrEqual(0);
    const view = switcher.inspect(st, sim.ctx) as {
      elevator: string;
      switching: { from: string; to: string } | null;
    };
    expect(view.elevator).toBe('anticipatory');
    expect(view.switching).toMatchObject({ from: 'anticipatory', to: 'cfq' });
  });

  it('inspection names the running elevator and the last sample', () => {
    const r = run([fio('seq-read')], {}, 2000);
    const view = switcher.inspect(r.state, r.sim.ctx);
    // 128 KiB reads from the first sample: SR = 128 / 128 → anticipatory
    expect(view.elevator).toBe('anticipatory');
    expect((view.last as { dominant: string }).dominant).toBe('read');
    expect(view.inner).not.toBeNull();
  });
});

describe('switcher documentation', () => {
  it('docs/iosched/switcher.md lists the tunables exactly as declared, and every rule', () => {
    const { md, rows } = docTunables('switcher.md', /^\| `[a-z_]+` +\| \d/);
    expect(rows).toEqual(declared(switcher.tunables));
    for (const t of switcher.tunables) expect(t.doc).toMatch(/^[A-Z].+\.$/);
    for (const rule of Object.keys(SWITCHER_RULES)) expect(md).toContain(`| \`${rule}\``);
  });
});
