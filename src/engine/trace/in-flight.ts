// btt's in-flight Qs (btt.ts), in order of start sector: what a Q keeps while it waits for
// its G, S, I, M, D and C. Held in typed arrays, not one object per Q: a Q is a slot of the
// per-slot arrays, and the order is two arrays (start sectors, slots) that an insert or a
// removal shifts with copyWithin — a memmove, where shifting an array of objects costs a
// store with a write barrier per element (the order is a few hundred Qs long when a trace
// leaves bios unfinished, e.g. split ones).

/** more in-flight Qs than any real queue holds: beyond it the oldest are dropped */
export const MAX_IN_FLIGHT = 16_384;

export class InFlightQs {
  /** how many are in flight */
  size = 0;
  /** Qs dropped to keep memory bounded */
  evicted = 0;
  /** the start sectors in ascending order, and each one's slot (index for index) */
  starts: Float64Array;
  order: Int32Array;
  /** per slot: the end sector (exclusive), the Q's time, and its last G, S, I, M and D
   * times (−1: none yet) */
  end: Float64Array;
  t: Float64Array;
  gT: Float64Array;
  sT: Float64Array;
  iT: Float64Array;
  mT: Float64Array;
  dT: Float64Array;
  /** the slots not in use, a stack */
  private free: Int32Array;
  private nFree: number;

  constructor(capacity = 64) {
    this.starts = new Float64Array(capacity);
    this.order = new Int32Array(capacity);
    this.end = new Float64Array(capacity);
    this.t = new Float64Array(capacity);
    this.gT = new Float64Array(capacity);
    this.sT = new Float64Array(capacity);
    this.iT = new Float64Array(capacity);
    this.mT = new Float64Array(capacity);
    this.dT = new Float64Array(capacity);
    this.free = new Int32Array(capacity);
    for (let k = 0; k < capacity; k++) this.free[k] = capacity - 1 - k;
    this.nFree = capacity;
  }

  /** btt's rb insert: false when a Q with the same start sector is in flight */
  insert(start: number, end: number, t: number): boolean {
    const k = this.firstAtOrAfter(start);
    const n = this.size;
    if (k < n && this.starts[k] === start) return false;
    if (this.nFree === 0) this.grow();
    const slot = this.free[--this.nFree]!;
    if (k < n) {
      this.starts.copyWithin(k + 1, k, n);
      this.order.copyWithin(k + 1, k, n);
    }
    this.starts[k] = start;
    this.order[k] = slot;
    this.end[slot] = end;
    this.t[slot] = t;
    this.gT[slot] = -1;
    this.sT[slot] = -1;
    this.iT[slot] = -1;
    this.mT[slot] = -1;
    this.dT[slot] = -1;
    this.size = n + 1;
    if (this.size > MAX_IN_FLIGHT) this.evictOldest();
    return true;
  }

  /** the position (in start order) of the first Q starting at or after `sector` */
  firstAtOrAfter(sector: number): number {
    const starts = this.starts;
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid]! < sector) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** the slot of the in-flight Q whose [start, end) holds `sector` (btt's dip_find_sec,
   * which looks at the last few starting at or before it), or −1 */
  holding(sector: number): number {
    let k = this.firstAtOrAfter(sector + 1) - 1; // last with start <= sector
    for (let tries = 0; k >= 0 && tries < 8; k--, tries++) {
      const slot = this.order[k]!;
      if (this.end[slot]! > sector) return slot;
    }
    return -1;
  }

  /** Drops positions [kept, to) of the order (their slots were released) and moves the
   * rest down. */
  closeGap(kept: number, to: number): void {
    if (kept >= to) return;
    const n = this.size;
    if (to < n) {
      this.starts.copyWithin(kept, to, n);
      this.order.copyWithin(kept, to, n);
    }
    this.size = n - (to - kept);
  }

  /** gives a slot back (its Q left the order) */
  release(slot: number): void {
    this.free[this.nFree++] = slot;
  }

  /** Drops the older half (by Q time): those at or before the median time. */
  private evictOldest(): void {
    const n = this.size;
    const times = new Float64Array(n);
    for (let k = 0; k < n; k++) times[k] = this.t[this.order[k]!]!;
    times.sort();
    const cut = times[n >> 1]!;
    let kept = 0;
    for (let k = 0; k < n; k++) {
      const slot = this.order[k]!;
      if (this.t[slot]! > cut) {
        this.starts[kept] = this.starts[k]!;
        this.order[kept++] = slot;
      } else this.release(slot);
    }
    this.evicted += n - kept;
    this.size = kept;
  }

  private grow(): void {
    const old = this.starts.length;
    const cap = old * 2;
    const more = <T extends Float64Array | Int32Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(cap);
      b.set(a);
      return b;
    };
    this.starts = more(this.starts);
    this.order = more(this.order);
    this.end = more(this.end);
    this.t = more(this.t);
    this.gT = more(this.gT);
    this.sT = more(this.sT);
    this.iT = more(this.iT);
    this.mT = more(this.mT);
    this.dT = more(this.dT);
    this.free = more(this.free);
    for (let slot = cap - 1; slot >= old; slot--) this.free[this.nFree++] = slot;
  }
}
