// Whole processes, as a user runs them (issue 19): `node dist-cli/spindle.mjs …` timed from
// spawn to exit, wall clock, median of 3 — start-up (module compile, schema build), the run
// or parse, the output. Wall time on a shared machine counts the other jobs' time too, so
// each row notes the load average around it, and the process's CPU time beside its wall
// time; a figure is never adjusted for either.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildText } from './parse';
import type { BenchFigure } from './cases';

const CLI = 'dist-cli/spindle.mjs';

/** The load average (1 min) now, for the notes. */
export const load = (): string => loadavg()[0]!.toFixed(1);

/** CPU seconds of this process's waited-for children (Linux /proc: cutime + cstime, in
 * clock ticks of 1/100 s), or NaN where there is no /proc. */
function childCpuSeconds(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // f[0] is field 3
    return (Number(f[13]) + Number(f[14])) / 100;
  } catch {
    return NaN;
  }
}

/** Wall and CPU seconds of `node dist-cli/spindle.mjs …args`, each run; throws if one fails. */
function timed(args: string[], runs: number): { wall: number[]; cpu: number[] } {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c0 = childCpuSeconds();
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, [CLI, ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
      maxBuffer: 1 << 20,
    });
    wall.push(Number(process.hrtime.bigint() - t0) / 1e9);
    cpu.push(childCpuSeconds() - c0);
    if (r.status !== 0) throw new Error(`spindle ${args.join(' ')}: exit ${r.status}\n${r.stderr}`);
  }
  return { wall, cpu };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const list = (xs: number[], digits: number): string => xs.map((x) => x.toFixed(digits)).join(', ');

export function wholeProcessCases(): BenchFigure[] {
  const dir = mkdtempSync(join(tmpdir(), 'spindle-bench-'));
  try {
    const scenario = join(dir, 'fcfs-qd1.json');
    // the in-process case (bench/cases.ts randomReads) as a scenario file a user would write
    writeFileSync(
      scenario,
      JSON.stringify({
        name: 'bench-fcfs-qd1',
        seed: 1,
        disk: { preset: 'hp-c2247a', queueDepth: 1, scheduler: 'fcfs' },
        workload: { processes: [{ name: 'reader', op: 'read', pattern: 'random', sizeKiB: 4 }] },
        stop: { requests: 1_000_000 },
      }),
    );
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
      const { wall, cpu } = timed(args, 3);
      const cpuNote = Number.isNaN(cpu[0]) ? '' : `; its CPU time ${list(cpu, 2)} s`;
      figures.push({
        name,
        value: f(median(wall)),
        unit,
        target,
        higherIsBetter,
        note: `${what}; wall, median of 3 (${list(wall, 3)} s)${cpuNote}; load average ${before} → ${load()}`,
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
