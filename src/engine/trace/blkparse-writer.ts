// A simulated run as blkparse text: one line per trace event in blkparse's default
// format (LINUX-SCHEDULERS.md §6.1), so the same parser reads real and simulated runs.
//
//   `  8,0    0        1     0.000000000  1000  Q   R 8 + 8 [reader]`
//    dev     cpu  sequence  sec.nanosec    pid act rwbs payload
//
// printf layout: "%3d,%-3d %2d %8d %5d.%09d %5d %2s %3s payload". A streaming TraceSink:
// each line goes to a callback as the event happens, so a long run holds no text.
import type { BlkAction, DecisionRecord, ServiceRecord, TraceEvent, TraceSink } from '../events';

export interface BlkparseOptions {
  /** device major,minor printed on every line (blktrace's sda: 8,0) */
  major?: number;
  minor?: number;
  /** the CPU column; the simulator has one */
  cpu?: number;
  /** the command name in brackets for an event's process (blktrace's pid → comm map) */
  nameOf?: (proc: number, pid: number) => string;
}

const NS_PER_S = 1_000_000_000;

/** RWBS letters (§6.3): R or W, then S for a synchronous write. Plain reads print `R` —
 * the kernel treats every read as synchronous without setting REQ_SYNC on it. A preflush
 * puts F first and FUA an F after the W; the flush command (REQ_OP_FLUSH: no data, not a
 * write) prints FN. */
export function rwbs(
  e: Pick<TraceEvent, 'action' | 'write' | 'sync' | 'nSectors' | 'preflush' | 'fua' | 'flushOp'>,
): string {
  if (e.action === 'P' || e.action === 'U' || e.action === 'T' || e.action === 'm') return 'N';
  if (e.flushOp) return 'FN';
  const main = e.write ? 'W' : 'R';
  return `${e.preflush ? 'F' : ''}${main}${e.fua ? 'F' : ''}${e.write && e.sync ? 'S' : ''}`;
}

/** `sec.nanosec` as blkparse prints it: `%5d.%09d`. Simulation time is float ns. */
export function formatTime(tNs: number): string {
  const ns = Math.round(tNs);
  const s = Math.floor(ns / NS_PER_S);
  return `${String(s).padStart(5)}.${String(ns - s * NS_PER_S).padStart(9, '0')}`;
}

/** blkparse's printed action: `UT` for a timer unplug, else the code itself. */
function actionText(a: BlkAction): string {
  return a === 'T' ? 'UT' : a;
}

/** The action-specific part after RWBS (§6.1 "Payload per action"). */
function payload(e: TraceEvent, comm: string): string {
  const where = e.nSectors > 0 ? `${e.sector} + ${e.nSectors} ` : '';
  switch (e.action) {
    case 'C':
    case 'R':
      // Completions and requeues carry the error value (0 = success), not a name.
      return e.nSectors > 0 ? `${e.sector} + ${e.nSectors} [0]` : `${e.sector} [0]`;
    case 'P':
      return `[${comm}]`;
    case 'U':
    case 'T':
      // The payload is the number of requests allocated on the queue at that moment.
      return `[${comm}] ${e.count ?? e.message ?? '0'}`;
    case 'm':
      return e.message ?? '';
    case 'X':
      // a split: where the bio started / where the piece split off it ends
      return `${e.sector} / ${e.sector + e.nSectors} [${comm}]`;
    default:
      // Q, G, I, D, M, F, S, A: sector + blocks [comm]
      return `${where}[${comm}]`;
  }
}

/** A TraceSink that writes each event as one blkparse line (no trailing newline). */
export class BlkparseWriter implements TraceSink {
  private readonly device: string;
  private readonly cpu: string;
  private readonly nameOf: (proc: number, pid: number) => string;
  /** blkparse numbers events per CPU, from 1 (message lines print 0) */
  private sequence = 0;
  /** lines written so far */
  lines = 0;

  constructor(
    private readonly write: (line: string) => void,
    options: BlkparseOptions = {},
  ) {
    const { major = 8, minor = 0, cpu = 0 } = options;
    this.device = `${String(major).padStart(3)},${String(minor).padEnd(3)}`;
    this.cpu = String(cpu).padStart(2);
    this.nameOf = options.nameOf ?? ((_proc, pid) => `pid${pid}`);
  }

  /** The line for one event (advances the sequence number). */
  format(e: TraceEvent): string {
    const message = e.action === 'm';
    const seq = message ? 0 : ++this.sequence;
    // Completions run in interrupt context (pid 0); messages print pid 0 too.
    const pid = e.action === 'C' || message ? 0 : e.pid;
    const comm = e.comm ?? this.nameOf(e.proc, e.pid);
    return (
      `${this.device} ${this.cpu} ${String(seq).padStart(8)} ${formatTime(e.tNs)} ${String(pid).padStart(5)} ` +
      `${actionText(e.action).padStart(2)} ${rwbs(e).padStart(3)} ${payload(e, comm)}`
    );
  }

  trace(e: TraceEvent): void {
    this.lines++;
    this.write(this.format(e));
  }

  service(_s: ServiceRecord): void {}

  decision(_d: DecisionRecord): void {}
}

/** Convenience: a sink writing blkparse lines to `write`. */
export function blkparseSink(
  write: (line: string) => void,
  options?: BlkparseOptions,
): BlkparseWriter {
  return new BlkparseWriter(write, options);
}
