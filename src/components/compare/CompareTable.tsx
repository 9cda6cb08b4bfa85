// The compare table: one column per run, the figures UI.md asks for — throughput, latency
// (mean / p95 / max, overall and per process), merges, the mean seek and rotation, and the
// drive's scheduler work — from each run's RunSummary (per-process p95 from its log). Where
// lower or higher is plainly better, the best column is marked — but only when every run
// completed the same work (sameWork): a run that did less can look faster (issue #16 item 5).
import { useMemo } from 'react';
import type { RunLog } from '../../worker/client';
import { spanOf, windowText } from '../../app/window';
import { processLatencies } from './latency';

const ms = (x: number) => `${x.toFixed(2)} ms`;

interface Row {
  label: string;
  text: (i: number) => string;
  /** the number compared across columns, and which way is better */
  value?: (i: number) => number;
  better?: 'low' | 'high';
}

/** The column with the best figure, or −1 when all are equal (nothing to point at). */
function bestIndex(n: number, value: (i: number) => number, better: 'low' | 'high'): number {
  let best = -1;
  let allEqual = true;
  for (let i = 0; i < n; i++) {
    const v = value(i);
    if (i > 0 && v !== value(0)) allEqual = false;
    if (best < 0 || (better === 'low' ? v < value(best) : v > value(best))) best = i;
  }
  return allEqual ? -1 : best;
}

/** Whether the runs completed the same work: the same processes, each with as many requests
 * completed. null when they did; else the sentence saying why no column is marked. */
export function differentWork(logs: readonly RunLog[], names: readonly string[]): string | null {
  const key = (l: RunLog) => JSON.stringify(l.summary.processes.map((p) => [p.name, p.completed]));
  if (logs.every((l) => key(l) === key(logs[0]!))) return null;
  const letter = (i: number) => names[i]?.split(' · ')[0] ?? String(i + 1);
  const n = (x: number) => x.toLocaleString('en');
  const totals = logs.map((l) => l.summary.requests.completed);
  const why = totals.every((t) => t === totals[0])
    ? (() => {
        // the same count, not the same requests: name the process whose share differs most
        const procs = [...new Set(logs.flatMap((l) => l.summary.processes.map((p) => p.name)))];
        const done = (l: RunLog, name: string) =>
          l.summary.processes.find((p) => p.name === name)?.completed ?? 0;
        const spread = (name: string) =>
          Math.max(...logs.map((l) => done(l, name))) - Math.min(...logs.map((l) => done(l, name)));
        const worst = procs.reduce((a, b) => (spread(b) > spread(a) ? b : a));
        const counts = logs.map((l, i) => `${letter(i)}: ${n(done(l, worst))}`).join(', ');
        return `each completed ${n(totals[0]!)} requests, but not the same ones — ${worst} completed ${counts}`;
      })()
    : `requests completed — ${logs.map((_, i) => `${letter(i)}: ${n(totals[i]!)}`).join(', ')}`;
  return `No column is marked best: the runs did not complete the same work (${why}), and a run that did less of it can look faster.`;
}

export function CompareTable({ logs, names }: { logs: readonly RunLog[]; names: string[] }) {
  const perProcess = useMemo(() => logs.map(processLatencies), [logs]);
  // every column's processes, in order (a page cache adds its flusher to a column)
  const processNames = [...new Set(logs.flatMap((l) => l.processes))];
  const latencyOf = (i: number, name: string) => perProcess[i]?.[logs[i]!.processes.indexOf(name)];
  const s = (i: number) => logs[i]!.summary;
  const workNote = differentWork(logs, names);
  const rows: Row[] = [
    { label: 'I/O scheduler', text: (i) => s(i).iosched },
    {
      label: 'disk · drive scheduler · depth',
      text: (i) => `${s(i).disk} · ${s(i).diskScheduler} · QD ${s(i).queueDepth}`,
    },
    // the page cache, when a column has one: what stands between the threads and the disk
    ...(logs.some((l) => l.scenario.workload.pageCache)
      ? [
          {
            label: 'page cache',
            text: (i: number) => {
              const pc = logs[i]!.scenario.workload.pageCache;
              return pc ? `${pc.memoryMiB} MiB` : 'none';
            },
          },
        ]
      : []),
    { label: 'requests completed', text: (i) => String(s(i).requests.completed) },
    { label: 'simulated time', text: (i) => ms(s(i).simulatedTimeMs) },
    {
      label: 'throughput (IOPS)',
      text: (i) => s(i).throughput.iops.toFixed(1),
      value: (i) => s(i).throughput.iops,
      better: 'high',
    },
    {
      label: 'throughput (MB/s)',
      text: (i) => s(i).throughput.mbps.toFixed(2),
      value: (i) => s(i).throughput.mbps,
      better: 'high',
    },
    ...(['mean', 'p95', 'max'] as const).map((k): Row => ({
      label: `Q2C ${k}`,
      text: (i) => ms(s(i).latencyMs.q2c[k]),
      value: (i) => s(i).latencyMs.q2c[k],
      better: 'low',
    })),
    ...processNames.map((name): Row => ({
      label: `${name}: mean / p95 / max`,
      text: (i) => {
        const l = latencyOf(i, name);
        return l && l.count > 0
          ? `${l.meanMs.toFixed(1)} / ${l.p95Ms.toFixed(1)} / ${l.maxMs.toFixed(1)} ms`
          : '—';
      },
      value: (i) => {
        const l = latencyOf(i, name);
        return l && l.count > 0 ? l.meanMs : Infinity;
      },
      better: 'low',
    })),
    {
      label: 'merges (back + front)',
      text: (i) => {
        const r = s(i).requests;
        return `${r.backMerges + r.frontMerges} (${r.backMerges} + ${r.frontMerges})`;
      },
    },
    { label: 'merge ratio (Q/D)', text: (i) => s(i).requests.mergeRatio.toFixed(2) },
    ...(['seek', 'rotation'] as const).map((k): Row => ({
      label: `${k}, mean per request`,
      text: (i) => ms(s(i).positioningMs[k]),
      value: (i) => s(i).positioningMs[k],
      better: 'low',
    })),
    { label: 'transfer, mean per request', text: (i) => ms(s(i).positioningMs.transfer) },
    {
      label: 'drive scheduler: positioning estimates',
      text: (i) => String(s(i).work.positioningEstimates),
    },
    // what the layers did, when a column has them: writeback's share of the writing, and an
    // adaptive scheduler's own computation (cfq-ann)
    ...(logs.some((l) => l.summary.pageCache)
      ? [
          {
            label: 'pages written back (by the writers themselves)',
            text: (i: number) => {
              const pc = s(i).pageCache;
              return pc ? `${pc.pagesWritten} (${pc.pagesWrittenByWriters})` : '—';
            },
          },
        ]
      : []),
    ...(logs.some((l) => l.summary.work.iosched.multiplyAdds > 0)
      ? [
          {
            label: 'I/O scheduler multiply-adds',
            text: (i: number) => String(s(i).work.iosched.multiplyAdds),
          },
        ]
      : []),
    {
      label: 'decisions (I/O scheduler / drive)',
      text: (i) => {
        const d = logs[i]!.decisions;
        const io = d.filter((x) => x.layer === 'iosched').length;
        return `${io} / ${d.length - io}`;
      },
    },
  ];
  return (
    <table className="compare-table" data-testid="compare-table">
      <caption>
        The runs side by side{' '}
        {workNote ? (
          <small className="muted" data-testid="no-best">
            {workNote}
          </small>
        ) : (
          <small className="muted">(best in bold green)</small>
        )}
        {logs.some((l) => l.fromNs > 0) ? (
          <small className="muted">
            {' '}
            · played {windowText(spanOf(logs))}: the figures are each run&apos;s from 0 to its
            window&apos;s end, the per-process latencies and the decisions the window&apos;s
          </small>
        ) : (
          logs.some((l) => l.bounded) && (
            <small className="muted"> · bounded runs: the first part of each</small>
          )
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
        {rows.map((row) => {
          const best =
            !workNote && row.value && row.better
              ? bestIndex(logs.length, row.value, row.better)
              : -1;
          return (
            <tr key={row.label}>
              <th scope="row">{row.label}</th>
              {logs.map((_, i) => (
                <td key={i} className={i === best ? 'best' : undefined}>
                  {row.text(i)}
                  {i === best && <span className="visually-hidden"> (best)</span>}
                </td>
              ))}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
