// The compact run log the page replays: what the worker sends after running a scenario.
// Built in the worker from the engine's public TraceSink; the page never runs the engine.
import type {
  DecisionRecord,
  RunSummary,
  Scenario,
  ServiceRecord,
  Simulation,
  TraceEvent,
  TraceSink,
} from '../engine';
import { createTableRecorder, type ChartTables } from './chart-tables';
import { createRangePlacer, type LogDecision } from './range-log';
import {
  lbnToPhys,
  sectorAngle,
  trackStartAngle,
  type Geometry,
  type PhysAddr,
} from '../engine/disk/geometry';

export type { LogDecision, LogRangePiece, LogRangeRecord, TrackArc } from './range-log';

/** A trace event with the physical place of its first sector (null for queue events). */
export interface LogEvent extends TraceEvent {
  cylinder: number; // −1 when the event has no sector
  head: number;
  /** the first sector's start angle, fraction of a revolution [0, 1) */
  angle: number;
}

/** The disk's shape, as much as the disk view draws. */
export interface GeometryView {
  surfaces: number;
  cylinders: number;
  zones: Array<{ firstCylinder: number; lastCylinder: number; sectorsPerTrack: number }>;
  rpm: number;
  revolutionNs: number;
  initialAngle: number;
  /** the start angle of sector 0 of each track [cylinder][head], small disks only (≤ 64
   * cylinders: the view draws every sector tick); null otherwise */
  trackStart: number[][] | null;
  /** false for an SSD: no platter, no arm */
  rotating: boolean;
  title: string;
}

export interface RunLog {
  name: string;
  title: string;
  lesson: string;
  seed: number;
  geometry: GeometryView;
  events: LogEvent[];
  services: ServiceRecord[];
  decisions: LogDecision[];
  /** number of processes named in the workload, with their names, for the legend */
  processes: string[];
  endNs: number;
  /** why the log stops: the run ended, or a bound was hit */
  bounded: boolean;
  summary: RunSummary;
  /** every I/O and request of the run in columns, for the charts (./chart-tables.ts) */
  tables: ChartTables;
  /** the validated scenario that ran (overrides applied): the charts ask a worker to run
   * it again for the whole run or its blkparse text */
  scenario: Scenario;
}

export { MAX_COMPLETIONS, MAX_SIM_NS, PLAYED_BOUND } from './bounds';

/** A sink that records everything, placing each sector on the platter. */
export function createLogSink(geometry: Geometry): TraceSink & {
  events: LogEvent[];
  services: ServiceRecord[];
  decisions: LogDecision[];
  completions: number;
  /** the simulation it records (call once, right after createSimulation): the chart
   * tables read each completed request's phases from it */
  bind(sim: Simulation): void;
  /** the chart tables so far (columns trimmed to their length) */
  tables(): ChartTables;
} {
  const addr: PhysAddr = { zone: 0, cylinder: 0, head: 0, sector: 0 };
  const recorder = createTableRecorder();
  const place = createRangePlacer(geometry);
  const sink = {
    events: [] as LogEvent[],
    services: [] as ServiceRecord[],
    decisions: [] as LogDecision[],
    completions: 0,
    bind(sim: Simulation) {
      recorder.bind(sim);
    },
    tables: () => recorder.tables(),
    trace(e: TraceEvent) {
      recorder.trace(e);
      let cylinder = -1;
      let head = -1;
      let angle = 0;
      if (e.sector >= 0 && e.sector < geometry.totalLbns && e.nSectors > 0) {
        lbnToPhys(geometry, e.sector, addr);
        cylinder = addr.cylinder;
        head = addr.head;
        angle = sectorAngle(geometry, addr);
      }
      if (e.action === 'C') sink.completions++;
      if (e.rq >= 0 && (e.action === 'G' || e.action === 'D')) place.size(e.rq, e.nSectors);
      sink.events.push({ ...e, cylinder, head, angle });
    },
    service(s: ServiceRecord) {
      sink.services.push({ ...s });
    },
    decision(d: DecisionRecord) {
      const { ranges, ...rest } = d;
      const copy: LogDecision = { ...rest, candidates: d.candidates.map((c) => ({ ...c })) };
      if (ranges) copy.ranges = ranges.map(place.record);
      sink.decisions.push(copy);
    },
  };
  return sink;
}

/** Sector 0's angle on every track of a small disk (the view draws each sector's tick). */
export function trackStarts(g: Geometry): number[][] | null {
  if (g.cylinders > 64) return null;
  return Array.from({ length: g.cylinders }, (_, c) => {
    const z = g.zones.find((zz) => c >= zz.firstCylinder && c <= zz.lastCylinder);
    return Array.from({ length: g.surfaces }, (_, h) => (z ? trackStartAngle(g, z, c, h) : 0));
  });
}
