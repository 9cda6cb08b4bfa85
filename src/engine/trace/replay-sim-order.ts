// The simulated side of the dispatch agreement (replay-agreement.ts): from a replayed run's
// request events, each request's arrival order, its extent at its last D, and the moments
// it entered and left the scheduler's hands — so that at every dispatch the set of requests
// the scheduler held (inserted, not yet dispatched) is known afterwards.
//
// Arrival: the Q of the bio the request was allocated for (G) — not the G itself, which a
// process that sleeps for a request or a tag (S) reaches late, in wake-up order. The
// pieces of a split bio arrive with it (X names each but the last; the last piece's S or G
// follows its Q at once); pieces of one bio, in G order.
//
// When a request is "held": from its I on the 2.6 block layer (every request, 'none' too, is
// inserted at once after G). On kernel 6.18's block layer a request waits in its process's
// plug after G and enters the scheduler when the plug is flushed: U (or UT) with the number
// of requests, then an I for each — except under 'none', which blk-mq issues directly with
// no I. So on 6.18 the flush's U/UT makes the oldest `count` plugged requests of that
// process held (the plug's requests in submission order, plug-task.ts), whichever the
// scheduler. A D the device refused is followed at once by R (requeue.ts): that request
// stays held and is dispatched again later; only its last D counts.
import type { TraceEvent } from '../events';

/** One simulated request, in arrival order. */
export interface SimulatedRequest {
  /** extent at its last D (in the trace's addresses, as the caller maps them) */
  sector: number;
  nSectors: number;
  write: boolean;
  /** it was dispatched (a request merged into another never is) */
  dispatched: boolean;
}

/** The run's requests by arrival and its steps: each entry of `held` / `dispatch` in `steps`. */
export interface SimulatedOrder {
  requests: SimulatedRequest[];
  /** step kinds, in event order: HELD (the request entered the scheduler) or DISPATCHED
   * (its last D); `stepRq` the request's arrival index */
  stepKind: Uint8Array;
  stepRq: Int32Array;
  steps: number;
}

export const HELD = 1;
export const DISPATCHED = 2;
/** a D the device refused (followed by R): not the request's dispatch */
const REFUSED = 0;

export class SimulatedOrderRecorder {
  /** in G order until finish() puts them in arrival order */
  private readonly requests: SimulatedRequest[] = [];
  private readonly arrivalQ: number[] = [];
  private readonly byId = new Map<number, number>();
  /** each bio's Q (its sequence number) until it has a request or merges */
  private readonly bioQ = new Map<number, number>();
  private qSeq = -1;
  private held = new Uint8Array(1024);
  private stepKind = new Uint8Array(4096);
  private stepRq = new Int32Array(4096);
  private steps = 0;
  /** kernel 6.18: each process's plugged requests (arrival indices), oldest first */
  private readonly plugs = new Map<number, { rqs: number[]; head: number }>();

  /**
   * @param taskPlugs kernel 6.18's per-task plugging (requests wait in a plug after G)
   * @param mapSector the simulated address → the trace's (replay-addresses.ts)
   */
  constructor(
    private readonly taskPlugs: boolean,
    private readonly mapSector: (sector: number) => number = (s) => s,
  ) {}

  /** Feed every trace event of the run (the sink's `trace`). */
  event(e: TraceEvent): void {
    switch (e.action) {
      case 'Q':
        this.bioQ.set(e.bio ?? -1, ++this.qSeq);
        return;
      case 'X':
      case 'S':
        // a piece split off (X), or a bio sleeping for a request (S): the latest Q's, unless
        // it has its own
        if (!this.bioQ.has(e.bio ?? -1)) this.bioQ.set(e.bio ?? -1, this.qSeq);
        return;
      case 'M':
      case 'F':
        this.bioQ.delete(e.bio ?? -1);
        return;
      case 'G':
        this.arrived(e);
        return;
      case 'I': {
        const i = this.byId.get(e.rq);
        if (i !== undefined) this.hold(i);
        return;
      }
      case 'U':
      case 'T':
        if (this.taskPlugs) this.flushed(e.pid, e.count ?? 0);
        return;
      case 'D':
        this.dispatched(e);
        return;
      case 'R':
        this.refused(e.rq);
        return;
      default:
        return;
    }
  }

  finish(): SimulatedOrder {
    const n = this.requests.length;
    const q = this.arrivalQ;
    const byArrival = Array.from({ length: n }, (_, i) => i).sort((a, b) => q[a]! - q[b]! || a - b);
    const rank = new Int32Array(n);
    byArrival.forEach((i, r) => (rank[i] = r));
    const stepRq = this.stepRq.slice(0, this.steps);
    for (let k = 0; k < stepRq.length; k++) stepRq[k] = rank[stepRq[k]!]!;
    return {
      requests: byArrival.map((i) => this.requests[i]!),
      stepKind: this.stepKind.slice(0, this.steps),
      stepRq,
      steps: this.steps,
    };
  }

  private arrived(e: TraceEvent): void {
    if (e.rq < 0 || this.byId.has(e.rq)) return;
    const i = this.requests.length;
    this.byId.set(e.rq, i);
    this.requests.push({ sector: -1, nSectors: 0, write: e.write, dispatched: false });
    const bio = e.bio ?? -1;
    this.arrivalQ.push(this.bioQ.get(bio) ?? this.qSeq);
    this.bioQ.delete(bio);
    if (i >= this.held.length) {
      const grown = new Uint8Array(this.held.length * 2);
      grown.set(this.held);
      this.held = grown;
    }
    if (this.taskPlugs) {
      let plug = this.plugs.get(e.pid);
      if (plug === undefined) this.plugs.set(e.pid, (plug = { rqs: [], head: 0 }));
      plug.rqs.push(i);
    }
  }

  /** blk_mq_flush_plug_list: the process's `count` oldest plugged requests go on */
  private flushed(pid: number, count: number): void {
    const plug = this.plugs.get(pid);
    if (plug === undefined) return;
    for (let k = 0; k < count && plug.head < plug.rqs.length; k++)
      this.hold(plug.rqs[plug.head++]!);
    if (plug.head === plug.rqs.length) {
      plug.rqs = [];
      plug.head = 0;
    }
  }

  private hold(i: number): void {
    if (this.held[i] !== 0) return;
    this.held[i] = 1;
    this.step(HELD, i);
  }

  private dispatched(e: TraceEvent): void {
    const i = this.byId.get(e.rq);
    if (i === undefined || e.nSectors <= 0) return;
    const r = this.requests[i]!;
    r.sector = this.mapSector(e.sector);
    r.nSectors = e.nSectors;
    r.write = e.write;
    r.dispatched = true;
    this.hold(i); // never seen entering (it cannot happen, but the set must hold it)
    this.step(DISPATCHED, i);
  }

  /** R: the device refused the D just traced; the request is the scheduler's again */
  private refused(rq: number): void {
    const i = this.byId.get(rq);
    if (i === undefined) return;
    this.requests[i]!.dispatched = false; // until it is dispatched again
    for (let k = this.steps - 1; k >= 0; k--)
      if (this.stepRq[k] === i && this.stepKind[k] === DISPATCHED) {
        this.stepKind[k] = REFUSED;
        return;
      }
  }

  private step(kind: number, i: number): void {
    if (this.steps === this.stepKind.length) {
      const k = new Uint8Array(this.steps * 2);
      k.set(this.stepKind);
      this.stepKind = k;
      const r = new Int32Array(this.steps * 2);
      r.set(this.stepRq);
      this.stepRq = r;
    }
    this.stepKind[this.steps] = kind;
    this.stepRq[this.steps] = i;
    this.steps++;
  }
}
