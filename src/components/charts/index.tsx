// The charts panel, loaded on demand: d3 and the chart modules stay out of the page's first
// JavaScript (the initial budget is 250 KB gzipped); the panel appears when its chunk arrives.
import { lazy, Suspense } from 'react';
import type { ChartsPanelProps } from './ChartsPanel';

const Panel = lazy(() => import('./ChartsPanel'));

export type { ChartsPanelProps };

export function ChartsPanel(props: ChartsPanelProps) {
  return (
    <Suspense
      fallback={
        <section className="charts" aria-label="Charts">
          <p className="muted">Loading the charts…</p>
        </section>
      }
    >
      <Panel {...props} />
    </Suspense>
  );
}
