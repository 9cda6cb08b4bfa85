// Beside the disk: where every request is at time t — in the I/O scheduler, in the drive's
// tagged queue (its slots), under the head — reconstructed from the log, and the scheduler's
// own inspection view fetched from the worker at that instant.
import { useEffect, useState } from 'react';
import { lastAtOrBefore, mechanismAt, pendingAt, type Replay } from '../app/replay';
import { useInView } from '../app/in-view';
import { useStore, type Store } from '../app/store';
import type { InspectView, SimHandle } from '../worker/client';
import { formatNs } from './format';
import { Inspection } from './Inspection';
import { RequestChip } from './RequestChip';

interface Props {
  replay: Replay;
  store: Store;
  sim: SimHandle;
  /** presenter view: fewer chips per row and slots, no scheduler internals */
  compact?: boolean;
}

export function QueuesView({ replay, store, sim, compact = false }: Props) {
  const most = compact ? 12 : 40;
  // Re-render on each step of the log, not on each animation frame; not at all while
  // scrolled out of sight.
  const [viewRef, shown] = useInView<HTMLElement>();
  const cursor = useStore(store, (s) => lastAtOrBefore(replay.stops, s.tNs), shown);
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
    <section className="queues" aria-label="Queues" ref={viewRef}>
      <h2>
        Queues <Now store={store} live={shown} />
      </h2>
      <div className="queue-row">
        <h3>
          issued, not yet in the I/O scheduler <small>(queued Q, before insert I)</small>
        </h3>
        <Chips
          list={waiting.map((q) => q.rq)}
          replay={replay}
          served={served}
          most={most}
          brief={compact}
        />
      </div>
      <div className="queue-row">
        <h3>
          waiting in the I/O scheduler <code>{replay.log.summary.iosched}</code>{' '}
          <small>(inserted I, before dispatch D)</small>
        </h3>
        <Chips
          list={inScheduler.map((q) => q.rq)}
          replay={replay}
          served={served}
          most={most}
          brief={compact}
        />
      </div>
      <div className="queue-row">
        <h3>
          in the drive{' '}
          <small>
            (its tagged command queue: {inDrive.length} of {qd} tags)
          </small>
        </h3>
        <div className="slots" data-testid="slots">
          {Array.from({ length: Math.min(qd, compact ? 8 : 32) }, (_, i) => {
            const q = inDrive[i];
            return (
              <span key={i} className="slot">
                {q ? (
                  <RequestChip id={q.rq} q={q} highlight={q.rq === served} brief={compact} />
                ) : (
                  '·'
                )}
              </span>
            );
          })}
          {qd > (compact ? 8 : 32) && (
            <span className="muted">+{qd - (compact ? 8 : 32)} slots</span>
          )}
        </div>
      </div>
      {!compact && (
        <details className="internals" open>
          <summary>
            inside the I/O scheduler <small>(its own lists and flags: inspect())</small>
            {view && view.tNs !== tNs && <small> · reading…</small>}
          </summary>
          {view ? (
            <Inspection value={view.host} requests={replay.requests} />
          ) : (
            <p className="muted">…</p>
          )}
        </details>
      )}
    </section>
  );
}

/** The playback clock, as the controls show it: the queues are as they are at this instant
 * (nothing changes between two events), so the heading tells the same time as the clock. */
function Now({ store, live }: { store: Store; live: boolean }) {
  const tNs = useStore(store, (s) => s.tNs, live);
  return <small data-testid="queues-time">at t = {formatNs(tNs)}</small>;
}

function Chips(props: {
  list: number[];
  replay: Replay;
  served: number;
  most: number;
  brief: boolean;
}) {
  const { list, replay, served, most, brief } = props;
  if (list.length === 0) return <p className="muted">empty</p>;
  return (
    <p className="chips">
      {list.slice(0, most).map((id) => (
        <RequestChip
          key={id}
          id={id}
          q={replay.requests.get(id)}
          highlight={id === served}
          brief={brief}
        />
      ))}
      {list.length > most && <span className="muted"> +{list.length - most} more</span>}
    </p>
  );
}
