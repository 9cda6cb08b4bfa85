// The run's figures in the shape of `spindle run --json` (ARCHITECTURE.md).
import { journalView } from './workload/journal';
import { reiserfsJournalView } from './workload/reiserfs-journal';
import { summarizeMs } from './metrics/histogram';
import type { Scenario } from './scenario/types';
import type { Simulation } from './simulation';
import { pageCacheCounters, type PageCacheCounters } from './workload/page-cache-view';

const NS_PER_MS = 1e6;

export interface LatencyFigures {
  mean: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export interface ProcessSummary {
  name: string;
  pid: number;
  completed: number;
  iops: number;
  mbps: number;
  q2cMeanMs: number;
  q2cMaxMs: number;
  diskTimeShare: number;
  /** with a page cache: its steps served from memory (writes absorbed, reads hit) */
  cached?: { ops: number; mbps: number };
}

/** The per-process table's head, one vocabulary for `spindle run` and the page's run
 * summary: a column per ProcessSummary figure, "cached MB/s" only with a page cache. */
export const processColumns = (cached: boolean): string[] => [
  'process',
  'pid',
  'completed',
  'IOPS',
  'MB/s',
  'Q2C mean',
  'Q2C max',
  'disk time',
  ...(cached ? ['cached MB/s'] : []),
];

export interface RunSummary {
  scenario: string;
  seed: number;
  iosched: string;
  disk: string;
  diskScheduler: string;
  queueDepth: number;
  writePolicy: string;
  simulatedTimeMs: number;
  requests: {
    /** bios queued (Q), requests dispatched (D) and completed (C), bios completed */
    queued: number;
    dispatched: number;
    completed: number;
    iosCompleted: number;
    backMerges: number;
    frontMerges: number;
    /** btt's merge ratio #Q / #D */
    mergeRatio: number;
    cacheHits: number;
  };
  throughput: { iops: number; mbps: number };
  latencyMs: { q2c: LatencyFigures; q2d: LatencyFigures; d2c: LatencyFigures };
  positioningMs: { seek: number; rotation: number; transfer: number; overhead: number };
  processes: ProcessSummary[];
  /** positioning estimates (SPTF, HRS, ECS) over the drive's decisions: work per decision;
   * the I/O scheduler's own computation beyond the kernel's (cfq-ann's network; 0 for the
   * others) */
  work: {
    positioningEstimates: number;
    decisions: number;
    events: number;
    iosched: { multiplyAdds: number };
  };
  /** time the write-back buffer was full, with host writes waiting for room */
  drive: { bufferFullMs: number; queueFullRefusals: number };
  /** present only when the run ended at the engine's bound, not at its own stop condition */
  budget?: { completed: number; events: number; note: string };
  /** with a page cache (workload.pageCache) */
  pageCache?: PageCacheCounters;
  /** with a page cache, each jbd journal (workload/journal.ts): transactions committed,
   * ordered data pages kjournald wrote, log blocks written, commits that overran the log;
   * then each ReiserFS journal (workload/reiserfs-journal.ts, `fs: 'reiserfs'`):
   * transactions committed (those by sync_supers; the rest by reiserfs/0), ordered data
   * pages, log blocks written (descriptors, copies, commit blocks), in-place flushes for log
   * room and the blocks they wrote */
  journals?: (
    | { commits: number; orderedPages: number; logBlocks: number; logFull: number }
    | ReturnType<typeof reiserfsJournalView>
  )[];
}

function bufferFullNs(sim: Simulation): number {
  const d = sim.state.drive;
  return d.bufferFullNs + (d.bufferFullSinceNs >= 0 ? sim.state.now - d.bufferFullSinceNs : 0);
}

function latency(h: Parameters<typeof summarizeMs>[0]): LatencyFigures {
  const s = summarizeMs(h);
  return { mean: s.mean, p50: s.p50, p95: s.p95, p99: s.p99, max: s.max };
}

export function summarize(sim: Simulation, scenario: Scenario): RunSummary {
  const m = sim.state.metrics;
  const model = sim.model;
  const pc = sim.state.workload.pageCache;
  // the run's figures are over the time to its last completion; with a page cache the
  // threads go on being served from memory after the disk's last completion, so to its end
  const endNs = pc ? Math.max(m.lastCompletionNs, sim.state.now) : m.lastCompletionNs;
  const seconds = endNs / 1e9;
  const perSecond = (x: number): number => (seconds > 0 ? x / seconds : 0);
  const n = m.completed || 1;
  const totalDisk = m.processes.reduce((a, p) => a + p.diskNs, 0);
  return {
    scenario: scenario.name,
    seed: model.seed,
    iosched: model.iosched.name,
    disk: model.disk.params.name,
    diskScheduler: model.diskScheduler,
    queueDepth: model.queueDepth,
    writePolicy: model.writePolicy,
    simulatedTimeMs: endNs / NS_PER_MS,
    requests: {
      queued: m.queued,
      dispatched: m.dispatched,
      completed: m.completed,
      iosCompleted: m.iosCompleted,
      backMerges: sim.state.host.backMerges,
      frontMerges: sim.state.host.frontMerges,
      // btt's #Q/#D over what was dispatched (a backlog left at the end would inflate it);
      // a split bio is one Q however many pieces it went down in
      mergeRatio: m.dispatched > 0 ? (m.biosDispatched - m.splitPieces) / m.dispatched : 0,
      cacheHits: m.cacheHits,
    },
    // I/Os per second as the processes see them (bios completed); MB/s from the device.
    throughput: { iops: perSecond(m.iosCompleted), mbps: perSecond(m.bytes) / 1e6 },
    latencyMs: { q2c: latency(m.q2c), q2d: latency(m.q2d), d2c: latency(m.d2c) },
    positioningMs: {
      seek: m.seekNs / n / NS_PER_MS,
      rotation: m.rotationNs / n / NS_PER_MS,
      transfer: m.transferNs / n / NS_PER_MS,
      overhead: m.overheadNs / n / NS_PER_MS,
    },
    processes: sim.state.workload.instances.map((inst, i) => {
      const p = m.processes[i]!;
      return {
        name: inst.name,
        pid: inst.pid,
        completed: p.completed,
        iops: perSecond(p.completed),
        mbps: perSecond(p.bytes) / 1e6,
        q2cMeanMs: p.completed > 0 ? p.q2cSumNs / p.completed / NS_PER_MS : 0,
        q2cMaxMs: p.q2cMaxNs / NS_PER_MS,
        diskTimeShare: totalDisk > 0 ? p.diskNs / totalDisk : 0,
        ...(pc && inst.gen
          ? {
              cached: {
                ops: inst.gen.cachedOps,
                mbps: perSecond(inst.gen.cachedSectors * 512) / 1e6,
              },
            }
          : {}),
      };
    }),
    work: {
      positioningEstimates: sim.state.drive.positioningEstimates,
      decisions: sim.state.drive.decisions,
      events: sim.state.steps,
      iosched: { multiplyAdds: sim.elevator.multiplyAdds?.(sim.state.host.elevator) ?? 0 },
    },
    drive: {
      bufferFullMs: bufferFullNs(sim) / NS_PER_MS,
      queueFullRefusals: sim.state.drive.queueFullRefusals,
    },
    ...(sim.state.budgetReached
      ? {
          budget: {
            completed: m.iosCompleted,
            events: sim.state.steps,
            note: `the run was ended at the engine's bound (${model.budget.requests.toLocaleString('en-US')} completed requests or ${model.budget.events.toLocaleString('en-US')} events), before its stop condition: give stop.requests or a shorter stop.timeMs`,
          },
        }
      : {}),
    ...(pc ? { pageCache: pageCacheCounters(pc) } : {}),
    ...(sim.state.workload.journals.length > 0 || sim.state.workload.reiserfs
      ? {
          journals: [
            ...sim.state.workload.journals.map(journalView),
            ...(sim.state.workload.reiserfs?.journals.map(reiserfsJournalView) ?? []),
          ],
        }
      : {}),
  };
}
