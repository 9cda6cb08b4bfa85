// Time order per device, in bounded memory. blkparse sorts what it prints, but text reaches
// Spindle in other ways too: ftrace's per-CPU files pasted one after another, traces of
// two runs joined, lines edited by hand. Each device's events are held back in a short
// window (the last `hold` events) and released in time order, so an event that arrives up
// to `hold` events late is put back in its place; one later than that is passed on as it
// came and counted (the summary reports it as a time reversal). Events with equal times
// keep their order of arrival. Summary lines flush every window first (see flush).
import { newEvent, type ParsedEvent, type SummaryLine } from './parse-line';
import type { DeviceTable } from './device-table';
import type { TraceSink } from './stream';

/** how many events of one device are held back (a power of two): far more than the few
 * microseconds by which per-CPU buffers disagree, small enough to stay in cache */
export const DEFAULT_HOLD = 1024;

export interface TimeOrderStats {
  /** events that arrived earlier in time than one already held and were moved back */
  reordered: number;
  /** events later than the window could repair (released out of order) */
  late: number;
}

/** The events held for one device: a ring, oldest at `head`. */
class Window {
  readonly ring: (ParsedEvent | undefined)[];
  readonly mask: number;
  head = 0;
  size = 0;
  /** the time of the last event released */
  released = -Infinity;
  constructor(capacity: number) {
    this.ring = new Array<ParsedEvent | undefined>(capacity).fill(undefined);
    this.mask = capacity - 1;
  }
  at(k: number): ParsedEvent {
    return this.ring[(this.head + k) & this.mask]!;
  }
}

export class TimeOrder implements TraceSink {
  readonly stats: TimeOrderStats = { reordered: 0, late: 0 };
  private readonly windows = new Map<string, Window>();
  private lastDev = '';
  private last: Window | null = null;
  private readonly hold: number;

  /** `reuse`: the feeder refills one event object line after line (TraceFeeder's
   * reuseEvents): this window keeps the object it is handed and gives the feeder the one
   * it released (or a new one while it fills), and `out` must keep nothing of an event
   * beyond its call. */
  /** `table`: only the devices it reads in detail get a window; the events of the rest pass
   * straight on (they are only counted: device-table.ts) */
  constructor(
    private readonly out: TraceSink,
    private readonly reuse: boolean,
    hold = DEFAULT_HOLD,
    private readonly table: DeviceTable | null = null,
  ) {
    this.hold = 2 ** Math.ceil(Math.log2(Math.max(1, hold)));
  }

  event(e: ParsedEvent): ParsedEvent | void {
    let w = this.last;
    if (w === null || this.lastDev !== e.dev) {
      if (this.table !== null && !this.table.admit(e.dev)) {
        this.last = null;
        this.out.event(e);
        return undefined; // the feeder refills the same object: `out` kept nothing of it
      }
      w = this.window(e.dev);
    }
    const t = e.tNs;
    // a full window releases its oldest; in reuse mode that object goes back to the feeder
    const spare = w.size === this.hold && t >= w.released ? this.release(w) : undefined;
    if (t < w.released) {
      // too late to put back: its place was released already (not kept: the feeder may
      // refill it)
      this.stats.late++;
      this.out.event(e);
      return this.reuse ? spare : undefined;
    }
    const ring = w.ring;
    const tail = (w.head + w.size) & w.mask;
    if (w.size === 0 || ring[(tail - 1) & w.mask]!.tNs <= t) ring[tail] = e;
    else this.insert(w, e);
    w.size++;
    if (this.reuse) return spare ?? newEvent(0, 'blkparse', '', 0, 0, 0, 0, undefined);
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

  private window(dev: string): Window {
    let w = this.windows.get(dev);
    if (w === undefined) {
      w = new Window(this.hold);
      this.windows.set(dev, w);
    }
    this.last = w;
    this.lastDev = dev;
    return w;
  }

  /** An event earlier than the newest held: after every held event of its time or before. */
  private insert(w: Window, e: ParsedEvent): void {
    this.stats.reordered++;
    let lo = 0;
    let hi = w.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (w.at(mid).tNs <= e.tNs) lo = mid + 1;
      else hi = mid;
    }
    for (let k = w.size; k > lo; k--) w.ring[(w.head + k) & w.mask] = w.at(k - 1);
    w.ring[(w.head + lo) & w.mask] = e;
  }

  /** Passes the oldest held event on; returns it (the sink is done with it). */
  private release(w: Window): ParsedEvent {
    const i = w.head;
    const ev = w.ring[i]!;
    w.ring[i] = undefined;
    w.head = (i + 1) & w.mask;
    w.size--;
    w.released = ev.tNs;
    this.out.event(ev);
    return ev;
  }
}
