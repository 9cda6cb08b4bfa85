// One run's summary (the `spindle run --json` figures), as `spindle run` prints them: the
// run's figures, the drive's and the layers' counters (page cache, journals) when the run
// has them, and a row per process. Read-only view.
import type { ReactNode } from 'react';
import { processColumns, type RunSummary as Summary } from '../engine';

const ms = (x: number) => `${x.toFixed(2)} ms`;
const num = (x: number, digits = 1) => x.toFixed(digits);
const count = (x: number) => x.toLocaleString('en-US');
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

const cell = { padding: '0.2rem 0.8rem', borderBottom: '1px solid #ddd' } as const;
const numeric = { ...cell, textAlign: 'right', fontVariantNumeric: 'tabular-nums' } as const;

type Rows = Array<[label: string, value: string]>;

function Table({ caption, rows }: { caption: string; rows: Rows }) {
  return (
    <table style={{ borderCollapse: 'collapse' }}>
      <caption style={{ textAlign: 'left', fontWeight: 'bold' }}>{caption}</caption>
      <tbody>
        {rows.map(([label, value]) => (
          <tr key={label}>
            <th scope="row" style={{ ...cell, textAlign: 'left', fontWeight: 'normal' }}>
              {label}
            </th>
            <td style={numeric}>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function runRows(s: Readonly<Summary>): Rows {
  const { requests, throughput, latencyMs, positioningMs, work, drive } = s;
  return [
    ['Seed', String(s.seed)],
    ['Bios queued (Q)', count(requests.queued)],
    [
      'Requests dispatched (D) / completed (C)',
      `${count(requests.dispatched)} / ${count(requests.completed)}`,
    ],
    ['Merges (back + front)', `${count(requests.backMerges)} + ${count(requests.frontMerges)}`],
    ['Merge ratio (Q/D)', num(requests.mergeRatio, 2)],
    ['IOPS', num(throughput.iops)],
    ['MB/s', num(throughput.mbps, 2)],
    ['Q2C mean', ms(latencyMs.q2c.mean)],
    ['Q2C p95', ms(latencyMs.q2c.p95)],
    ['Q2C max', ms(latencyMs.q2c.max)],
    ['D2C mean', ms(latencyMs.d2c.mean)],
    ['Seek (mean per request)', ms(positioningMs.seek)],
    ['Rotation (mean per request)', ms(positioningMs.rotation)],
    ['Transfer (mean per request)', ms(positioningMs.transfer)],
    ['Overhead (mean per request)', ms(positioningMs.overhead)],
    ['Drive cache hits', count(requests.cacheHits)],
    ...(s.writePolicy === 'write-back'
      ? ([
          ['Write buffer full', ms(drive.bufferFullMs)],
          ['QUEUE FULL refusals', count(drive.queueFullRefusals)],
        ] as Rows)
      : []),
    ['Drive decisions', count(work.decisions)],
    [
      'Positioning estimates per decision',
      work.decisions > 0 ? num(work.positioningEstimates / work.decisions) : '—',
    ],
    // only an adaptive scheduler computes beyond the kernel's own (cfq-ann's network)
    ...(work.iosched.multiplyAdds > 0
      ? ([['I/O scheduler multiply-adds', count(work.iosched.multiplyAdds)]] as Rows)
      : []),
  ];
}

function pageCacheRows(pc: NonNullable<Summary['pageCache']>): Rows {
  return [
    ['Reads served from memory / from the disk', `${count(pc.readHits)} / ${count(pc.readMisses)}`],
    ['Pages dirtied', count(pc.pagesDirtied)],
    [
      'Pages written back (by the writers themselves)',
      `${count(pc.pagesWritten)} (${count(pc.pagesWrittenByWriters)})`,
    ],
    ['Dirty pages dropped (file deleted)', count(pc.pagesDropped)],
    ['Clean pages evicted', count(pc.evicted)],
  ];
}

function journalRows(journals: NonNullable<Summary['journals']>): Rows {
  return journals.flatMap((j, i): Rows => {
    const name = 'fs' in j ? `${j.fs} journal ${i + 1}` : `ext3 journal ${i + 1} (kjournald)`;
    const common: Rows = [
      [`${name}: commits`, count(j.commits)],
      [
        `${name}: ordered data pages, log blocks`,
        `${count(j.orderedPages)}, ${count(j.logBlocks)}`,
      ],
    ];
    if ('fs' in j)
      return [
        ...common,
        [
          `${name}: committed by sync_supers / reiserfs/0 / the writer`,
          `${j.bySyncSupers} / ${j.byWorkqueue} / ${j.byWriter}`,
        ],
        [`${name}: in-place flushes (blocks)`, `${count(j.flushes)} (${count(j.inPlaceBlocks)})`],
      ];
    return [...common, [`${name}: commits that overran the log`, count(j.logFull)]];
  });
}

function Processes({ s }: { s: Readonly<Summary> }) {
  const cached = s.processes.some((p) => p.cached);
  const head = processColumns(cached);
  const row = (p: Summary['processes'][number]): ReactNode[] => [
    p.pid,
    count(p.completed),
    num(p.iops),
    num(p.mbps, 3),
    ms(p.q2cMeanMs),
    ms(p.q2cMaxMs),
    pct(p.diskTimeShare),
    ...(cached ? [p.cached ? num(p.cached.mbps, 3) : '—'] : []),
  ];
  return (
    <table
      style={{ borderCollapse: 'collapse', marginTop: '1rem' }}
      data-testid="summary-processes"
    >
      <caption style={{ textAlign: 'left', fontWeight: 'bold' }}>Per process</caption>
      <thead>
        <tr>
          {head.map((h) => (
            <th
              scope="col"
              key={h}
              style={{ ...cell, textAlign: h === 'process' ? 'left' : 'right' }}
            >
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {s.processes.map((p) => (
          <tr key={p.pid}>
            <th scope="row" style={{ ...cell, textAlign: 'left', fontWeight: 'normal' }}>
              {p.name}
            </th>
            {row(p).map((v, i) => (
              <td key={i} style={numeric}>
                {v}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function RunSummary({ summary }: { summary: Readonly<Summary> }) {
  return (
    <>
      <p>
        I/O scheduler <b>{summary.iosched}</b> · disk <b>{summary.disk}</b> (in-disk scheduler{' '}
        {summary.diskScheduler}, queue depth {summary.queueDepth}, {summary.writePolicy}) ·{' '}
        {ms(summary.simulatedTimeMs)} simulated
      </p>
      <div
        style={{ display: 'flex', flexWrap: 'wrap', gap: '1rem 2rem', alignItems: 'flex-start' }}
      >
        <Table caption="Run summary" rows={runRows(summary)} />
        {(summary.pageCache !== undefined || (summary.journals?.length ?? 0) > 0) && (
          <div>
            {summary.pageCache && (
              <Table caption="Page cache" rows={pageCacheRows(summary.pageCache)} />
            )}
            {summary.journals && summary.journals.length > 0 && (
              <Table caption="Journals" rows={journalRows(summary.journals)} />
            )}
          </div>
        )}
      </div>
      <Processes s={summary} />
      <p className="muted">
        Disk time: each process&apos;s share of the media time (seek, rotation, transfer) spent on
        its data — the requests it queued
        {summary.writePolicy === 'write-back'
          ? '; with write-back a write completes from the drive’s buffer, and the media time of its destage, later, counts for the process that wrote it'
          : ''}
        .
      </p>
    </>
  );
}
