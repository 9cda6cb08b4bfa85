// A table of one run's summary (the `spindle run --json` figures). Read-only view.
import type { RunSummary as Summary } from '../engine';

const ms = (x: number) => `${x.toFixed(2)} ms`;
const num = (x: number, digits = 1) => x.toFixed(digits);

const cell = { padding: '0.2rem 0.8rem', borderBottom: '1px solid #ddd' } as const;

export function RunSummary({ summary }: { summary: Readonly<Summary> }) {
  const { requests, throughput, latencyMs, positioningMs } = summary;
  const rows: [label: string, value: string][] = [
    ['Seed', String(summary.seed)],
    ['Requests completed', String(requests.completed)],
    ['IOPS', num(throughput.iops)],
    ['MB/s', num(throughput.mbps, 2)],
    ['Q2C mean', ms(latencyMs.q2c.mean)],
    ['Q2C p95', ms(latencyMs.q2c.p95)],
    ['Q2C max', ms(latencyMs.q2c.max)],
    ['Seek (mean per request)', ms(positioningMs.seek)],
    ['Rotation (mean per request)', ms(positioningMs.rotation)],
    ['Transfer (mean per request)', ms(positioningMs.transfer)],
    ['Overhead (mean per request)', ms(positioningMs.overhead)],
  ];
  return (
    <>
      <p>
        I/O scheduler <b>{summary.iosched}</b> · disk <b>{summary.disk}</b> (in-disk scheduler{' '}
        {summary.diskScheduler}, queue depth {summary.queueDepth}) · {ms(summary.simulatedTimeMs)}{' '}
        simulated
      </p>
      <table style={{ borderCollapse: 'collapse' }}>
        <caption style={{ textAlign: 'left', fontWeight: 'bold' }}>Run summary</caption>
        <tbody>
          {rows.map(([label, value]) => (
            <tr key={label}>
              <th scope="row" style={{ ...cell, textAlign: 'left', fontWeight: 'normal' }}>
                {label}
              </th>
              <td style={{ ...cell, textAlign: 'right', fontVariantNumeric: 'tabular-nums' }}>
                {value}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
