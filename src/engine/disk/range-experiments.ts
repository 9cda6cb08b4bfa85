// The range-writes paper's simulations (Anand et al., OSDI '08, §3; DISK-MODEL.md §5–§6)
// on hp-c2247a, as scenario runs: the `spindle range-sweep` command and tests/range use
// these. A "block" is 4 KiB (8 sectors) and a block group 4096 blocks (32,768 sectors),
// as in DISK-MODEL.md §6 row 11.
import { loadScenario } from '../scenario/load';
import { runScenario } from '../run';
import type { RangeSchedulerName } from './range';
import { getPreset } from './presets';
import { buildGeometry, lbnToPhys } from './geometry';

export const BLOCK_SECTORS = 8;
export const GROUP_SECTORS = 4096 * BLOCK_SECTORS;
/** The block group used for "within a group": one in the middle of the disk (group 31). */
export const GROUP_START = 31 * GROUP_SECTORS;
/** The track holding the group's first sector, or the next one if that starts mid-track:
 * its first LBN and size (the group lies in zone 2: 88 sectors = 11 blocks per track). */
export function groupTrack(): { startSector: number; sectors: number } {
  const p = getPreset('hp-c2247a')!;
  const g = buildGeometry(p.surfaces, p.cylinders, p.zones);
  const a = lbnToPhys(g, GROUP_START, { zone: 0, cylinder: 0, head: 0, sector: 0 });
  const spt = g.zones[a.zone]!.sectorsPerTrack;
  return { startSector: GROUP_START - a.sector + (a.sector === 0 ? 0 : spt), sectors: spt };
}

/** "Track-sized" ranges: a track of the group's zone. */
export const TRACK_SECTORS = groupTrack().sectors;

export interface RangeRun {
  queueDepth: number;
  /** where the writes go: the whole disk, the block group, or a span of its own */
  span: 'disk' | 'group' | { startSector: number; sectors: number };
  /** null: ordinary random writes */
  range: { sizeSectors: number; targets?: number; alignSectors?: number } | null;
  /** fraction of random reads mixed in (same span) */
  readFraction?: number;
  rangeScheduler?: RangeSchedulerName;
  ecsTargets?: number;
  writeKiB?: number;
  requests?: number;
  seed?: number;
}

export interface RangeFigures {
  /** simulated time per completed request (what the paper plots as time per write) */
  msPerRequest: number;
  seekMs: number;
  rotationMs: number;
  transferMs: number;
  overheadMs: number;
  /** the drive's positioning estimates per decision and in all */
  estimatesPerDecision: number;
  estimates: number;
}

/** One run: a closed loop keeping `queueDepth` requests in the drive, in-disk SPTF. */
export function runRange(r: RangeRun): RangeFigures {
  const span =
    r.span === 'disk'
      ? undefined
      : r.span === 'group'
        ? { startSector: GROUP_START, sectors: GROUP_SECTORS }
        : r.span;
  const mix = r.readFraction !== undefined && r.readFraction > 0;
  const proc = {
    name: 'fs',
    op: mix ? (r.readFraction === 1 ? 'read' : 'mix') : 'write',
    ...(mix && r.readFraction! < 1 ? { readFraction: r.readFraction } : {}),
    sizeKiB: r.writeKiB ?? 4,
    outstanding: r.queueDepth,
    ...(span ? { span } : {}),
    ...(r.range && r.readFraction !== 1 ? { range: r.range } : {}),
  };
  const scenario = loadScenario(
    {
      name: 'range-sweep',
      seed: r.seed ?? 1,
      disk: {
        preset: 'hp-c2247a',
        queueDepth: r.queueDepth,
        scheduler: 'sptf',
        ...(r.rangeScheduler ? { rangeScheduler: r.rangeScheduler } : {}),
        ...(r.ecsTargets !== undefined ? { ecsTargets: r.ecsTargets } : {}),
      },
      workload: { processes: [proc] },
      stop: { requests: r.requests ?? 3000 },
    },
    'range-sweep',
  );
  return figures(runScenario(scenario).summary);
}

/**
 * The small-file case study (the paper's §4, Figures 9–11): an ext2 block group of 32,768
 * 4 KiB blocks (128 MiB; ext2's group with 4 KiB blocks, so 1000 files fit in one of its
 * 16 mini-groups of 2048 blocks, as the paper's single-PID run has them) — group 4 of a
 * file system starting at sector 0, in the middle of the disk.
 */
export const EXT2_GROUP = {
  startSector: 4 * 32768 * BLOCK_SECTORS,
  sectors: 32768 * BLOCK_SECTORS,
};
export const SMALL_FILES = 1000;
export const FULLNESS = [0, 0.25, 0.5, 0.75, 0.9];

export interface SmallFilesRun {
  /** creating processes: 1 (one mini-group) or 16 (each file's PID picks one of 16) */
  pids: number;
  /** share of the group in use before the files are created */
  fullness: number;
  rangeWrites: boolean;
  files?: number;
  seed?: number;
}

/** The case study as a scenario (public/scenarios/range-writes-small-files*.json hold these
 * plus their lesson text): the paper's async writes at disk queue depth 16, SPTF + HRS. */
export function smallFilesScenario(r: SmallFilesRun): Record<string, unknown> {
  return {
    name: 'range-writes-small-files',
    seed: r.seed ?? 1,
    disk: { preset: 'hp-c2247a', queueDepth: 16, scheduler: 'sptf', rangeScheduler: 'hrs' },
    iosched: { name: 'none' },
    workload: {
      processes: [
        {
          name: 'ext2',
          span: { ...EXT2_GROUP },
          generator: {
            kind: 'smallfiles',
            pids: r.pids,
            fullness: r.fullness,
            rangeWrites: r.rangeWrites,
          },
        },
      ],
    },
    stop: { requests: r.files ?? SMALL_FILES },
  };
}

/** One small-file run: time per file (the run's time over the files) and its positioning. */
export function runSmallFiles(r: SmallFilesRun): RangeFigures {
  const { summary } = runScenario(loadScenario(smallFilesScenario(r), 'small-files'));
  return figures(summary);
}

function figures(summary: ReturnType<typeof runScenario>['summary']): RangeFigures {
  const p = summary.positioningMs;
  const decisions = summary.work.decisions;
  return {
    msPerRequest: summary.simulatedTimeMs / summary.requests.completed,
    seekMs: p.seek,
    rotationMs: p.rotation,
    transferMs: p.transfer,
    overheadMs: p.overhead,
    estimatesPerDecision: decisions > 0 ? summary.work.positioningEstimates / decisions : 0,
    estimates: summary.work.positioningEstimates,
  };
}

export const QUEUE_DEPTHS = [1, 2, 4, 8, 16, 32, 64];
export const TARGETS = [1, 2, 4, 8, 16, 32, 64];
export const READ_FRACTIONS = [0, 0.25, 0.5, 0.75, 1];
export const ECS_TARGETS = [1, 2, 4, 8, 0];

export interface SweepRow {
  sweep: string;
  /** what varies in this row, e.g. {queueDepth: 4, span: "group", range: "96"} */
  key: Record<string, string | number>;
  figures: RangeFigures;
}

export const SWEEPS = [
  'qd',
  'track',
  'group',
  'targets',
  'reads',
  'same-track',
  'hrs-ecs',
  'small-files',
] as const;
export type SweepName = (typeof SWEEPS)[number];

/** Runs of a sweep that has its own length: the small-file study creates 1000 files. */
export const SWEEP_REQUESTS: Partial<Record<SweepName, number>> = { 'small-files': SMALL_FILES };

/** The rows of one sweep (each row one run). `requests` shortens the runs (tests). */
export function sweep(name: SweepName, requests = 3000, depths = QUEUE_DEPTHS): SweepRow[] {
  const rows: SweepRow[] = [];
  const add = (key: SweepRow['key'], r: Omit<RangeRun, 'requests'>): void => {
    rows.push({ sweep: name, key, figures: runRange({ ...r, requests }) });
  };
  switch (name) {
    case 'qd':
      for (const span of ['disk', 'group'] as const)
        for (const qd of depths)
          add({ span, queueDepth: qd }, { queueDepth: qd, span, range: null });
      break;
    case 'track':
      // a track's worth of sectors (88), and the "100 blocks" (800 sectors)
      for (const span of ['disk', 'group'] as const)
        for (const size of [0, TRACK_SECTORS, 100 * BLOCK_SECTORS])
          for (const qd of depths)
            add(
              { span, rangeSectors: size, queueDepth: qd },
              { queueDepth: qd, span, range: size ? { sizeSectors: size } : null },
            );
      break;
    case 'group':
      for (const size of [0, GROUP_SECTORS])
        for (const qd of depths)
          add(
            { rangeSectors: size, queueDepth: qd },
            { queueDepth: qd, span: 'group', range: size ? { sizeSectors: size } : null },
          );
      break;
    case 'targets':
      for (const blocks of [1, 100])
        for (const targets of TARGETS)
          add(
            { rangeBlocks: blocks, targets },
            {
              queueDepth: 1,
              span: 'group',
              range: { sizeSectors: blocks * BLOCK_SECTORS, targets },
            },
          );
      break;
    case 'reads':
      for (const qd of [1, 16])
        for (const size of [0, 100 * BLOCK_SECTORS])
          for (const f of READ_FRACTIONS)
            add(
              { queueDepth: qd, rangeSectors: size, readFraction: f },
              {
                queueDepth: qd,
                span: 'group',
                readFraction: f,
                range: size ? { sizeSectors: size } : null,
              },
            );
      break;
    case 'same-track': {
      // rewrites within one track of the group: any block of the track will do
      const track = groupTrack();
      add({ placement: 'none' }, { queueDepth: 1, span: track, range: null });
      for (const k of ECS_TARGETS)
        add(
          { placement: k === 0 ? 'ecs-full' : `ecs-${k}` },
          {
            queueDepth: 1,
            span: track,
            range: { sizeSectors: TRACK_SECTORS },
            rangeScheduler: 'ecs',
            ecsTargets: k,
          },
        );
      add(
        { placement: 'hrs' },
        { queueDepth: 1, span: track, range: { sizeSectors: TRACK_SECTORS } },
      );
      break;
    }
    case 'hrs-ecs':
      // S = T: track-sized ranges, 4 KiB writes on 4 KiB blocks and 512 B writes on sectors
      for (const unit of [BLOCK_SECTORS, 1])
        for (const qd of [1, 16, 64])
          for (const rs of ['hrs', 'ecs'] as const)
            add(
              { alignSectors: unit, queueDepth: qd, rangeScheduler: rs },
              {
                queueDepth: qd,
                span: 'group',
                writeKiB: unit / 2,
                range: { sizeSectors: TRACK_SECTORS, alignSectors: unit },
                rangeScheduler: rs,
              },
            );
      break;
    case 'small-files':
      // `requests` files by one process and by sixteen, in a group empty up to 90% full
      for (const pids of [1, 16])
        for (const fullness of FULLNESS)
          for (const rangeWrites of [false, true])
            rows.push({
              sweep: name,
              key: { pids, fullness, ranges: rangeWrites ? 'yes' : 'no' },
              figures: runSmallFiles({ pids, fullness, rangeWrites, files: requests }),
            });
      break;
  }
  return rows;
}
