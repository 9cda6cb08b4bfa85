// The simulation's pending events: a binary min-heap ordered by (time, priority, insertion),
// the order SimPy uses, so equal-time events run in a fixed, documented order.
// Plain data only (arrays of plain objects) so a whole simulation can be structuredClone'd.

export interface SimEvent {
  /** when it fires, ns */
  t: number;
  /** lower runs first among equal times (see EventPriority) */
  p: number;
  /** insertion number: ties broken first-in first-out */
  s: number;
  /** what happens: an EventKind */
  kind: number;
  /** small integer argument (process index, etc.) */
  a: number;
  /** the request involved, if any */
  rq: number;
}

export interface EventHeap {
  /**
   * items[0 … size) is the heap; the event objects past `size` were processed and are
   * reused by the next pushes, so a long run allocates no event objects. The array only
   * grows (to the most events ever pending at once): pushing and popping are indexed
   * reads and writes, never Array push/pop.
   */
  items: SimEvent[];
  size: number;
  nextSeq: number;
}

export function createHeap(): EventHeap {
  // One spare to start with: the array holds objects from its creation on. (Created empty,
  // V8 would change its element kind at the first push, in every new simulation, and drop
  // the optimized code that pushes events.)
  return { items: [newEvent()], size: 0, nextSeq: 0 };
}

/** A spare event object (pushEvent sets its fields). NaN: `t` is a double from the start. */
function newEvent(): SimEvent {
  return { t: NaN, p: 0, s: 0, kind: 0, a: 0, rq: -1 };
}

function before(x: SimEvent, y: SimEvent): boolean {
  if (x.t !== y.t) return x.t < y.t;
  if (x.p !== y.p) return x.p < y.p;
  return x.s < y.s;
}

export function pushEvent(h: EventHeap, t: number, p: number, kind: number, a = 0, rq = -1): void {
  const items = h.items;
  let i = h.size;
  // A new object only when more events are pending than ever before. One path that fills
  // the fields keeps this function small: V8 inlines it into its many callers, within a
  // budget per function shared with their other callees.
  if (i === items.length) items.push(newEvent());
  const ev = items[i]!;
  ev.t = t;
  ev.p = p;
  ev.s = h.nextSeq++;
  ev.kind = kind;
  ev.a = a;
  ev.rq = rq;
  h.size = i + 1;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    const up = items[parent]!;
    if (!before(ev, up)) break;
    items[i] = up;
    i = parent;
  }
  items[i] = ev;
}

export function peekEvent(h: EventHeap): SimEvent | undefined {
  return h.size > 0 ? h.items[0] : undefined;
}

/**
 * Take the earliest event off the heap. The object returned is the heap's own, parked
 * for reuse: read it before the next pushEvent, which may overwrite it.
 */
export function popEvent(h: EventHeap): SimEvent | undefined {
  if (h.size === 0) return undefined;
  const items = h.items;
  const top = items[0]!;
  const n = --h.size;
  if (n > 0) {
    const last = items[n]!;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      let c = l;
      if (r < n && before(items[r]!, items[l]!)) c = r;
      if (!before(items[c]!, last)) break;
      items[i] = items[c]!;
      i = c;
    }
    items[i] = last;
  }
  items[n] = top;
  return top;
}
