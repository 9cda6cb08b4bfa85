// A generator's environment for unit tests: one thread alone on a 2,000,000-sector span.
import type { GenEnv } from '../../src/engine/workload/generators/types';

export const ONE_THREAD_ENV: GenEnv = {
  spanStart: 0,
  spanSectors: 2_000_000,
  k: 0,
  count: 1,
  regionStart: 0,
  regionSectors: 2_000_000,
};
