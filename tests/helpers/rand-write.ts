// fio's rand-write (4 KiB buffered writes at random in each thread's file) with a page cache,
// on a 64 GiB span of a SATA disk at queue depth 1: the page-cache and balance_dirty_pages
// tests' workload.
import { loadScenario } from '../../src/engine/scenario/load';
import type { Scenario } from '../../src/engine/scenario/types';

export function randWriteScenario(
  pageCache: object,
  opts: { extra?: object; stopMs?: number; iosched?: object; threads?: number } = {},
): Scenario {
  return loadScenario(
    {
      name: 'pc',
      disk: { preset: 'sata-7200-500g', queueDepth: 1 },
      iosched: opts.iosched ?? { name: 'deadline' },
      workload: {
        pageCache,
        processes: [
          {
            name: 'w',
            ...(opts.threads === undefined ? {} : { count: opts.threads }),
            generator: { kind: 'fio', job: 'rand-write', ...opts.extra },
            span: { startSector: 0, sectors: 64 * 2 ** 21 },
          },
        ],
      },
      stop: { timeMs: opts.stopMs ?? 3000 },
    },
    'pc.json',
  );
}
