// Playback controls: every button is an action (src/app/actions.ts), labelled for screen
// readers and reachable by Tab; the speed spans a million times slower than real time to a
// thousand times faster.
import { useState, type FormEvent } from 'react';
import { executeAction, type Clock } from '../app/actions';
import type { Hideable } from '../app/config';
import { useInView } from '../app/in-view';
import { clampSlowdown, useStore, type Store } from '../app/store';
import { windowText, windowUnit } from '../app/window';
import { formatNs, formatRate } from './format';

interface Props {
  /** what the buttons step along: one run, or the compare columns' shared clock */
  clock: Clock | null;
  store: Store;
  /** null: no seed form (compare mode sets seeds per lesson, not here) */
  seed: number | null;
  onSeed: (seed: number) => void;
  /** play the run from this time (ns) on: a new played window; absent: no such control */
  onFrom?: (fromNs: number) => void;
  /** controls a teacher hid (`_hide=`): seed, speed, step, scrubber */
  hidden?: readonly Hideable[];
}

export function Controls({ clock, store, seed, onSeed, onFrom, hidden = [] }: Props) {
  // the clock and the scrubber move every frame (their own components, so the buttons do
  // not re-render with them); not while scrolled out of sight
  const [viewRef, shown] = useInView<HTMLElement>();
  const playing = useStore(store, (s) => s.playing);
  const slowdown = useStore(store, (s) => s.slowdown);
  const rule = useStore(store, (s) => s.rule ?? '');
  const run = (name: string) => () => executeAction(name, store, clock);
  const startNs = clock?.startNs ?? 0;
  const endNs = clock?.endNs ?? 0;
  const show = (id: Hideable) => !hidden.includes(id);
  return (
    <section className="controls" aria-label="Playback" ref={viewRef}>
      <div className="buttons">
        <button
          type="button"
          onClick={run('reset')}
          aria-label="Reset to the start"
          title="Reset (Home)"
        >
          Reset
        </button>
        {show('step') && (
          <button
            type="button"
            onClick={run('stepBack')}
            aria-label="Step back"
            title="Step back (←)"
          >
            ◀|
          </button>
        )}
        <button
          type="button"
          className="play"
          onClick={run('togglePlay')}
          aria-label={playing ? 'Pause' : 'Play'}
          title="Play / pause (Space)"
          disabled={!clock}
        >
          {playing ? '❚❚' : '▶'}
        </button>
        {show('step') && (
          <>
            <button
              type="button"
              onClick={run('stepEvent')}
              aria-label="Step to the next event"
              title="Next event (→)"
            >
              |▶
            </button>
            <button
              type="button"
              onClick={run('stepDecision')}
              aria-label="Step to the next decision"
              title="Next decision (Shift+→ or d)"
            >
              ▶▶
            </button>
            {rule && (
              <button
                type="button"
                onClick={run('stepRule')}
                aria-label={`Step to the next ${rule} decision`}
                title="Next decision of the rule chosen in the decision log (r)"
              >
                ▶▶ <code>{rule}</code>
              </button>
            )}
            <button
              type="button"
              onClick={run('end')}
              aria-label="Jump to the end"
              title="The end of the run (End)"
            >
              End
            </button>
          </>
        )}
        <label className="speed" hidden={!show('speed')}>
          <span>slower</span>
          <input
            type="range"
            min={0}
            max={9}
            step={0.05}
            value={-Math.log10(slowdown) + 6}
            aria-label="Speed"
            aria-valuetext={formatRate(slowdown)}
            onChange={(e) =>
              store.set({ slowdown: clampSlowdown(10 ** (6 - Number(e.target.value))) })
            }
          />
          <span>1000× faster</span>
        </label>
        <output className="rate" data-testid="rate">
          {formatRate(slowdown)}
        </output>
        <ClockText store={store} live={shown} />
        {seed !== null && show('seed') && <SeedForm seed={seed} onSeed={onSeed} />}
        <button
          type="button"
          onClick={run('help')}
          aria-label="Keyboard shortcuts"
          title="Help (?)"
        >
          ?
        </button>
      </div>
      <div className="timeline" hidden={!show('scrubber')}>
        <Scrubber store={store} live={shown} startNs={startNs} endNs={endNs} disabled={!clock} />
        {onFrom && clock && <FromForm startNs={startNs} endNs={endNs} onFrom={onFrom} />}
      </div>
    </section>
  );
}

function ClockText({ store, live }: { store: Store; live: boolean }) {
  const tNs = useStore(store, (s) => s.tNs, live);
  return (
    <output className="clock" data-testid="clock">
      t = {formatNs(tNs)}
    </output>
  );
}

function Scrubber(props: {
  store: Store;
  live: boolean;
  startNs: number;
  endNs: number;
  disabled: boolean;
}) {
  const { store, startNs, endNs } = props;
  const tNs = useStore(store, (s) => s.tNs, props.live);
  return (
    <input
      className="scrubber"
      type="range"
      min={startNs}
      max={endNs}
      step={Math.max(1, (endNs - startNs) / 2000)}
      value={Math.min(Math.max(tNs, startNs), endNs)}
      aria-label="Timeline"
      aria-valuetext={`t = ${formatNs(tNs)}, played from ${formatNs(startNs)} to ${formatNs(endNs)}`}
      onChange={(e) => store.set({ tNs: Number(e.target.value), playing: false })}
      disabled={props.disabled}
    />
  );
}

function SeedForm({ seed, onSeed }: { seed: number | null; onSeed: (seed: number) => void }) {
  const [text, setText] = useState<string | null>(null);
  const value = text ?? (seed === null ? '' : String(seed));
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const n = Number(value);
    if (value.trim() === '' || !Number.isInteger(n)) return;
    setText(null);
    onSeed(n);
  }
  return (
    <form className="seed" onSubmit={submit}>
      <label>
        seed{' '}
        <input
          type="number"
          step={1}
          value={value}
          aria-label="Seed"
          onChange={(e) => setText(e.target.value)}
        />
      </label>
      <button type="submit" aria-label="Run again with this seed">
        Run
      </button>
    </form>
  );
}

/** "played 124.0–128.6 s · play from [124] s": the window on the scrubber, and a new one from
 * a time typed in (later or earlier), in the unit the window is told in. */
function FromForm(props: { startNs: number; endNs: number; onFrom: (fromNs: number) => void }) {
  const { startNs, endNs, onFrom } = props;
  const { scale, unit } = windowUnit(endNs);
  const [text, setText] = useState<string | null>(null);
  const value = text ?? String(Number((startNs / scale).toFixed(3)));
  const n = Number(value);
  const invalid = value.trim() === '' || !(n >= 0) || n * scale > 9e14;
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (invalid) return;
    setText(null);
    onFrom(Math.round(n * scale));
  }
  return (
    <form className="play-from" onSubmit={submit} aria-label="Play from a time">
      <span data-testid="played-window">played {windowText({ fromNs: startNs, endNs })}</span> ·{' '}
      <label title="Runs the simulation to this time without drawing it, then plays from there">
        play from{' '}
        <input
          type="number"
          min={0}
          step="any"
          value={value}
          aria-label={`Play from (${unit} of simulated time)`}
          aria-invalid={invalid || undefined}
          onChange={(e) => setText(e.target.value)}
        />{' '}
        {unit}
      </label>{' '}
      <button type="submit" disabled={invalid}>
        Watch from there
      </button>
    </form>
  );
}
