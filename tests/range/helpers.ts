// Range-write test helpers: scenarios built through the loader, runs that collect events.
import { loadScenario } from '../../src/engine/scenario/load';
import { runScenario, type RunResult } from '../../src/engine/run';
import type { DecisionRecord, TraceEvent } from '../../src/engine/events';
import { getPreset } from '../../src/engine/disk/presets';
import { compileDisk } from '../../src/engine/disk/compile';

export const C2247A = compileDisk(getPreset('hp-c2247a')!);

export interface Collected {
  result: RunResult;
  events: TraceEvent[];
  decisions: DecisionRecord[];
}

/** Load a scenario from a raw object (fails the test on a problem) and run it with a sink. */
export function runCollect(json: Record<string, unknown>): Collected {
  const events: TraceEvent[] = [];
  const decisions: DecisionRecord[] = [];
  const result = runScenario(loadScenario(json, 'range-test.json'), {
    sink: {
      trace: (e) => void events.push(e),
      service: () => {},
      decision: (d) => void decisions.push(d),
    },
  });
  return { result, events, decisions };
}

/** One writer of 4 KiB range writes in `span`, in-disk SPTF at `queueDepth`. */
export function rangeScenario(o: {
  span: { startSector: number; sectors: number };
  range: Record<string, number>;
  queueDepth?: number;
  requests?: number;
  rangeScheduler?: string;
  ecsTargets?: number;
  scheduler?: string;
  seed?: number;
  sizeKiB?: number;
}): Record<string, unknown> {
  const qd = o.queueDepth ?? 1;
  return {
    name: 'range-test',
    seed: o.seed ?? 1,
    disk: {
      queueDepth: qd,
      scheduler: o.scheduler ?? 'sptf',
      ...(o.rangeScheduler ? { rangeScheduler: o.rangeScheduler } : {}),
      ...(o.ecsTargets !== undefined ? { ecsTargets: o.ecsTargets } : {}),
    },
    workload: {
      processes: [
        {
          name: 'fs',
          op: 'write',
          outstanding: qd,
          sizeKiB: o.sizeKiB ?? 4,
          span: o.span,
          range: o.range,
        },
      ],
    },
    stop: { requests: o.requests ?? 200 },
  };
}

export const completions = (events: readonly TraceEvent[]): TraceEvent[] =>
  events.filter((e) => e.action === 'C');
