// Per-process latency (Q2C, ms) from a run's log: each bio from its Q to the C of the
// request that carried it (G, M or F names the request). The RunSummary has each process's
// mean and max; the compare table also wants the 95th percentile, which only the log has.
import type { RunLog } from '../../worker/client';

export interface ProcessLatency {
  name: string;
  count: number;
  meanMs: number;
  p95Ms: number;
  maxMs: number;
}

/** Nearest-rank percentile of an ascending list. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export function processLatencies(log: Readonly<RunLog>): ProcessLatency[] {
  const queued = new Map<number, { t: number; proc: number }>();
  const bios = new Map<number, number[]>();
  const per: number[][] = log.processes.map(() => []);
  for (const e of log.events) {
    const bio = e.bio ?? -1;
    if (e.action === 'Q' && bio >= 0) queued.set(bio, { t: e.tNs, proc: e.proc });
    else if ((e.action === 'G' || e.action === 'M' || e.action === 'F') && bio >= 0 && e.rq >= 0) {
      const list = bios.get(e.rq);
      if (list) list.push(bio);
      else bios.set(e.rq, [bio]);
    } else if (e.action === 'C' && e.rq >= 0) {
      for (const b of bios.get(e.rq) ?? []) {
        const q = queued.get(b);
        if (!q) continue;
        (per[q.proc] ??= []).push((e.tNs - q.t) / 1e6);
        queued.delete(b);
      }
      bios.delete(e.rq);
    }
  }
  return per.map((xs, i) => {
    const sorted = [...xs].sort((a, b) => a - b);
    const sum = sorted.reduce((a, b) => a + b, 0);
    return {
      name: log.processes[i] ?? `process ${i}`,
      count: sorted.length,
      meanMs: sorted.length > 0 ? sum / sorted.length : 0,
      p95Ms: percentile(sorted, 95),
      maxMs: sorted.length > 0 ? sorted[sorted.length - 1]! : 0,
    };
  });
}
