// The first page: load one scenario, run it in the worker, show the run's summary.
// (The full laboratory UI — disk view, queues, charts — comes later; see docs/ARCHITECTURE.md.)
import { useEffect, useState, type FormEvent } from 'react';
import { RunSummary } from '../components/RunSummary';
import { createSimClient, type RunResponse, type SimClient } from '../worker/client';

/** Relative, so the page works under any sub-path (vite `base: './'`). */
const SCENARIO_URL = 'scenarios/seek-rotate-transfer.json';

type View =
  { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'done'; result: RunResponse };

async function fetchScenario(url: string): Promise<unknown> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`Could not load ${url}: HTTP ${response.status}`);
  try {
    return await response.json();
  } catch (err) {
    throw new Error(`${url} is not valid JSON: ${errorText(err)}`, { cause: err });
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function App() {
  const [session, setSession] = useState<{ client: SimClient; json: unknown } | null>(null);
  const [view, setView] = useState<View>({ kind: 'loading' });
  const [running, setRunning] = useState(true);
  const [seedText, setSeedText] = useState('');

  useEffect(() => {
    const { sim: client, terminate } = createSimClient();
    let live = true;
    fetchScenario(SCENARIO_URL)
      .then(async (json) => {
        if (live) setSession({ client, json });
        const result = await client.run(json, SCENARIO_URL);
        if (!live) return;
        setView({ kind: 'done', result });
        setSeedText(String(result.summary.seed));
      })
      .catch((err: unknown) => live && setView({ kind: 'error', message: errorText(err) }))
      .finally(() => live && setRunning(false));
    return () => {
      live = false;
      terminate();
    };
  }, []);

  async function runAgain(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const seed = Number(seedText);
    if (!session || seedText.trim() === '' || !Number.isInteger(seed)) return;
    setRunning(true);
    try {
      setView({ kind: 'done', result: await session.client.run(session.json, SCENARIO_URL, seed) });
    } catch (err) {
      setView({ kind: 'error', message: errorText(err) });
    } finally {
      setRunning(false);
    }
  }

  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: '48rem', margin: '2rem auto' }}>
      <h1>Spindle</h1>
      {view.kind === 'loading' && <p>Running {SCENARIO_URL}…</p>}
      {view.kind === 'error' && (
        <p role="alert" style={{ color: '#a00', whiteSpace: 'pre-wrap' }}>
          {view.message}
        </p>
      )}
      {view.kind === 'done' && (
        <>
          <h2>{view.result.title}</h2>
          <RunSummary summary={view.result.summary} />
          <form onSubmit={runAgain} style={{ marginTop: '1rem' }}>
            <label>
              Run again with seed{' '}
              <input
                type="number"
                step={1}
                value={seedText}
                onChange={(e) => setSeedText(e.target.value)}
                style={{ width: '8rem' }}
              />
            </label>{' '}
            <button type="submit" disabled={running || !session}>
              {running ? 'Running…' : 'Run'}
            </button>
          </form>
        </>
      )}
    </main>
  );
}
