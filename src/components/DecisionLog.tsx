// The decision log: newest on top, one line per decision (the rule that fired and the
// scheduler's own sentence); clicking a line moves the timeline there; filter by layer.
import type { DecisionRecord } from '../engine';
import { decisionsUpTo, lastAtOrBefore, type Replay } from '../app/replay';
import { useInView } from '../app/in-view';
import { useStore, type LayerFilter, type Store } from '../app/store';
import { formatNs } from './format';

const SHOWN = 120;

export function DecisionLog({ replay, store }: { replay: Replay; store: Store }) {
  // not while scrolled out of sight
  const [viewRef, shown] = useInView<HTMLElement>();
  const cursor = useStore(store, (s) => lastAtOrBefore(replay.decisionTimes, s.tNs), shown);
  const layer = useStore(store, (s) => s.layer);
  const wanted = useStore(store, (s) => s.rule ?? '');
  const rules = replay.rules.filter((r) => layer === 'all' || r.layer === layer);
  // a rule of another layer (or of another run) is no filter here
  const rule = rules.some((r) => r.rule === wanted) ? wanted : '';
  const tNs = cursor >= 0 ? replay.decisionTimes[cursor]! : -1;
  const lines =
    tNs < 0
      ? []
      : decisionsUpTo(
          replay,
          tNs,
          SHOWN,
          (d) => (layer === 'all' || d.layer === layer) && (rule === '' || d.rule === rule),
        );
  return (
    <section className="decisions" aria-label="Decision log" ref={viewRef}>
      <h2>
        Decisions{' '}
        <small>
          ({cursor + 1} of {replay.log.decisions.length})
        </small>
      </h2>
      <div className="layer-filter">
        <label>
          layer{' '}
          <select
            value={layer}
            aria-label="Filter decisions by layer"
            onChange={(e) => store.set({ layer: e.target.value as LayerFilter })}
          >
            <option value="all">all</option>
            <option value="iosched">I/O scheduler</option>
            <option value="disk">drive</option>
          </select>
        </label>{' '}
        <label>
          rule{' '}
          <select
            value={rule}
            aria-label="Filter decisions by rule"
            onChange={(e) => store.set({ rule: e.target.value })}
          >
            <option value="">every rule</option>
            {rules.map((r) => (
              <option key={`${r.layer} ${r.rule}`} value={r.rule}>
                {r.rule} ({r.count.toLocaleString('en')})
              </option>
            ))}
          </select>
        </label>
      </div>
      {lines.length === 0 ? (
        <NoneYet replay={replay} store={store} rule={rule} layer={layer} tNs={tNs} />
      ) : (
        <ol className="decision-list" data-testid="decision-list">
          {lines.map((d, i) => (
            <DecisionLine
              key={`${d.tNs}-${i}`}
              d={d}
              latest={i === 0}
              onJump={() => store.set({ tNs: d.tNs, playing: false })}
            />
          ))}
        </ol>
      )}
    </section>
  );
}

/** Nothing to show up to now: with a rule chosen, the next time it fires, to go there. */
function NoneYet(props: {
  replay: Replay;
  store: Store;
  rule: string;
  layer: LayerFilter;
  tNs: number;
}) {
  const { replay, store, rule, layer, tNs } = props;
  if (rule === '') return <p className="muted">No decision yet.</p>;
  const next = replay.log.decisions.find(
    (d) => d.tNs > tNs && d.rule === rule && (layer === 'all' || d.layer === layer),
  );
  return (
    <p className="muted">
      No {rule} decision yet.{' '}
      {next && (
        <button type="button" onClick={() => store.set({ tNs: next.tNs, playing: false })}>
          Go to the next, at {formatNs(next.tNs)}
        </button>
      )}
    </p>
  );
}

function DecisionLine({
  d,
  latest,
  onJump,
}: {
  d: DecisionRecord;
  latest: boolean;
  onJump: () => void;
}) {
  const others = d.candidates.length - 1;
  return (
    <li className={latest ? 'latest' : undefined}>
      <button type="button" onClick={onJump}>
        <span className="visually-hidden">Go to </span>
        {/* plain words first (who chose what, and why), the rule's own name beside */}
        <span className="when">{formatNs(d.tNs)}</span>
        <span className={`layer ${d.layer}`}>{d.layer === 'disk' ? 'drive' : 'I/O scheduler'}</span>
        {d.chosen >= 0 ? (
          <>
            chose <b>#{d.chosen}</b>
          </>
        ) : (
          'chose none'
        )}
        {others > 0 && (
          <span className="muted">
            {' '}
            over {others} other{others === 1 ? '' : 's'}
          </span>
        )}{' '}
        <span className="rule">
          rule <code>{d.rule}</code>
        </span>
        {d.text && <span className="text">{d.text}</span>}
      </button>
      {latest && d.ranges && d.ranges.length > 0 && <RangeNote d={d} />}
      {latest && d.candidates.length > 1 && <Candidates d={d} />}
    </li>
  );
}

/** The latest decision's candidates: the chosen one, and the losers dimmed with their reason
 * or the drive's positioning estimate (UI.md: "the losers dim with their reason"). */
function Candidates({ d }: { d: DecisionRecord }) {
  return (
    <ul className="candidates" aria-label="Candidates of the latest decision">
      {d.candidates.slice(0, 12).map((c) => (
        <li key={c.rq} className={c.rq === d.chosen ? 'chosen' : 'loser'}>
          {c.rq === d.chosen ? '✔ chosen' : '✗ lost'} #{c.rq}
          {c.estimateNs !== null && ` · positioning ${formatNs(c.estimateNs)}`}
          {c.note && ` — ${c.note}`}
          {!c.note &&
            c.estimateNs === null &&
            d.ranges?.some((r) => r.rq === c.rq) &&
            ' — range write: no block of it could beat the best'}
        </li>
      ))}
      {d.candidates.length > 12 && <li className="muted">+{d.candidates.length - 12} more</li>}
    </ul>
  );
}

/** The latest decision's range write (HRS/ECS): its ranges, how much of them the drive
 * examined, and the block it chose with that block's seek + rotation. */
function RangeNote({ d }: { d: DecisionRecord }) {
  const all = d.ranges ?? [];
  const r = all.find((x) => x.rq === d.chosen) ?? all[0]!;
  const sectors = r.ranges.reduce((n, x) => n + x.end - x.begin, 0);
  const examined = r.pieces.filter((p) => !p.pruned).length;
  const skipped = r.pieces.length - examined + r.unvisited;
  const best = r.pieces.find((p) => p.sector === r.sector && !p.pruned);
  const chosen = r.rq === d.chosen && r.sector >= 0;
  return (
    <p
      className="range-note small"
      data-testid="range-note"
      style={{ margin: '0.1rem 0 0.3rem 1.2rem' }}
    >
      Range write #{r.rq}: {r.ranges.length} range{r.ranges.length === 1 ? '' : 's'} of {sectors}{' '}
      sectors, {r.pieces.length + r.unvisited} track pieces — {examined} examined, {skipped} pruned
      or never reached ({r.scheduler.toUpperCase()}){chosen && ` → block at sector ${r.sector}`}
      {chosen && best && ` (cylinder ${best.cylinder}, head ${best.head})`}
      {chosen &&
        best &&
        best.rotationNs !== null &&
        `: seek ${formatNs(best.seekNs)} + rotation ${formatNs(best.rotationNs)}`}
      {all.length > 1 &&
        ` · ${all.length - 1} other range write${all.length === 2 ? '' : 's'} weighed`}
    </p>
  );
}
