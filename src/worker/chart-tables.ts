// What the charts need from a run, in compact columns (typed arrays: a 100,000-request run
// is a few MB and crosses to the page as a copy of buffers, not of objects), and the two
// worker methods the charts panel calls on a worker of its own:
//   wholeRun(scenario, seed)   → the run to the scenario's end (bounded), tables only
//   blkparse(scenario, seed, bound) → the same run as blkparse text, a Blob
// Both are stateless: the page sends the validated scenario the log carries.
import { transfer } from 'comlink';
import {
  buildModel,
  createSimulation,
  step,
  summarize,
  type RunSummary,
  type Scenario,
  type ServiceRecord,
  type Simulation,
  type TraceEvent,
  type TraceSink,
} from '../engine';
import { BlkparseWriter } from '../engine/trace/blkparse-writer';
import { WHOLE_RUN_BOUND, type RunBound } from './bounds';
import { createDestageTally, type DestageTables } from './destage-tally';

/** One row per bio (the I/Os processes see), in Q order. NaN: not yet (at the run's bound). */
export interface IoColumns {
  n: number;
  qNs: Float64Array;
  /** D of the request that carried it */
  dNs: Float64Array;
  cNs: Float64Array;
  proc: Int16Array;
  nSectors: Int32Array;
  /** 1 = write */
  write: Uint8Array;
}

/** One row per completed request (what the device did), in C order. */
export interface RequestColumns {
  n: number;
  /** Q of its first bio */
  qNs: Float64Array;
  dNs: Float64Array;
  cNs: Float64Array;
  sector: Float64Array;
  nSectors: Int32Array;
  proc: Int16Array;
  /** bit 0 write, bit 1 sync, bit 2 a drive cache hit */
  flags: Uint8Array;
  /** the drive's time for it: seek, rotational wait, media transfer, controller overhead */
  seekNs: Float64Array;
  rotationNs: Float64Array;
  transferNs: Float64Array;
  overheadNs: Float64Array;
  bios: Uint16Array;
}

export interface ChartTables extends DestageTables {
  ios: IoColumns;
  requests: RequestColumns;
  /** D times of the requests still in the drive when the run stopped */
  inDriveDNs: Float64Array;
  /** the bio table hit its row limit: later bios are not in it */
  truncated: boolean;
}

export const FLAG_WRITE = 1;
export const FLAG_SYNC = 2;
export const FLAG_HIT = 4;

/** Rows a table may hold (a bound on memory: ~31 bytes per bio, ~90 per request). */
export const MAX_TABLE_ROWS = 400_000;

type Typed = Float64Array | Int32Array | Int16Array | Uint8Array | Uint16Array;

/** A growable typed column. */
class Column<T extends Typed> {
  data: T;
  constructor(private readonly make: (n: number) => T) {
    this.data = make(256);
  }
  set(i: number, v: number): void {
    if (i >= this.data.length) {
      const bigger = this.make(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[i] = v;
  }
  trimmed(n: number): T {
    return this.data.slice(0, n) as T;
  }
}

const f64 = () => new Column((n) => new Float64Array(n));

/** Records the tables from the trace events, reading each completed request's phases from
 * the simulation it is bound to (the TraceSink events carry no drive figures), and the
 * destages from the drive's services; a destage counts when the mechanism is free of it at
 * or after `fromNs` (the played window's start, ./played.ts). */
export function createTableRecorder(fromNs = 0) {
  let sim: Simulation | null = null;
  const destages = createDestageTally();
  const io = {
    n: 0,
    qNs: f64(),
    dNs: f64(),
    cNs: f64(),
    proc: new Column((n) => new Int16Array(n)),
    nSectors: new Column((n) => new Int32Array(n)),
    write: new Column((n) => new Uint8Array(n)),
  };
  const rq = {
    n: 0,
    qNs: f64(),
    dNs: f64(),
    cNs: f64(),
    sector: f64(),
    nSectors: new Column((n) => new Int32Array(n)),
    proc: new Column((n) => new Int16Array(n)),
    flags: new Column((n) => new Uint8Array(n)),
    seekNs: f64(),
    rotationNs: f64(),
    transferNs: f64(),
    overheadNs: f64(),
    bios: new Column((n) => new Uint16Array(n)),
  };
  /** bio id → its row, until it completes */
  const ioRow = new Map<number, number>();
  /** request id → D time, while in the drive */
  const inDrive = new Map<number, number>();
  let truncated = false;

  function completed(e: TraceEvent): void {
    inDrive.delete(e.rq);
    if (!sim) return;
    const slots = sim.state.requests.slots;
    let r = null;
    for (const s of slots) {
      if (s && s.id === e.rq && s.completedNs === e.tNs) {
        r = s;
        break;
      }
    }
    if (!r) return;
    for (const b of r.bios) {
      const bio = sim.state.bios.slots[b];
      const row = bio ? ioRow.get(bio.id) : undefined;
      if (row === undefined) continue;
      ioRow.delete(bio!.id);
      io.dNs.set(row, r.dispatchedNs);
      io.cNs.set(row, e.tNs);
    }
    if (rq.n >= MAX_TABLE_ROWS) {
      truncated = true;
      return;
    }
    const i = rq.n++;
    rq.qNs.set(i, r.queuedNs);
    rq.dNs.set(i, r.dispatchedNs);
    rq.cNs.set(i, e.tNs);
    rq.sector.set(i, r.sector);
    rq.nSectors.set(i, r.nSectors);
    rq.proc.set(i, r.proc);
    rq.flags.set(
      i,
      (r.write ? FLAG_WRITE : 0) | (r.sync ? FLAG_SYNC : 0) | (r.cacheHit ? FLAG_HIT : 0),
    );
    rq.seekNs.set(i, r.seekNs);
    rq.rotationNs.set(i, r.rotationNs);
    rq.transferNs.set(i, r.transferNs);
    rq.overheadNs.set(i, r.overheadNs);
    rq.bios.set(i, Math.min(65535, r.bios.length));
  }

  const settle = (): void => destages.settle(sim ? sim.state.now : 0);

  return {
    bind(s: Simulation) {
      sim = s;
    },
    /** The mechanism starts a command: a destage's media time is known now (its owners
     * from the request, while it is in flight). Called for every service, before the
     * window too. */
    service(s: ServiceRecord) {
      if (!sim) return;
      settle();
      if (s.freeNs < fromNs) return;
      const r = sim.state.requests.slots.find((x) => x && x.id === s.rq);
      if (!r || !r.internal) return;
      destages.started(r, s.freeNs);
    },
    trace(e: TraceEvent) {
      switch (e.action) {
        case 'Q': {
          if (e.bio === undefined) return;
          if (io.n >= MAX_TABLE_ROWS) {
            truncated = true;
            return;
          }
          const i = io.n++;
          ioRow.set(e.bio, i);
          io.qNs.set(i, e.tNs);
          io.dNs.set(i, NaN);
          io.cNs.set(i, NaN);
          io.proc.set(i, e.proc);
          io.nSectors.set(i, e.nSectors);
          io.write.set(i, e.write ? 1 : 0);
          return;
        }
        case 'D':
          inDrive.set(e.rq, e.tNs);
          return;
        case 'R':
          inDrive.delete(e.rq);
          return;
        case 'C':
          completed(e);
          return;
        default:
      }
    },
    tables(): ChartTables {
      settle();
      const destage = destages.tables(sim ? sim.state.workload.instances.length : 0);
      return {
        ios: {
          n: io.n,
          qNs: io.qNs.trimmed(io.n),
          dNs: io.dNs.trimmed(io.n),
          cNs: io.cNs.trimmed(io.n),
          proc: io.proc.trimmed(io.n),
          nSectors: io.nSectors.trimmed(io.n),
          write: io.write.trimmed(io.n),
        },
        requests: {
          n: rq.n,
          qNs: rq.qNs.trimmed(rq.n),
          dNs: rq.dNs.trimmed(rq.n),
          cNs: rq.cNs.trimmed(rq.n),
          sector: rq.sector.trimmed(rq.n),
          nSectors: rq.nSectors.trimmed(rq.n),
          proc: rq.proc.trimmed(rq.n),
          flags: rq.flags.trimmed(rq.n),
          seekNs: rq.seekNs.trimmed(rq.n),
          rotationNs: rq.rotationNs.trimmed(rq.n),
          transferNs: rq.transferNs.trimmed(rq.n),
          overheadNs: rq.overheadNs.trimmed(rq.n),
          bios: rq.bios.trimmed(rq.n),
        },
        inDriveDNs: Float64Array.from(inDrive.values()),
        ...destage,
        truncated,
      };
    },
  };
}

export { WHOLE_RUN_BOUND, type RunBound } from './bounds';

/** What the charts draw: a subset of the played RunLog, or a whole run's. */
export interface ChartLog {
  name: string;
  title: string;
  seed: number;
  processes: string[];
  /** the window charted is [fromNs, endNs]: 0 for a whole run, later for a played window */
  fromNs: number;
  endNs: number;
  bounded: boolean;
  summary: RunSummary;
  tables: ChartTables;
  scenario: Scenario;
}

/** Step a simulation until its end or the bound; true when the bound stopped it. */
export function runWithin(sim: Simulation, completions: () => number, bound: RunBound): boolean {
  while (step(sim)) {
    if (completions() >= bound.completions || sim.state.now >= bound.simNs) return true;
  }
  return false;
}

/** The workload's process instances by name, as the CLI's blkparse export names them. */
function processNames(sim: Simulation): string[] {
  return sim.state.workload.instances.map((inst) => inst.name);
}

/** Run a scenario (to its end or the bound) recording only the chart tables. */
export function chartRun(scenario: Scenario, seed: number, bound: RunBound): ChartLog {
  const recorder = createTableRecorder();
  let completions = 0;
  const sink: TraceSink = {
    trace(e) {
      if (e.action === 'C') completions++;
      recorder.trace(e);
    },
    service: (s) => recorder.service(s),
    decision() {},
  };
  const sim = createSimulation(buildModel(scenario, seed), sink);
  recorder.bind(sim);
  const bounded = runWithin(sim, () => completions, bound);
  return {
    name: scenario.name,
    title: scenario.title,
    seed,
    processes: processNames(sim),
    fromNs: 0,
    endNs: sim.state.now,
    bounded,
    summary: summarize(sim, scenario),
    tables: recorder.tables(),
    scenario,
  };
}

/** The tables' typed arrays' buffers, to transfer rather than copy. */
export function buffersOf(t: ChartTables): ArrayBuffer[] {
  const cols = [
    ...Object.values(t.ios),
    ...Object.values(t.requests),
    t.inDriveDNs,
    t.destageNs,
    t.destagePhaseNs.all,
    t.destagePhaseNs.byProc,
  ];
  return cols.filter((c) => ArrayBuffer.isView(c)).map((c) => (c as Typed).buffer as ArrayBuffer);
}

/** Lines joined per chunk: a long run's text is built as a Blob of chunks, never one string. */
const LINES_PER_CHUNK = 8192;

/** The methods the charts panel calls (spread into the worker's comlink API). */
export const chartMethods = {
  /** The run to its scenario's end, within WHOLE_RUN_BOUND; the columns are transferred. */
  wholeRun(scenario: Scenario, seed: number): ChartLog {
    const log = chartRun(scenario, seed, WHOLE_RUN_BOUND);
    return transfer(log, buffersOf(log.tables));
  },

  /** The run as blkparse text, stopped at the same bound as the log it goes with. */
  blkparse(scenario: Scenario, seed: number, bound: RunBound): Blob {
    let names: string[] = [];
    const chunks: string[] = [];
    let lines: string[] = [];
    let completions = 0;
    const writer = new BlkparseWriter(
      (line) => {
        lines.push(line);
        if (lines.length >= LINES_PER_CHUNK) {
          chunks.push(lines.join('\n') + '\n');
          lines = [];
        }
      },
      { nameOf: (proc) => names[proc] ?? `proc${proc}` },
    );
    const sink: TraceSink = {
      trace(e) {
        if (e.action === 'C') completions++;
        writer.trace(e);
      },
      service() {},
      decision() {},
    };
    const sim = createSimulation(buildModel(scenario, seed), sink);
    names = processNames(sim);
    runWithin(sim, () => completions, bound);
    if (lines.length > 0) chunks.push(lines.join('\n') + '\n');
    return new Blob(chunks, { type: 'text/plain' });
  },
};
