// The decision log: newest on top, one line per decision (the rule that fired and the
// scheduler's own sentence); clicking a line moves the timeline there; filter by layer.
import type { DecisionRecord } from '../engine';
import { decisionsUpTo, lastAtOrBefore, type Replay } from '../app/replay';
import { useStore, type LayerFilter, type Store } from '../app/store';
import { formatNs } from './format';

const SHOWN = 120;

export function DecisionLog({ replay, store }: { replay: Replay; store: Store }) {
  const cursor = useStore(store, (s) => lastAtOrBefore(replay.decisionTimes, s.tNs));
  const layer = useStore(store, (s) => s.layer);
  const tNs = cursor >= 0 ? replay.decisionTimes[cursor]! : -1;
  const all = tNs < 0 ? [] : decisionsUpTo(replay, tNs, layer === 'all' ? SHOWN : SHOWN * 4);
  const lines = (layer === 'all' ? all : all.filter((d) => d.layer === layer)).slice(0, SHOWN);
  return (
    <section className="decisions" aria-label="Decision log">
      <h2>
        Decisions{' '}
        <small>
          ({cursor + 1} of {replay.log.decisions.length})
        </small>
      </h2>
      <label className="layer-filter">
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
      </label>
      {lines.length === 0 ? (
        <p className="muted">No decision yet.</p>
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
      <button type="button" onClick={onJump} aria-label={`Go to ${formatNs(d.tNs)}: ${d.rule}`}>
        <span className="when">{formatNs(d.tNs)}</span>
        <span className={`layer ${d.layer}`}>{d.layer === 'disk' ? 'drive' : 'iosched'}</span>
        <b>{d.rule}</b> {d.chosen >= 0 ? `→ #${d.chosen}` : '(none chosen)'}
        {others > 0 && <span className="muted"> (over {others})</span>}
        {d.text && <span className="text">{d.text}</span>}
      </button>
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
          {c.rq === d.chosen ? '✔' : '·'} #{c.rq}
          {c.estimateNs !== null && ` ${formatNs(c.estimateNs)}`}
          {c.note && ` — ${c.note}`}
        </li>
      ))}
      {d.candidates.length > 12 && <li className="muted">+{d.candidates.length - 12} more</li>}
    </ul>
  );
}
