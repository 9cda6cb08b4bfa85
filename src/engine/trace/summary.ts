// The trace summary, accumulated while the lines stream past: blkparse's own end-of-run
// figures (counts and KiB per direction, merges, requeues, depth, unplugs, per CPU and in
// total, with blkparse's meanings — an empty flush `D FN` is a read of 0 KiB) and btt's
// latency rows (Q2Q, Q2G, S2G, G2I, Q2M, I2D, M2D, D2C, Q2C; Q2D) and merge ratio, computed
// as btt 2.09 computes them (btt.ts). Only in-flight state is kept.
import { BttDevice, BttGlobal, mergeRows, type BttFigures } from './btt';
import { ACTIONS, actionIndex, type ParsedEvent, type SummaryLine } from './parse-line';
import type { FeedStats, TraceSink } from './stream';
import {
  block,
  ck,
  countPassThrough,
  IoStats,
  throughput,
  type BlockFigures,
  type CountKib,
  type DirectionFigures,
} from './io-stats';

import { PrintedSummaries, type PrintedSummary } from './printed-summary';
import { DeviceTable, MAX_DEVICES, type OtherDevices } from './device-table';

export { IoStats, type BlockFigures, type CountKib, type DirectionFigures } from './io-stats';
export type { PrintedSummary } from './printed-summary';

export interface DeviceFigures extends BlockFigures {
  events: number;
  /** the most requests issued and not completed, per direction (blkparse's depth) */
  depth: { read: number; write: number };
  /** completed KiB per second over the trace's span, as blkparse computes it */
  throughputKiBs: { read: number; write: number };
  cpus: Record<string, BlockFigures>;
  btt: BttFigures;
  /** events whose time stamp is earlier than the one before them on this device */
  timeReversals: number;
}

export interface ProcessFigures {
  pid: number;
  name: string;
  queued: CountKib;
  dispatched: CountKib;
  completed: CountKib;
  merges: number;
}

export interface ParseReport {
  lines: number;
  events: number;
  malformed: number;
  problems: { line: number; text: string; reason: string }[];
  devices: string[];
  /** the device summarised ("all" = every device) */
  device: string;
  formats: string[];
  actions: Record<string, number>;
  messages: number;
  reads: DirectionFigures;
  writes: DirectionFigures;
  unplugs: { io: number; timer: number };
  pc?: BlockFigures['pc'];
  depth: { read: number; write: number };
  throughputKiBs: { read: number; write: number };
  timeSpan: { first: number; last: number };
  btt: BttFigures;
  cpus: Record<string, BlockFigures>;
  perDevice: Record<string, DeviceFigures>;
  processes: ProcessFigures[];
  printedSummary: Record<string, PrintedSummary>;
  /** events still out of time order on their device (later than the reorder window) */
  timeReversals: number;
  /** events that arrived out of time order and were put back in place (time-order.ts) */
  reordered: number;
  /** devices beyond the first MAX_DEVICES, counted in the totals only (device-table.ts) */
  otherDevices: OtherDevices | null;
}

class DeviceState {
  readonly cpus: IoStats[] = [];
  readonly btt: BttDevice;
  events = 0;
  curR = 0;
  curW = 0;
  maxR = 0;
  maxW = 0;
  first = -1;
  last = -1;
  lastT = -1;
  reversals = 0;
  constructor(readonly dev: string) {
    this.btt = new BttDevice(dev);
  }
  cpu(n: number): IoStats {
    let s = this.cpus[n];
    if (s === undefined) {
      s = new IoStats();
      this.cpus[n] = s;
    }
    return s;
  }
}

class Proc {
  name = '';
  q = 0;
  qb = 0;
  d = 0;
  db = 0;
  c = 0;
  cb = 0;
  m = 0;
  constructor(readonly pid: number) {}
}

const MAX_PROCESSES = 10_000;

export interface SummaryOptions {
  /** only this device ("maj,min"); every device otherwise */
  device?: string;
}

export class TraceSummary implements TraceSink {
  private readonly devs = new Map<string, DeviceState>();
  private lastDev: DeviceState | null = null;
  private readonly seen = new Set<string>();
  private readonly formats = new Set<string>();
  /** events per action code, in ACTIONS order (actionIndex) */
  private readonly actions = new Float64Array(ACTIONS.length);
  private readonly procs = new Map<number, Proc>();
  /** the process last counted: consecutive events are mostly one process's */
  private lastProc: Proc | null = null;
  private readonly names = new Map<number, string>();
  /** the name last recorded and for which PID (command strings are interned: === is cheap) */
  private lastNamePid = -1;
  private lastName = '';
  private readonly global = new BttGlobal();
  private readonly printed = new PrintedSummaries();
  private readonly only: string | undefined;

  /** the devices beyond the table's (device-table.ts): their counts, no btt or depth */
  private readonly rest = new DeviceState('');
  private readonly table: DeviceTable;

  /** `table`: shared with the time-order window and replay's collector, so that all three
   * read the same devices in detail */
  constructor(opts: SummaryOptions = {}, table?: DeviceTable) {
    this.only = opts.device;
    this.table = table ?? new DeviceTable(MAX_DEVICES, opts.device);
  }

  event(e: ParsedEvent): void {
    let d = this.lastDev;
    if (d === null || d.dev !== e.dev) {
      if (!this.table.admit(e.dev)) {
        // a device beyond the table's: counted into the totals only (device-table.ts)
        this.formats.add(e.format);
        if (this.only !== undefined) return;
        d = this.rest;
        this.lastDev = null;
      } else {
        if (!this.seen.has(e.dev)) {
          this.seen.add(e.dev);
          this.formats.add(e.format);
        }
        if (this.only !== undefined && e.dev !== this.only) return;
        d = this.devs.get(e.dev) ?? null;
        if (d === null) {
          d = new DeviceState(e.dev);
          this.devs.set(e.dev, d);
        }
        this.lastDev = d;
      }
    }
    const t = e.tNs;
    if (d.first < 0) d.first = t;
    if (t > d.last) d.last = t;
    if (t < d.lastT) d.reversals++;
    d.lastT = t;
    d.events++;
    const a = e.action;
    this.actions[actionIndex(a)]! += 1;
    if (a === 'm') return;
    if (e.comm !== undefined && e.pid !== 0 && a !== 'C' && a !== 'R') this.name(e.pid, e.comm);
    const st = d.cpu(e.cpu);
    const w = e.write;
    const pc = e.pc;
    if (pc !== undefined) {
      countPassThrough(d, st, e.action, pc.bytes, w);
      return;
    }
    const bytes = e.nSectors * 512;
    switch (a) {
      case 'Q':
        if (w) {
          st.qW++;
          st.qWb += bytes;
        } else {
          st.qR++;
          st.qRb += bytes;
        }
        this.proc(e.pid, 'q', bytes);
        break;
      case 'D':
        if (w) {
          st.dW++;
          st.dWb += bytes;
          if (++d.curW > d.maxW) d.maxW = d.curW;
        } else {
          st.dR++;
          st.dRb += bytes;
          if (++d.curR > d.maxR) d.maxR = d.curR;
        }
        this.proc(e.pid, 'd', bytes);
        break;
      case 'C':
        if (w) {
          if (d.curW > 0) d.curW--;
          st.cW++;
          st.cWb += bytes;
        } else {
          if (d.curR > 0) d.curR--;
          st.cR++;
          st.cRb += bytes;
        }
        this.proc(e.pid, 'c', bytes);
        break;
      case 'M':
      case 'F':
        if (w) {
          st.mW++;
          st.mWb += bytes;
        } else {
          st.mR++;
          st.mRb += bytes;
        }
        this.proc(e.pid, 'm', bytes);
        break;
      case 'R':
        if (w) {
          if (d.curW > 0) d.curW--;
          st.rqW++;
        } else {
          if (d.curR > 0) d.curR--;
          st.rqR++;
        }
        break;
      case 'U':
        st.ioUnplugs++;
        break;
      case 'UT':
        st.timerUnplugs++;
        break;
      default:
        break;
    }
    if (d !== this.rest) d.btt.event(e, this.global);
  }

  /** the process's name is the command of its latest event (skipped when unchanged) */
  private name(pid: number, comm: string): void {
    if (pid === this.lastNamePid && comm === this.lastName) return;
    this.names.set(pid, comm);
    this.lastNamePid = pid;
    this.lastName = comm;
  }

  private proc(pid: number, what: 'q' | 'd' | 'c' | 'm', bytes: number): void {
    let p = this.lastProc;
    if (p === null || p.pid !== pid) {
      const known = this.procs.get(pid);
      if (known !== undefined) p = known;
      else {
        if (this.procs.size >= MAX_PROCESSES) return;
        p = new Proc(pid);
        this.procs.set(pid, p);
      }
      this.lastProc = p;
    }
    switch (what) {
      case 'q':
        p.q++;
        p.qb += bytes;
        break;
      case 'd':
        p.d++;
        p.db += bytes;
        break;
      case 'c':
        p.c++;
        p.cb += bytes;
        break;
      case 'm':
        p.m++;
        break;
    }
  }

  summary(s: SummaryLine): void {
    this.printed.add(s);
  }

  /** `reordered`: how many events the time-order window moved back into place */
  report(feed: FeedStats, reordered = 0): ParseReport {
    const devices = [...this.seen].sort(devOrder);
    const perDevice: Record<string, DeviceFigures> = {};
    const all = new IoStats();
    const allCpus: IoStats[] = [];
    let depthR = 0;
    let depthW = 0;
    let first = -1;
    let last = -1;
    let reversals = 0;
    const bttDevs: BttDevice[] = [];
    for (const dev of [...this.devs.keys()].sort(devOrder)) {
      const d = this.devs.get(dev)!;
      const total = new IoStats();
      const cpus: Record<string, BlockFigures> = {};
      d.cpus.forEach((s, n) => {
        total.add(s);
        cpus[`CPU${n}`] = block(s);
        (allCpus[n] ??= new IoStats()).add(s);
      });
      all.add(total);
      depthR = Math.max(depthR, d.maxR);
      depthW = Math.max(depthW, d.maxW);
      if (d.first >= 0 && (first < 0 || d.first < first)) first = d.first;
      if (d.last > last) last = d.last;
      reversals += d.reversals;
      bttDevs.push(d.btt);
      perDevice[dev] = {
        ...block(total),
        events: d.events,
        depth: { read: d.maxR, write: d.maxW },
        throughputKiBs: throughput(total, d.first, d.last),
        cpus,
        btt: mergeRows([d.btt], null),
        timeReversals: d.reversals,
      };
    }
    // the other devices' counts are blkparse's too: in the totals and per CPU
    this.rest.cpus.forEach((s, n) => {
      all.add(s);
      (allCpus[n] ??= new IoStats()).add(s);
    });
    if (this.rest.first >= 0 && (first < 0 || this.rest.first < first)) first = this.rest.first;
    if (this.rest.last > last) last = this.rest.last;
    const cpus: Record<string, BlockFigures> = {};
    allCpus.forEach((s, n) => (cpus[`CPU${n}`] = block(s)));
    const totals = block(all);
    const processes: ProcessFigures[] = [...this.procs.values()]
      .map((p) => ({
        pid: p.pid,
        name: this.names.get(p.pid) ?? (p.pid === 0 ? '(interrupt)' : ''),
        queued: ck(p.q, p.qb),
        dispatched: ck(p.d, p.db),
        completed: ck(p.c, p.cb),
        merges: p.m,
      }))
      .sort((a, b) => b.queued.count - a.queued.count || a.pid - b.pid);
    const report: ParseReport = {
      lines: feed.lines,
      events: feed.events,
      malformed: feed.malformed,
      problems: feed.problems,
      devices,
      device: this.only ?? 'all',
      formats: [...this.formats].sort(),
      actions: Object.fromEntries(
        ACTIONS.map((a, k) => [a, this.actions[k]!] as const).filter(([, n]) => n > 0),
      ),
      messages: this.actions[actionIndex('m')]!,
      reads: totals.reads,
      writes: totals.writes,
      unplugs: totals.unplugs,
      depth: { read: depthR, write: depthW },
      throughputKiBs: throughput(all, first, last),
      timeSpan: { first: first < 0 ? 0 : first / 1e9, last: last < 0 ? 0 : last / 1e9 },
      btt: mergeRows(bttDevs, this.global),
      cpus,
      perDevice,
      processes,
      printedSummary: this.printed.byDevice,
      timeReversals: reversals,
      reordered,
      otherDevices: this.table.otherDevices(this.rest.events),
    };
    if (totals.pc) report.pc = totals.pc;
    return report;
  }
}

function devOrder(a: string, b: string): number {
  const [am, an] = a.split(',').map(Number) as [number, number];
  const [bm, bn] = b.split(',').map(Number) as [number, number];
  return am - bm || an - bn;
}
