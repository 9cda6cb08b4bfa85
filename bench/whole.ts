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

/**
 * The environment the timed processes get: this one without NODE_EXTRA_CA_CERTS. That
 * variable (set on the sandbox this runs on, for its TLS proxy; not on a user's machine as a
 * rule) makes every node process read and parse a CA bundle as it starts, whatever it then
 * runs: some 400M instructions here, four times all of node's own start-up. No `spindle`
 * command opens a TLS connection. The start-up row's note gives its figure with the variable
 * too, so nothing is hidden.
 */
function userEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

/** Wall and CPU seconds of `node …args` (the command, `CLI` first), each run; throws if one
 * fails. */
function timed(
  args: string[],
  runs: number,
  env: NodeJS.ProcessEnv = userEnv(),
): { wall: number[]; cpu: number[] } {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c0 = childCpuSeconds();
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, args, {
      env,
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
      also = '',
    ): void => {
      timed([CLI, ...args], 1); // warm the file cache
      const before = load();
      const { wall, cpu } = timed([CLI, ...args], 3);
      const cpuNote = Number.isNaN(cpu[0]) ? '' : `; its CPU time ${list(cpu, 2)} s`;
      figures.push({
        name,
        value: f(median(wall)),
        unit,
        target,
        higherIsBetter,
        note: `${what}; wall, median of 3 (${list(wall, 3)} s)${cpuNote}; load average ${before} → ${load()}${also}`,
      });
    };
    // node's own start-up, the floor under every row here; and, where this machine sets
    // NODE_EXTRA_CA_CERTS, what the start-up row is with it (userEnv)
    const empty = join(dir, 'empty.mjs');
    writeFileSync(empty, '');
    const floor = median(timed([empty], 3).wall);
    const caVar = process.env.NODE_EXTRA_CA_CERTS !== undefined;
    const withCa = caVar
      ? median(
          timed([CLI, 'run', scenario, '--set', 'stop.requests=1000', '--json'], 3, process.env)
            .wall,
        )
      : NaN;
    const startUpAlso =
      `; node running an empty script: ${floor.toFixed(3)} s` +
      (caVar
        ? `; all timed without this machine's NODE_EXTRA_CA_CERTS (see bench/whole.ts userEnv): with it, this row is ${withCa.toFixed(3)} s`
        : '');
    row(
      'whole process: spindle run, 1,000 FCFS QD1 requests (start-up)',
      ['run', scenario, '--set', 'stop.requests=1000', '--json'],
      (m) => m,
      's',
      0.15,
      false,
      '`node dist-cli/spindle.mjs run … --json`, spawn to exit',
      startUpAlso,
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
