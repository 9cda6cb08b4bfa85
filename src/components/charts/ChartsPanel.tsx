// The charts panel: tabs over the chart modules (or all of them at once), which part of the
// run they show (the played log, or the whole run computed by a worker of the panel's own),
// and the exports: each chart as PNG / SVG (on the chart), the data as CSV and JSON, the run
// as blkparse text. One run normally; 2–4 overlaid in compare mode, a colour per run.
// Every chart's series are computed in that worker (app/chart-series.ts): the page's main
// thread only draws, dense marks on canvases, one chart per frame.
import { useEffect, useMemo, useState, type ComponentType } from 'react';
import type { ChartRun } from '../../app/chart-data';
import { seriesInput, type ChartSeries } from '../../app/chart-series';
import { chartsJson, requestsCsv } from '../../app/chart-files';
import { downloadBlob, downloadText } from '../../app/exports';
import type { Store } from '../../app/store';
import { spanOf, windowText } from '../../app/window';
import { PLAYED_BOUND, WHOLE_RUN_BOUND } from '../../worker/bounds';
import type { ChartLog } from '../../worker/chart-tables';
import { createSimHandle, type SimHandle } from '../../worker/client';
import { BreakdownChart } from './BreakdownChart';
import { CdfChart } from './CdfChart';
import { LatencyChart } from './LatencyChart';
import { LbaChart } from './LbaChart';
import type { ChartProps } from './marks';
import { QueueDepthChart } from './QueueDepthChart';
import { SharesChart } from './SharesChart';
import { ThroughputChart } from './ThroughputChart';
import { PlayFromContext } from './play-from';
import './charts.css';

export interface ChartsPanelProps {
  /** one run, or 2–4 in compare mode (a RunLog is a ChartLog) */
  runs: ReadonlyArray<{ label: string; log: ChartLog }>;
  /** the playback clock: each time chart draws a cursor at it */
  store: Store;
  /** play the page's run from this time (ns): offered on the whole run's time charts */
  onPlayFrom?: (fromNs: number) => void;
}

const TABS: ReadonlyArray<{ id: string; label: string; chart: ComponentType<ChartProps> | null }> =
  [
    { id: 'latency', label: 'Latency / time', chart: LatencyChart },
    { id: 'cdf', label: 'CDF', chart: CdfChart },
    { id: 'throughput', label: 'Throughput', chart: ThroughputChart },
    { id: 'depth', label: 'Queue depth', chart: QueueDepthChart },
    { id: 'lba', label: 'LBA / time', chart: LbaChart },
    { id: 'breakdown', label: 'Breakdown', chart: BreakdownChart },
    { id: 'shares', label: 'Per process', chart: SharesChart },
    { id: 'all', label: 'All', chart: null },
  ];

type Whole =
  | { state: 'idle' }
  | { state: 'running'; for: unknown }
  | { state: 'done'; for: unknown; runs: ChartRun[]; series: ChartSeries }
  | { state: 'error'; for: unknown; message: string };

const fileLabel = (s: string) => s.replace(/[^\w.-]+/g, '-').replace(/^-|-$/g, '') || 'run';

type Runs = ChartsPanelProps['runs'];

/**
 * How many of `n` charts to draw: one more per animation frame after a change, so the All
 * tab (eight charts of up to 100,000 requests) is drawn as eight tasks, not one long one.
 */
function useStaggered(n: number, ...deps: unknown[]): number {
  const [state, setState] = useState({ deps, count: 1 });
  const same = state.deps.length === deps.length && state.deps.every((d, i) => d === deps[i]);
  if (!same) setState({ deps, count: 1 });
  const count = same ? state.count : 1;
  useEffect(() => {
    if (count >= n) return;
    const frame = requestAnimationFrame(() =>
      setState((s) => (s.deps === state.deps ? { ...s, count: s.count + 1 } : s)),
    );
    return () => cancelAnimationFrame(frame);
  }, [count, n, state.deps]);
  return Math.min(n, count);
}

/** The same runs as last render (element-wise) keep their identity: a parent may build the
 * array inline, and every chart's series are memoized on it. */
function useStableRuns(runs: Runs): Runs {
  const [stable, setStable] = useState(runs);
  const same =
    stable.length === runs.length &&
    stable.every((r, i) => r.log === runs[i]!.log && r.label === runs[i]!.label);
  if (same) return stable;
  setStable(runs);
  return runs;
}

/** The played runs' series from the panel's worker: null until they arrive (a message if it
 * failed). Only the chart tables are sent, not the rest of the runs' logs. */
function usePlayedSeries(
  handle: SimHandle,
  runs: readonly ChartRun[],
): ChartSeries | string | null {
  const [got, setGot] = useState<{ for: unknown; series: ChartSeries | string } | null>(null);
  useEffect(() => {
    if (runs.length === 0) return;
    let live = true;
    handle
      .get()
      .series(seriesInput(runs))
      .then(
        (series) => live && setGot({ for: runs, series }),
        (err: unknown) =>
          live && setGot({ for: runs, series: err instanceof Error ? err.message : String(err) }),
      );
    return () => {
      live = false;
    };
  }, [handle, runs]);
  return got?.for === runs ? got.series : null;
}

export default function ChartsPanel(props: ChartsPanelProps) {
  const { store } = props;
  const runs = useStableRuns(props.runs);
  const [tab, setTab] = useState('latency');
  const [whole, setWhole] = useState<Whole>({ state: 'idle' });
  const [handle] = useState(createSimHandle);
  const [exporting, setExporting] = useState(false);
  useEffect(() => () => handle.terminate(), [handle]);

  // A whole run belongs to the runs it was computed for; new runs show their played part.
  const current = whole.state !== 'idle' && whole.for === runs ? whole : null;
  const played = useMemo(() => runs.map((r) => ({ label: r.label, log: r.log })), [runs]);
  const shown = current?.state === 'done' ? current.runs : played;
  const playedSeries = usePlayedSeries(handle, played);
  const series = current?.state === 'done' ? current.series : playedSeries;
  // a played window that starts later is a part of the run too
  const anyBounded = runs.some((r) => r.log.bounded || r.log.fromNs > 0);

  async function chartWholeRun() {
    const forRuns = runs;
    setWhole({ state: 'running', for: forRuns });
    try {
      const { logs, series } = await handle
        .get()
        .wholeRunCharts(
          forRuns.map((r) => ({ label: r.label, scenario: r.log.scenario, seed: r.log.seed })),
        );
      // For the responsiveness test: when the worker's answer reached the page.
      performance.mark('spindle:whole-run-arrived');
      setWhole({
        state: 'done',
        for: forRuns,
        runs: logs.map((log, i) => ({ label: forRuns[i]!.label, log })),
        series,
      });
    } catch (err) {
      setWhole({
        state: 'error',
        for: forRuns,
        message: err instanceof Error ? err.message : String(err),
      });
    }
  }

  async function exportBlkparse() {
    setExporting(true);
    try {
      const sim = handle.get();
      for (const r of shown) {
        // blkparse text starts at the run's start: a later window's is 0 to the window's end
        const bound =
          current?.state === 'done'
            ? WHOLE_RUN_BOUND
            : r.log.fromNs > 0
              ? { completions: Number.MAX_SAFE_INTEGER, simNs: r.log.endNs }
              : PLAYED_BOUND;
        const blob = await sim.blkparse(r.log.scenario, r.log.seed, bound);
        downloadBlob(blob, `spindle-${fileLabel(r.label)}.blkparse.txt`);
      }
    } finally {
      setExporting(false);
    }
  }

  const requests = shown.map((r) => r.log.tables.requests.n);
  const count = requests.map((r) => r.toLocaleString('en')).join(' / ');
  const scope =
    current?.state === 'done'
      ? `the whole run: ${count} requests${shown.some((r) => r.log.bounded) ? ` (stopped at ${WHOLE_RUN_BOUND.completions.toLocaleString('en')} requests or an hour of simulated time)` : ''}`
      : anyBounded
        ? `the part played${played[0]!.log.fromNs > 0 ? `, ${windowText(spanOf(played.map((r) => r.log)))}` : ''}: ${count} requests (the played log stops at ${PLAYED_BOUND.completions.toLocaleString('en')} requests or ${PLAYED_BOUND.simNs / 1e9} s of simulated time from its start)`
        : `the whole run: ${count} requests`;
  const base = fileLabel(shown.length > 1 ? 'compare' : (shown[0]?.label ?? 'run'));
  const visible = tab === 'all' ? TABS.filter((t) => t.chart) : TABS.filter((t) => t.id === tab);
  const drawn = useStaggered(visible.length, `${tab}`, shown, series);

  /** Left / right arrows move between the tabs (and not the playback clock). */
  function onTabKey(e: React.KeyboardEvent<HTMLDivElement>) {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
    const i = TABS.findIndex((t) => t.id === tab);
    const next = TABS[(i + (e.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length]!;
    setTab(next.id);
    document.getElementById(`chart-tab-${next.id}`)?.focus();
    e.preventDefault();
    e.stopPropagation();
  }

  return (
    <section className="charts" aria-label="Charts" data-testid="charts">
      <div className="charts-head">
        <h2>Charts</h2>
        <div role="tablist" aria-label="Chart" className="chart-tabs" onKeyDown={onTabKey}>
          {TABS.map((t) => (
            <button
              key={t.id}
              type="button"
              role="tab"
              id={`chart-tab-${t.id}`}
              aria-selected={tab === t.id}
              aria-controls="chart-tabpanel"
              className={tab === t.id ? 'selected' : undefined}
              onClick={() => setTab(t.id)}
            >
              {t.label}
            </button>
          ))}
        </div>
        <div className="chart-exports" role="group" aria-label="Export the data">
          <span className="muted small">export:</span>
          <button
            type="button"
            onClick={() =>
              downloadText(requestsCsv(shown), `spindle-${base}-requests.csv`, 'text/csv')
            }
            aria-label="Download the requests as CSV"
          >
            CSV
          </button>
          <button
            type="button"
            onClick={() =>
              downloadText(chartsJson(shown), `spindle-${base}-charts.json`, 'application/json')
            }
            aria-label="Download the chart data as JSON"
          >
            JSON
          </button>
          <button
            type="button"
            disabled={exporting}
            onClick={() => void exportBlkparse()}
            title={
              current?.state !== 'done' && played.some((r) => r.log.fromNs > 0)
                ? 'From the run’s start to the end of the part played (blkparse text starts at 0)'
                : undefined
            }
            aria-label="Download the run as blkparse text"
          >
            blkparse
          </button>
        </div>
      </div>
      <p className="chart-scope small" data-testid="chart-scope">
        Showing {scope}.{' '}
        {current?.state === 'done' ? (
          <>
            {props.onPlayFrom
              ? 'Click a time chart to watch the run from there.'
              : 'To watch a moment of it, type its time into “play from” under the disk.'}{' '}
            <button type="button" onClick={() => setWhole({ state: 'idle' })}>
              Show the part played
            </button>
          </>
        ) : anyBounded ? (
          <button
            type="button"
            disabled={current?.state === 'running'}
            onClick={() => void chartWholeRun()}
          >
            {current?.state === 'running' ? 'Running the whole run…' : 'Chart the whole run'}
          </button>
        ) : null}
        {current?.state === 'error' && (
          <span role="alert" className="error">
            {' '}
            {current.message}
          </span>
        )}
      </p>
      <PlayFromContext.Provider
        value={current?.state === 'done' ? (props.onPlayFrom ?? null) : null}
      >
        <div
          id="chart-tabpanel"
          role="tabpanel"
          aria-labelledby={`chart-tab-${tab}`}
          className={tab === 'all' ? 'chart-grid' : undefined}
        >
          {shown.length === 0 ? (
            <p className="muted">No run to chart yet.</p>
          ) : series === null ? (
            <p className="muted">Drawing the charts…</p>
          ) : typeof series === 'string' ? (
            <p role="alert" className="error">
              The charts could not be computed: {series}
            </p>
          ) : (
            visible.slice(0, drawn).map((t) => {
              const Chart = t.chart!;
              return <Chart key={t.id} runs={shown} series={series} store={store} />;
            })
          )}
        </div>
      </PlayFromContext.Provider>
    </section>
  );
}
