// Beside the disk: where every request is at time t — in the I/O scheduler, in the drive's
// tagged queue (its slots), under the head — reconstructed from the log, and the scheduler's
// own inspection view fetched from the worker at that instant.
import { useEffect, useState } from 'react';
import { lastAtOrBefore, mechanismAt, pendingAt, type Replay } from '../app/replay';
import { useStore, type Store } from '../app/store';
import type { InspectView, SimHandle } from '../worker/client';
import { formatNs } from './format';
import { Inspection } from './Inspection';
import { RequestChip } from './RequestChip';

interface Props {
  replay: Replay;
  store: Store;
  sim: SimHandle;
}

export function QueuesView({ replay, store, sim }: Props) {
  // Re-render on each step of the log, not on each animation frame.
  const cursor = useStore(store, (s) => lastAtOrBefore(replay.stops, s.tNs));
  const tNs = cursor >= 0 ? replay.stops[cursor]! : replay.log.fromNs;
  // The view belongs to the run it was read from: a new run (another window) shows "…" until
  // its own arrives (the worker may first run to the window's start).
  const [read, setRead] = useState<{ replay: Replay; view: InspectView | null } | null>(null);
  const view = read?.replay === replay ? read.view : null;

  useEffect(() => {
    let live = true;
    // A short delay drops the requests a fast playback would make and throw away.
    const timer = setTimeout(() => {
      sim
        .get()
        .inspectAt(tNs)
        .then((v) => live && setRead({ replay, view: v }))
        .catch(() => live && setRead({ replay, view: null }));
    }, 60);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [sim, tNs, replay]);

  const pending = pendingAt(replay, tNs);
  const mech = mechanismAt(replay, tNs);
  const inScheduler = pending.filter((q) => q.insertNs <= tNs && tNs < q.dispatchNs);
  const inDrive = pending.filter((q) => q.dispatchNs <= tNs);
  const waiting = pending.filter((q) => tNs < q.insertNs);
  const qd = replay.log.summary.queueDepth;
  const served = mech.service?.rq ?? -1;
  return (
    <section className="queues" aria-label="Queues">
      <h2>
        Queues <small>at t = {formatNs(tNs)}</small>
      </h2>
      <div className="queue-row">
        <h3>not yet in the scheduler</h3>
        <Chips list={waiting.map((q) => q.rq)} replay={replay} served={served} />
      </div>
      <div className="queue-row">
        <h3>
          I/O scheduler <code>{replay.log.summary.iosched}</code>
        </h3>
        <Chips list={inScheduler.map((q) => q.rq)} replay={replay} served={served} />
      </div>
      <div className="queue-row">
        <h3>
          drive tagged queue{' '}
          <small>
            ({inDrive.length} of {qd} tags)
          </small>
        </h3>
        <div className="slots" data-testid="slots">
          {Array.from({ length: Math.min(qd, 32) }, (_, i) => {
            const q = inDrive[i];
            return (
              <span key={i} className="slot">
                {q ? <RequestChip id={q.rq} q={q} highlight={q.rq === served} /> : '·'}
              </span>
            );
          })}
          {qd > 32 && <span className="muted">+{qd - 32} slots</span>}
        </div>
      </div>
      <details className="internals" open>
        <summary>scheduler internals{view ? ` at ${formatNs(view.tNs)}` : ''} (inspect())</summary>
        {view ? (
          <Inspection value={view.host} requests={replay.requests} />
        ) : (
          <p className="muted">…</p>
        )}
      </details>
    </section>
  );
}

function Chips({ list, replay, served }: { list: number[]; replay: Replay; served: number }) {
  if (list.length === 0) return <p className="muted">empty</p>;
  return (
    <p className="chips">
      {list.slice(0, 40).map((id) => (
        <RequestChip key={id} id={id} q={replay.requests.get(id)} highlight={id === served} />
      ))}
      {list.length > 40 && <span className="muted"> +{list.length - 40} more</span>}
    </p>
  );
}
