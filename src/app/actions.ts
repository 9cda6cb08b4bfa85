// Every user intent as a registered action (STYLE.md habit 10): buttons and the keyboard both
// go through executeAction, so a shortcut and its button can never disagree.
import { lastAtOrBefore, nextAfter, prevBefore, type Replay } from './replay';
import { clampSlowdown, type PlaybackState, type Store } from './store';
import { spanOf } from './window';

/** What the playback actions move along: one run's log, or several runs' in compare mode
 * (one shared clock: the union of their stops, to the latest end). */
export interface Clock {
  /** the played window's start: reset and step back stop here */
  startNs: number;
  endNs: number;
  /** ascending */
  stops: readonly number[];
  /** ascending */
  decisionTimes: readonly number[];
  /** the first decision of this rule after t (any run), or null */
  nextOfRule: (rule: string, tNs: number) => number | null;
}

/** The first decision of `rule` after t in one run (its decisions are in time order). */
function nextOfRuleIn(replay: Replay, rule: string, tNs: number): number | null {
  const ds = replay.log.decisions;
  for (let i = lastAtOrBefore(replay.decisionTimes, tNs) + 1; i < ds.length; i++)
    if (ds[i]!.rule === rule) return ds[i]!.tNs;
  return null;
}

export function clockOf(replay: Replay): Clock {
  return {
    startNs: replay.log.fromNs,
    endNs: replay.log.endNs,
    stops: replay.stops,
    decisionTimes: replay.decisionTimes,
    nextOfRule: (rule, tNs) => nextOfRuleIn(replay, rule, tNs),
  };
}

function mergeSorted(lists: ReadonlyArray<readonly number[]>): number[] {
  const all = new Set<number>();
  for (const l of lists) for (const x of l) all.add(x);
  return [...all].sort((a, b) => a - b);
}

export function mergeClocks(replays: readonly Replay[]): Clock | null {
  if (replays.length === 0) return null;
  const { fromNs, endNs } = spanOf(replays.map((r) => r.log));
  return {
    startNs: fromNs,
    endNs,
    stops: mergeSorted(replays.map((r) => r.stops)),
    decisionTimes: mergeSorted(replays.map((r) => r.decisionTimes)),
    nextOfRule: (rule, tNs) => {
      const ts = replays.map((r) => nextOfRuleIn(r, rule, tNs)).filter((t) => t !== null);
      return ts.length > 0 ? Math.min(...ts) : null;
    },
  };
}

export interface ActionContext {
  state: Readonly<PlaybackState>;
  clock: Clock | null;
}

export interface Action {
  name: string;
  label: string;
  /** shown in the help overlay */
  keys: string[];
  keyTest: (e: KeyboardEvent) => boolean;
  perform: (ctx: ActionContext) => Partial<PlaybackState> | null;
}

/** Speed steps: ×√10 per press, so two presses are one decade. */
const SPEED_STEP = Math.sqrt(10);

export const actions: Action[] = [
  {
    name: 'togglePlay',
    label: 'Play / pause',
    keys: ['Space'],
    keyTest: (e) => e.key === ' ',
    perform: ({ state, clock }) => {
      if (!clock) return null;
      // Playing from the end starts over.
      if (!state.playing && state.tNs >= clock.endNs) return { tNs: clock.startNs, playing: true };
      return { playing: !state.playing };
    },
  },
  {
    name: 'stepEvent',
    label: 'Step to the next event',
    keys: ['→'],
    keyTest: (e) => e.key === 'ArrowRight' && !e.shiftKey,
    perform: ({ state, clock }) => {
      const t = clock && nextAfter(clock.stops, state.tNs);
      return t === null || t === undefined ? { playing: false } : { tNs: t, playing: false };
    },
  },
  {
    name: 'stepBack',
    label: 'Step back to the previous event',
    keys: ['←'],
    keyTest: (e) => e.key === 'ArrowLeft' && !e.shiftKey,
    perform: ({ state, clock }) => {
      const t = clock && prevBefore(clock.stops, state.tNs);
      return { tNs: t ?? clock?.startNs ?? 0, playing: false };
    },
  },
  {
    name: 'stepDecision',
    label: 'Step to the next decision',
    keys: ['Shift+→', 'd'],
    keyTest: (e) => (e.key === 'ArrowRight' && e.shiftKey) || e.key === 'd',
    perform: ({ state, clock }) => {
      const t = clock && nextAfter(clock.decisionTimes, state.tNs);
      return t === null || t === undefined ? { playing: false } : { tNs: t, playing: false };
    },
  },
  {
    name: 'stepRule',
    label: 'Step to the next decision of the rule chosen in the decision log',
    keys: ['r'],
    keyTest: (e) => e.key === 'r',
    perform: ({ state, clock }) => {
      if (!clock) return null;
      const t = state.rule
        ? clock.nextOfRule(state.rule, state.tNs)
        : nextAfter(clock.decisionTimes, state.tNs);
      return t === null ? { playing: false } : { tNs: t, playing: false };
    },
  },
  {
    name: 'end',
    label: 'Jump to the end',
    keys: ['End'],
    keyTest: (e) => e.key === 'End',
    perform: ({ clock }) => (clock ? { tNs: clock.endNs, playing: false } : null),
  },
  {
    name: 'faster',
    label: 'Faster',
    keys: ['+'],
    keyTest: (e) => e.key === '+' || e.key === '=',
    perform: ({ state }) => ({ slowdown: clampSlowdown(state.slowdown / SPEED_STEP) }),
  },
  {
    name: 'slower',
    label: 'Slower',
    keys: ['−'],
    keyTest: (e) => e.key === '-' || e.key === '_',
    perform: ({ state }) => ({ slowdown: clampSlowdown(state.slowdown * SPEED_STEP) }),
  },
  {
    name: 'reset',
    label: 'Reset to the start',
    keys: ['Home'],
    keyTest: (e) => e.key === 'Home',
    perform: ({ clock }) => ({ tNs: clock?.startNs ?? 0, playing: false }),
  },
  {
    name: 'help',
    label: 'Keyboard help',
    keys: ['?'],
    keyTest: (e) => e.key === '?',
    perform: ({ state }) => ({ helpOpen: !state.helpOpen }),
  },
  {
    name: 'closeHelp',
    label: 'Close help',
    keys: ['Esc'],
    keyTest: (e) => e.key === 'Escape',
    perform: ({ state }) => (state.helpOpen ? { helpOpen: false } : null),
  },
];

export function executeAction(name: string, store: Store, clock: Clock | null): void {
  const action = actions.find((a) => a.name === name);
  const patch = action?.perform({ state: store.get(), clock });
  if (patch) store.set(patch);
}

/** The keyboard: the first action whose keyTest matches. Space and arrows are left to
 * text fields and sliders; Space on a focused button is that button's own click. */
export function handleKey(e: KeyboardEvent, store: Store, clock: Clock | null): void {
  const target = e.target as HTMLElement | null;
  const tag = target?.tagName;
  if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') return;
  if (e.key === ' ' && tag === 'BUTTON') return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const action = actions.find((a) => a.keyTest(e));
  if (!action) return;
  e.preventDefault();
  const patch = action.perform({ state: store.get(), clock });
  if (patch) store.set(patch);
}
