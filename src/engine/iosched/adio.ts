// adio: ADIO/DASS (Seelam et al., as Bautista et al. describe it): CFQ by default; at the
// end of each adaptation period, if at least two processes had a request miss its latency
// bound, switch to deadline; on deadline, once the largest latency of a period is below
// half the bound, switch back to CFQ. Latency is a request's Q→C time. Switches are the
// kernel's elevator switch (switcher-core.ts). docs/iosched/adio.md.
import type { ElevatorContext, ElevatorType, TunableSpec } from './types';
import {
  activeName,
  createCore,
  inspectInner,
  setOwnTimer,
  switchingHooks,
  switchView,
} from './switcher-core';
import { periodicHooks, switchTo, type PeriodicCore } from './switcher-periodic';

const MS = 1e6;

export const ADIO_TUNABLES: readonly TunableSpec[] = [
  {
    name: 'adapt_period_ms',
    default: 1000,
    unit: 'ms',
    min: 10,
    max: 600000,
    doc: 'The adaptation period: latencies are gathered over it and the scheduler chosen at its end.',
  },
  {
    name: 'latency_bound_ms',
    default: 200,
    unit: 'ms',
    min: 1,
    max: 60000,
    doc: 'Every process’s latency bound: a request slower than this (Q to C) misses it.',
  },
  {
    name: 'min_missers',
    default: 2,
    unit: 'count',
    min: 1,
    max: 1024,
    doc: 'Processes that must miss their bound in one period for CFQ to give way to deadline.',
  },
  {
    name: 'back_pct',
    default: 50,
    unit: 'count',
    min: 1,
    max: 100,
    doc: 'Back to CFQ when a period’s largest latency is below this percentage of the bound.',
  },
];

/** The closed list of adio's own decisions (the inner elevators add theirs). */
export const ADIO_RULES = {
  'adapt-keep': 'a period ends: the rule keeps the elevator already running',
  'switch-to-deadline': 'on CFQ, at least min_missers processes missed their latency bound',
  'switch-to-cfq': 'on deadline, the largest latency of the period was below back_pct of the bound',
  'switch-drain-wait': 'elevator switch: requests still hold the old elevator’s data; sleep 10 ms',
  'switch-done': 'elevator switch: the old elevator is empty; the new one starts',
} as const;
export type AdioRule = keyof typeof ADIO_RULES;

export interface AdioState extends PeriodicCore {
  boundNs: number;
  minMissers: number;
  backPct: number;
  /** this period: pids that missed the bound, completed requests, the largest latency (ns) */
  missed: Record<number, true>;
  completed: number;
  maxLatNs: number;
  periods: number;
  last: { missers: number[]; maxLatencyMs: number; completed: number } | null;
}

function record(ctx: ElevatorContext, rule: AdioRule, text: string): void {
  if (!ctx.recording) return;
  ctx.decide(rule, -1, [], text);
  ctx.message(`adio ${text}`);
}

function adapt(s: AdioState, ctx: ElevatorContext): void {
  if (s.completed === 0) {
    s.sampling = false;
    return;
  }
  s.periods++;
  const missers = Object.keys(s.missed).map(Number);
  const maxMs = s.maxLatNs / MS;
  s.last = { missers, maxLatencyMs: maxMs, completed: s.completed };
  s.missed = {};
  s.completed = 0;
  s.maxLatNs = 0;
  setOwnTimer(s, ctx.now + s.periodNs, ctx);
  const boundMs = s.boundNs / MS;
  const facts =
    `period ${s.periods}: ${missers.length} process(es) missed ${boundMs} ms` +
    (missers.length ? ` (pid ${missers.join(', ')})` : '') +
    `, max latency ${maxMs.toFixed(1)} ms`;
  const on = activeName(s);
  let want = on;
  if (on === 'cfq' && missers.length >= s.minMissers) want = 'deadline';
  if (on === 'deadline' && maxMs < (boundMs * s.backPct) / 100) want = 'cfq';
  if (want === on) {
    record(ctx, 'adapt-keep', `${facts} → stay on ${on}`);
    return;
  }
  record(
    ctx,
    want === 'deadline' ? 'switch-to-deadline' : 'switch-to-cfq',
    want === 'deadline'
      ? `${facts} ≥ ${s.minMissers} missers → deadline`
      : `${facts} < ${s.backPct}% of the bound → cfq`,
  );
  switchTo(s, want, ctx, record);
}

const hooks = switchingHooks<AdioState>({
  observe(s, rq, ctx) {
    const lat = ctx.now - rq.queuedNs;
    s.completed++;
    if (lat > s.maxLatNs) s.maxLatNs = lat;
    if (lat > s.boundNs) s.missed[rq.pid] = true;
  },
  ...periodicHooks(adapt, record),
});

export const adio: ElevatorType<AdioState> = {
  name: 'adio',
  title:
    'adio — ADIO/DASS (Seelam et al.): CFQ, or deadline while processes miss their latency bound',
  tunables: ADIO_TUNABLES,
  // CFQ sorts into the dispatch queue, deadline appends; the dispatch queue holds at most the
  // requests of a switch's drain, so one policy serves both (sort: the kernel's default)
  dispatchInsert: 'sort',
  init(t, ctx) {
    return {
      ...createCore('cfq', ctx),
      periodNs: t.adapt_period_ms! * MS,
      boundNs: t.latency_bound_ms! * MS,
      minMissers: t.min_missers!,
      backPct: t.back_pct!,
      missed: {},
      completed: 0,
      maxLatNs: 0,
      periods: 0,
      last: null,
      sampling: false,
    };
  },
  ...hooks,
  dispatch: hooks.dispatch!,
  add: hooks.add!,
  completed: hooks.completed!,
  queued: hooks.queued!,
  inspect(s, ctx) {
    return {
      ...switchView(s, ctx),
      periods: s.periods,
      last: s.last,
      period: {
        missers: Object.keys(s.missed).map(Number),
        completed: s.completed,
        maxLatencyMs: s.maxLatNs / MS,
      },
      switches: s.switches,
      switchMs: s.switchNs / MS,
      inner: inspectInner(s, ctx),
    };
  },
};
