// The replay's measured and simulated figures side by side, in one set of units
// (src/engine/trace/replay-units.ts): per bio — every I/O a process queued (Q), btt's unit —
// and per request — every request the device served (D). "none" where a side has none.
import type { LatencyMs, ReplayReport, UnitFigures } from '../../engine';
import { count, grouped, ms, secMs } from './format';
import { LatencyLadder } from './ReplayPlots';

type Side = UnitFigures | null;

/** one row: a figure of each side in each unit (null: the side has none) */
interface Row {
  label: string;
  /** a sub-row of the one above (a percentile under its mean) */
  indent?: boolean;
  value: (u: UnitFigures) => string | null;
}

const latencyRows = (
  name: string,
  kernel: string,
  pick: (u: UnitFigures) => LatencyMs | null,
): Row[] => {
  const at = (f: (l: LatencyMs) => number) => (u: UnitFigures) => {
    const l = pick(u);
    return l === null ? null : ms(f(l));
  };
  return [
    { label: `${name} (${kernel}), mean ms`, value: at((l) => l.mean) },
    { label: 'p50', indent: true, value: at((l) => l.p50) },
    { label: 'p95', indent: true, value: at((l) => l.p95) },
    { label: 'p99', indent: true, value: at((l) => l.p99) },
    { label: 'max', indent: true, value: at((l) => l.max) },
  ];
};

const ROWS: Row[] = [
  { label: 'Completed', value: (u) => count(u.count) },
  { label: 'Per second', value: (u) => grouped(u.iops, 1) },
  { label: 'MB/s', value: (u) => grouped(u.mbps, 3) },
  ...latencyRows('Queued to completed', 'Q2C', (u) => u.q2cMs),
  ...latencyRows('At the device', 'D2C', (u) => u.d2cMs),
];

export function ReplayUnits({ report: r }: { report: ReplayReport }) {
  const cols: Array<[string, Side]> = [
    ['measured per bio', r.measured.perBio],
    ['simulated per bio', r.simulated.perBio],
    ['measured per request', r.measured.perRequest],
    ['simulated per request', r.simulated.perRequest],
  ];
  const cell = (u: Side, row: Row): string => (u === null ? 'none' : (row.value(u) ?? 'none'));
  const btt = r.measured.btt;
  return (
    <div className="replay-units">
      <table
        className="trace-table replay-table"
        aria-label="Measured and simulated, per bio and per request"
        data-testid="replay-units"
      >
        <caption>
          Measured and simulated, in the same units
          <span className="caption-note">
            Per bio: each I/O a process queued (Q), as btt counts. Per request: each request the
            device served (D). Rates over each side’s span: {ms(r.measured.spanMs)} ms measured,{' '}
            {ms(r.simulated.spanMs)} ms simulated.
          </span>
        </caption>
        <thead>
          <tr>
            <td></td>
            <th scope="colgroup" colSpan={2}>
              Per bio
            </th>
            <th scope="colgroup" colSpan={2}>
              Per request
            </th>
          </tr>
          <tr>
            <td></td>
            {cols.map(([name]) => (
              <th key={name} scope="col" aria-label={name}>
                {name.split(' ')[0]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {ROWS.map((row, k) => (
            <tr key={k} className={row.indent ? 'sub' : undefined}>
              <th scope="row" aria-label={rowName(row, k)}>
                {row.label}
              </th>
              {cols.map(([name, u]) => (
                <td key={name}>{cell(u, row)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <p className="small muted" data-testid="replay-btt">
        btt’s own rows for this trace (per bio): Q2C{' '}
        {btt.q2c === null ? 'none' : `mean ${secMs(btt.q2c.avg)} ms (n ${count(btt.q2c.n)})`}, D2C{' '}
        {btt.d2c === null ? 'none' : `mean ${secMs(btt.d2c.avg)} ms (n ${count(btt.d2c.n)})`}
        {r.requests.units === 'requests' &&
          '. Trace-timed: the simulated bios are the kernel’s requests, one bio each'}
        .
      </p>
    </div>
  );
}

/** Q2C per bio and D2C per request, each measured against simulated on a log scale */
export function ReplayLadders({ report: r }: { report: ReplayReport }) {
  return (
    <div className="replay-grid">
      <LatencyLadder
        label="Queued to completed (Q2C) per bio"
        measured={r.measured.perBio?.q2cMs ?? null}
        simulated={r.simulated.perBio.q2cMs}
      />
      <LatencyLadder
        label="At the device (D2C) per request"
        measured={r.measured.perRequest.d2cMs}
        simulated={r.simulated.perRequest.d2cMs}
      />
    </div>
  );
}

/** a percentile row's full name for screen readers ("Q2C p95"), else its label */
function rowName(row: Row, k: number): string {
  if (!row.indent) return row.label;
  let i = k;
  while (i > 0 && ROWS[i]!.indent) i--;
  const head = /\((\w+)\)/.exec(ROWS[i]!.label)?.[1] ?? '';
  return `${head} ${row.label}`;
}
