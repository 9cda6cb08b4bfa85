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
  items: SimEvent[];
  nextSeq: number;
  /** processed events kept for reuse, so a long run allocates no event objects */
  spare: SimEvent[];
}

export function createHeap(): EventHeap {
  return { items: [], nextSeq: 0, spare: [] };
}

/** Give a processed event back for reuse; the caller must not touch it afterwards. */
export function recycleEvent(h: EventHeap, ev: SimEvent): void {
  if (h.spare.length < 256) h.spare.push(ev);
}

function before(x: SimEvent, y: SimEvent): boolean {
  if (x.t !== y.t) return x.t < y.t;
  if (x.p !== y.p) return x.p < y.p;
  return x.s < y.s;
}

export function pushEvent(h: EventHeap, t: number, p: number, kind: number, a = 0, rq = -1): void {
  let ev = h.spare.pop();
  if (ev) {
    ev.t = t;
    ev.p = p;
    ev.s = h.nextSeq++;
    ev.kind = kind;
    ev.a = a;
    ev.rq = rq;
  } else {
    ev = { t, p, s: h.nextSeq++, kind, a, rq };
  }
  const items = h.items;
  let i = items.length;
  items.push(ev);
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
  return h.items[0];
}

export function popEvent(h: EventHeap): SimEvent | undefined {
  const items = h.items;
  const top = items[0];
  if (top === undefined) return undefined;
  const last = items.pop()!;
  const n = items.length;
  if (n > 0) {
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
  return top;
}
