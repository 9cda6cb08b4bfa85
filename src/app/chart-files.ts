// The charts' data as files: one CSV row per completed request, and every chart's series
// with each run's engine summary as JSON. Pure (the downloads are in ./exports.ts).
import {
  breakdown,
  latencyCdf,
  latencyOverTime,
  lbaOverTime,
  throughput,
  type ChartRun,
} from './chart-data';
import { queueDepth } from './chart-depth';
import { processShares } from './chart-shares';

const NS_PER_MS = 1e6;

function csvField(v: string | number): string {
  const s = String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const fixed = (ns: number, digits = 6) => (ns === ns ? (ns / NS_PER_MS).toFixed(digits) : '');

/** One row per completed request of every run: times (ms), place, size, process, phases. */
export function requestsCsv(runs: readonly ChartRun[]): string {
  const head = [
    'run',
    'process',
    'op',
    'sync',
    'sector',
    'sectors',
    'bios',
    'q_ms',
    'd_ms',
    'c_ms',
    'q2c_ms',
    'd2c_ms',
    'seek_ms',
    'rotation_ms',
    'transfer_ms',
    'overhead_ms',
    'cache_hit',
  ];
  const lines = [head.join(',')];
  for (const run of runs) {
    const r = run.log.tables.requests;
    const names = run.log.processes;
    for (let i = 0; i < r.n; i++) {
      const f = r.flags[i]!;
      lines.push(
        [
          csvField(run.label),
          csvField(names[r.proc[i]!] ?? `proc${r.proc[i]}`),
          f & 1 ? 'write' : 'read',
          f & 2 ? 1 : 0,
          r.sector[i]!,
          r.nSectors[i]!,
          r.bios[i]!,
          fixed(r.qNs[i]!),
          fixed(r.dNs[i]!),
          fixed(r.cNs[i]!),
          fixed(r.cNs[i]! - r.qNs[i]!),
          fixed(r.cNs[i]! - r.dNs[i]!),
          fixed(r.seekNs[i]!),
          fixed(r.rotationNs[i]!),
          fixed(r.transferNs[i]!),
          fixed(r.overheadNs[i]!),
          f & 4 ? 1 : 0,
        ].join(','),
      );
    }
  }
  return lines.join('\n') + '\n';
}

/** Every chart's series (typed arrays as plain arrays) and each run's engine summary. */
export function chartsJson(runs: readonly ChartRun[]): string {
  const plain = (_k: string, v: unknown) =>
    ArrayBuffer.isView(v) ? Array.from(v as Float64Array) : v;
  return JSON.stringify(
    {
      format: 'spindle-charts',
      version: 1,
      units: { time: 'ms of simulated time', latency: 'ms', throughput: 'MB/s (10^6 bytes)' },
      runs: runs.map((r) => ({
        label: r.label,
        scenario: r.log.name,
        seed: r.log.seed,
        processes: r.log.processes,
        fromMs: r.log.fromNs / NS_PER_MS,
        endMs: r.log.endNs / NS_PER_MS,
        bounded: r.log.bounded,
        summary: r.log.summary,
      })),
      latencyOverTime: latencyOverTime(runs),
      latencyCdf: latencyCdf(runs),
      throughput: throughput(runs),
      queueDepth: queueDepth(runs),
      lbaOverTime: lbaOverTime(runs),
      breakdown: breakdown(runs),
      processShares: processShares(runs),
    },
    plain,
    1,
  );
}
