// Each traced process's plugs, numbered (TracedQ.plug): kernel 6.18's per-task plug shows in
// blktrace as P when a request goes into an empty plug (blk_add_rq_to_plug) and U — or UT, the
// task went to sleep — when it is flushed (blk_mq_flush_plug_list). The Qs a task queued from
// the one whose request opened the plug (Q G P) to its U went in one plug: the task submitted
// them without sleeping between. A flush at the plug's limits (32 requests, 128 KiB) is U then
// P before the task's next Q: the same submission goes on.
//
// Before 2.6.39 the same letters meant the queue's plug: P by whichever process plugged it, U
// by whichever unplugged it, UT by kblockd on the unplug timer. Such a trace unplugs plugs
// that are not the unplugging task's own, which a per-task plug never does (a task flushes only
// its own, and only one holding requests): one such U or UT and the numbering is dropped
// (perTask false), as it is in a trace with no U at all.

/** What the numbering needs of a Q: its plug, set here. */
export interface PluggedQ {
  plug: number;
}

export class PlugNumbers {
  /** each process's open plug (P seen, not yet U or UT) */
  private readonly open = new Map<number, number>();
  /** each process's latest Q (null: one not replayed) */
  private readonly lastQ = new Map<number, PluggedQ | null>();
  private next = 0;
  /** the processes with a P, U or UT seen: a task's first U may close a plug begun before the
   * trace did */
  private readonly seen = new Set<number>();
  private unplugs = 0;
  private foreign = false;

  /** the trace's P and U are per-task plugs: at least one U or UT, each the task's own */
  get perTask(): boolean {
    return this.unplugs > 0 && !this.foreign;
  }

  /** Q: the plug it goes into (−1: none open); `q` null for a Q that is not replayed */
  queued(pid: number, q: PluggedQ | null): void {
    this.lastQ.set(pid, q);
    if (q !== null) q.plug = this.open.get(pid) ?? -1;
  }

  /** P, U or UT of the task */
  event(action: 'P' | 'U' | 'UT', pid: number): void {
    const first = !this.seen.has(pid);
    this.seen.add(pid);
    if (action === 'P') {
      this.plugged(pid);
      return;
    }
    this.unplugs++;
    if (!this.open.delete(pid) && !first) this.foreign = true;
  }

  /** P: the plug takes its first request — that of the task's latest Q, which opens it; or,
   * after a flush at the plug's limits, that Q's plug goes on */
  private plugged(pid: number): void {
    const q = this.lastQ.get(pid) ?? null;
    if (q !== null && q.plug >= 0) {
      this.open.set(pid, q.plug);
      return;
    }
    const n = this.next++;
    this.open.set(pid, n);
    if (q !== null) q.plug = n;
  }
}
