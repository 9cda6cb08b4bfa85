// `npm test`: the one gate. Runs every check even after a failure, so one run shows everything:
//   typecheck · lint · dependencies · format:check · vitest unit · vite build · vitest e2e
// then prints the plain closing line `N passed, N failed` (scripts/test-summary.mjs), where the
// tests are counted from vitest's JSON reports and each failed non-vitest check adds one failure.
// Exits non-zero if anything failed.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { countReport, summarize } from './test-summary.mjs';

if (process.env.CI) process.env.NO_COLOR = '1';

/** @param {string} name */
const bin = (name) => `node_modules/.bin/${name}`;
const reports = { unit: 'test-results/vitest-unit.json', e2e: 'test-results/vitest-e2e.json' };
/**
 * @param {'unit' | 'e2e'} project
 * @returns {[string, ...string[]]}
 */
const vitest = (project) => [
  bin('vitest'),
  'run',
  '--project',
  project,
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${reports[project]}`,
];

/** @type {[name: string, argv: [string, ...string[]], report?: string][]} */
const steps = [
  ['typecheck', [bin('tsc'), '-b']],
  ['lint', [bin('eslint'), '.']],
  // the import rules (.dependency-cruiser.cjs): no circles, the engine's layers one way
  ['dependencies', [bin('depcruise'), '--config', '.dependency-cruiser.cjs', 'src']],
  ['format:check', [bin('prettier'), '--check', '.']],
  ['unit tests', vitest('unit'), reports.unit],
  ['build', [bin('vite'), 'build', '--logLevel', 'warn']],
  ['e2e tests', vitest('e2e'), reports.e2e],
];

rmSync('test-results', { recursive: true, force: true });
mkdirSync('test-results', { recursive: true });

/** @type {string[]} */
const failedChecks = [];
const lines = [];
for (const [name, [cmd, ...args], report] of steps) {
  console.log(`\n=== ${name}: ${[cmd.replace('node_modules/.bin/', ''), ...args].join(' ')}`);
  const started = Date.now();
  const { status, error } = spawnSync(cmd, args, { stdio: 'inherit' });
  const ok = status === 0 && !error;
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  lines.push(`${ok ? 'ok    ' : 'FAILED'} ${name} (${seconds} s)`);
  // vitest failures are counted test by test from its report; other checks count as one each,
  // and so does a vitest run that failed without its report saying why.
  if (!ok && (!report || countReport(report).failed === 0)) failedChecks.push(name);
}

const { passed, failed, notes } = summarize([reports.unit, reports.e2e]);
console.log('\n=== summary');
for (const line of lines) console.log(line);
for (const note of notes) console.log(note);
if (failedChecks.length > 0) console.log(`failed checks: ${failedChecks.join(', ')}`);
const totalFailed = failed + failedChecks.length;
console.log(`${passed} passed, ${totalFailed} failed`);
process.exitCode = totalFailed > 0 ? 1 : 0;
