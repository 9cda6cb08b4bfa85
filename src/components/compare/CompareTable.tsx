// The compare table: one column per run, the figures UI.md asks for — throughput, latency
// (mean / p95 / max, overall and per process), merges, the mean seek and rotation, and the
// drive's scheduler work — from each run's RunSummary (per-process p95 from its log).
import { useMemo } from 'react';
import type { RunLog } from '../../worker/client';
import { processLatencies } from './latency';

const ms = (x: number) => `${x.toFixed(2)} ms`;

export function CompareTable({ logs, names }: { logs: readonly RunLog[]; names: string[] }) {
  const perProcess = useMemo(() => logs.map(processLatencies), [logs]);
  const processNames = logs[0]?.processes ?? [];
  const rows: Array<[string, (i: number) => string]> = [
    ['I/O scheduler', (i) => logs[i]!.summary.iosched],
    [
      'disk · drive scheduler · depth',
      (i) => {
        const s = logs[i]!.summary;
        return `${s.disk} · ${s.diskScheduler} · QD ${s.queueDepth}`;
      },
    ],
    ['requests completed', (i) => String(logs[i]!.summary.requests.completed)],
    ['simulated time', (i) => ms(logs[i]!.summary.simulatedTimeMs)],
    ['throughput (IOPS)', (i) => logs[i]!.summary.throughput.iops.toFixed(1)],
    ['throughput (MB/s)', (i) => logs[i]!.summary.throughput.mbps.toFixed(2)],
    ['Q2C mean', (i) => ms(logs[i]!.summary.latencyMs.q2c.mean)],
    ['Q2C p95', (i) => ms(logs[i]!.summary.latencyMs.q2c.p95)],
    ['Q2C max', (i) => ms(logs[i]!.summary.latencyMs.q2c.max)],
    ...processNames.map((name, p): [string, (i: number) => string] => [
      `${name}: mean / p95 / max`,
      (i) => {
        const l = perProcess[i]?.[p];
        return l && l.count > 0
          ? `${l.meanMs.toFixed(1)} / ${l.p95Ms.toFixed(1)} / ${l.maxMs.toFixed(1)} ms`
          : '—';
      },
    ]),
    [
      'merges (back + front)',
      (i) => {
        const r = logs[i]!.summary.requests;
        return `${r.backMerges + r.frontMerges} (${r.backMerges} + ${r.frontMerges})`;
      },
    ],
    ['merge ratio (Q/D)', (i) => logs[i]!.summary.requests.mergeRatio.toFixed(2)],
    ['seek, mean per request', (i) => ms(logs[i]!.summary.positioningMs.seek)],
    ['rotation, mean per request', (i) => ms(logs[i]!.summary.positioningMs.rotation)],
    ['transfer, mean per request', (i) => ms(logs[i]!.summary.positioningMs.transfer)],
    [
      'drive scheduler: positioning estimates',
      (i) => String(logs[i]!.summary.work.positioningEstimates),
    ],
    [
      'decisions (I/O scheduler / drive)',
      (i) => {
        const d = logs[i]!.decisions;
        const io = d.filter((x) => x.layer === 'iosched').length;
        return `${io} / ${d.length - io}`;
      },
    ],
  ];
  return (
    <table className="compare-table" data-testid="compare-table">
      <caption>
        The runs side by side
        {logs.some((l) => l.bounded) && (
          <small className="muted"> (bounded runs: the first part of each)</small>
        )}
      </caption>
      <thead>
        <tr>
          <th scope="col">figure</th>
          {names.map((n) => (
            <th scope="col" key={n}>
              {n}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map(([label, value]) => (
          <tr key={label}>
            <th scope="row">{label}</th>
            {logs.map((_, i) => (
              <td key={i}>{value(i)}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
