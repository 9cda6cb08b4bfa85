// switcher: workload-dependent dynamic I/O scheduler selection (Bautista et al.): every
// sampling period it looks at the disk's statistics as /proc/diskstats gives them, finds the
// dominant operation (read or write), its average request size in the period, a 1-minute
// exponential moving average of that size (the kernel's load-average style), and the
// sequential ratio SR = average / peak average; SR ≥ the decision point (0.75) means a
// sequential workload → anticipatory, otherwise random → CFQ. A switch is the kernel's
// elevator switch (switcher-core.ts), with what it costs. docs/iosched/switcher.md.
import type { ElevatorContext, ElevatorType, TunableSpec } from './types';
import type { IoRequest } from '../request';
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

export const SWITCHER_TUNABLES: readonly TunableSpec[] = [
  {
    name: 'sample_period_ms',
    default: 15000,
    unit: 'ms',
    min: 10,
    max: 600000,
    doc: 'How often the disk statistics are sampled and the scheduler chosen (the paper: 15 s).',
  },
  {
    name: 'ema_window_ms',
    default: 60000,
    unit: 'ms',
    min: 10,
    max: 3600000,
    doc: 'The moving average’s time constant: each sample weighs 1 − e^(−period/window) (1 minute, as the load average).',
  },
  {
    name: 'decision_point',
    default: 75,
    unit: 'count',
    min: 1,
    max: 100,
    doc: 'SR at or above this percentage means sequential (anticipatory), below it random (CFQ).',
  },
  {
    name: 'initial_peak_kb',
    default: 128,
    unit: 'KiB',
    min: 1,
    max: 4096,
    doc: 'The peak average size before a larger average is seen (read_ahead_kb: a sequential reader’s request).',
  },
  {
    name: 'start_anticipatory',
    default: 0,
    unit: 'bool',
    min: 0,
    max: 1,
    doc: 'Start with anticipatory instead of CFQ (the default elevator since 2.6.18).',
  },
];

/** The closed list of the switcher's own decisions (the inner elevators add theirs). */
export const SWITCHER_RULES = {
  'sample-keep': 'a sample: the SR rule picks the elevator already running',
  'switch-to-anticipatory': 'a sample: SR ≥ decision point (sequential) — switch to anticipatory',
  'switch-to-cfq': 'a sample: SR < decision point (random) — switch to CFQ',
  'switch-drain-wait': 'elevator switch: requests still hold the old elevator’s data; sleep 10 ms',
  'switch-done': 'elevator switch: the old elevator is empty; the new one starts',
} as const;
export type SwitcherRule = keyof typeof SWITCHER_RULES;

const READ = 0;
const WRITE = 1;
const OPS = ['read', 'write'] as const;

export interface SwitcherState extends PeriodicCore {
  /** the EMA's weight of the old value per sample: e^(−period/window) */
  decay: number;
  decisionPoint: number;
  initialPeakKiB: number;
  /** this period's completed requests and sectors, by op (diskstats deltas) */
  ios: [number, number];
  sectors: [number, number];
  /** the EMA of the average request size, KiB, by op (−1: no sample yet) and its peak */
  ema: [number, number];
  peak: [number, number];
  samples: number;
  /** the last sample's figures, for inspection */
  last: { dominant: string; avgKiB: number; emaKiB: number; peakKiB: number; sr: number } | null;
}

function record(ctx: ElevatorContext, rule: SwitcherRule, text: string): void {
  if (ctx.recording) ctx.decide(rule, -1, [], text);
  if (ctx.recording) ctx.message(`switcher ${text}`);
}

/** One sampling period's end: the statistics, the SR rule, maybe a switch. */
function sample(s: SwitcherState, ctx: ElevatorContext): void {
  const total = s.ios[READ] + s.ios[WRITE];
  if (total === 0) {
    s.sampling = false; // nothing happened: sleep until the next request
    return;
  }
  s.samples++;
  for (const op of [READ, WRITE] as const) {
    if (s.ios[op] === 0) continue;
    const avg = s.sectors[op] / s.ios[op] / 2;
    s.ema[op] = s.ema[op] < 0 ? avg : s.ema[op] * s.decay + avg * (1 - s.decay);
    s.peak[op] = Math.max(s.peak[op], s.ema[op]);
  }
  const d = s.ios[WRITE] > s.ios[READ] ? WRITE : READ;
  const avgKiB = s.sectors[d] / s.ios[d] / 2;
  const sr = s.ema[d] / s.peak[d];
  const dominantIos = s.ios[d];
  s.last = { dominant: OPS[d], avgKiB, emaKiB: s.ema[d], peakKiB: s.peak[d], sr };
  s.ios = [0, 0];
  s.sectors = [0, 0];
  setOwnTimer(s, ctx.now + s.periodNs, ctx);
  const sequential = sr * 100 >= s.decisionPoint;
  const want = sequential ? 'anticipatory' : 'cfq';
  const why =
    `sample ${s.samples}: ${OPS[d]}s dominate (${dominantIos} of ${total}), ` +
    `avg ${avgKiB.toFixed(1)} KiB, EMA ${s.ema[d].toFixed(1)} KiB, peak ${s.peak[d].toFixed(1)} KiB, ` +
    `SR ${sr.toFixed(2)} ${sequential ? '≥' : '<'} ${(s.decisionPoint / 100).toFixed(2)} → ` +
    `${sequential ? 'sequential' : 'random'}: ${want}`;
  if (want === activeName(s)) {
    record(ctx, 'sample-keep', why);
    return;
  }
  record(ctx, sequential ? 'switch-to-anticipatory' : 'switch-to-cfq', why);
  switchTo(s, want, ctx, record);
}

const hooks = switchingHooks<SwitcherState>({
  observe(s, rq: IoRequest) {
    const op = rq.write ? WRITE : READ;
    s.ios[op]++;
    s.sectors[op] += rq.nSectors;
  },
  ...periodicHooks(sample, record),
});

export const switcher: ElevatorType<SwitcherState> = {
  name: 'switcher',
  title: 'switcher — Bautista et al.: anticipatory for sequential, CFQ for random, by sampling',
  tunables: SWITCHER_TUNABLES,
  dispatchInsert: 'sort', // both inner elevators sort into the dispatch queue
  init(t, ctx) {
    const core = createCore(t.start_anticipatory ? 'anticipatory' : 'cfq', ctx);
    const periodNs = t.sample_period_ms! * MS;
    return {
      ...core,
      periodNs,
      decay: Math.exp(-t.sample_period_ms! / t.ema_window_ms!),
      decisionPoint: t.decision_point!,
      initialPeakKiB: t.initial_peak_kb!,
      ios: [0, 0],
      sectors: [0, 0],
      ema: [-1, -1],
      peak: [t.initial_peak_kb!, t.initial_peak_kb!],
      samples: 0,
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
      samples: s.samples,
      last: s.last,
      emaKiB: { read: s.ema[READ], write: s.ema[WRITE] },
      peakKiB: { read: s.peak[READ], write: s.peak[WRITE] },
      switches: s.switches,
      switchMs: s.switchNs / MS,
      drained: s.drained,
      bypassed: s.bypassed,
      inner: inspectInner(s, ctx),
    };
  },
};
