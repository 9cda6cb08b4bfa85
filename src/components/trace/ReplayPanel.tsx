// "Replay under …": the trace's Qs run through a Spindle scheduler on a simulated disk, in the
// worker (the engine's replayTrace), and what it measured set beside what the trace measured:
// Q2C and D2C distributions, throughput (and over time), dispatch agreement.
import { useState } from 'react';
import type { LatencyMs, ReplayMode, ReplayReport } from '../../engine';
import type { TraceSession, TraceSessionState } from '../../app/trace-session';
import type { TraceOverview } from '../../worker/trace-client';
import { count, fixed, ms, pct } from './format';

const MODES: Array<{ value: ReplayMode; label: string; what: string }> = [
  { value: 'open', label: 'open', what: 'every request issued at its traced time' },
  {
    value: 'closed',
    label: 'closed',
    what: 'each process keeps its traced think time between a completion and its next request',
  },
  {
    value: 'trace-timed',
    label: 'trace-timed device',
    what: 'issued at the traced times; the device takes each request’s traced D2C, so only the scheduler differs',
  },
];

const DEFAULT_DISK = 'sata-7200-500g';

export function ReplayPanel({
  overview,
  device,
  session,
  state,
}: {
  overview: TraceOverview;
  device: string;
  session: TraceSession;
  state: TraceSessionState['replay'];
}) {
  const replayable = overview.replayable;
  const [scheduler, setScheduler] = useState(
    overview.suggestedScheduler !== null &&
      overview.schedulers.includes(overview.suggestedScheduler)
      ? overview.suggestedScheduler
      : overview.schedulers.includes('deadline')
        ? 'deadline'
        : (overview.schedulers[0] ?? ''),
  );
  const [disk, setDisk] = useState(
    overview.presets.includes(DEFAULT_DISK) ? DEFAULT_DISK : (overview.presets[0] ?? ''),
  );
  const [mode, setMode] = useState<ReplayMode>('open');
  const [chosenDevice, setChosenDevice] = useState<string | null>(null);
  const replayDevice =
    chosenDevice !== null && replayable.includes(chosenDevice)
      ? chosenDevice
      : replayable.includes(device)
        ? device
        : (replayable[0] ?? '');

  if (replayable.length === 0)
    return (
      <section className="replay" aria-label="Replay">
        <h3>Replay</h3>
        <p className="muted">Nothing to replay: the trace has no queued request (Q) with data.</p>
      </section>
    );

  const outcome = state.outcome;
  return (
    <section className="replay" aria-label="Replay">
      <h3>Replay under …</h3>
      <form
        className="replay-form"
        onSubmit={(e) => {
          e.preventDefault();
          void session.replay({ device: replayDevice, scheduler, disk, mode });
        }}
      >
        <label>
          Scheduler{' '}
          <select value={scheduler} onChange={(e) => setScheduler(e.target.value)}>
            {overview.schedulers.map((s) => (
              <option key={s} value={s}>
                {s}
                {s === overview.suggestedScheduler
                  ? ` (nearest to the traced ${overview.tracedScheduler})`
                  : ''}
              </option>
            ))}
          </select>
        </label>
        <label>
          Disk{' '}
          <select value={disk} onChange={(e) => setDisk(e.target.value)}>
            {overview.presets.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </label>
        <label>
          Mode{' '}
          <select value={mode} onChange={(e) => setMode(e.target.value as ReplayMode)}>
            {MODES.map((m) => (
              <option key={m.value} value={m.value}>
                {m.label}
              </option>
            ))}
          </select>
        </label>
        {replayable.length > 1 && (
          <label>
            Replay device{' '}
            <select value={replayDevice} onChange={(e) => setChosenDevice(e.target.value)}>
              {replayable.map((d) => (
                <option key={d} value={d}>
                  {d}
                </option>
              ))}
            </select>
          </label>
        )}
        <button type="submit" disabled={state.busy}>
          {state.busy ? 'Replaying…' : 'Replay'}
        </button>
      </form>
      <p className="muted small">{MODES.find((m) => m.value === mode)?.what}.</p>
      {state.busy && (
        <p role="status" className="small">
          Replaying {replayDevice} under {scheduler} on {disk} ({mode}) in the worker…
        </p>
      )}
      {outcome?.kind === 'error' && (
        <p role="alert" className="trace-error">
          Replay failed: {outcome.message}
        </p>
      )}
      {outcome?.kind === 'ok' && <ReplayResult report={outcome.report} />}
    </section>
  );
}

function ReplayResult({ report: r }: { report: ReplayReport }) {
  const m = r.schedulerMapping;
  const ag = r.dispatchAgreement;
  const rq = r.requests;
  return (
    <div className="replay-result" data-testid="replay-result">
      <p className="small">
        Device {r.device}, <strong>{r.mode}</strong> replay of {count(rq.replayed)} requests
        {rq.skipped.total > 0 &&
          ` (${count(rq.skipped.total)} Qs skipped: ${count(rq.skipped.flush)} flush, ${count(rq.skipped.discard)} discard, ${count(rq.skipped.zeroSize)} without size)`}{' '}
        from {count(r.processes.length)} processes, under <strong>{r.simulated.iosched}</strong> on{' '}
        <strong>{r.simulated.disk}</strong>, queue depth {r.queueDepth.value}{' '}
        <span className="muted">({r.queueDepth.source})</span>.
      </p>
      <p className="small muted">
        Traced scheduler: {m.traced ?? 'unknown'}
        {m.traced !== null ? ` (from its ${m.tracedFrom})` : ''} — {pageNote(m.note)}.
        {rq.untimed > 0 &&
          ` ${count(rq.untimed)} requests had no traced D and C and were served by the disk model.`}
      </p>

      <div className="replay-grid">
        <LatencyTable
          title="Q2C (ms) — queued to completed"
          measured={r.measured.q2cMs}
          simulated={r.simulated.q2cMs}
        />
        <LatencyTable
          title="D2C (ms) — dispatched to completed"
          measured={r.measured.d2cMs}
          simulated={r.simulated.d2cMs}
        />
      </div>

      <table className="trace-table replay-table" aria-label="Throughput and dispatch agreement">
        <thead>
          <tr>
            <th scope="col"></th>
            <th scope="col">measured</th>
            <th scope="col">simulated</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">Throughput</th>
            <td>
              {fixed(r.measured.throughput.iops, 1)} IOPS, {fixed(r.measured.throughput.mbps, 3)}{' '}
              MB/s
            </td>
            <td>
              {fixed(r.simulated.throughput.iops, 1)} IOPS, {fixed(r.simulated.throughput.mbps, 3)}{' '}
              MB/s
            </td>
          </tr>
          <tr>
            <th scope="row">Span</th>
            <td>{ms(r.measured.throughput.spanMs)} ms</td>
            <td>{ms(r.simulated.throughput.spanMs)} ms</td>
          </tr>
          <tr>
            <th scope="row">Dispatches</th>
            <td>{count(ag.kernelDispatches)}</td>
            <td>{count(ag.simulatedDispatches)}</td>
          </tr>
        </tbody>
      </table>

      <p className="agreement" data-testid="dispatch-agreement">
        <strong>Dispatch agreement: {pct(ag.fraction)}</strong> — {count(ag.agreed)} of{' '}
        {count(ag.simulatedDispatches)} simulated dispatches chose the request the kernel dispatched
        next ({count(ag.matched)} matched a kernel dispatch of the same sector and size).
      </p>
      <details className="small">
        <summary>How agreement is counted</summary>
        <p>{ag.method}.</p>
        <p>{ag.definition}.</p>
      </details>

      <ThroughputPlot report={r} />
    </div>
  );
}

/** the engine's note speaks of the CLI's option; here the choice is the Scheduler menu */
function pageNote(note: string): string {
  return note.replace(/chosen with --scheduler/g, 'chosen in the Scheduler menu');
}

function LatencyTable({
  title,
  measured,
  simulated,
}: {
  title: string;
  measured: LatencyMs;
  simulated: LatencyMs;
}) {
  const rows: Array<[string, LatencyMs]> = [
    ['measured', measured],
    ['simulated', simulated],
  ];
  return (
    <div className="latency-box">
      <table className="trace-table" aria-label={title}>
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col"></th>
            <th scope="col">mean</th>
            <th scope="col">p50</th>
            <th scope="col">p95</th>
            <th scope="col">p99</th>
            <th scope="col">max</th>
            <th scope="col">n</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([name, l]) => (
            <tr key={name}>
              <th scope="row">{name}</th>
              <td>{ms(l.mean)}</td>
              <td>{ms(l.p50)}</td>
              <td>{ms(l.p95)}</td>
              <td>{ms(l.p99)}</td>
              <td>{ms(l.max)}</td>
              <td>{count(l.n)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <LatencyLadder measured={measured} simulated={simulated} label={title} />
    </div>
  );
}

const MEASURED = '#1c7ed6';
const SIMULATED = '#e8590c';

/** p50 → max of each distribution on one logarithmic axis, p95/p99 ticks and the mean. */
function LatencyLadder({
  measured,
  simulated,
  label,
}: {
  measured: LatencyMs;
  simulated: LatencyMs;
  label: string;
}) {
  const all = [measured, simulated].filter((l) => l.n > 0);
  if (all.length === 0) return null;
  const values = all.flatMap((l) => [l.p50, l.max, l.mean]).filter((v) => v > 0);
  if (values.length === 0) return null;
  const lo = 10 ** Math.floor(Math.log10(Math.min(...values)));
  const hi = 10 ** Math.ceil(Math.log10(Math.max(...values)));
  const W = 420;
  const left = 70;
  const right = 28;
  const x = (v: number): number =>
    left +
    ((Math.log10(Math.max(v, lo)) - Math.log10(lo)) / Math.max(Math.log10(hi / lo), 1e-9)) *
      (W - left - right);
  const decades: number[] = [];
  for (let d = lo; d <= hi * 1.0001; d *= 10) decades.push(d);
  const row = (l: LatencyMs, y: number, colour: string, name: string) =>
    l.n === 0 ? null : (
      <g key={name}>
        <text x={4} y={y + 4} className="svg-small">
          {name}
        </text>
        <line x1={x(l.p50)} x2={x(l.max)} y1={y} y2={y} stroke={colour} strokeWidth={2} />
        {[l.p50, l.p95, l.p99, l.max].map((v, i) => (
          <line key={i} x1={x(v)} x2={x(v)} y1={y - 6} y2={y + 6} stroke={colour} strokeWidth={2} />
        ))}
        <circle cx={x(l.mean)} cy={y} r={4} fill="#fff" stroke={colour} strokeWidth={2} />
      </g>
    );
  return (
    <svg
      className="latency-ladder"
      viewBox={`0 0 ${W} 74`}
      role="img"
      aria-label={`${label}: p50, p95, p99 and max (ticks) and the mean (circle), measured against simulated, on a log scale`}
    >
      {decades.map((d) => (
        <g key={d}>
          <line x1={x(d)} x2={x(d)} y1={6} y2={54} stroke="#dee2e6" />
          <text x={x(d)} y={68} textAnchor="middle" className="svg-small">
            {d >= 1 ? count(d) : String(d)} ms
          </text>
        </g>
      ))}
      {row(measured, 18, MEASURED, 'measured')}
      {row(simulated, 42, SIMULATED, 'simulated')}
    </svg>
  );
}

/** completions per second in each window, measured and simulated, on one time axis */
function ThroughputPlot({ report }: { report: ReplayReport }) {
  const t = report.throughputOverTime;
  const n = Math.max(t.measured.length, t.simulated.length);
  if (n === 0) return null;
  const peak = Math.max(1, ...t.measured.map((w) => w.iops), ...t.simulated.map((w) => w.iops));
  const W = 640;
  const H = 160;
  const left = 56;
  const bottom = 22;
  const x = (k: number): number => left + (k / Math.max(n, 1)) * (W - left - 8);
  const y = (v: number): number => 6 + (1 - v / peak) * (H - bottom - 6);
  const path = (ws: ReplayReport['throughputOverTime']['measured']): string =>
    ws
      .map(
        (w, k) =>
          `${k === 0 ? 'M' : 'L'}${x(k).toFixed(1)},${y(w.iops).toFixed(1)}H${x(k + 1).toFixed(1)}`,
      )
      .join('');
  const endMs = n * t.windowMs;
  return (
    <figure className="throughput-figure">
      <figcaption className="small">
        Completions per second in {ms(t.windowMs)} ms windows:{' '}
        <span style={{ color: MEASURED }}>measured</span> and{' '}
        <span style={{ color: SIMULATED }}>simulated</span>
      </figcaption>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={`throughput over time, measured against simulated, peak ${fixed(peak, 0)} IOPS over ${ms(endMs)} ms`}
      >
        <line x1={left} x2={W - 8} y1={H - bottom} y2={H - bottom} stroke="#adb5bd" />
        <line x1={left} x2={left} y1={6} y2={H - bottom} stroke="#adb5bd" />
        <text x={left - 4} y={12} textAnchor="end" className="svg-small">
          {count(Math.round(peak))}
        </text>
        <text x={left - 4} y={H - bottom} textAnchor="end" className="svg-small">
          0
        </text>
        <text x={left} y={H - 6} className="svg-small">
          0 ms
        </text>
        <text x={W - 8} y={H - 6} textAnchor="end" className="svg-small">
          {ms(endMs)} ms
        </text>
        <path d={path(t.measured)} fill="none" stroke={MEASURED} strokeWidth={1.5} />
        <path d={path(t.simulated)} fill="none" stroke={SIMULATED} strokeWidth={1.5} />
      </svg>
    </figure>
  );
}
