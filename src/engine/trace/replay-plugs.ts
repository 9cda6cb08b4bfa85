// Each traced process's plugs, numbered (TracedQ.plug): kernel 6.18's per-task plug shows in
// blktrace as P when a request goes into an empty plug (blk_add_rq_to_plug) and U — or UT, the
// task went to sleep — when it is flushed (blk_mq_flush_plug_list). The Qs a task queued from
// the one whose request opened the plug (Q G P) to its U went in one plug: the task submitted
// them without sleeping between. A flush at the plug's limits (32 requests, 128 KiB) is U then
// P before the task's next Q: the same submission goes on.

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

  /** Q: the plug it goes into (−1: none open); `q` null for a Q that is not replayed */
  queued(pid: number, q: PluggedQ | null): void {
    this.lastQ.set(pid, q);
    if (q !== null) q.plug = this.open.get(pid) ?? -1;
  }

  /** P, U or UT of the task */
  event(action: 'P' | 'U' | 'UT', pid: number): void {
    if (action === 'P') this.plugged(pid);
    else this.open.delete(pid); // flushed
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
