// cfq-ann (Heger & Quinn): each rule of its closed list, the Hopfield network's learning and
// recall, the slice length it sets, and the documentation's tunables. docs/iosched/cfq-ann.md.
import { declared, docTunables } from '../helpers/doc-tunables';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/engine/scenario/load';
import { runScenario } from '../../src/engine/run';
import type { DecisionRecord, TraceSink } from '../../src/engine/events';
import { CFQ_ANN_RULES, cfqAnn, type CfqAnnState } from '../../src/engine/iosched/cfq-ann';
import { createNet, learn, recall, ANN_NEURONS } from '../../src/engine/iosched/cfq-ann-net';
import '../../src/engine/iosched/registry';

function run(name: string, tunables: Record<string, number>, timeMs = 20000, seed = 1) {
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
      name: 'ann',
      seed,
      iosched: { name, tunables },
      // four random 4 KiB readers, each in its own 64 MiB file: sync queues CFQ idles for
      workload: {
        processes: [
          { name: 'r', count: 4, generator: { kind: 'fio', job: 'rand-read', fileMiB: 64 } },
        ],
      },
      stop: { timeMs },
    },
    'ann.json',
  );
  const r = runScenario(s, { sink });
  return {
    decisions,
    own: decisions.filter((d) => d.rule in CFQ_ANN_RULES),
    summary: r.summary,
    sim: r.simulation,
    state: r.simulation.state.host.elevator as CfqAnnState,
  };
}

describe('the Hopfield network', () => {
  it('recalls a stored pattern from a corrupted one (Hebbian weights), counting its multiply-adds', () => {
    const net = createNet();
    const p = [1, -1, 1, -1, 1, 1, -1, -1];
    learn(net, p, p.length);
    expect(net.ops).toBe(64);
    expect(net.w[0 * ANN_NEURONS + 1]).toBeCloseTo(-1 / 8);
    expect(net.w[0]).toBe(0); // no self-connection
    const x = [...p];
    x[2] = -1;
    x[5] = -1;
    const sweeps = recall(net, x, p.length, new Set([0]));
    expect(x).toEqual(p);
    expect(sweeps).toBe(2);
    expect(net.ops).toBe(64 + 2 * 7 * 8);
  });
  it('leaves a neuron as it is when its field is zero (no memories)', () => {
    const net = createNet();
    const x = [1, -1, -1, 1];
    recall(net, x, 4, new Set());
    expect(x).toEqual([1, -1, -1, 1]);
  });
});

describe('cfq-ann rules', () => {
  const r = run('cfq-ann', {});
  it('quantum-proposed: a queue’s slice start proposes a 25% step, with the network’s cost', () => {
    const p = r.own.filter((d) => d.rule === 'quantum-proposed');
    expect(p.length).toBeGreaterThan(10);
    const m =
      /under (\d+) ms; network \(\d+ queues, \d sweep\(s\), (\d+) multiply-adds\) says (larger|smaller): try (\d+) ms/.exec(
        p[0]!.text ?? '',
      )!;
    const [from, ops, dir, to] = [Number(m[1]), Number(m[2]), m[3], Number(m[4])];
    expect(ops).toBeGreaterThan(0);
    expect(to).toBe(Math.round(dir === 'larger' ? from * 1.25 : from / 1.25));
  });
  it('quantum-kept and quantum-reverted: a trial is judged by the average response time', () => {
    const kept = r.own.filter((d) => d.rule === 'quantum-kept');
    const rev = r.own.filter((d) => d.rule === 'quantum-reverted');
    expect(kept.length).toBeGreaterThan(0);
    expect(rev.length).toBeGreaterThan(0);
    for (const d of kept) {
      const m = /avg response (\d+\.\d) ms < (\d+\.\d) ms/.exec(d.text ?? '')!;
      expect(Number(m[1])).toBeLessThan(Number(m[2]));
    }
    for (const d of rev) {
      const m = /avg response (\d+\.\d) ms ≥ (\d+\.\d) ms under (\d+) ms — back to (\d+) ms/.exec(
        d.text ?? '',
      )!;
      expect(Number(m[1])).toBeGreaterThanOrEqual(Number(m[2]));
      expect(m[3]).toBe(m[4]);
    }
    expect(r.state.kept).toBe(kept.length);
    expect(r.state.net.stored).toBe(kept.length);
    expect(r.state.reverted).toBe(rev.length);
  });
  it('quantum-at-limit: a proposal outside the limits leaves the quantum', () => {
    const t = run('cfq-ann', { ann_min_quantum: 100, ann_max_quantum: 100 }, 8000);
    expect(t.own.length).toBeGreaterThan(0);
    expect(t.own.every((d) => d.rule === 'quantum-at-limit')).toBe(true);
    expect(t.state.queues.every((a) => a.quantumMs === 100)).toBe(true);
  });
  it('the quantum is the slice: 20 ms quanta expire slices far more often than CFQ’s 100 ms (slices also end when a queue runs dry)', () => {
    const slices = (x: ReturnType<typeof run>) =>
      x.decisions.filter((d) => d.rule === 'slice-expired').length;
    const short = run('cfq-ann', { ann_min_quantum: 20, ann_max_quantum: 20 }, 8000);
    const plain = run('cfq', {}, 8000);
    expect(slices(short)).toBeGreaterThan(2 * slices(plain));
  });
  it('inspection reports each queue’s quantum and the network’s work', () => {
    const view = cfqAnn.inspect(r.state, r.sim.ctx) as {
      ann: { multiplyAdds: number; queues: unknown[] };
    };
    expect(view.ann.multiplyAdds).toBe(r.state.net.ops);
    expect(view.ann.queues).toHaveLength(4);
  });
  it('is deterministic', () => {
    const again = run('cfq-ann', {});
    expect(again.summary).toEqual(r.summary);
    expect(again.own.map((d) => d.text)).toEqual(r.own.map((d) => d.text));
  });
});

describe('cfq-ann documentation', () => {
  it('docs/iosched/cfq-ann.md lists its own tunables exactly as declared, and every rule', () => {
    const { md, rows } = docTunables('cfq-ann.md', /^\| `ann_[a-z_]+` +\| \d/);
    const own = cfqAnn.tunables.filter((t) => t.name.startsWith('ann_'));
    expect(rows).toEqual(declared(own));
    for (const rule of Object.keys(CFQ_ANN_RULES)) expect(md).toContain(`| \`${rule}\``);
  });
});
