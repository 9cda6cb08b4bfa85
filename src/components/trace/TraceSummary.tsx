// The parse summary of a trace, as the engine computed it: blkparse's counts for the device
// chosen (or all), btt's latency rows and merge ratio, the processes, the per-action counts,
// and every unreadable line the parser quoted with its number.
import { useState } from 'react';
import type { TraceOverview } from '../../worker/trace-client';
import type { BttRow, ParseReport } from '../../engine';
import { count, fixed, secMs } from './format';

type Figures = Pick<
  ParseReport,
  'reads' | 'writes' | 'depth' | 'throughputKiBs' | 'btt' | 'unplugs' | 'timeReversals'
> & { events: number };

export function figuresFor(report: ParseReport, device: string): Figures {
  if (device === 'all') return report;
  const d = report.perDevice[device];
  return d ?? report;
}

const BTT_ROWS: Array<{
  key: keyof Omit<ParseReport['btt'], 'mergeRatio' | 'merge' | 'unmatchedQ' | 'evictedQ'>;
  label: string;
  what: string;
}> = [
  { key: 'q2q', label: 'Q2Q', what: 'between successive bios queued' },
  { key: 'q2g', label: 'Q2G', what: 'queued → request allocated' },
  { key: 's2g', label: 'S2G', what: 'slept waiting for a request' },
  { key: 'g2i', label: 'G2I', what: 'request allocated → inserted' },
  { key: 'q2m', label: 'Q2M', what: 'queued → merged' },
  { key: 'i2d', label: 'I2D', what: 'inserted → dispatched' },
  { key: 'm2d', label: 'M2D', what: 'merged → dispatched' },
  { key: 'd2c', label: 'D2C', what: 'dispatched → completed (the device)' },
  { key: 'q2c', label: 'Q2C', what: 'queued → completed (what the process waited)' },
  { key: 'q2d', label: 'Q2D', what: 'queued → dispatched (per bio)' },
];

export function TraceSummary({ overview, device }: { overview: TraceOverview; device: string }) {
  const r = overview.report;
  // the processes table is built only when its section is opened
  const [more, setMore] = useState(false);
  const f = figuresFor(r, device);
  const span = r.timeSpan.last - r.timeSpan.first;
  const actions = Object.entries(r.actions).filter(([, n]) => n > 0);
  const procs = [...r.processes].sort((a, b) => b.queued.count - a.queued.count);
  const shownProcs = procs.slice(0, 15);
  const bttRows = BTT_ROWS.filter((row) => (f.btt[row.key] as BttRow).n > 0);
  return (
    <section className="trace-summary" aria-label="Trace summary">
      <h3>Summary</h3>
      <dl className="trace-facts" data-testid="trace-facts">
        <div>
          <dt>Devices</dt>
          <dd>
            {r.devices.length > 0 ? r.devices.join(', ') : 'none'}
            {r.otherDevices !== null ? (
              <span className="muted" data-testid="other-devices">
                {' '}
                — and {r.otherDevices.note}
              </span>
            ) : null}
          </dd>
        </div>
        <div>
          <dt>Events</dt>
          <dd data-testid="trace-events">
            {count(f.events)}
            {device === 'all' ? ` in ${count(r.lines)} lines` : ` on ${device}`}
          </dd>
        </div>
        <div>
          <dt>Processes</dt>
          <dd>{count(r.processes.length)}</dd>
        </div>
        <div>
          <dt>Time span</dt>
          <dd>{span >= 0 ? `${fixed(span, 6)} s` : '—'}</dd>
        </div>
        <div>
          <dt>Format</dt>
          <dd>{r.formats.join(', ') || '—'}</dd>
        </div>
        <div>
          <dt>Unreadable lines</dt>
          <dd data-testid="trace-malformed">{count(r.malformed)}</dd>
        </div>
        <div>
          <dt>File</dt>
          <dd>
            {overview.gzip ? 'gzip, ' : ''}
            {count(overview.bytes)} bytes
            {overview.gzip ? ` (${count(overview.chars)} characters of text)` : ''}, read in{' '}
            {fixed(overview.parseMs / 1000, 2)} s
          </dd>
        </div>
      </dl>

      <div className="trace-tables">
        <table className="trace-table" aria-label="blkparse counts">
          <caption>
            blkparse’s counts{device === 'all' ? ', all devices' : `, device ${device}`}
          </caption>
          <thead>
            <tr>
              <th scope="col"></th>
              <th scope="col">Reads</th>
              <th scope="col">Writes</th>
            </tr>
          </thead>
          <tbody>
            {(['queued', 'dispatched', 'completed'] as const).map((k) => (
              <tr key={k}>
                <th scope="row">{k[0]!.toUpperCase() + k.slice(1)}</th>
                <td data-testid={`${k}-reads`}>
                  {count(f.reads[k].count)}{' '}
                  <span className="muted">({count(f.reads[k].kib)} KiB)</span>
                </td>
                <td data-testid={`${k}-writes`}>
                  {count(f.writes[k].count)}{' '}
                  <span className="muted">({count(f.writes[k].kib)} KiB)</span>
                </td>
              </tr>
            ))}
            <tr>
              <th scope="row">Merges</th>
              <td>
                {count(f.reads.merges)}{' '}
                <span className="muted">({count(f.reads.mergesKib)} KiB)</span>
              </td>
              <td>
                {count(f.writes.merges)}{' '}
                <span className="muted">({count(f.writes.mergesKib)} KiB)</span>
              </td>
            </tr>
            <tr>
              <th scope="row">Requeued</th>
              <td>{count(f.reads.requeued)}</td>
              <td>{count(f.writes.requeued)}</td>
            </tr>
            <tr>
              <th scope="row">Depth (most in flight)</th>
              <td>{count(f.depth.read)}</td>
              <td>{count(f.depth.write)}</td>
            </tr>
            <tr>
              <th scope="row">Throughput</th>
              <td>{count(f.throughputKiBs.read)} KiB/s</td>
              <td>{count(f.throughputKiBs.write)} KiB/s</td>
            </tr>
            <tr>
              <th scope="row">Unplugs</th>
              <td colSpan={2}>
                {count(f.unplugs.io)} on I/O, {count(f.unplugs.timer)} by timer
              </td>
            </tr>
          </tbody>
        </table>

        <table className="trace-table" aria-label="btt figures">
          <caption>btt{device === 'all' ? ', all devices' : `, device ${device}`} (ms)</caption>
          <thead>
            <tr>
              <th scope="col"></th>
              <th scope="col">min</th>
              <th scope="col">avg</th>
              <th scope="col">max</th>
              <th scope="col">N</th>
            </tr>
          </thead>
          <tbody>
            {bttRows.map(({ key, label, what }) => {
              const row = f.btt[key] as BttRow;
              return (
                <tr key={key}>
                  <th scope="row" title={what}>
                    {label}
                  </th>
                  <td>{secMs(row.min)}</td>
                  <td>{secMs(row.avg)}</td>
                  <td>{secMs(row.max)}</td>
                  <td>{count(row.n)}</td>
                </tr>
              );
            })}
            {bttRows.length === 0 && (
              <tr>
                <td colSpan={5} className="muted">
                  no latency pairs (btt counts only Qs, Ds and Cs with a size)
                </td>
              </tr>
            )}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Merge ratio</th>
              <td colSpan={4} data-testid="merge-ratio">
                #Q/#D = {fixed(f.btt.mergeRatio, 2)}{' '}
                <span className="muted">
                  ({count(f.btt.merge.q)} / {count(f.btt.merge.d)})
                </span>
              </td>
            </tr>
          </tfoot>
        </table>
      </div>
      {(f.btt.unmatchedQ > 0 || f.timeReversals > 0 || r.reordered > 0) && (
        <p className="muted small">
          {f.btt.unmatchedQ > 0 &&
            `${count(f.btt.unmatchedQ)} ${f.btt.unmatchedQ === 1 ? 'Q' : 'Qs'} never completed as a whole (btt leaves them out of Q2C, e.g. split bios). `}
          {f.timeReversals > 0 &&
            `${count(f.timeReversals)} ${f.timeReversals === 1 ? 'event is' : 'events are'} time-stamped earlier than the one before ${f.timeReversals === 1 ? 'it' : 'them'}, later than Spindle's time-order window could repair. `}
          {r.reordered > 0 &&
            `${count(r.reordered)} ${r.reordered === 1 ? 'event' : 'events'} arrived out of time order and ${r.reordered === 1 ? 'was' : 'were'} put back in place.`}
        </p>
      )}

      <details className="trace-more" onToggle={(e) => setMore(e.currentTarget.open)}>
        <summary>
          Events by action and processes <span className="muted">(all devices)</span>
        </summary>
        {more && (
          <>
            <p className="trace-actions">
              {actions.map(([a, n]) => (
                <span key={a}>
                  <code>{a}</code> {count(n)}
                </span>
              ))}
            </p>
            <table className="trace-table" aria-label="Processes">
              <thead>
                <tr>
                  <th scope="col">PID</th>
                  <th scope="col">Name</th>
                  <th scope="col">Queued</th>
                  <th scope="col">Dispatched</th>
                  <th scope="col">Completed</th>
                  <th scope="col">Merges</th>
                </tr>
              </thead>
              <tbody>
                {shownProcs.map((p) => (
                  <tr key={p.pid}>
                    <td>{p.pid}</td>
                    <td>{p.name || '—'}</td>
                    <td>
                      {count(p.queued.count)}{' '}
                      <span className="muted">({count(p.queued.kib)} KiB)</span>
                    </td>
                    <td>{count(p.dispatched.count)}</td>
                    <td>{count(p.completed.count)}</td>
                    <td>{count(p.merges)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {procs.length > shownProcs.length && (
              <p className="muted small">
                … and {count(procs.length - shownProcs.length)} more processes (the{' '}
                {shownProcs.length} that queued most are listed)
              </p>
            )}
          </>
        )}
      </details>

      <section className="trace-problems" aria-label="Unreadable lines">
        <h4>Unreadable lines: {count(r.malformed)}</h4>
        {r.problems.length > 0 ? (
          <ul>
            {r.problems.map((p) => (
              <li key={p.line}>
                line {count(p.line)}: {p.reason}: <code>{p.text}</code>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted small">every line was read.</p>
        )}
        {r.malformed > r.problems.length && (
          <p className="muted small">
            … and {count(r.malformed - r.problems.length)} more (the first {r.problems.length} are
            quoted)
          </p>
        )}
      </section>
    </section>
  );
}
