// The trace screen: a modal <dialog> over the lab (Esc or "Close" returns to it). It shows the
// file being read (progress and Cancel), what went wrong (the engine's own message), and the
// trace read last: the device picker, the summary, the LBA picture and replay.
import { memo, useDeferredValue, useEffect, useRef, useState, type ReactNode } from 'react';
import {
  formatBytes,
  MAX_KEPT_BYTES,
  type TraceSession,
  type TraceSessionState,
} from '../../app/trace-session';
import type { TraceOverview } from '../../worker/trace-client';
import { LbaPictureView } from './LbaPictureView';
import { ReplayPanel } from './ReplayPanel';
import { TraceSummary } from './TraceSummary';
import { count } from './format';

export function TraceScreen({
  session,
  state,
  onPick,
  fileInput,
  dropHint,
}: {
  session: TraceSession;
  state: TraceSessionState;
  onPick: () => void;
  fileInput: ReactNode;
  dropHint: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const { overview, reading, notice, viewOpen } = state;
  // A new trace's view is rendered as a transition (in slices, between which the page
  // answers): a large summary never makes one long task.
  const shown = useDeferredValue(overview);

  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (viewOpen && !d.open) d.showModal();
    else if (!viewOpen && d.open) d.close();
  }, [viewOpen]);

  return (
    <dialog
      ref={dialog}
      className="trace-screen"
      aria-labelledby="trace-title"
      onClose={() => session.setViewOpen(false)}
      // the lab's keyboard shortcuts (space, arrows) stay with the lab
      onKeyDown={(e) => e.stopPropagation()}
    >
      {fileInput}
      {dropHint}
      <header className="trace-head">
        <h2 id="trace-title">
          Trace{overview ? <span className="trace-name">: {overview.name}</span> : null}
        </h2>
        <button type="button" onClick={onPick}>
          {overview ? 'Open another trace…' : 'Choose a trace file…'}
        </button>
        <button
          type="button"
          onClick={() => session.setViewOpen(false)}
          aria-label="Back to the lab: close the trace view"
        >
          Back to the lab
        </button>
      </header>

      {reading !== null && (
        <div className="trace-reading" role="status">
          <label>
            Reading {reading.name}{' '}
            <progress
              value={reading.read}
              max={Math.max(reading.total, 1)}
              aria-label={`Reading ${reading.name}`}
            />{' '}
            <span data-testid="trace-progress-text">
              {formatBytes(reading.read)} of {formatBytes(reading.total)}
            </span>
          </label>
          <button type="button" onClick={() => void session.cancel()}>
            Cancel
          </button>
        </div>
      )}

      {notice !== null && (
        <div
          className={notice.kind === 'error' ? 'trace-error' : 'trace-info'}
          role={notice.kind === 'error' ? 'alert' : 'status'}
          data-testid="trace-notice"
        >
          <p>{notice.text}</p>
          <button type="button" onClick={() => session.dismissNotice()} aria-label="Dismiss">
            Dismiss
          </button>
        </div>
      )}

      {overview === null && reading === null && (
        <p className="trace-empty">
          Choose a <code>blkparse</code> text file (<code>.txt</code>, or gzip-compressed{' '}
          <code>.gz</code>) or the text of the kernel’s ftrace <code>blk</code> tracer — or drop it
          anywhere on the page. It is read here, in your browser: nothing is uploaded.
        </p>
      )}

      {shown !== null && (
        <TraceBody
          key={`${shown.name}:${shown.parseMs}`}
          session={session}
          overview={shown}
          keep={state.keep}
          replay={state.replay}
        />
      )}
    </dialog>
  );
}

/** Memoised: progress updates of a file being read do not re-render the trace shown. */
const TraceBody = memo(function TraceBody({
  session,
  overview,
  keep,
  replay,
}: {
  session: TraceSession;
  overview: TraceOverview;
  keep: TraceSessionState['keep'];
  replay: TraceSessionState['replay'];
}) {
  const devices = overview.report.devices;
  const [device, setDevice] = useState(devices.length === 1 ? devices[0]! : 'all');
  const picture = overview.pictures[device] ?? overview.pictures.all;
  return (
    <div className="trace-body">
      <div className="trace-bar">
        {devices.length > 1 ? (
          <label>
            Device{' '}
            <select value={device} onChange={(e) => setDevice(e.target.value)}>
              <option value="all">all {devices.length} devices</option>
              {devices.map((d) => (
                <option key={d} value={d}>
                  {d} ({count(overview.report.perDevice[d]?.events ?? 0)} events)
                </option>
              ))}
            </select>
          </label>
        ) : (
          <span>Device {devices[0] ?? '—'}</span>
        )}
        <span className="muted small" data-testid="trace-kept">
          {keep === null
            ? ''
            : keep.kept
              ? 'Kept in this browser for your next visit.'
              : keep.reason === 'too large'
                ? `Not kept for your next visit: ${formatBytes(overview.bytes)} is over the ${formatBytes(MAX_KEPT_BYTES)} limit.`
                : 'Not kept for your next visit: the browser refused to store it.'}
        </span>
      </div>
      <TraceSummary overview={overview} device={device} />
      {overview.summaryOnly !== null ? (
        <p className="trace-info" role="note">
          No LBA picture and no replay: {overview.summaryOnly}.
        </p>
      ) : (
        picture && <LbaPictureView picture={picture} device={device} />
      )}
      <ReplayPanel overview={overview} device={device} session={session} state={replay} />
    </div>
  );
});
