// A long run's progress on a terminal (issue 20 item 7): one line on stderr, rewritten in
// place at most every quarter second and erased at the end — only when stderr is a TTY, so
// pipes, files and `--json` output never see it.
import type { Scenario } from '../src/engine/scenario/types';
import type { Simulation } from '../src/engine/simulation';

export interface ProgressStream {
  isTTY?: boolean;
  write(text: string): unknown;
}

const EVERY_MS = 250;

/** The progress line: requests completed and simulated time, with the share of the stop. */
export function progressLine(sim: Simulation, scenario: Scenario): string {
  const done = sim.state.metrics.iosCompleted;
  const ms = sim.state.now / 1e6;
  const { requests, timeMs } = scenario.stop;
  const share = Math.max(
    requests !== null ? done / requests : 0,
    timeMs !== null ? ms / timeMs : 0,
  );
  const pct =
    requests !== null || timeMs !== null ? ` (${Math.min(99, Math.floor(share * 100))}%)` : '';
  return `spindle: ${done.toLocaleString('en-US')} requests completed, ${(ms / 1000).toFixed(1)} s simulated${pct}`;
}

/** The run's progress callback and its end, or null when `stream` is no terminal. */
export function terminalProgress(
  stream: ProgressStream,
  scenario: Scenario,
  now: () => number = () => performance.now(),
): { progress: (sim: Simulation) => void; end: () => void } | null {
  if (stream.isTTY !== true) return null;
  let last = now();
  let shown = false;
  return {
    progress(sim) {
      const t = now();
      if (t - last < EVERY_MS) return;
      last = t;
      shown = true;
      stream.write(`\r\u001b[K${progressLine(sim, scenario)}`);
    },
    end() {
      if (shown) stream.write('\r\u001b[K');
    },
  };
}
