// Time order per device, in bounded memory. blkparse sorts what it prints, but text reaches
// Spindle in other ways too: ftrace's per-CPU files pasted one after another, traces of
// two runs joined, lines edited by hand. Each device's events are held back in a short
// window (the last `hold` events) and released in time order, so an event that arrives up
// to `hold` events late is put back in its place; one later than that is passed on as it
// came and counted (the summary reports it as a time reversal). Events with equal times
// keep their order of arrival. Summary lines flush every window first (see flush).
import { newEvent, type ParsedEvent, type SummaryLine } from './parse-line';
import type { TraceSink } from './stream';

/** how many events of one device are held back: far more than the few microseconds by
 * which per-CPU buffers disagree, small enough to stay in the processor's cache */
export const DEFAULT_HOLD = 1024;

export interface TimeOrderStats {
  /** events that arrived earlier in time than one already held and were moved back */
  reordered: number;
  /** events later than the window could repair (released out of order) */
  late: number;
}

/** The events held for one device, oldest first (from `head`). */
class Window {
  events: ParsedEvent[] = [];
  head = 0;
  /** the time of the last event released */
  released = -Infinity;
  get size(): number {
    return this.events.length - this.head;
  }
}

export class TimeOrder implements TraceSink {
  readonly stats: TimeOrderStats = { reordered: 0, late: 0 };
  private readonly windows = new Map<string, Window>();
  private lastDev = '';
  private last: Window | null = null;
  /** copies of events, when the upstream refills one event object for every line */
  private readonly pool: ParsedEvent[] = [];

  /** `copy`: the feeder reuses its event object (TraceFeeder's reuseEvents), so each held
   * event is copied into an object of this class's own pool; `out` must then keep nothing
   * of an event beyond its call, as with reuseEvents. */
  constructor(
    private readonly out: TraceSink,
    private readonly copy: boolean,
    private readonly hold = DEFAULT_HOLD,
  ) {}

  event(e: ParsedEvent): void {
    let w = this.last;
    if (w === null || this.lastDev !== e.dev) {
      w = this.windows.get(e.dev) ?? null;
      if (w === null) {
        w = new Window();
        this.windows.set(e.dev, w);
      }
      this.last = w;
      this.lastDev = e.dev;
    }
    const t = e.tNs;
    if (t < w.released) {
      // too late to put back: its place was released already
      this.stats.late++;
      this.out.event(e);
      return;
    }
    const held = w.events;
    const ev = this.copy ? this.copyOf(e) : e;
    const n = held.length;
    if (n === w.head || held[n - 1]!.tNs <= t) held.push(ev);
    else {
      this.stats.reordered++;
      held.splice(upperBound(held, w.head, n, t), 0, ev);
    }
    if (n + 1 - w.head > this.hold) this.release(w);
  }

  summary(s: SummaryLine, line: number): void {
    this.flush();
    this.out.summary(s, line);
  }

  /** Releases everything held (at a summary block, at the end of the input). What follows
   * is ordered afresh: after a summary block comes another trace, pasted on, whose clock
   * starts again — its events are not late, only the trace's first is a time reversal. */
  flush(): void {
    for (const w of this.windows.values()) {
      while (w.size > 0) this.release(w);
      w.released = -Infinity;
    }
  }

  private release(w: Window): void {
    const ev = w.events[w.head]!;
    w.events[w.head++] = undefined as unknown as ParsedEvent;
    if (w.head === w.events.length) {
      w.events.length = 0;
      w.head = 0;
    } else if (w.head >= this.hold) {
      w.events.splice(0, w.head);
      w.head = 0;
    }
    w.released = ev.tNs;
    this.out.event(ev);
    if (this.copy) this.pool.push(ev);
  }

  private copyOf(e: ParsedEvent): ParsedEvent {
    // newEvent's object shape: the sink sees one shape whichever object it is handed
    const c = this.pool.pop() ?? newEvent(0, 'blkparse', '', 0, 0, 0, 0, undefined);
    copyEvent(c, e);
    return c;
  }
}

/** the first index in [lo, hi) whose time is later than t (after every equal time) */
function upperBound(a: ParsedEvent[], lo: number, hi: number, t: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]!.tNs <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Every field of ParsedEvent (tests/trace/time-order.test.ts checks none is missed). */
export function copyEvent(to: ParsedEvent, from: ParsedEvent): void {
  to.line = from.line;
  to.format = from.format;
  to.dev = from.dev;
  to.cpu = from.cpu;
  to.seq = from.seq;
  to.tNs = from.tNs;
  to.pid = from.pid;
  to.action = from.action;
  to.rwbs = from.rwbs;
  to.write = from.write;
  to.sector = from.sector;
  to.nSectors = from.nSectors;
  to.cgroup = from.cgroup;
  to.comm = from.comm;
  to.error = from.error;
  to.count = from.count;
  to.message = from.message;
  to.splitSector = from.splitSector;
  to.remapDev = from.remapDev;
  to.remapSector = from.remapSector;
  to.pc = from.pc;
  to.elapsedNs = from.elapsedNs;
}
