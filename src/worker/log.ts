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
  /** where the played window starts (0: the run's start); events before it are those of
   * the requests alive at fromNs, whole */
  fromNs: number;
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

/** A sink that records everything from `fromNs` on, placing each sector on the platter.
 * Before `fromNs` it records nothing but holds the events of the requests (and bios) still
 * in flight, dropping a request's once it completes; at the first record at or after
 * `fromNs` (or `start()`), the held events of those still alive are recorded first, in
 * their order and with their real times, so every request alive at `fromNs` is whole in
 * the log. Decisions before `fromNs` are dropped; of the drive's services only the latest
 * (where the arm is) and any still running are kept. Completions count from `fromNs`. */
export function createLogSink(
  geometry: Geometry,
  fromNs = 0,
): TraceSink & {
  events: LogEvent[];
  services: ServiceRecord[];
  decisions: LogDecision[];
  completions: number;
  /** the simulation it records (call once, right after createSimulation): the chart
   * tables read each completed request's phases from it, the held events its live ones */
  bind(sim: Simulation): void;
  /** record from now on (the run ended before `fromNs`, or the caller knows better) */
  start(): void;
  /** the chart tables so far (columns trimmed to their length) */
  tables(): ChartTables;
} {
  const addr: PhysAddr = { zone: 0, cylinder: 0, head: 0, sector: 0 };
  const recorder = createTableRecorder(fromNs);
  const place = createRangePlacer(geometry);
  const held = createHolder();
  let started = fromNs <= 0;
  function record(e: TraceEvent) {
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
  }
  /** false while before the window (the caller holds or drops); starts it at fromNs */
  function inWindow(tNs: number): boolean {
    if (started) return true;
    if (tNs < fromNs) return false;
    sink.start();
    return true;
  }
  const sink = {
    events: [] as LogEvent[],
    services: [] as ServiceRecord[],
    decisions: [] as LogDecision[],
    completions: 0,
    bind(sim: Simulation) {
      recorder.bind(sim);
      held.bind(sim);
    },
    start() {
      if (started) return;
      started = true;
      const { events, services } = held.take(fromNs);
      for (const e of events) record(e);
      sink.services.push(...services);
    },
    tables: () => recorder.tables(),
    trace(e: TraceEvent) {
      if (inWindow(e.tNs)) record(e);
      else held.trace(e);
    },
    service(s: ServiceRecord) {
      recorder.service(s);
      if (inWindow(s.startNs)) sink.services.push({ ...s });
      else held.service(s);
    },
    decision(d: DecisionRecord) {
      if (!inWindow(d.tNs)) return;
      const { ranges, ...rest } = d;
      const copy: LogDecision = { ...rest, candidates: d.candidates.map((c) => ({ ...c })) };
      if (ranges) copy.ranges = ranges.map(place.record);
      sink.decisions.push(copy);
    },
  };
  return sink;
}

/** Ids of the objects in flight in a slot table (a freed slot's object keeps its old id). */
function liveIds(t: { slots: ReadonlyArray<{ id: number }>; free: readonly number[] }) {
  const free = new Set(t.free);
  const out = new Set<number>();
  t.slots.forEach((x, i) => {
    if (!free.has(i)) out.add(x.id);
  });
  return out;
}

/** Held events between prunes of what is no longer in flight (a request merged away by
 * attempt_merge has no C; a split bio's parent never gets a request). */
const PRUNE_EVERY = 65536;

/** Before the window: each in-flight request's events (a bio's Q, S, X until its G, M or
 * F names the request), in arrival order; a request's go at its C. */
function createHolder() {
  let sim: Simulation | null = null;
  let seq = 0;
  let sincePrune = 0;
  type Held = { seq: number; e: TraceEvent };
  let byRq = new Map<number, Held[]>();
  let byBio = new Map<number, Held[]>();
  let services: ServiceRecord[] = [];
  function prune() {
    sincePrune = 0;
    if (!sim) return;
    const rqs = liveIds(sim.state.requests);
    const bios = liveIds(sim.state.bios);
    byRq = new Map([...byRq].filter(([id]) => rqs.has(id)));
    byBio = new Map([...byBio].filter(([id]) => bios.has(id)));
  }
  return {
    bind(s: Simulation) {
      sim = s;
    },
    trace(e: TraceEvent) {
      const h = { seq: seq++, e: { ...e } };
      const bio = e.bio ?? -1;
      if (e.rq >= 0) {
        if (e.action === 'C') {
          byRq.delete(e.rq);
          return;
        }
        let list = byRq.get(e.rq);
        if (!list) byRq.set(e.rq, (list = []));
        const before = bio >= 0 ? byBio.get(bio) : undefined;
        if (before) {
          list.push(...before);
          byBio.delete(bio);
        }
        list.push(h);
      } else if (bio >= 0) {
        const list = byBio.get(bio);
        if (list) list.push(h);
        else byBio.set(bio, [h]);
      } else return; // plugging and messages: not kept
      if (++sincePrune >= PRUNE_EVERY) prune();
    },
    service(s: ServiceRecord) {
      // those done before this one started are of no use at the window's start
      services = services.filter((x) => x.freeNs > s.startNs);
      services.push({ ...s });
    },
    /** the held events of what is in flight, in order, and the services the window needs
     * (those still running at fromNs, and the latest: where the arm is) */
    take(fromNs: number): { events: TraceEvent[]; services: ServiceRecord[] } {
      prune();
      const all = [...byRq.values(), ...byBio.values()].flat();
      all.sort((a, b) => a.seq - b.seq);
      const last = services.at(-1);
      const kept = services.filter((s) => s.freeNs > fromNs || s === last);
      byRq.clear();
      byBio.clear();
      services = [];
      return { events: all.map((h) => h.e), services: kept };
    },
  };
}

/** Sector 0's angle on every track of a small disk (the view draws each sector's tick). */
export function trackStarts(g: Geometry): number[][] | null {
  if (g.cylinders > 64) return null;
  return Array.from({ length: g.cylinders }, (_, c) => {
    const z = g.zones.find((zz) => c >= zz.firstCylinder && c <= zz.lastCylinder);
    return Array.from({ length: g.surfaces }, (_, h) => (z ? trackStartAngle(g, z, c, h) : 0));
  });
}
