// The laboratory page: a lesson playing on the disk view, the queues and decisions beside it,
// playback controls under it, the lesson's text alongside. The engine runs in the worker;
// the page replays the log it returns (src/app/replay.ts). What runs is the configuration
// (config.ts: the lesson plus the user's overrides), which lives in the URL and IndexedDB
// (config-state.ts); compare mode runs 2–4 configurations side by side on one clock.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ChartsPanel } from '../components/charts';
import { CompareView, columnName } from '../components/compare/CompareView';
import { Controls } from '../components/Controls';
import { DecisionLog } from '../components/DecisionLog';
import { DiskView } from '../components/disk/DiskView';
import { HelpOverlay } from '../components/HelpOverlay';
import { Intro } from '../components/Intro';
import { describeOverrides, LessonPanel } from '../components/LessonPanel';
import { PresenterView } from '../components/present/PresenterView';
import { QuizPanel } from '../components/quiz/QuizPanel';
import { QueuesView } from '../components/QueuesView';
import { RunSummary } from '../components/RunSummary';
import { LinkProblems } from '../components/settings/LinkProblems';
import { SettingsPanel } from '../components/settings/SettingsPanel';
import { SharePanel } from '../components/settings/SharePanel';
import { TraceEntry } from '../components/trace/TraceEntry';
import {
  ThemeToggle,
  useEffectiveTheme,
  useThemeAttribute,
} from '../components/settings/ThemeToggle';
import { createSimHandle, type RunLog } from '../worker/client';
import { clockOf, mergeClocks } from './actions';
import { emptyOverrides, isEmptyOverrides, type Hideable, type LabConfig } from './config';
import { useLabConfig } from './config-state';
import { DiskFiles, useDiskSimDrop } from './disk-files';
import { lessonSetup, startLessonCompare, stepContext } from './lesson-steps';
import { errorText, fetchJson, scenarioUrl } from './lessons';
import { isFixedList, newQuiz, quizDecisions } from './quiz';
import { indexLog, type Replay } from './replay';
import { createStore, useStore } from './store';
import { usePlayback } from './usePlayback';
import { serializeUrlState } from './url-state';
import { defaultSlowdown, spanOf, startTime } from './window';

type Panel = 'settings' | 'share' | null;

export function App() {
  const [store] = useState(() =>
    createStore({ tNs: 0, playing: false, slowdown: 40, helpOpen: false, layer: 'all' }),
  );
  const [handle] = useState(createSimHandle);
  const lab = useLabConfig(handle);
  const { config, setConfig, catalog } = lab;
  const [diskFiles] = useState(() => new DiskFiles(handle, lab.refreshCatalog, setConfig));
  const [lessonJson, setLessonJson] = useState<{ file: string; json: unknown } | null>(null);
  const [log, setLog] = useState<RunLog | null>(null);
  /** counts the runs shown, so per-run views (the quiz) start afresh */
  const [runCount, setRunCount] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [panel, setPanel] = useState<Panel>(null);
  const [compareReplays, setCompareReplays] = useState<Replay[]>([]);
  const startAt = useRef(config.atNs);
  const replay = useMemo(() => (log ? indexLog(log) : null), [log]);
  const comparing = config.compare !== null;
  const clock = useMemo(
    () => (comparing ? mergeClocks(compareReplays) : replay ? clockOf(replay) : null),
    [comparing, compareReplays, replay],
  );
  const helpOpen = useStore(store, (s) => s.helpOpen);
  const theme = useEffectiveTheme(config.theme);
  useThemeAttribute(theme);
  // Quiz mode (one run only): the decisions it stops before, and a fresh score per run.
  const quizzing = config.quiz && !comparing;
  const quizList = useMemo(
    () => (quizzing && replay ? quizDecisions(replay) : null),
    [quizzing, replay],
  );
  const quizTimes = useMemo(() => quizList?.map((d) => d.tNs) ?? null, [quizList]);
  useEffect(() => store.set({ quiz: quizList ? newQuiz() : null }), [store, quizList]);
  usePlayback(store, clock, quizTimes);
  const hidden = config.hide;
  const show = (id: Hideable) => !hidden.includes(id);

  useEffect(() => () => handle.terminate(), [handle]);

  // DiskSim files dropped on the page open a disk (not a trace) and show it in Settings
  const settingsShown = !comparing && show('settings');
  useDiskSimDrop(diskFiles, () => settingsShown && setPanel('settings'));

  // The lesson's scenario file, fetched once per lesson.
  useEffect(() => {
    if (!lab.ready) return;
    let live = true;
    const file = config.lesson;
    fetchJson(scenarioUrl(file))
      .then((json) => live && setLessonJson({ file, json }))
      .catch((err: unknown) => {
        if (!live) return;
        // the previous lesson's run must not stay on screen under this lesson's name
        setLog(null);
        setError(errorText(err));
        setLoading(false);
      });
    return () => {
      live = false;
    };
  }, [lab.ready, config.lesson]);

  // One run (not in compare mode): the lesson with the overrides, in the worker.
  useEffect(() => {
    if (!lessonJson || lessonJson.file !== config.lesson || comparing) return;
    let live = true;
    const url = scenarioUrl(lessonJson.file);
    store.set({ playing: false });
    handle
      .get()
      .run('main', lessonJson.json, url, config.run, config.seed, config.fromNs)
      .then((result) => {
        if (!live) return;
        setError(null);
        setLog(result);
        setRunCount((n) => n + 1);
        const at = startAt.current;
        startAt.current = undefined;
        store.set({
          tNs: startTime(result, at),
          playing: at === undefined,
          slowdown: defaultSlowdown(result),
        });
      })
      .catch((err: unknown) => {
        if (!live) return;
        setLog(null);
        setError(errorText(err));
      })
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [handle, lessonJson, config.lesson, config.run, config.seed, config.fromNs, comparing, store]);

  // Compare mode: the columns report their runs; the clock starts when all have arrived.
  const onReplays = useCallback(
    (rs: Replay[]) => {
      setCompareReplays(rs);
      if (rs.length === 0) return;
      setLoading(false);
      const at = startAt.current;
      startAt.current = undefined;
      const slowest = Math.max(...rs.map((r) => defaultSlowdown(r.log)));
      const from = spanOf(rs.map((r) => r.log)).fromNs;
      if (at !== undefined)
        store.set({ tNs: Math.max(at, from), playing: false, slowdown: slowest });
      else if (store.get().tNs <= from) store.set({ tNs: from, playing: true, slowdown: slowest });
    },
    [store],
  );

  function chooseLesson(file: string) {
    setLoading(true);
    store.set({ tNs: 0, playing: false });
    setConfig((c) => ({
      ...c,
      lesson: file,
      seed: undefined,
      fromNs: undefined,
      run: emptyOverrides(),
      // a column keeps its scheduler choice; tunables of the old lesson's scheduler go
      compare:
        c.compare?.map((col) =>
          col.sched
            ? { ...emptyOverrides(), sched: col.sched, tunables: col.tunables }
            : emptyOverrides(),
        ) ?? null,
    }));
  }

  /** Play the window from this time (ns): the worker runs there unrecorded, then records. */
  function playFrom(fromNs: number) {
    setLoading(true);
    setConfig((c) => ({ ...c, fromNs }));
  }

  const controls = { clock, store, onFrom: playFrom, hidden };

  const toggleCompare = () =>
    runStep((c) => (c.compare ? { ...c, compare: null } : startLessonCompare(c, lessonJson?.json)));

  /** Compare on or off, a lesson's `Try:` step, or its own setup: a fresh run from the start. */
  function runStep(change: (c: LabConfig) => LabConfig) {
    setLoading(true);
    store.set({ tNs: 0, playing: false });
    setCompareReplays([]);
    setConfig(change);
    setPanel(null);
  }

  const classes = ['app'];
  if (config.present) classes.push('present');
  if (config.embed) classes.push('embed');
  for (const h of hidden) classes.push(`hide-${h}`);
  const plainLink = serializeUrlState({ ...config, embed: false, present: false, atNs: undefined });
  const lessonReady = lessonJson !== null && lessonJson.file === config.lesson;
  const quiz = quizList && replay && (
    <QuizPanel
      key={runCount}
      replay={replay}
      store={store}
      decisions={quizList}
      askTotal={lessonReady && isFixedList(lessonJson.json) && replay.log.fromNs === 0}
    />
  );
  const steps = lessonReady ? stepContext(config, lessonJson.json, runStep) : undefined;
  const onSetup = () => runStep(lessonSetup);

  return (
    <div className={classes.join(' ')}>
      {!config.embed && !config.present && (
        <header className="topbar">
          <h1>Spindle</h1>
          {show('lesson') && (
            <label className="lesson-picker">
              Lesson{' '}
              <select
                value={config.lesson}
                aria-label="Lesson"
                onChange={(e) => chooseLesson(e.target.value)}
              >
                {lab.lessons.length === 0 && <option value={config.lesson}>{config.lesson}</option>}
                {lab.lessons.map((l) => (
                  <option key={l.file} value={l.file}>
                    {l.title}
                  </option>
                ))}
              </select>
            </label>
          )}
          {show('settings') && !comparing && (
            <button
              type="button"
              aria-expanded={panel === 'settings'}
              aria-controls="settings-panel"
              onClick={() => setPanel(panel === 'settings' ? null : 'settings')}
              disabled={!catalog || !lessonReady}
            >
              Settings
            </button>
          )}
          {show('compare') && (
            <button
              type="button"
              aria-pressed={comparing}
              onClick={toggleCompare}
              disabled={!catalog || !lessonReady}
            >
              Compare
            </button>
          )}
          {show('quiz') && (
            <button
              type="button"
              aria-pressed={config.quiz}
              title={
                comparing
                  ? 'Quiz mode works on one run: leave compare mode first'
                  : 'Pause before each decision and guess which request goes next'
              }
              onClick={() => setConfig((c) => ({ ...c, quiz: !c.quiz }))}
              disabled={comparing}
            >
              Quiz
            </button>
          )}
          {show('share') && (
            <button
              type="button"
              aria-expanded={panel === 'share'}
              aria-controls="share-panel"
              onClick={() => setPanel(panel === 'share' ? null : 'share')}
            >
              Share
            </button>
          )}
          {show('theme') && (
            <ThemeToggle theme={theme} onChange={(t) => setConfig((c) => ({ ...c, theme: t }))} />
          )}
          <TraceEntry lab={store} />
          {loading && <span className="muted">running…</span>}
        </header>
      )}
      {config.present && (comparing || !replay) && (
        <header className="present-bar">
          <h1>Spindle</h1>
          <span>Space plays and pauses, ← → step, d the next decision, ? all keys</span>
          <a href={plainLink}>Leave presenter mode</a>
        </header>
      )}
      <LinkProblems problems={lab.problems} onDismiss={lab.dismissProblems} />
      {!config.embed && !config.present && <Intro store={store} />}
      {(error ?? lab.error) && (
        <div role="alert" className="error">
          {error && !comparing && !isEmptyOverrides(config.run) && (
            <p>The lesson cannot run with these settings:</p>
          )}
          <p>{error ?? lab.error}</p>
          {error && !comparing && !isEmptyOverrides(config.run) && (
            <button
              type="button"
              onClick={() => {
                setLoading(true);
                setConfig((c) => ({ ...c, run: emptyOverrides() }));
              }}
            >
              Back to the lesson&apos;s settings
            </button>
          )}
        </div>
      )}
      {panel === 'settings' && catalog && lessonReady && !comparing && (
        <div id="settings-panel" className="panel">
          <SettingsPanel
            key={config.lesson}
            catalog={catalog}
            lesson={lessonJson.json}
            overrides={config.run}
            onApply={(o) => {
              setLoading(true);
              setConfig((c) => ({ ...c, run: o }));
            }}
            title="Settings"
            diskFiles={diskFiles}
          />
        </div>
      )}
      {panel === 'share' && (
        <div id="share-panel" className="panel">
          <SharePanel config={config} store={store} />
        </div>
      )}
      {comparing && catalog && lessonReady && config.compare && (
        <>
          <Controls {...controls} seed={null} onSeed={() => {}} />
          <CompareView
            sim={handle}
            catalog={catalog}
            lesson={lessonJson.json}
            source={scenarioUrl(config.lesson)}
            seed={config.seed}
            fromNs={config.fromNs}
            columns={config.compare}
            onColumns={(cols) => setConfig((c) => ({ ...c, compare: cols }))}
            store={store}
            onReplays={onReplays}
          />
          {compareReplays[0] && (
            <div className="compare-lesson">
              <LessonPanel log={compareReplays[0].log} steps={steps} onSetup={onSetup} />
            </div>
          )}
        </>
      )}
      {!comparing && replay && config.present && (
        <PresenterView
          replay={replay}
          store={store}
          sim={handle}
          clock={clock}
          hidden={hidden}
          plainLink={plainLink}
          changes={describeOverrides(config.run, config.seed)}
          quiz={quiz}
          steps={steps}
          onSetup={onSetup}
        />
      )}
      {!comparing && replay && !config.present && (
        <main className="lab">
          <div className="stage">
            <DiskView replay={replay} store={store} />
            <Controls
              {...controls}
              seed={replay.log.seed}
              onSeed={(seed) => {
                setLoading(true);
                setConfig((c) => ({ ...c, seed }));
              }}
            />
            <LessonPanel
              log={replay.log}
              changes={describeOverrides(config.run, config.seed)}
              folded={quizzing}
              steps={steps}
              onSetup={onSetup}
              predict
            />
          </div>
          <div className="side">
            {quiz}
            <QueuesView replay={replay} store={store} sim={handle} />
            <DecisionLog replay={replay} store={store} />
          </div>
          <details className="summary-box">
            <summary>
              Run summary{replay.log.bounded ? ' (from 0 to the played part’s end)' : ''}
            </summary>
            <RunSummary summary={replay.log.summary} />
          </details>
        </main>
      )}
      {!config.embed &&
        !config.present &&
        (comparing ? compareReplays.length > 0 : replay !== null) && (
          <ChartsPanel
            runs={
              comparing
                ? compareReplays.map((r, i) => ({
                    // the column's own name, so chart and table agree (settings may differ
                    // in the drive, not the I/O scheduler)
                    label: columnName(i, r.log),
                    log: r.log,
                  }))
                : replay
                  ? [{ label: replay.log.name, log: replay.log }]
                  : []
            }
            store={store}
            onPlayFrom={playFrom}
          />
        )}
      {config.embed && (
        <p className="embed-foot">
          <a href={plainLink} target="_blank" rel="noopener noreferrer">
            Open in Spindle
          </a>
        </p>
      )}
      {helpOpen && (
        <HelpOverlay
          onClose={() => store.set({ helpOpen: false })}
          onIntro={() => store.set({ helpOpen: false, introOpen: true })}
        />
      )}
    </div>
  );
}
