// `npm run bench`: measure, print, and record the figures in bench/RESULTS.md with the
// machine they ran on. Targets come from the issues; a miss is reported, not hidden.
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { engineCases, ioschedCases, rangeCases, type BenchFigure } from './cases';
import { parseCases } from './parse';
import { browserSection } from './browser';
import { wholeProcessCases } from './whole';

function format(f: BenchFigure): string {
  const v =
    f.value >= 1000
      ? Math.round(f.value).toLocaleString('en-US')
      : f.value.toFixed(f.unit === 's' ? 3 : 2);
  const target =
    f.target === null ? '—' : `${f.higherIsBetter ? '≥' : '≤'} ${f.target.toLocaleString('en-US')}`;
  const met =
    f.unit === 'not measured'
      ? 'not measured'
      : f.target === null
        ? ''
        : (f.higherIsBetter ? f.value >= f.target : f.value <= f.target)
          ? 'met'
          : 'MISSED';
  return `| ${f.name} | ${v} ${f.unit} | ${target} | ${met} | ${f.note} |`;
}

const cpu = cpus()[0]?.model ?? 'unknown CPU';
const machine = `${cpus().length} × ${cpu}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${process.platform}/${process.arch}`;
console.log(`Spindle benchmarks — ${machine}`);
const loadAtStart = loadavg()
  .map((x) => x.toFixed(1))
  .join(', ');
console.log(`load average (1, 5, 15 min): ${loadAtStart}`);
// whole processes first: nothing of this process's own runs (heap, JIT) is around yet
const figures = [
  ...wholeProcessCases(),
  ...engineCases(),
  ...ioschedCases(),
  ...parseCases(),
  ...rangeCases(),
];
const rows = figures.map(format);
for (const r of rows) console.log(r);

const doc = `# Benchmark results

Written by \`npm run bench\` (bench/run.ts); the latest run replaces this file, git keeps
the history. The simulator and parser rates are per CPU second of the process
(process.cpuUsage, all its threads): the machine named is a shared 2-core machine, where
wall-clock time measures the other jobs as much as this code; expect ±15% between runs.
The range-write rows are wall-clock. The "whole process" rows (issue 19) time
\`node dist-cli/spindle.mjs …\` from spawn to exit, wall clock, median of 3, as a user sees
it: on a loaded machine they include the time the process waited for a core, so each notes
the load average around it (a figure is never adjusted for load). They run without
NODE_EXTRA_CA_CERTS, which this sandbox sets and which makes any node process load a CA
bundle as it starts (bench/whole.ts userEnv); the start-up row's note gives its figure with
it, and node's own start-up on an empty script.

- Run: ${new Date().toISOString()}
- Machine: ${machine}
- Load average (1, 5, 15 min): ${loadAtStart} at the start, ${loadavg()
  .map((x) => x.toFixed(1))
  .join(', ')} at the end

| case | figure | target | | note |
|---|---|---|---|---|
${rows.join('\n')}
${browserSection() ? `\n${browserSection()}` : ''}`;
// npm runs scripts from the project root; the bundle lives in dist-cli/, so name the path.
writeFileSync('bench/RESULTS.md', doc);
console.log('recorded in bench/RESULTS.md');
