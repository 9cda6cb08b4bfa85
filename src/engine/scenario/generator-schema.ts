// The `generator` key of a scenario process: shapes and ranges (zod), and the defaults
// applied (index.ts GENERATOR_DEFAULTS). Unknown keys are errors, as everywhere in a scenario.
import * as z from 'zod/mini';
import { bool, intIn, numIn, object, oneOf, positive } from './checks';
import {
  FFSB_PROFILES,
  FIO_JOBS,
  FS_NAMES,
  GENERATOR_DEFAULTS,
  POSTMARK_CONFIGS,
  type GeneratorSpec,
} from '../workload/generators/index';

let schema: ReturnType<typeof buildGeneratorSchema> | undefined;
/** Built when a scenario first gives a generator (checks.ts, optionalKeys), then kept. */
export const generatorSchema = () => (schema ??= buildGeneratorSchema());

function buildGeneratorSchema() {
  const common = {
    startMs: z.optional(numIn(0, 1e12, 'must be a time in ms from 0')),
    durationMs: z.optional(
      z.nullable(positive(1e12, 'must be null or a duration in ms greater than 0')),
    ),
  };
  return z.discriminatedUnion(
    'kind',
    [
      object(
        {
          kind: z.literal('fio'),
          job: oneOf(FIO_JOBS),
          fileMiB: z.optional(
            z.nullable(positive(1e7, 'must be null or a file size in MiB greater than 0')),
          ),
          iodepth: z.optional(intIn(1, 256)),
          ...common,
        },
        'an object {"kind": "fio", "job", optionally "fileMiB", "iodepth", "startMs", "durationMs"}',
      ),
      object(
        {
          kind: z.literal('ffsb'),
          profile: oneOf(FFSB_PROFILES),
          scale: z.optional(positive(100)),
          ...common,
        },
        'an object {"kind": "ffsb", "profile", optionally "scale", "startMs", "durationMs"}',
      ),
      object(
        {
          kind: z.literal('postmark'),
          config: oneOf(POSTMARK_CONFIGS),
          fs: z.optional(oneOf(FS_NAMES)),
          scale: z.optional(positive(100)),
          ...common,
        },
        'an object {"kind": "postmark", "config", optionally "fs", "scale", "startMs", "durationMs"}',
      ),
      object(
        {
          kind: z.literal('kbuild'),
          builds: z.union([z.literal(2), z.literal(4)], { error: 'must be 2 or 4' }),
          interarrivalMs: z.optional(
            z.nullable(positive(1e6, 'must be null or a time in ms greater than 0')),
          ),
          ...common,
        },
        'an object {"kind": "kbuild", "builds", optionally "interarrivalMs", "startMs", "durationMs"}',
      ),
      object(
        {
          kind: z.literal('tpcb'),
          thinkMs: z.optional(numIn(0, 1e9, 'must be a time in ms from 0')),
          ...common,
        },
        'an object {"kind": "tpcb", optionally "thinkMs", "startMs", "durationMs"}',
      ),
      object(
        {
          kind: z.literal('smallfiles'),
          pids: z.optional(intIn(1, 1e9, 'must be a number of creating processes from 1')),
          fullness: z.optional(
            numIn(0, 0.99, 'must be a share of the group in use from 0 to 0.99'),
          ),
          rangeWrites: z.optional(bool()),
          inFlight: z.optional(
            intIn(1, 1024, 'must be a number of writes in flight from 1 to 1024'),
          ),
          ...common,
        },
        'an object {"kind": "smallfiles", optionally "pids", "fullness", "rangeWrites", "inFlight", "startMs", "durationMs"}',
      ),
    ],
    {
      error:
        'must be an object with "kind": one of "fio", "ffsb", "postmark", "kbuild", "tpcb", "smallfiles"',
    },
  );
}

export type RawGenerator = z.infer<ReturnType<typeof generatorSchema>>;

/** The spec with every default filled in. */
export function resolveGenerator(raw: RawGenerator): GeneratorSpec {
  const given = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined));
  return {
    ...GENERATOR_DEFAULTS.common,
    ...GENERATOR_DEFAULTS[raw.kind],
    ...given,
  } as GeneratorSpec;
}
