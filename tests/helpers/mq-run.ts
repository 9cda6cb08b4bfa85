// Runs for the kernel 6.18 block-layer tests (plug-task, tags-mq): fixed requests, one
// process per list, on 6.18 unless told, at queue depth 1 unless told; and the actions
// as blkparse prints them.
import type { TraceEvent } from '../../src/engine/events';
import { loadScenario } from '../../src/engine/scenario/load';
import type { FixedRequest, Scenario } from '../../src/engine/scenario/types';
import { proc, scenario } from './scenario';
import { tracedRun, type TracedRun } from './traced-run';

export interface BlockRun {
  kernel?: '2.6.32' | '6.18';
  queue?: Record<string, number>;
  tunables?: Record<string, number>;
  queueDepth?: number;
  /** every process's sync flag (null: reads sync, writes async) */
  sync?: boolean;
  /** the disk preset (the helper's default: hp-c2247a) */
  preset?: string;
}

/** Processes p0, p1, … each issuing one list of fixed requests. */
export function runProcs(iosched: string, procs: FixedRequest[][], o: BlockRun = {}): TracedRun {
  return tracedRun(
    scenario({
      iosched,
      kernel: o.kernel ?? '6.18',
      queue: o.queue ?? {},
      tunables: o.tunables ?? {},
      queueDepth: o.queueDepth ?? 1,
      ...(o.preset ? { preset: o.preset } : {}),
      processes: procs.map((requests, k) =>
        proc({ name: procs.length === 1 ? 'p' : `p${k}`, requests, sync: o.sync ?? null }),
      ),
    }),
  );
}

/** the actions as blkparse prints them, `U`/`UT` with their count */
export const actions = (trace: TraceEvent[]) =>
  trace.map((e) =>
    e.action === 'U' || e.action === 'T' ? `${e.action === 'T' ? 'UT' : 'U'}${e.count}` : e.action,
  );

/** What the scenario loader makes of a scenario file's `iosched` section. */
export const loadedIosched = (iosched: Record<string, unknown>): Scenario['iosched'] =>
  loadScenario(
    { name: 'k', iosched, workload: { processes: [{ name: 'p' }] }, stop: { requests: 10 } },
    'k.json',
  ).iosched;
