// The simulated device beside a replay's figures: the one fitted to the trace — what it is,
// how many requests it serves at once, and how well it predicts the half of the trace it was
// not fitted on (the figures can be trusted no further than that) — or the preset chosen.
import type { ReplayReport } from '../../engine';
import { pageNote } from '../../app/replay-choices';
import { count, ms, pct } from './format';

export function ReplayDevice({ report: r }: { report: ReplayReport }) {
  const f = r.fit;
  return (
    <aside className="replay-device" aria-label="Simulated device" data-testid="replay-device">
      <h4>Simulated device</h4>
      {f === null ? (
        <p className="small">
          The preset <strong>{r.disk.preset}</strong> ({pageNote(r.disk.source)}): not fitted to
          this trace, so its service times are the preset’s own.
        </p>
      ) : (
        <>
          <p className="small">
            <strong>Fitted to this trace</strong> <span className="muted">(traced)</span> from{' '}
            {count(f.samples)} of its dispatch-to-completion (D→C) times.
          </p>
          <dl className="replay-fit">
            <dt>Requests served at once (parallelism)</dt>
            <dd data-testid="fit-parallelism">{count(f.parallelism)}</dd>
            <dt>Error on held-back D2C, median</dt>
            <dd data-testid="fit-median-error">{pct(f.heldBack.medianRelErr)}</dd>
            <dt>Error on held-back D2C, p95</dt>
            <dd data-testid="fit-p95-error">{pct(f.heldBack.p95RelErr)}</dd>
            <dt>Traced median D2C</dt>
            <dd>{ms(f.tracedD2cMedianMs)} ms</dd>
          </dl>
          <details className="small">
            <summary>The model and its check</summary>
            <p>{f.model}.</p>
            <p>
              Held back: {f.heldBack.how} ({count(f.heldBack.n)} predicted).
            </p>
          </details>
        </>
      )}
    </aside>
  );
}
