// blkparse's action codes (LINUX-SCHEDULERS.md §6.2), as the parser names and counts them.

/** Action codes as blkparse prints them (`UT` is the timer/schedule unplug). */
export type ParsedAction =
  'Q' | 'G' | 'I' | 'D' | 'C' | 'M' | 'F' | 'P' | 'U' | 'UT' | 'X' | 'A' | 'R' | 'S' | 'B' | 'm';

export const ACTIONS: readonly ParsedAction[] = [
  'Q',
  'G',
  'I',
  'D',
  'C',
  'M',
  'F',
  'P',
  'U',
  'UT',
  'X',
  'A',
  'R',
  'S',
  'B',
  'm',
];

/** the index of an action code in ACTIONS (counters kept in arrays, not keyed objects) */
export function actionIndex(a: ParsedAction): number {
  return a.length === 2 ? UT_INDEX : ACTION_INDEX[a.charCodeAt(0)]!;
}
const UT_INDEX = ACTIONS.indexOf('UT');
const ACTION_INDEX = new Int8Array(128);
ACTIONS.forEach((a, k) => {
  if (a.length === 1) ACTION_INDEX[a.charCodeAt(0)] = k;
});

/** the one-letter action codes by character code */
export const ACTION_OF = new Array<ParsedAction | null>(256).fill(null);
for (const a of ACTIONS) if (a.length === 1) ACTION_OF[a.charCodeAt(0)] = a;
