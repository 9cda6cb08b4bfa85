// Whole processes, as a user runs them (issue 19): `node dist-cli/spindle.mjs …` timed from
// spawn to exit, wall clock, median of 3 — start-up (module compile, schema build), the run
// or parse, the output. Wall time on a shared machine counts the other jobs' time too, so
// each row notes the load average around it; a figure is never adjusted for it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildText } from './parse';
import { randomReads, type BenchFigure } from './cases';

const CLI = 'dist-cli/spindle.mjs';

/** The load average (1 min) now, for the notes. */
export const load = (): string => loadavg()[0]!.toFixed(1);

/** Wall seconds of `node dist-cli/spindle.mjs …args`, each run; throws if one fails. */
function timed(args: string[], runs: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, [CLI, ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
      maxBuffer: 1 << 20,
    });
    const s = Number(process.hrtime.bigint() - t0) / 1e9;
    if (r.status !== 0) throw new Error(`spindle ${args.join(' ')}: exit ${r.status}\n${r.stderr}`);
    out.push(s);
  }
  return out;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const list = (xs: number[]): string => xs.map((x) => x.toFixed(3)).join(', ');

export function wholeProcessCases(): BenchFigure[] {
  const dir = mkdtempSync(join(tmpdir(), 'spindle-bench-'));
  try {
    const scenario = join(dir, 'fcfs-qd1.json');
    const sc = randomReads({ scheduler: 'fcfs', queueDepth: 1, processes: 1, requests: 1_000_000 });
    writeFileSync(scenario, JSON.stringify(sc));
    const trace = join(dir, 'trace.txt');
    const text = buildText(200);
    writeFileSync(trace, text, 'latin1'); // ASCII
    const mb = text.length / 1e6;
    const figures: BenchFigure[] = [];
    const row = (
      name: string,
      args: string[],
      f: (median: number) => number,
      unit: string,
      target: number,
      higherIsBetter: boolean,
      what: string,
    ): void => {
      timed(args, 1); // warm the file cache
      const before = load();
      const runs = timed(args, 3);
      const m = median(runs);
      figures.push({
        name,
        value: f(m),
        unit,
        target,
        higherIsBetter,
        note: `${what}; wall, median of 3 (${list(runs)} s); load average ${before} → ${load()}`,
      });
    };
    row(
      'whole process: spindle run, 1,000 FCFS QD1 requests (start-up)',
      ['run', scenario, '--set', 'stop.requests=1000', '--json'],
      (m) => m,
      's',
      0.15,
      false,
      '`node dist-cli/spindle.mjs run … --json`, spawn to exit',
    );
    row(
      'whole process: spindle run, 1M FCFS QD1 requests',
      ['run', scenario, '--json'],
      (m) => m,
      's',
      0.8,
      false,
      '`node dist-cli/spindle.mjs run … --json`, spawn to exit',
    );
    row(
      'whole process: spindle parse --json',
      ['parse', trace, '--json'],
      (m) => mb / m,
      'MB/s',
      250,
      true,
      `${mb.toFixed(0)} MB file (the four linux-6.18 traces repeated), spawn to exit`,
    );
    return figures;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
