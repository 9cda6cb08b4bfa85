// The zod schema of a scenario file's shapes, types and ranges (load.ts's first pass), built
// for the file at hand: an optional key's schema only where the file gives the key
// (checks.ts optionalKeys), so that what it reports is what the whole grammar's would.
import * as z from 'zod/mini';
import { DISK_SCHEDULERS } from '../disk/disk-scheduler';
import { MAX_QUEUE_DEPTH } from '../disk/params';
import { RANGE_SCHEDULERS } from '../disk/range';
import { HZ_VALUES, KERNELS } from '../iosched/queue-settings';
import {
  elementsOf,
  inputsAt,
  intIn,
  list,
  matching,
  numIn,
  object,
  oneOf,
  optionalKeys,
  positive,
  text,
} from './checks';
import { processSchema } from './process';
import { MAX_RUN_REQUESTS } from './run-bounds';

const MAX_SEED = 4294967295;
const NAME_PHRASE = 'must be a name of 1 to 64 letters, digits, "_", "." or "-"';

/** The schema for `json`: its optional keys' schemas built where it gives them. */
export function scenarioSchema(json: unknown) {
  const top = [json];
  const iosched = inputsAt(json, 'iosched');
  const workload = inputsAt(json, 'workload');
  const processes = workload.flatMap((w) => inputsAt(w, 'processes').flatMap(elementsOf));
  const numbers = () =>
    z.record(z.string(), z.number({ error: 'must be a number' }), {
      error: 'must be an object of numbers',
    });
  return object({
    name: matching(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, NAME_PHRASE),
    ...optionalKeys(top, {
      title: () => text(),
      lesson: () => text(),
      seed: () => intIn(0, MAX_SEED),
      disk: () =>
        z.catchall(
          z.object(
            optionalKeys(inputsAt(json, 'disk'), {
              preset: () => text(),
              queueDepth: () => intIn(1, MAX_QUEUE_DEPTH),
              scheduler: () => oneOf(DISK_SCHEDULERS),
              cache: () => z.nullable(oneOf(['write-through', 'write-back'])),
              agingWeight: () => numIn(0, 1e6),
              rangeScheduler: () => oneOf(RANGE_SCHEDULERS),
              ecsTargets: () =>
                intIn(
                  0,
                  4096,
                  'must be a whole number of targets per track from 0 (every start) to 4096',
                ),
            }),
            { error: 'must be an object' },
          ),
          z.unknown(),
        ),
      iosched: () =>
        object(
          optionalKeys(iosched, {
            name: () => text(),
            tunables: numbers,
            queue: numbers,
            // `--set iosched.kernel=6.18` reads 6.18 as a number: the era's name is meant
            // (zod's preprocess: the same pipe, from a transform)
            kernel: () =>
              z.pipe(
                z.transform((v: unknown) => (typeof v === 'number' ? String(v) : v)),
                oneOf(KERNELS),
              ),
            hz: () =>
              z.union(
                HZ_VALUES.map((v) => z.literal(v)) as [
                  z.ZodMiniLiteral<100>,
                  z.ZodMiniLiteral<250>,
                  z.ZodMiniLiteral<1000>,
                ],
                { error: `must be one of ${HZ_VALUES.join(', ')}` },
              ),
          }),
        ),
    }),
    workload: object({
      processes: list(
        processSchema(processes),
        'must be a list of processes',
        'must be a non-empty list of processes',
      ),
      ...optionalKeys(workload, {
        // the vm sysctls by their names (page-cache.ts); {} is 2.6.32's defaults
        pageCache: () =>
          z.nullable(
            z.partial(
              object({
                memoryMiB: intIn(1, 1048576, 'must be a whole number of MiB from 1 to 1048576'),
                dirty_ratio: intIn(1, 100, 'must be a percentage from 1 to 100'),
                dirty_background_ratio: intIn(1, 100, 'must be a percentage from 1 to 100'),
                dirty_expire_centisecs: intIn(1, 8640000, 'must be centiseconds from 1 to 8640000'),
                dirty_writeback_centisecs: intIn(
                  1,
                  8640000,
                  'must be centiseconds from 1 to 8640000',
                ),
              }),
            ),
          ),
      }),
    }),
    ...optionalKeys(top, {
      stop: () =>
        object(
          optionalKeys(inputsAt(json, 'stop'), {
            requests: () =>
              intIn(
                1,
                MAX_RUN_REQUESTS,
                `must be a whole number of completed requests from 1 to ${MAX_RUN_REQUESTS} (a run's bound)`,
              ),
            timeMs: () => positive(1e12, 'must be a simulated time in ms greater than 0'),
          }),
        ),
      // A viewing hint for the page (where its animation starts); the run ignores it.
      play: () =>
        object({
          fromMs: numIn(0, 1e12, 'must be a simulated time in ms from 0 to 1000000000000'),
        }),
    }),
  });
}

export type RawScenario = z.infer<ReturnType<typeof scenarioSchema>>;
