// Disk-parameter overrides in a scenario: any DiskParams key written beside
// `disk.preset` (e.g. `"rpm": 7200`, `"overheads": {"readMissMs": 0.4}`) replaces the
// preset's value. Each key must exist in DiskParams, and the preset with the overrides
// applied must still describe a drive: right types, finite numbers in sane ranges,
// zones that tile the cylinders. Ranges are generous; they catch typos and signs
// (a negative rpm), not unusual drives.
import * as z from 'zod/mini';
import { geometryOf } from '../disk/geometry';
import { MAX_QUEUE_DEPTH, type DiskParams } from '../disk/params';
import { FITTED_SPREAD_BINS } from '../disk/fitted';
import { isUserDiskName } from '../disk/presets/index';
import { TRACED_PRESET } from '../disk/presets/traced';
import { applyOverrides } from '../model';
import {
  bool,
  hasLiteral,
  intIn,
  issueProblems,
  list,
  numIn,
  oneOf,
  problem,
  text,
  unknownKey,
  valueAt,
  type Path,
  type Problem,
} from './checks';

const ms = (hi = 10_000) => numIn(0, hi, `must be a time in ms from 0 to ${hi}`);
const sectors = (hi = 1e9) => intIn(0, hi, `must be a whole number of sectors from 0 to ${hi}`);
const obj = <S extends z.core.$ZodLooseShape>(shape: S) =>
  z.strictObject(shape, { error: 'must be an object' });

let paramsSchema: ReturnType<typeof buildDiskParamsSchema> | undefined;
/** DiskParams with the ranges a scenario may set; built when a scenario first needs it (a
 * scenario that names a built-in preset and changes nothing in it does not), then kept. */
export const diskParamsSchema = () => (paramsSchema ??= buildDiskParamsSchema());

function buildDiskParamsSchema() {
  const hplV = z.tuple([z.number(), z.number(), z.number(), z.number(), z.number(), z.number()], {
    error: 'must be a list of 6 numbers (DiskSim HPL v1…v6)',
  });

  const zoneSchema = obj({
    firstCylinder: intIn(0, 1e7),
    lastCylinder: intIn(0, 1e7),
    sectorsPerTrack: intIn(1, 100_000),
    firstSectorOffset: numIn(0, 100_000),
    emptyFrontSectors: sectors(),
    trackSkew: numIn(0, 100_000),
    cylinderSkew: numIn(0, 100_000),
    spareTracks: intIn(0, 1e7),
    slips: z.array(intIn(0, 1e8), { error: 'must be a list of track numbers' }),
    // DiskSim's sector sparing (schemes 3 and 9; the disks its files describe)
    sparesPerTrack: z.optional(intIn(0, 100_000)),
    spareSectors: z.optional(sectors()),
    sectorSlips: z.optional(z.array(intIn(0, 1e12), { error: 'must be a list of sector numbers' })),
  });

  // Not strict: an override that changes the curve's type is merged key by key into the
  // preset's curve (model.ts applyOverrides), so the preset's old keys stay beside the new
  // ones — harmless, as only the keys of the curve's type are read. The keys a scenario
  // writes are still checked (checkKeys, against the curve type in effect).
  const seekObj = <S extends z.core.$ZodLooseShape>(shape: S) =>
    z.object(shape, { error: 'must be an object' });
  const seekSchema = z.discriminatedUnion(
    'type',
    [
      seekObj({ type: z.literal('constant'), ms: ms() }),
      seekObj({ type: z.literal('linear'), baseMs: ms(), perCylinderMs: ms() }),
      seekObj({ type: z.literal('curve'), singleMs: ms(), averageMs: ms(), fullMs: ms() }),
      seekObj({ type: z.literal('hpl'), v: hplV }),
      seekObj({
        type: z.literal('hplplus10'),
        firstTen: z
          .array(ms(), { error: 'must be a list of 10 times in ms' })
          .check(z.length(10, { error: 'must be a list of 10 times in ms' })),
        v: hplV,
      }),
      seekObj({
        type: z.literal('extracted'),
        points: list(
          z.tuple([intIn(0, 1e7), ms()], { error: 'must be a [cylinders, ms] pair' }),
          'must be a list of [cylinders, ms] points',
          'must be a non-empty list of [cylinders, ms] points',
        ),
      }),
    ],
    {
      error:
        'must be a seek curve with "type" one of "constant", "linear", "curve", "hpl", "hplplus10", "extracted"',
    },
  );

  const SPREAD_PHRASE = `must be a list of ${FITTED_SPREAD_BINS} ascending ratios from 0 to 1000000 (the means of equal shares of the measured / modelled ratios)`;
  const fittedDirection = z.nullable(
    obj({
      baseMs: ms(),
      perKiBMs: ms(),
      randomMs: ms(),
      perSqrtGiBMs: ms(),
      spread: z.array(numIn(0, 1e6, SPREAD_PHRASE), { error: SPREAD_PHRASE }).check(
        z.length(FITTED_SPREAD_BINS, { error: SPREAD_PHRASE }),
        z.refine((v: number[]) => v.every((x, i) => i === 0 || x >= v[i - 1]!), {
          error: SPREAD_PHRASE,
        }),
      ),
    }),
  );

  return obj({
    name: text(),
    title: text(),
    provenance: text(),
    // a revolution of at most a second: slower is no disk (1e-9 rpm made a revolution
    // longer than the histograms' 2^60 ns and crashed the run)
    rpm: numIn(60, 1_000_000, 'must be a rotation speed from 60 to 1000000 rpm'),
    surfaces: intIn(1, 1000),
    cylinders: intIn(1, 1e7),
    zones: list(zoneSchema, 'must be a list of zones', 'must be a non-empty list of zones'),
    mapping: z.optional(oneOf(['conventional', 'serpentine', 'serpentine-even'])),
    sparing: z.optional(oneOf(['tracks', 'sectors-per-track', 'sectors-per-zone'])),
    initialAngle: numIn(0, 1, 'must be a fraction of a revolution from 0 to 1'),
    seek: seekSchema,
    headSwitchMs: ms(),
    // DiskSim's files give some drives a negative settle (the write may start that much
    // before the seek ends: the C2490A's and RZ26's)
    writeSettleMs: numIn(-10, 10_000, 'must be a time in ms from -10 to 10000'),
    minWriteSeekMs: ms(),
    overheads: obj({
      readHitMs: ms(),
      readMissMs: ms(),
      writeMs: ms(),
      dataPrepMs: ms(),
      reselectMs: ms(),
      readCompleteMs: ms(),
      writeCompleteMs: ms(),
      afterWrite: z.optional(
        obj({
          readHitMs: ms(),
          readMissMs: ms(),
          writeMs: ms(),
          writeHitMs: ms(),
        }),
      ),
      writeHitMs: z.optional(ms()),
      extraWriteDisconnect: z.optional(
        obj({
          commandMs: ms(),
          disconnectMs: ms(),
          interDisconnectMs: ms(),
          seekDeltaMs: ms(),
          otherReselectMs: ms(),
        }),
      ),
    }),
    bus: obj({
      readMsPerSector: ms(1000),
      writeMsPerSector: ms(1000),
      readWatermark: numIn(0, 1, 'must be a fraction from 0 to 1'),
    }),
    cache: obj({
      segments: intIn(0, 1024),
      separateWriteSegment: bool(),
      segmentSectors: sectors(),
      readAheadSectors: sectors(),
      readAheadStop: z.optional(oneOf(['segment', 'track', 'cylinder', 'next-track'])),
      writePolicy: oneOf(['write-through', 'write-back']),
      writeBufferSectors: sectors(),
      writeSegments: intIn(0, 1024),
    }),
    maxQueueDepth: intIn(1, MAX_QUEUE_DEPTH),
    queueing: z.optional(oneOf(['drive', 'driver'])),
    ssd: z.nullable(
      obj({
        readLatencyMs: ms(),
        writeLatencyMs: ms(),
        readMBps: numIn(0.001, 1e6, 'must be a rate in MB/s from 0.001 to 1000000'),
        writeMBps: numIn(0.001, 1e6, 'must be a rate in MB/s from 0.001 to 1000000'),
        channels: intIn(1, 1024),
      }),
    ),
    fitted: z.optional(
      z.nullable(
        obj({
          parallelism: intIn(1, 1024),
          rotational: bool(),
          read: fittedDirection,
          write: fittedDirection,
          flush: z.optional(fittedDirection),
          flushServiceMs: z.optional(
            z.array(numIn(0, 1e9, 'must be a list of service times in ms from 0'), {
              error: 'must be a list of service times in ms from 0',
            }),
          ),
        }).check(
          z.refine((f) => f.read !== null || f.write !== null, {
            error: 'needs a read or a write fit (both are null)',
          }),
        ),
      ),
    ),
  });
}

/**
 * Check `overrides` (the raw keys under `disk` other than the scenario's own) against
 * `preset`; return the problems (paths start with `disk.`) and the effective params.
 */
export function checkDiskOverrides(
  preset: DiskParams,
  overrides: Record<string, unknown>,
): { problems: Problem[]; params: DiskParams | null; totalLbns: number } {
  const problems: Problem[] = [];
  if ('name' in overrides)
    problems.push(problem(['disk', 'name'], 'is the preset\'s name; choose a drive with "preset"'));
  const merged = applyOverrides(preset, overrides);
  // A built-in preset left as it is passes the schema (tests/scenario/disk-overrides.test.ts
  // checks every one): no need to build the schema and check it again (issue 19). A user's
  // disk, read from a file, is checked.
  if (Object.keys(overrides).length > 0 || isUserDiskName(preset.name)) {
    const schema = diskParamsSchema();
    checkKeys(schema, overrides, merged, ['disk'], problems, SCENARIO_DISK_KEYS);
    if (problems.length > 0) return { problems, params: null, totalLbns: 0 };

    // jitless: one parse per scenario, not worth compiling a fast path for (load.ts)
    const parsed = schema.safeParse(merged, { jitless: true });
    if (!parsed.success) {
      // Paths and "got" values come from the merged params: where the schema objects, the
      // value is an override's (the presets themselves pass).
      problems.push(...issueProblems(parsed.error.issues, merged, schema, ['disk']));
      return { problems, params: null, totalLbns: 0 };
    }
  }
  if (merged.name === TRACED_PRESET && !merged.fitted)
    problems.push(
      problem(
        ['disk', 'fitted'],
        'missing: preset "traced" is the device fitted to a trace; give its fit (spindle replay --json prints one as fit.device)',
      ),
    );
  problems.push(...checkZones(merged));
  if (problems.length > 0) return { problems, params: null, totalLbns: 0 };
  const g = geometryOf(merged);
  if (!(g.totalLbns > 0))
    problems.push(
      problem(
        ['disk', 'zones'],
        'leave no sectors for data (spare tracks and empty front cover the zones)',
      ),
    );
  return { problems, params: merged, totalLbns: g.totalLbns };
}

/** The keys `disk` has besides DiskParams' (for "did you mean"). */
export const SCENARIO_DISK_KEYS = [
  'preset',
  'queueDepth',
  'scheduler',
  'cache',
  'agingWeight',
  'rangeScheduler',
  'ecsTargets',
];

/** Every override key must name a DiskParams field; objects are checked key by key. */
function checkKeys(
  schema: z.core.$ZodType,
  value: unknown,
  merged: unknown,
  path: Path,
  out: Problem[],
  extra: readonly string[] = [],
): void {
  let s = schema;
  if (s instanceof z.core.$ZodOptional) s = s._zod.def.innerType;
  if (s instanceof z.core.$ZodNullable) s = s._zod.def.innerType;
  if (s instanceof z.core.$ZodDiscriminatedUnion) {
    // A seek curve: the known keys are those of the curve type in effect after merging.
    const type = valueAt(merged, ['type']);
    const branch = (s._zod.def.options as z.core.$ZodObject[]).find((o) =>
      hasLiteral(o, 'type', type),
    );
    if (!branch) return; // the schema check reports the bad type
    s = branch;
  }
  if (s instanceof z.core.$ZodObject && isPlainObject(value)) {
    const shape = s._zod.def.shape;
    for (const [k, v] of Object.entries(value)) {
      const child = shape[k];
      if (child) checkKeys(child, v, valueAt(merged, [k]), [...path, k], out);
      else out.push(unknownKey([...path, k], k, [...extra, ...Object.keys(shape)]));
    }
  } else if (s instanceof z.core.$ZodArray && Array.isArray(value)) {
    const element = s._zod.def.element;
    value.forEach((v, i) => checkKeys(element, v, v, [...path, i], out));
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Zones run over cylinders 0…cylinders−1 in order, without overlapping; a cylinder between
 * two zones holds no data (DiskSim's files leave such gaps: the Cheetah 9LP's, the Atlas 10K's). */
function checkZones(p: DiskParams): Problem[] {
  const out: Problem[] = [];
  let next = 0;
  p.zones.forEach((z, i) => {
    if (z.firstCylinder < next)
      out.push(
        problem(
          ['disk', 'zones', i, 'firstCylinder'],
          i === 0
            ? `must be at least 0 (got ${z.firstCylinder})`
            : `must be at least ${next}, after the previous zone (got ${z.firstCylinder})`,
        ),
      );
    if (z.lastCylinder < z.firstCylinder)
      out.push(
        problem(
          ['disk', 'zones', i, 'lastCylinder'],
          `must be at least firstCylinder ${z.firstCylinder} (got ${z.lastCylinder})`,
        ),
      );
    next = z.lastCylinder + 1;
  });
  if (out.length === 0 && next !== p.cylinders) {
    out.push(
      problem(
        ['disk', 'zones'],
        `must cover cylinders 0 to ${p.cylinders - 1} (disk.cylinders = ${p.cylinders}); the last zone ends at ${next - 1}`,
      ),
    );
  }
  return out;
}
