// blkparse's per-CPU and total counters (its struct io_stats) and the figures they print
// as: counts and KiB per direction, merges, requeues, unplugs, pass-through requests, and
// the throughput line. summary.ts accumulates them while the trace streams past.

/** blkparse's struct io_stats, with sizes in bytes (KiB are derived as blkparse does). */
export class IoStats {
  qR = 0;
  qRb = 0;
  qW = 0;
  qWb = 0;
  dR = 0;
  dRb = 0;
  dW = 0;
  dWb = 0;
  cR = 0;
  cRb = 0;
  cW = 0;
  cWb = 0;
  mR = 0;
  mRb = 0;
  mW = 0;
  mWb = 0;
  rqR = 0;
  rqW = 0;
  ioUnplugs = 0;
  timerUnplugs = 0;
  pcQR = 0;
  pcQW = 0;
  pcDR = 0;
  pcDW = 0;
  pcCR = 0;
  pcCW = 0;
  pcRqR = 0;
  pcRqW = 0;
  pcQRb = 0;
  pcQWb = 0;
  pcDRb = 0;
  pcDWb = 0;
  pcCRb = 0;
  pcCWb = 0;

  add(o: IoStats): void {
    for (const k of Object.keys(this) as (keyof IoStats)[]) {
      const v = o[k];
      if (typeof v === 'number') (this as unknown as Record<string, number>)[k]! += v;
    }
  }
}

export interface CountKib {
  count: number;
  kib: number;
}

export interface DirectionFigures {
  queued: CountKib;
  dispatched: CountKib;
  completed: CountKib;
  requeued: number;
  /** back and front merges (blkparse's "Merges" count) */
  merges: number;
  mergesKib: number;
}

/** blkparse's per-CPU / Total block, in Spindle's names. */
export interface BlockFigures {
  reads: DirectionFigures;
  writes: DirectionFigures;
  unplugs: { io: number; timer: number };
  /** SCSI pass-through requests, only when the trace has any */
  pc?: {
    reads: { queued: CountKib; dispatched: CountKib; completed: CountKib; requeued: number };
    writes: { queued: CountKib; dispatched: CountKib; completed: CountKib; requeued: number };
  };
}

/** blkparse's KiB: bytes >> 10 per event plus the remainders' sum >> 10 = ⌊bytes / 1024⌋. */
export const kib = (bytes: number): number => Math.floor(bytes / 1024);
export const ck = (count: number, bytes: number): CountKib => ({ count, kib: kib(bytes) });

export function block(s: IoStats): BlockFigures {
  const b: BlockFigures = {
    reads: {
      queued: ck(s.qR, s.qRb),
      dispatched: ck(s.dR, s.dRb),
      completed: ck(s.cR, s.cRb),
      requeued: s.rqR,
      merges: s.mR,
      mergesKib: kib(s.mRb),
    },
    writes: {
      queued: ck(s.qW, s.qWb),
      dispatched: ck(s.dW, s.dWb),
      completed: ck(s.cW, s.cWb),
      requeued: s.rqW,
      merges: s.mW,
      mergesKib: kib(s.mWb),
    },
    unplugs: { io: s.ioUnplugs, timer: s.timerUnplugs },
  };
  if (s.pcQR + s.pcQW + s.pcDR + s.pcDW + s.pcCR + s.pcCW + s.pcRqR + s.pcRqW > 0) {
    b.pc = {
      reads: {
        queued: ck(s.pcQR, s.pcQRb),
        dispatched: ck(s.pcDR, s.pcDRb),
        completed: ck(s.pcCR, s.pcCRb),
        requeued: s.pcRqR,
      },
      writes: {
        queued: ck(s.pcQW, s.pcQWb),
        dispatched: ck(s.pcDW, s.pcDWb),
        completed: ck(s.pcCW, s.pcCWb),
        requeued: s.pcRqW,
      },
    };
  }
  return b;
}

/** blkparse: KiB completed × 1000 / whole milliseconds between the first and last event. */
export function throughput(
  s: IoStats,
  first: number,
  last: number,
): { read: number; write: number } {
  const msec = first >= 0 ? Math.floor((last - first) / 1e6) : 0;
  if (msec <= 0) return { read: 0, write: 0 };
  return {
    read: Math.floor((1000 * kib(s.cRb)) / msec),
    write: Math.floor((1000 * kib(s.cWb)) / msec),
  };
}

/** The depth counters a device keeps (requests dispatched and not yet completed). */
export interface Depth {
  curR: number;
  curW: number;
  maxR: number;
  maxW: number;
}

/** A SCSI pass-through (pc) event: blkparse counts these apart from the block requests. */
export function countPassThrough(
  d: Depth,
  st: IoStats,
  action: string,
  bytes: number,
  w: boolean,
): void {
  switch (action) {
    case 'Q':
      if (w) {
        st.pcQW++;
        st.pcQWb += bytes;
      } else {
        st.pcQR++;
        st.pcQRb += bytes;
      }
      break;
    case 'D':
      if (w) {
        st.pcDW++;
        st.pcDWb += bytes;
        if (++d.curW > d.maxW) d.maxW = d.curW;
      } else {
        st.pcDR++;
        st.pcDRb += bytes;
        if (++d.curR > d.maxR) d.maxR = d.curR;
      }
      break;
    case 'C':
      if (w) {
        if (d.curW > 0) d.curW--;
        st.pcCW++;
        st.pcCWb += bytes;
      } else {
        if (d.curR > 0) d.curR--;
        st.pcCR++;
        st.pcCRb += bytes;
      }
      break;
    case 'R':
      if (w) {
        if (d.curW > 0) d.curW--;
        st.pcRqW++;
      } else {
        if (d.curR > 0) d.curR--;
        st.pcRqR++;
      }
      break;
    default:
      break;
  }
}
