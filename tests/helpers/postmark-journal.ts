// Postmark SS on the lesson's disk with a page cache, for the journal tests (jbd:
// tests/workload/journal.test.ts; ReiserFS: tests/workload/reiserfs-journal.test.ts), and a
// simulation of it that records its queued bios and completed requests.
import { loadScenario } from '../../src/engine/scenario/load';
import { buildModel } from '../../src/engine/model';
import { createSimulation } from '../../src/engine/simulation';
import type { TraceEvent, TraceSink } from '../../src/engine/events';

export interface PostmarkOpts {
  /** the file system (default the test's) */
  fs?: string;
  /** Postmark's configuration (default SS) */
  config?: string;
  /** the page cache's settings; null: none */
  pageCache?: object | null;
  stopMs?: number;
  startMs?: number;
  sectors?: number;
}

/** Postmark SS (or `opts.config`) on `fs` (or `opts.fs`), the lesson's disk, deadline; `pageCache` null: none */
export function postmarkScenario(fs: string, opts: PostmarkOpts) {
  return loadScenario(
    {
      name: fs,
      disk: { preset: 'cheetah-15k4-146g', queueDepth: 4, scheduler: 'sptf' },
      iosched: { name: 'deadline' },
      workload: {
        ...(opts.pageCache === null ? {} : { pageCache: opts.pageCache ?? {} }),
        processes: [
          {
            name: 'postmark',
            generator: {
              kind: 'postmark',
              config: opts.config ?? 'SS',
              fs: opts.fs ?? fs,
              ...(opts.startMs === undefined ? {} : { startMs: opts.startMs }),
            },
            span: { startSector: 0, sectors: opts.sectors ?? 16777216 },
          },
        ],
      },
      stop: { timeMs: opts.stopMs ?? 12000 },
    },
    `${fs}.json`,
  );
}

/** a simulation of the scenario with its queued bios (q) and completed requests (c) */
export function traced(s: ReturnType<typeof postmarkScenario>) {
  const q: TraceEvent[] = [];
  const c: TraceEvent[] = [];
  const sink: TraceSink = {
    trace: (e) => {
      if (e.action === 'Q') q.push({ ...e });
      if (e.action === 'C') c.push({ ...e });
    },
    service: () => {},
    decision: () => {},
  };
  return { sim: createSimulation(buildModel(s), sink), q, c };
}
