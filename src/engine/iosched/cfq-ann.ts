// cfq-ann: CFQ whose per-queue quantum is tuned while the queue is active by a small
// Hopfield network (Heger & Quinn; cfq-ann-net.ts). docs/iosched/cfq-ann.md.
//
// The quantum is the queue's time slice (chosen: on a disk that takes one command at a
// time CFQ's request quantum never binds, and the time slice is the quantum of service a
// queue gets per turn). At each slice start of a sync queue, once the queue has completed
// `ann_min_samples` requests since its last evaluation:
//  - a quantum on trial is kept if the queue's average response time (Q→C) under it is
//    lower than under the previous quantum, otherwise the previous quantum comes back;
//    a kept change is stored in the network (Hebbian);
//  - the network proposes the next quantum: the queue's "response above the mean" neuron is
//    clamped to "below", its quantum neuron starts flipped (explore), and recall settles
//    it: up means a step larger, down a step smaller, within the limits;
//  - the slice that starts now runs with the queue's quantum.
// Everything else is CFQ as it is (cfq.ts).
import type { ElevatorContext, ElevatorType, TunableSpec } from './types';
import type { IoRequest } from '../request';
import { cfq } from './cfq';
import { CFQ_TUNABLES } from './cfq-tunables';
import { queueSlice } from './cfq-queue';
import type { CfqState } from './cfq-types';
import { msecsToJiffies } from './common';
import { ANN_QUEUES, createNet, learn, recall, type AnnNet } from './cfq-ann-net';

const MS = 1e6;

export const CFQ_ANN_OWN_TUNABLES: readonly TunableSpec[] = [
  {
    name: 'ann_min_quantum',
    default: 20,
    unit: 'ms',
    min: 1,
    max: 10000,
    doc: 'The smallest time slice the network may give a queue.',
  },
  {
    name: 'ann_max_quantum',
    default: 300,
    unit: 'ms',
    min: 1,
    max: 10000,
    doc: 'The largest time slice the network may give a queue.',
  },
  {
    name: 'ann_step_pct',
    default: 25,
    unit: 'count',
    min: 1,
    max: 400,
    doc: 'A proposal changes the quantum by this percentage (up: ×(1 + p), down: ÷(1 + p)).',
  },
  {
    name: 'ann_min_samples',
    default: 4,
    unit: 'requests',
    min: 1,
    max: 10000,
    doc: 'Completions a queue needs under a quantum before its average response time is judged.',
  },
];

export const CFQ_ANN_RULES = {
  'quantum-proposed': 'the network proposes a new quantum for the queue whose slice starts',
  'quantum-kept': 'the trial quantum lowered the queue’s average response time: keep it, learn it',
  'quantum-reverted': 'the trial quantum did not lower the average response time: previous back',
  'quantum-at-limit': 'the network’s proposal would leave the limits: the quantum stays',
} as const;
export type CfqAnnRule = keyof typeof CFQ_ANN_RULES;

/** What the network keeps per queue. */
interface AnnQueue {
  qid: number;
  pid: number;
  quantumMs: number;
  /** the quantum before the one on trial, ms; −1: no trial */
  prevMs: number;
  /** the average response time under prevMs (the trial's bar), ms */
  baselineMs: number;
  /** the last judged average response time, ms (−1: none yet) */
  avgMs: number;
  /** completions since the last evaluation: Σ response (ns), count */
  sumNs: number;
  n: number;
  /** last direction proposed: +1 up, −1 down */
  dir: number;
}

export interface CfqAnnState {
  cfq: CfqState;
  net: AnnNet;
  /** tracked queues, in the order first seen (at most ANN_QUEUES) */
  queues: AnnQueue[];
  minMs: number;
  maxMs: number;
  step: number;
  minSamples: number;
  proposals: number;
  kept: number;
  reverted: number;
}

function record(ctx: ElevatorContext, rule: CfqAnnRule, q: AnnQueue, text: string): void {
  if (!ctx.recording) return;
  ctx.decide(rule, -1, [], `cfq${q.pid}: ${text}`);
  ctx.message(`cfq${q.pid} ann ${text}`);
}

function tracked(s: CfqAnnState, qid: number, ctx: ElevatorContext): AnnQueue | null {
  let a = s.queues.find((x) => x.qid === qid);
  if (a) return a;
  const q = s.cfq.queues[qid];
  if (!q || !q.sync || s.queues.length >= ANN_QUEUES) return null;
  const defMs = (queueSlice(s.cfq, q) * 1000) / ctx.hz;
  a = {
    qid,
    pid: q.pid,
    // the queue starts at CFQ's slice for its priority, within the network's limits
    quantumMs: Math.min(s.maxMs, Math.max(s.minMs, defMs)),
    prevMs: -1,
    baselineMs: -1,
    avgMs: -1,
    sumNs: 0,
    n: 0,
    dir: 1,
  };
  s.queues.push(a);
  return a;
}

/** The network's state vector: [quantum neurons…, response neurons…] for the tracked queues. */
function pattern(s: CfqAnnState, ctx: ElevatorContext): number[] {
  const m = s.queues.length;
  const withAvg = s.queues.filter((a) => a.avgMs >= 0);
  const mean = withAvg.length ? withAvg.reduce((t, a) => t + a.avgMs, 0) / withAvg.length : 0;
  const x: number[] = [];
  for (const a of s.queues) {
    const q = s.cfq.queues[a.qid]!;
    x.push(a.quantumMs > (queueSlice(s.cfq, q) * 1000) / ctx.hz ? 1 : -1);
  }
  for (const a of s.queues) x.push(a.avgMs > mean ? 1 : -1);
  return x.length === 2 * m ? x : x.slice(0, 2 * m);
}

/** A slice of queue `a` starts: judge the trial, propose, and set the slice's length. */
function sliceStarts(s: CfqAnnState, a: AnnQueue, ctx: ElevatorContext): void {
  const q = s.cfq.queues[a.qid]!;
  if (a.n >= s.minSamples) {
    const avg = a.sumNs / a.n / MS;
    a.sumNs = 0;
    a.n = 0;
    a.avgMs = avg;
    if (a.prevMs >= 0) {
      if (avg < a.baselineMs) {
        s.kept++;
        const x = pattern(s, ctx);
        const i = s.queues.indexOf(a);
        x[i] = a.dir; // the direction taken, associated with a response below the mean
        x[s.queues.length + i] = -1;
        learn(s.net, x, x.length);
        record(
          ctx,
          'quantum-kept',
          a,
          `quantum ${a.quantumMs.toFixed(0)} ms: avg response ${avg.toFixed(1)} ms < ${a.baselineMs.toFixed(1)} ms under ${a.prevMs.toFixed(0)} ms — kept (pattern ${s.net.stored} stored)`,
        );
        a.baselineMs = avg;
      } else {
        s.reverted++;
        record(
          ctx,
          'quantum-reverted',
          a,
          `quantum ${a.quantumMs.toFixed(0)} ms: avg response ${avg.toFixed(1)} ms ≥ ${a.baselineMs.toFixed(1)} ms under ${a.prevMs.toFixed(0)} ms — back to ${a.prevMs.toFixed(0)} ms`,
        );
        a.quantumMs = a.prevMs;
      }
      a.prevMs = -1;
    } else {
      a.baselineMs = avg;
    }
    // propose: clamp "response above the mean" to no, start the quantum neuron flipped
    const x = pattern(s, ctx);
    const i = s.queues.indexOf(a);
    const m = s.queues.length;
    x[m + i] = -1;
    x[i] = -x[i]!;
    const opsBefore = s.net.ops;
    const sweeps = recall(s.net, x, x.length, new Set([m + i]));
    a.dir = x[i]!;
    const next = a.dir > 0 ? a.quantumMs * (1 + s.step) : a.quantumMs / (1 + s.step);
    s.proposals++;
    if (next < s.minMs || next > s.maxMs) {
      record(
        ctx,
        'quantum-at-limit',
        a,
        `network says ${a.dir > 0 ? 'larger' : 'smaller'}; ${next.toFixed(0)} ms is outside ${s.minMs}…${s.maxMs} ms: quantum stays ${a.quantumMs.toFixed(0)} ms`,
      );
    } else {
      record(
        ctx,
        'quantum-proposed',
        a,
        `avg response ${avg.toFixed(1)} ms under ${a.quantumMs.toFixed(0)} ms; network (${m} queues, ${sweeps} sweep(s), ${s.net.ops - opsBefore} multiply-adds) says ${a.dir > 0 ? 'larger' : 'smaller'}: try ${next.toFixed(0)} ms`,
      );
      a.prevMs = a.quantumMs;
      a.quantumMs = next;
    }
  }
  // the slice that starts now runs with the queue's quantum
  q.sliceEnd = q.sliceStart + Math.max(1, msecsToJiffies(a.quantumMs, ctx.hz));
}

export const cfqAnn: ElevatorType<CfqAnnState> = {
  name: 'cfq-ann',
  title: 'cfq-ann — Heger & Quinn: CFQ with per-queue quanta tuned by a Hopfield network',
  tunables: [...CFQ_TUNABLES, ...CFQ_ANN_OWN_TUNABLES],
  dispatchInsert: 'sort',
  init(t, ctx) {
    return {
      cfq: cfq.init(t, ctx),
      net: createNet(),
      queues: [],
      minMs: t.ann_min_quantum!,
      maxMs: Math.max(t.ann_min_quantum!, t.ann_max_quantum!),
      step: t.ann_step_pct! / 100,
      minSamples: t.ann_min_samples!,
      proposals: 0,
      kept: 0,
      reverted: 0,
    };
  },
  frontMergeCandidate: (s, bio, end, ctx) => cfq.frontMergeCandidate!(s.cfq, bio, end, ctx),
  allowMerge: (s, rq, bio, ctx) => cfq.allowMerge!(s.cfq, rq, bio, ctx),
  merged: (s, rq, front, ctx) => cfq.merged!(s.cfq, rq, front, ctx),
  requestsMerged: (s, a, b, ctx) => cfq.requestsMerged!(s.cfq, a, b, ctx),
  formerRequest: (s, rq, ctx) => cfq.formerRequest!(s.cfq, rq, ctx),
  latterRequest: (s, rq, ctx) => cfq.latterRequest!(s.cfq, rq, ctx),
  mayQueue: (s, bio, ctx) => cfq.mayQueue!(s.cfq, bio, ctx),
  setRequest: (s, rq, bio, ctx) => cfq.setRequest!(s.cfq, rq, bio, ctx),
  add: (s, rq, ctx) => cfq.add(s.cfq, rq, ctx),
  dispatch: (s, force, ctx) => cfq.dispatch(s.cfq, force, ctx),
  activate: (s, rq, ctx) => cfq.activate!(s.cfq, rq, ctx),
  deactivate: (s, rq, ctx) => cfq.deactivate!(s.cfq, rq, ctx),
  completed(s, rq: IoRequest, ctx) {
    const a = rq.sched >= 0 ? tracked(s, rq.sched, ctx) : null;
    if (a) {
      a.sumNs += ctx.now - rq.queuedNs;
      a.n++;
    }
    // the slice clock starts at the active queue's first completion of its slice (cfq-events)
    const active = s.cfq.activeQueue >= 0 ? s.cfq.queues[s.cfq.activeQueue]! : null;
    const wasNew = active !== null && active.sliceNew;
    cfq.completed(s.cfq, rq, ctx);
    if (active && wasNew && !active.sliceNew && s.cfq.activeQueue === active.id) {
      const t = tracked(s, active.id, ctx);
      if (t) sliceStarts(s, t, ctx);
    }
  },
  putRequest: (s, rq, ctx) => cfq.putRequest!(s.cfq, rq, ctx),
  timer: (s, ctx) => cfq.timer!(s.cfq, ctx),
  queued: (s) => cfq.queued(s.cfq),
  multiplyAdds: (s) => s.net.ops,
  inspect(s, ctx) {
    return {
      ...cfq.inspect(s.cfq, ctx),
      ann: {
        queues: s.queues.map((a) => ({
          pid: a.pid,
          quantumMs: a.quantumMs,
          trialFromMs: a.prevMs >= 0 ? a.prevMs : null,
          avgResponseMs: a.avgMs >= 0 ? a.avgMs : null,
        })),
        patternsStored: s.net.stored,
        multiplyAdds: s.net.ops,
        proposals: s.proposals,
        kept: s.kept,
        reverted: s.reverted,
      },
    };
  },
};
