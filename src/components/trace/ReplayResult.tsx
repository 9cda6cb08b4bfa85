// A replay's outcome on the trace screen: the cautions first (visible whenever there are any),
// what was replayed and how, measured and simulated side by side in one set of units
// (ReplayUnits) with the simulated device and its fit beside them (ReplayDevice), the
// scheduler's choices against the kernel's with arrival order beside them (ReplayAgreement),
// and completions over time.
import type { ReplayReport } from '../../engine';
import { pageNote } from '../../app/replay-choices';
import { count } from './format';
import { ReplayAgreement } from './ReplayAgreement';
import { ReplayDevice } from './ReplayDevice';
import { ThroughputPlot } from './ReplayPlots';
import { ReplayLadders, ReplayUnits } from './ReplayUnits';

export function ReplayResult({ report: r }: { report: ReplayReport }) {
  const m = r.schedulerMapping;
  const rq = r.requests;
  return (
    <div className="replay-result" data-testid="replay-result">
      {r.caution.length > 0 && (
        <div role="alert" className="replay-caution" data-testid="replay-caution">
          <strong>Caution</strong>
          <ul>
            {r.caution.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
        </div>
      )}
      <p className="small">
        Device {r.device}, <strong>{r.mode}</strong> replay of {count(rq.replayed)}{' '}
        {rq.units === 'requests' ? 'of the kernel’s requests' : 'requests'}
        {rq.arrivals === 'D' && ' (the trace has no Q: its dispatches are the arrivals)'}
        {rq.skipped.total > 0 &&
          ` (${count(rq.skipped.total)} Qs skipped: ${count(rq.skipped.flush)} flush, ${count(rq.skipped.discard)} discard, ${count(rq.skipped.zeroSize)} without size)`}{' '}
        from {count(r.processes.length)} processes — {count(rq.dependent)} issued after a completion
        of their own process, {count(rq.independent)} on the clock
        {rq.inPlug > 0 &&
          ` (${count(rq.inPlug)} of them into the plug of their process’s previous request, one submission as traced between P and U)`}{' '}
        — under <strong>{r.simulated.iosched}</strong> on <strong>{r.simulated.disk}</strong>,
        kernel <strong>{r.kernel.value}</strong>, queue depth {r.queueDepth.value}{' '}
        <span className="muted">({pageNote(r.queueDepth.source)})</span>.
      </p>
      <p className="small muted">
        Traced scheduler: {m.traced ?? 'unknown'}
        {m.traced !== null ? ` (from its ${m.tracedFrom})` : ''} — {pageNote(m.note)}. Block layer:
        kernel {r.kernel.value} ({pageNote(r.kernel.source)})
        {r.nrRequests !== null &&
          `; nr_requests ${r.nrRequests.value} (${pageNote(r.nrRequests.source)})`}
        .
        {rq.untimed > 0 &&
          ` ${count(rq.untimed)} requests had no traced D and C and were served by the device model.`}
      </p>
      {(r.flushes.flaggedQs > 0 || r.flushes.commands.measured > 0) && (
        <p className="small muted" data-testid="replay-flushes">
          Flushes: {count(r.flushes.flaggedQs)} Qs with preflush or FUA
          {rq.emptyFlushes > 0 && ` (${count(rq.emptyFlushes)} of them empty flushes)`}; the traced
          device: write cache {yesNo(r.flushes.writeCache)}, FUA {yesNo(r.flushes.fua)} (
          {r.flushes.source}); flush commands measured {count(r.flushes.commands.measured)},
          simulated {count(r.flushes.commands.simulated)}
          {r.fit?.flush &&
            `; the fitted device’s flush: ${r.fit.flush.baseMs.toFixed(3)} ms mean work (traced median D2C ${r.fit.flush.tracedD2cMedianMs.toFixed(3)} ms, ${count(r.fit.flush.samples)} flushes)`}
          .
        </p>
      )}
      {r.addresses.packed && (
        <p className="small muted" data-testid="replay-addresses">
          Addresses: {r.addresses.note}.
        </p>
      )}
      <div className="replay-columns">
        <ReplayUnits report={r} />
        <ReplayDevice report={r} />
      </div>
      <ReplayLadders report={r} />
      <ReplayAgreement agreement={r.agreement} />
      <ThroughputPlot report={r} />
    </div>
  );
}

function yesNo(v: boolean | null): string {
  return v === null ? 'unknown' : v ? 'yes' : 'no';
}
