// Spindle's engine: the public surface used by the worker, the CLI and tests.
// Pure TypeScript: no DOM, React or d3 (enforced by lint).
export { loadScenario, parseScenarioText, ScenarioError } from './scenario/load';
export type { Scenario, ProcessSpec } from './scenario/types';
export { runScenario, type RunOptions, type RunResult } from './run';
export { processColumns, summarize, type RunSummary } from './summary';
export { buildModel, diskParamsOf } from './model';
export {
  createSimulation,
  step,
  runUntil,
  runToEnd,
  peekTime,
  snapshot,
  restore,
} from './simulation';
export type { Simulation, SimState, Model } from './simulation';
export type { TraceEvent, TraceSink, ServiceRecord, DecisionRecord, BlkAction } from './events';
export { getPreset, presetNames } from './disk/presets';
export { inspectDrive, type DriveView } from './disk/inspect';
export { hostView } from './inspect';
export { buildGeometry, lbnToPhys, sectorAngle, trackStartAngle } from './disk/geometry';
export type { Geometry, PhysAddr } from './disk/geometry';
export { createTimeline, stepTimeline, advanceTo, seekTo, type Timeline } from './timeline';
export type { DiskParams } from './disk/params';
export { DISK_SCHEDULERS, type DiskSchedulerName } from './disk/disk-scheduler';
// trace upload and replay in the page (src/worker/trace.worker.ts)
export { ReplayReader, type TraceReading } from './trace/replay-source';
export { TraceParser } from './trace/parse';
export {
  replayTrace,
  ReplayError,
  SCHEDULER_MAP,
  type ReplayReport,
  type ReplayMode,
  type ReplayOptions,
  type LatencyMs,
  type UnitFigures,
} from './trace/replay';
export type { Agreement } from './trace/replay-agreement';
export { traceMetaOf, META_FACTS, type MetaFact } from './trace/replay-meta';
export type { TraceMeta } from './trace/replay-mapping';
export type { ParseReport } from './trace/summary';
export type { BttRow } from './trace/btt';
export { elevatorNames } from './iosched/elevator';
