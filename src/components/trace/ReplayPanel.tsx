// "Replay under …": the trace's Qs run through a Spindle scheduler on a simulated device (the
// one fitted to the trace, or a preset), on the block layer of the kernel chosen, in the
// worker (the engine's replayTrace); what it measured is set beside what the trace measured
// (ReplayResult.tsx). Every choice the CLI takes as an option is a menu here.
import { useEffect, useState } from 'react';
import { keptDisks } from '../../app/disk-persist';
import type { TraceSession, TraceSessionState } from '../../app/trace-session';
import type { TraceOverview } from '../../worker/trace-client';
import {
  defaultKernelFor,
  deviceLabel,
  KERNEL_CHOICES,
  MODE_CHOICES,
  pageNote,
  TRACED_DISK,
  type ReplayKernel,
} from '../../app/replay-choices';
import { ReplayResult } from './ReplayResult';
import { ReplayMeta, readMetaFile, type AddedMeta } from './ReplayMeta';
import type { ReplayMode } from '../../engine';

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
  // a meta.json added for this trace (another trace's is not kept)
  const [added, setAdded] = useState<{ for: TraceOverview; meta: AddedMeta } | null>(null);
  const [metaError, setMetaError] = useState<string | null>(null);
  const meta = added !== null && added.for === overview ? added.meta : null;
  const [schedulerChosen, setSchedulerChosen] = useState(false);
  const [scheduler, setScheduler] = useState(
    overview.suggestedScheduler !== null &&
      overview.schedulers.includes(overview.suggestedScheduler)
      ? overview.suggestedScheduler
      : overview.schedulers.includes('deadline')
        ? 'deadline'
        : (overview.schedulers[0] ?? ''),
  );
  // the DiskSim disks opened in Settings (kept in this browser) are devices to replay on too
  const [userDisks, setUserDisks] = useState<string[]>([]);
  useEffect(() => {
    let live = true;
    void keptDisks().then((kept) => {
      if (live) setUserDisks(kept.map((d) => d.name));
    });
    return () => {
      live = false;
    };
  }, []);
  const disks = [
    TRACED_DISK,
    ...overview.presets,
    ...userDisks.filter((d) => !overview.presets.includes(d)),
  ];
  const [disk, setDisk] = useState(TRACED_DISK);
  // the kernel follows the scheduler until one is chosen
  const [chosenKernel, setKernel] = useState<ReplayKernel | null>(null);
  const kernel =
    chosenKernel ?? defaultKernelFor(scheduler, meta?.facts.scheduler ?? overview.tracedScheduler);
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
  const modeChoice = MODE_CHOICES.find((m) => m.value === mode)!;
  return (
    <section className="replay" aria-label="Replay">
      <h3>Replay under …</h3>
      <form
        className="replay-form"
        onSubmit={(e) => {
          e.preventDefault();
          void session.replay({
            device: replayDevice,
            scheduler,
            disk,
            kernel,
            mode,
            meta: meta?.facts ?? null,
          });
        }}
      >
        <label>
          Scheduler{' '}
          <select
            value={scheduler}
            onChange={(e) => {
              setScheduler(e.target.value);
              setSchedulerChosen(true);
            }}
          >
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
          Simulated device{' '}
          <select value={disk} onChange={(e) => setDisk(e.target.value)}>
            {disks.map((p) => (
              <option key={p} value={p}>
                {deviceLabel(p)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Kernel{' '}
          <select value={kernel} onChange={(e) => setKernel(e.target.value as ReplayKernel)}>
            {KERNEL_CHOICES.map((k) => (
              <option key={k.value} value={k.value}>
                {k.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Mode{' '}
          <select value={mode} onChange={(e) => setMode(e.target.value as ReplayMode)}>
            {MODE_CHOICES.map((m) => (
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
        {modeChoice.label}: {modeChoice.what}.
      </p>
      <ReplayMeta
        meta={meta}
        error={metaError}
        onFile={(file) => {
          void readMetaFile(file).then((read) => {
            if (typeof read === 'string') {
              setMetaError(read);
              return;
            }
            setMetaError(null);
            setAdded({ for: overview, meta: read });
            // the traced scheduler it names: its nearest, unless one was chosen in the menu
            const nearest = read.facts.scheduler && overview.nearestScheduler[read.facts.scheduler];
            if (!schedulerChosen && nearest && overview.schedulers.includes(nearest))
              setScheduler(nearest);
          });
        }}
        onForget={() => {
          setAdded(null);
          setMetaError(null);
        }}
      />
      {state.busy && (
        <p role="status" className="small">
          Replaying {replayDevice} under {scheduler} on {deviceLabel(disk)}, kernel {kernel} ({mode}
          ) in the worker…
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
          Replay failed: {pageNote(outcome.message)}
        </p>
      )}
      {outcome?.kind === 'ok' && <ReplayResult report={outcome.report} />}
    </section>
  );
}
