// The processes of a scenario's workload: their schema, their defaults (PROCESS_DEFAULTS),
// and the checks that involve several fields or the disk's size (spans and fixed requests
// must lie on the disk). See load.ts for the whole list of defaults.
import * as z from 'zod/mini';
import type { ProcessSpec } from './types';
import { checkFixed, fixedRequest, kib } from './fixed-requests';
import {
  bool,
  intIn,
  list,
  matching,
  numIn,
  object,
  oneOf,
  optionalKeys,
  problem,
  type Path,
  type Problem,
} from './checks';
import { generatorSchema, resolveGenerator } from './generator-schema';
import { generatorThreads } from '../workload/generators/index';

/** What a process key left out means (rateIops has none: open mode must give it). */
export const PROCESS_DEFAULTS = {
  count: 1,
  mode: 'closed',
  outstanding: 1,
  thinkTimeMs: 0,
  arrival: 'poisson',
  op: 'read',
  readFraction: 0.5,
  sync: null,
  pattern: 'random',
  sizeKiB: 4,
  span: null,
  ioprio: null,
  requests: null,
} as const;

const PROC_NAME_PHRASE = 'must be a name of 1 to 32 letters, digits, "_", ".", "+" or "-"';

/** The schema of the processes `inputs` (the raw list's elements): their optional keys'
 * schemas built where one of them gives the key (checks.ts, optionalKeys). */
export function processSchema(inputs: readonly unknown[]) {
  return object(
    {
      name: matching(/^[A-Za-z0-9_.+-]{1,32}$/, PROC_NAME_PHRASE),
      ...optionalKeys(inputs, {
        count: () => intIn(1, 1024),
        mode: () => oneOf(['closed', 'open']),
        outstanding: () => intIn(1, 1024),
        thinkTimeMs: () => numIn(0, 1e9, 'must be a time in ms from 0'),
        rateIops: () =>
          numIn(0.001, 1e7, 'must be an arrival rate from 0.001 to 10000000 requests per second'),
        arrival: () => oneOf(['poisson', 'fixed']),
        op: () => oneOf(['read', 'write', 'mix']),
        readFraction: () => numIn(0, 1, 'must be a fraction from 0 to 1'),
        sync: () => z.nullable(bool('must be true, false or null')),
        pattern: () => oneOf(['random', 'sequential']),
        sizeKiB: () =>
          z.union([kib(), object({ min: kib(), max: kib() }, 'an object {"min", "max"}')], {
            error: `must be a size in KiB (a number) or {"min", "max"}`,
          }),
        span: () =>
          z.nullable(
            object(
              {
                startSector: intIn(0, 1e12, 'must be a sector number (an integer from 0)'),
                sectors: intIn(1, 1e12, 'must be a number of sectors (an integer from 1)'),
              },
              'null or an object {"startSector", "sectors"}',
            ),
          ),
        ioprio: () =>
          z.nullable(
            object(
              { class: oneOf(['rt', 'be', 'idle']), level: intIn(0, 7) },
              'null or an object {"class", "level"}',
            ),
          ),
        requests: () =>
          z.nullable(
            list(
              fixedRequest(),
              'must be null or a list of requests',
              'must be null or a non-empty list of requests',
            ),
          ),
        /** a named workload generator (workload/generators): fio, ffsb, postmark, kbuild, tpcb */
        generator: () => z.nullable(generatorSchema()),
        /** range writes (ARCHITECTURE.md, DISK-MODEL.md §5): where each write may land */
        range: () =>
          z.nullable(
            object(
              {
                sizeSectors: intIn(1, 1e12, 'must be a range size in sectors (an integer from 1)'),
                targets: z.optional(
                  intIn(1, 4096, 'must be a number of ranges per write from 1 to 4096'),
                ),
                alignSectors: z.optional(
                  intIn(1, 1e6, 'must be an alignment in sectors (an integer from 1)'),
                ),
                barrierEvery: z.optional(
                  intIn(0, 1e9, 'must be 0 (never) or a whole number of writes'),
                ),
              },
              'null or an object {"sizeSectors", "targets", "alignSectors", "barrierEvery"}',
            ),
          ),
      }),
    },
    'an object (a process)',
  );
}

type RawProcess = z.infer<ReturnType<typeof processSchema>>;

/** Keys that mean nothing for a process replaying a fixed request list. */
const PATTERN_ONLY = [
  'mode',
  'outstanding',
  'thinkTimeMs',
  'rateIops',
  'arrival',
  'op',
  'readFraction',
  'pattern',
  'sizeKiB',
  'span',
] as const;

/**
 * Apply defaults and check what the schema cannot: keys that only apply in some modes,
 * sizes and spans against each other and against the disk (`totalLbns` sectors; 0 when
 * the disk itself is invalid, which skips those checks).
 */
export function checkProcesses(
  raw: readonly RawProcess[],
  totalLbns: number,
  diskName: string,
  problems: Problem[],
): ProcessSpec[] | null {
  const before = problems.length;
  const instanceNames = new Map<string, number>();
  const out = raw.map((r, i) => {
    const at = (...keys: Array<string | number>): Path => ['workload', 'processes', i, ...keys];
    const { range: _range, requests: _requests, generator: _generator, ...given } = r;
    // rateIops 0 stands for "not open-loop"; open mode must give its own (checked below).
    const p: ProcessSpec = {
      ...PROCESS_DEFAULTS,
      rateIops: 0,
      ...withoutUndefined(given),
      name: r.name,
      requests: null,
    };

    // A generator brings its own thread count (FFSB's 8, fio's numjobs) unless count is given.
    const generator = r.generator ? resolveGenerator(r.generator) : null;
    const count = r.count ?? (generator ? generatorThreads(generator) : PROCESS_DEFAULTS.count);
    p.count = count;
    if (generator) p.generator = generator; // absent otherwise, as the other optional keys
    // Names must stay apart after instances are numbered ("reader" ×2 → reader-0, reader-1).
    for (let k = 0; k < count; k++) {
      const inst = count > 1 ? `${r.name}-${k}` : r.name;
      const other = instanceNames.get(inst);
      if (other !== undefined) {
        problems.push(
          problem(
            at('name'),
            `gives an instance the name "${inst}", which workload.processes.${other} also uses`,
          ),
        );
        break;
      }
      instanceNames.set(inst, i);
    }

    if (r.range) {
      p.range = {
        sizeSectors: r.range.sizeSectors,
        targets: r.range.targets ?? RANGE_DEFAULTS.targets,
        alignSectors: r.range.alignSectors ?? RANGE_DEFAULTS.alignSectors,
        barrierEvery: r.range.barrierEvery ?? RANGE_DEFAULTS.barrierEvery,
      };
      checkRange(r, p, totalLbns, at, problems);
    }

    if (generator) {
      for (const key of [
        ...PATTERN_ONLY.filter((k) => k !== 'span'),
        'requests',
        'range',
      ] as const) {
        if (r[key] !== undefined && r[key] !== null)
          problems.push(problem(at(key), 'does not apply to a process with a "generator"'));
      }
      if (totalLbns > 0 && p.span && p.span.startSector + p.span.sectors > totalLbns)
        problems.push(
          problem(
            at('span'),
            `ends at sector ${p.span.startSector + p.span.sectors - 1}, past the disk's end (${diskName} has ${totalLbns} sectors: 0 to ${totalLbns - 1})`,
          ),
        );
      return p;
    }

    if (r.requests) {
      for (const key of PATTERN_ONLY) {
        if (r[key] !== undefined)
          problems.push(
            problem(at(key), 'does not apply to a process with a fixed "requests" list'),
          );
      }
      p.requests = checkFixed(r.requests, totalLbns, diskName, at, problems);
      return p;
    }

    if (r.readFraction !== undefined && p.op !== 'mix') {
      problems.push(problem(at('readFraction'), `only applies to op "mix" (op is "${p.op}")`));
    }
    const modeOnly: Array<[keyof RawProcess, 'open' | 'closed']> = [
      ['rateIops', 'open'],
      ['arrival', 'open'],
      ['outstanding', 'closed'],
      ['thinkTimeMs', 'closed'],
    ];
    for (const [key, mode] of modeOnly) {
      if (r[key] !== undefined && p.mode !== mode)
        problems.push(problem(at(key), `only applies to mode "${mode}" (mode is "${p.mode}")`));
    }
    if (p.mode === 'open' && r.rateIops === undefined) {
      problems.push(
        problem(
          at('rateIops'),
          'missing (mode "open" needs an arrival rate in requests per second)',
        ),
      );
    }

    const size = p.sizeKiB;
    const maxKiB = typeof size === 'number' ? size : size.max;
    if (typeof size !== 'number' && size.min > size.max) {
      problems.push(
        problem(at('sizeKiB', 'max'), `must be at least min ${size.min} (got ${size.max})`),
      );
    }
    if (totalLbns > 0) {
      const span = p.span ?? { startSector: 0, sectors: totalLbns };
      const end = span.startSector + span.sectors;
      if (p.span && end > totalLbns) {
        problems.push(
          problem(
            at('span'),
            `ends at sector ${end - 1}, past the disk's end (${diskName} has ${totalLbns} sectors: 0 to ${totalLbns - 1})`,
          ),
        );
      } else if (maxKiB * 2 > span.sectors) {
        problems.push(
          problem(
            at('sizeKiB'),
            `${maxKiB} KiB (${maxKiB * 2} sectors) does not fit in ${p.span ? 'the span' : 'the disk'} of ${span.sectors} sectors`,
          ),
        );
      }
    }
    return p;
  });
  return problems.length > before ? null : out;
}

/** A range write's defaults: one range, 4 KiB blocks, a barrier before every write (the
 * file system has learnt every completed write's address: a steady state). */
export const RANGE_DEFAULTS = { targets: 1, alignSectors: 8, barrierEvery: 1 } as const;

function checkRange(
  r: RawProcess,
  p: ProcessSpec,
  totalLbns: number,
  at: (...keys: Array<string | number>) => Path,
  problems: Problem[],
): void {
  const rg = p.range!;
  if (r.requests) {
    problems.push(problem(at('range'), 'does not apply to a process with a fixed "requests" list'));
    return;
  }
  if (p.op === 'read')
    problems.push(problem(at('range'), 'applies to writes: op must be "write" or "mix"'));
  if (p.pattern !== 'random')
    problems.push(
      problem(at('range'), 'applies to pattern "random" (the ranges are drawn at random)'),
    );
  const size = p.sizeKiB;
  const maxSectors = (typeof size === 'number' ? size : size.max) * 2;
  if (rg.sizeSectors < maxSectors)
    problems.push(
      problem(
        at('range', 'sizeSectors'),
        `must hold the largest write, ${maxSectors} sectors (got ${rg.sizeSectors})`,
      ),
    );
  const spanSectors = p.span?.sectors ?? totalLbns;
  if (totalLbns > 0 && rg.sizeSectors > spanSectors)
    problems.push(
      problem(
        at('range', 'sizeSectors'),
        `must fit in ${p.span ? 'the span' : 'the disk'} of ${spanSectors} sectors (got ${rg.sizeSectors})`,
      ),
    );
  if (rg.alignSectors > rg.sizeSectors)
    problems.push(
      problem(at('range', 'alignSectors'), `must be at most sizeSectors ${rg.sizeSectors}`),
    );
}

function withoutUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
