// The laboratory page: a lesson playing on the disk view, the queues and decisions beside it,
// playback controls under it, the lesson's text alongside. The engine runs in the worker;
// the page replays the log it returns (src/app/replay.ts).
import { useEffect, useMemo, useState } from 'react';
import { Controls } from '../components/Controls';
import { DecisionLog } from '../components/DecisionLog';
import { DiskView } from '../components/disk/DiskView';
import { HelpOverlay } from '../components/HelpOverlay';
import { LessonPanel } from '../components/LessonPanel';
import { QueuesView } from '../components/QueuesView';
import { RunSummary } from '../components/RunSummary';
import { TraceEntry } from '../components/trace/TraceEntry';
import { createSimHandle, type RunLog } from '../worker/client';
import { errorText, fetchJson, fetchLessonIndex, scenarioUrl, type LessonEntry } from './lessons';
import { indexLog } from './replay';
import { clampSlowdown, createStore, useStore } from './store';
import { usePlayback } from './usePlayback';

const DEFAULT_LESSON = 'seek-rotate-transfer.json';

/** Slow enough to follow: a revolution in 4 s on screen; an SSD's whole run in a minute. */
function defaultSlowdown(log: RunLog): number {
  const g = log.geometry;
  if (g.rotating && Number.isFinite(g.revolutionNs)) return clampSlowdown(4e9 / g.revolutionNs);
  return clampSlowdown(60e9 / Math.max(1, log.endNs));
}

export function App() {
  const [store] = useState(() =>
    createStore({ tNs: 0, playing: false, slowdown: 40, helpOpen: false, layer: 'all' }),
  );
  const [handle] = useState(createSimHandle);
  const [lessons, setLessons] = useState<LessonEntry[]>([]);
  const [lesson, setLesson] = useState(DEFAULT_LESSON);
  const [seed, setSeed] = useState<number | undefined>(undefined);
  const [log, setLog] = useState<RunLog | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const replay = useMemo(() => (log ? indexLog(log) : null), [log]);
  const helpOpen = useStore(store, (s) => s.helpOpen);
  usePlayback(store, replay);

  useEffect(() => () => handle.terminate(), [handle]);

  useEffect(() => {
    let live = true;
    fetchLessonIndex()
      .then((index) => live && setLessons(index.lessons))
      .catch((err: unknown) => live && setError(errorText(err)));
    return () => {
      live = false;
    };
  }, []);

  useEffect(() => {
    let live = true;
    const client = handle.get();
    const url = scenarioUrl(lesson);
    store.set({ playing: false });
    fetchJson(url)
      .then((json) => client.load(json, url, seed))
      .then((result) => {
        if (!live) return;
        setError(null);
        setLog(result);
        store.set({ tNs: 0, playing: true, slowdown: defaultSlowdown(result) });
      })
      .catch((err: unknown) => live && setError(errorText(err)))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [handle, lesson, seed, store]);

  function chooseLesson(file: string) {
    setLoading(true);
    setSeed(undefined);
    setLesson(file);
  }

  return (
    <div className="app">
      <header className="topbar">
        <h1>Spindle</h1>
        <label className="lesson-picker">
          Lesson{' '}
          <select value={lesson} aria-label="Lesson" onChange={(e) => chooseLesson(e.target.value)}>
            {lessons.length === 0 && <option value={lesson}>{lesson}</option>}
            {lessons.map((l) => (
              <option key={l.file} value={l.file}>
                {l.title}
              </option>
            ))}
          </select>
        </label>
        <TraceEntry />
        {loading && <span className="muted">running…</span>}
      </header>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {replay && (
        <main className="lab">
          <div className="stage">
            <DiskView replay={replay} store={store} />
            <Controls replay={replay} store={store} seed={replay.log.seed} onSeed={setSeed} />
            <LessonPanel log={replay.log} />
          </div>
          <div className="side">
            <QueuesView replay={replay} store={store} sim={handle} />
            <DecisionLog replay={replay} store={store} />
          </div>
          <details className="summary-box">
            <summary>Run summary{replay.log.bounded ? ' (first part of the run)' : ''}</summary>
            <RunSummary summary={replay.log.summary} />
          </details>
        </main>
      )}
      {helpOpen && <HelpOverlay onClose={() => store.set({ helpOpen: false })} />}
    </div>
  );
}
