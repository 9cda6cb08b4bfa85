// The charts panel's series, computed in its worker (app/chart-series.ts): the page's main
// thread only draws. Spread into the worker's comlink API beside ./chart-tables.ts.
//   series(runs)            → every chart's series for these runs (their tables sent here)
//   wholeRunCharts(items)   → each run to its scenario's end (bounded) and the series of all
// The typed arrays are transferred, not copied.
import { transfer } from 'comlink';
import type { Scenario } from '../engine';
import { chartSeries, seriesBuffers, type ChartSeries, type SeriesLog } from '../app/chart-series';
import { WHOLE_RUN_BOUND } from './bounds';
import { buffersOf, chartRun, type ChartLog } from './chart-tables';

export interface WholeRunCharts {
  logs: ChartLog[];
  series: ChartSeries;
}

export const seriesMethods = {
  series(runs: Array<{ label: string; log: SeriesLog }>): ChartSeries {
    const s = chartSeries(runs);
    return transfer(s, seriesBuffers(s));
  },

  wholeRunCharts(
    items: Array<{ label: string; scenario: Scenario; seed: number }>,
  ): WholeRunCharts {
    const logs = items.map((it) => chartRun(it.scenario, it.seed, WHOLE_RUN_BOUND));
    const series = chartSeries(logs.map((log, i) => ({ label: items[i]!.label, log })));
    return transfer({ logs, series }, [
      ...logs.flatMap((l) => buffersOf(l.tables)),
      ...seriesBuffers(series),
    ]);
  },
};
