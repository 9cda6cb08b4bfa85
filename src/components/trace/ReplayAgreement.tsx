// The simulated scheduler's choices against the kernel's (report.agreement), with plain
// arrival order (fifo) beside each figure: a scheduler's figure means something only where
// it differs from what arrival order would have scored, and only where it had choices.
import type { Agreement } from '../../engine';
import { pageNote } from '../../app/replay-choices';
import { count, pct } from './format';

const share = (x: number | null, none: string): string => (x === null ? none : pct(x));
/** a concordance sits near 1 whatever the order (pairs far apart in time agree under any):
 * to 6 places of the fraction, as the CLI prints it */
const fine = (x: number | null): string => (x === null ? 'none' : `${(x * 100).toFixed(4)}%`);

export function ReplayAgreement({ agreement: a }: { agreement: Agreement }) {
  const noChoice = 'none (no choices)';
  return (
    <section
      className="replay-agreement"
      aria-label="Choices against the kernel’s"
      data-testid="replay-agreement"
    >
      <h4>The scheduler’s choices against the kernel’s</h4>
      <p className="small">{pageNote(a.note)}</p>
      <table className="trace-table replay-table" aria-label="Agreement with the kernel">
        <thead>
          <tr>
            <td></td>
            <th scope="col">this scheduler</th>
            <th scope="col">arrival order (fifo)</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row" aria-label="chose">
              Picked the request the kernel dispatched next (chose)
            </th>
            <td>{share(a.chose, noChoice)}</td>
            <td>{share(a.fifo.chose, noChoice)}</td>
          </tr>
          <tr>
            <th scope="row" aria-label="concordance">
              Pairs of requests in the kernel’s order (concordance)
            </th>
            <td>{fine(a.concordance)}</td>
            <td>{fine(a.fifo.concordance)}</td>
          </tr>
        </tbody>
      </table>
      <p className="small" data-testid="agreement-counts">
        {count(a.choices)} dispatches where the scheduler had two or more requests to choose from
        (choices)
        {a.kernelChoices !== null
          ? `; the kernel’s scheduler had ${count(a.kernelChoices)} in the trace`
          : '; the trace shows no insertions (I), so how many the kernel had is not known'}
        . {count(a.matched)} requests matched of the kernel’s {count(a.kernelRequests)} and the
        simulation’s {count(a.simulatedRequests)}; without a counterpart (unmatched):{' '}
        {count(a.unmatched.kernel)} of the kernel’s, {count(a.unmatched.simulated)} simulated; left
        out on both sides: {count(a.excluded.discards)} discards, {count(a.excluded.flushes)}{' '}
        flushes.
      </p>
      <details className="small">
        <summary>How these are counted</summary>
        <dl>
          {(['choices', 'chose', 'concordance', 'fifo', 'unmatched'] as const).map((k) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>{a.definitions[k]}</dd>
            </div>
          ))}
        </dl>
      </details>
    </section>
  );
}
