// `spindle run --decisions RULES`: the run's decision records whose rule contains one of the
// given words (switch, quantum, fifo-expired, …) — what the page's decision log shows, for a
// terminal. Collected through the engine's TraceSink while the run goes; only those kept.
import type { DecisionRecord, TraceSink } from '../src/engine/events';
import { num } from './format';
import { UsageError } from './errors';

/** at most this many are kept (a common rule fires millions of times in a long run) */
export const MAX_DECISIONS = 1000;

export interface DecisionLine {
  tMs: number;
  layer: 'iosched' | 'disk';
  rule: string;
  /** the request chosen, −1 for none */
  chosen: number;
  text: string;
}

export interface PickedDecisions {
  /** the words asked for */
  match: string[];
  /** how many decisions matched; the first MAX_DECISIONS are in `shown` */
  total: number;
  shown: DecisionLine[];
}

export function decisionPicker(spec: string): { sink: TraceSink; picked: PickedDecisions } {
  const words = spec
    .split(',')
    .map((w) => w.trim())
    .filter((w) => w !== '');
  if (words.length === 0)
    throw new UsageError('--decisions takes words of rule names, e.g. --decisions switch,quantum');
  const picked: PickedDecisions = { match: words, total: 0, shown: [] };
  const sink: TraceSink = {
    trace: () => {},
    service: () => {},
    decision: (d: DecisionRecord) => {
      if (!words.some((w) => d.rule.includes(w))) return;
      picked.total++;
      if (picked.shown.length < MAX_DECISIONS)
        picked.shown.push({
          tMs: d.tNs / 1e6,
          layer: d.layer,
          rule: d.rule,
          chosen: d.chosen,
          text: d.text ?? '',
        });
    },
  };
  return { sink, picked };
}

export function decisionsReport(p: PickedDecisions): string {
  const head = `decisions whose rule contains ${p.match.map((w) => `"${w}"`).join(' or ')}: ${p.total}${p.total > p.shown.length ? ` (the first ${p.shown.length} shown)` : ''}`;
  const lines = p.shown.map(
    (d) =>
      `  ${num(d.tMs, 3).padStart(12)} ms  ${d.layer === 'disk' ? 'drive  ' : 'iosched'}  ${d.rule}${d.chosen >= 0 ? ` → #${d.chosen}` : ''}${d.text ? `  ${d.text}` : ''}`,
  );
  return [head, ...lines].join('\n');
}
