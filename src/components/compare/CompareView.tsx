// Compare mode (issue #5 item 6): one lesson's workload under 2–4 settings side by side.
// Each column is a run in the worker (id c1…c4) with its own overrides, drawn as a small disk
// view and its queues; all columns read one store, so one clock and one scrubber drive them
// (the page's Controls get the columns' merged clock), each with its own decision log. Under
// them: the summary table; the page puts the charts panel, overlaying the runs, after it.
import { useEffect, useMemo, useRef, useState } from 'react';
import { errorText } from '../../app/lessons';
import {
  emptyOverrides,
  MAX_COLUMNS,
  MIN_COLUMNS,
  type Catalog,
  type RunOverrides,
} from '../../app/config';
import { indexLog, lastAtOrBefore, pendingAt, type Replay } from '../../app/replay';
import { useStore, type Store } from '../../app/store';
import type { RunLog, SimHandle } from '../../worker/client';
import { DecisionLog } from '../DecisionLog';
import { DiskView } from '../disk/DiskView';
import { RequestChip } from '../RequestChip';
import { SettingsPanel } from '../settings/SettingsPanel';
import { CompareTable } from './CompareTable';

interface Props {
  sim: SimHandle;
  catalog: Catalog;
  /** the lesson's raw scenario JSON and its path */
  lesson: unknown;
  source: string;
  seed: number | undefined;
  /** the played window's start for every column (undefined: where the lesson says) */
  fromNs: number | undefined;
  columns: RunOverrides[];
  onColumns: (columns: RunOverrides[]) => void;
  store: Store;
  /** the runs as they arrive, for the shared clock (and the charts panel under the view) */
  onReplays: (replays: Replay[]) => void;
}

type ColumnRun = { key: string; replay: Replay } | { key: string; error: string } | null;

/** A column's letter: A, B, C, D (the charts' legend uses the same). */
export const columnLetter = (i: number): string => String.fromCharCode(65 + i);

/** A column's name in its header, the table and the charts: what differs is what matters. */
export function columnName(i: number, log: RunLog | null): string {
  if (!log) return `Run ${columnLetter(i)}`;
  const s = log.summary;
  const pc = log.scenario.workload.pageCache;
  // 2.6.32 is the default era; another kernel changes the block layer and the page cache
  const kernel = log.scenario.iosched.kernel;
  return `${columnLetter(i)} · ${s.iosched}${kernel !== '2.6.32' ? ` (kernel ${kernel})` : ''} · ${s.diskScheduler} · QD ${s.queueDepth}${pc ? ` · page cache ${pc.memoryMiB} MiB` : ''}`;
}

export function CompareView(props: Props) {
  const { sim, catalog, lesson, source, seed, fromNs, columns, onColumns, store, onReplays } =
    props;
  const [runs, setRuns] = useState<ColumnRun[]>([]);
  const cache = useRef(new Map<string, Replay>());
  const keys = columns.map((c) => JSON.stringify([source, seed ?? null, fromNs ?? null, c]));
  const keyList = keys.join('\n');

  useEffect(() => {
    let live = true;
    const ks = keyList.split('\n');
    setRuns(
      ks.map((key) => (cache.current.has(key) ? { key, replay: cache.current.get(key)! } : null)),
    );
    // One worker: run the columns that changed, one after another.
    (async () => {
      for (let i = 0; i < ks.length; i++) {
        const key = ks[i]!;
        if (cache.current.has(key)) continue;
        const [, s, from, overrides] = JSON.parse(key) as [
          string,
          number | null,
          number | null,
          RunOverrides,
        ];
        let result: ColumnRun;
        try {
          const id = `c${i + 1}`;
          const log = await sim
            .get()
            .run(id, lesson, source, overrides, s ?? undefined, from ?? undefined);
          const replay = indexLog(log);
          cache.current.set(key, replay);
          result = { key, replay };
        } catch (err) {
          result = { key, error: errorText(err) };
        }
        if (!live) return;
        setRuns((rs) => rs.map((r, j) => (j === i ? result : r)));
      }
    })();
    return () => {
      live = false;
    };
  }, [sim, lesson, source, keyList]);

  const replays = useMemo(
    () => runs.flatMap((r) => (r && 'replay' in r ? [r.replay] : [])),
    [runs],
  );
  useEffect(() => onReplays(replays), [replays, onReplays]);

  const logs = replays.map((r) => r.log);
  const names = runs.flatMap((r, i) => (r && 'replay' in r ? [columnName(i, r.replay.log)] : []));
  const done = runs.length === columns.length && runs.every((r) => r !== null);

  const setColumn = (i: number, o: RunOverrides) =>
    onColumns(columns.map((c, j) => (j === i ? o : c)));

  return (
    <main className="compare" aria-label="Compare runs">
      <div className="compare-bar">
        <h2>Compare: one workload, {columns.length} settings</h2>
        <button
          type="button"
          disabled={columns.length >= MAX_COLUMNS}
          onClick={() => onColumns([...columns, { ...emptyOverrides(), ...columns.at(-1) }])}
        >
          Add a column
        </button>
        {!done && <span className="muted">running…</span>}
      </div>
      <div className={`compare-grid cols-${columns.length}`}>
        {columns.map((col, i) => {
          const r = runs[i];
          return (
            <section
              key={i}
              className="compare-col"
              aria-label={`Column ${columnLetter(i)}`}
              data-testid={`column-${i + 1}`}
            >
              <header>
                <h3>{columnName(i, r && 'replay' in r ? r.replay.log : null)}</h3>
                <button
                  type="button"
                  disabled={columns.length <= MIN_COLUMNS}
                  aria-label={`Remove column ${columnLetter(i)}`}
                  onClick={() => onColumns(columns.filter((_, j) => j !== i))}
                >
                  ✕
                </button>
              </header>
              <details className="col-settings">
                <summary>settings of column {columnLetter(i)}</summary>
                <SettingsPanel
                  catalog={catalog}
                  lesson={lesson}
                  overrides={col}
                  onApply={(o) => setColumn(i, o)}
                  title={`Column ${columnLetter(i)} settings`}
                  compact
                />
              </details>
              {r === null || r === undefined ? (
                <p className="muted">running…</p>
              ) : 'error' in r ? (
                <p className="error" role="alert">
                  {r.error}
                </p>
              ) : (
                <>
                  <DiskView replay={r.replay} store={store} />
                  <MiniQueues replay={r.replay} store={store} />
                  <details className="col-decisions" open>
                    <summary>decisions of column {columnLetter(i)}</summary>
                    <DecisionLog replay={r.replay} store={store} />
                  </details>
                </>
              )}
            </section>
          );
        })}
      </div>
      {done && logs.length > 0 && <CompareTable logs={logs} names={names} />}
    </main>
  );
}

/** A column's queues at the shared time: in the scheduler, and the drive's tags. */
function MiniQueues({ replay, store }: { replay: Replay; store: Store }) {
  const cursor = useStore(store, (s) => lastAtOrBefore(replay.stops, s.tNs));
  const tNs = cursor >= 0 ? replay.stops[cursor]! : replay.log.fromNs;
  const pending = pendingAt(replay, tNs);
  const inScheduler = pending.filter((q) => q.insertNs <= tNs && tNs < q.dispatchNs);
  const inDrive = pending.filter((q) => q.dispatchNs <= tNs);
  const qd = replay.log.summary.queueDepth;
  const ended = tNs >= replay.log.endNs && replay.log.endNs > 0;
  return (
    <div className="mini-queues">
      <p>
        <b>I/O scheduler</b> <span className="muted">({inScheduler.length})</span>{' '}
        {inScheduler.slice(0, 16).map((q) => (
          <RequestChip key={q.rq} id={q.rq} q={q} />
        ))}
        {inScheduler.length > 16 && <span className="muted"> +{inScheduler.length - 16}</span>}
      </p>
      <p>
        <b>drive</b>{' '}
        <span className="muted">
          ({inDrive.length} of {qd} tags)
        </span>{' '}
        {inDrive.slice(0, 16).map((q) => (
          <RequestChip key={q.rq} id={q.rq} q={q} />
        ))}
      </p>
      {ended && <p className="muted small">this run has ended</p>}
    </div>
  );
}
