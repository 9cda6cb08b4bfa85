// "Replay under …": the trace's Qs run through a Spindle scheduler on a simulated disk, in the
// worker (the engine's replayTrace), and what it measured set beside what the trace measured:
// Q2C and D2C distributions, throughput (and over time), dispatch agreement.
import { useState } from 'react';
import type { ReplayMode, ReplayReport } from '../../engine';
import type { TraceSession, TraceSessionState } from '../../app/trace-session';
import type { TraceOverview } from '../../worker/trace-client';
import { count, pct } from './format';
import { ThroughputPlot } from './ReplayPlots';
import { ReplayUnits } from './ReplayUnits';

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
        <p className="muted">
          {overview.summaryOnly !== null
            ? 'Replay is not offered for a trace this large (see above).'
            : 'Nothing to replay: the trace has no queued request (Q) with data.'}
        </p>
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
                  ? ` (nearest to ${overview.tracedScheduler})`
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
        <button type="submit" disabled={state.busy || state.preparing}>
          {state.busy ? 'Replaying…' : 'Replay'}
        </button>
        {state.busy && (
          <button type="button" onClick={() => void session.cancelReplay()}>
            Cancel replay
          </button>
        )}
      </form>
      <p className="muted small">
        {MODES.find((m) => m.value === mode)?.label}: {MODES.find((m) => m.value === mode)?.what}.
      </p>
      {state.busy && (
        <p role="status" className="small">
          Replaying {replayDevice} under {scheduler} on {disk} ({mode}) in the worker…
        </p>
      )}
      {state.cancelled && (
        <p role="status" className="small">
          Replay cancelled.
          {state.preparing && ' Reading the trace again for the next replay…'}
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
        {rq.arrivals === 'D' && ' (the trace has no Q: its dispatches are the arrivals)'}
        {rq.skipped.total > 0 &&
          ` (${count(rq.skipped.total)} Qs skipped: ${count(rq.skipped.flush)} flush, ${count(rq.skipped.discard)} discard, ${count(rq.skipped.zeroSize)} without size)`}{' '}
        from {count(r.processes.length)} processes, under <strong>{r.simulated.iosched}</strong> on{' '}
        <strong>{r.simulated.disk}</strong>, queue depth {r.queueDepth.value}{' '}
        <span className="muted">({r.queueDepth.source})</span>.
      </p>
      <p className="small muted">
        Traced scheduler: {m.traced ?? 'unknown'}
        {m.traced !== null ? ` (from its ${m.tracedFrom})` : ''} — {pageNote(m.note)}. Block layer:
        kernel {r.kernel.value} ({r.kernel.source}).
        {rq.untimed > 0 &&
          ` ${count(rq.untimed)} requests had no traced D and C and were served by the disk model.`}
      </p>
      {r.addresses.packed && (
        <p className="small muted" data-testid="replay-addresses">
          Addresses: {r.addresses.note}.
        </p>
      )}

      <ReplayUnits report={r} />

      <table className="trace-table replay-table" aria-label="Dispatch counts">
        <thead>
          <tr>
            <th scope="col"></th>
            <th scope="col">measured</th>
            <th scope="col">simulated</th>
          </tr>
        </thead>
        <tbody>
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
