// Count passed and failed tests from vitest JSON reports and print the plain closing line
// `N passed, N failed` that CI reads (TESTING.md pitfall 10).
//   node scripts/test-summary.mjs test-results/vitest-unit.json test-results/vitest-e2e.json
// A test file that failed without a failed test (an import error, a crashed beforeAll or
// afterAll) counts as one failure; so does a run that reported an error outside any file,
// and a report that is missing (vitest crashed before writing it).
import { existsSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/**
 * @param {string} reportPath
 * @returns {{ passed: number, failed: number, skipped: number, notes: string[] }}
 */
export function countReport(reportPath) {
  if (!existsSync(reportPath)) {
    const notes = [`${reportPath}: no report (vitest did not finish)`];
    return { passed: 0, failed: 1, skipped: 0, notes };
  }
  /** @type {{ success?: boolean, testResults?: { name: string, status: string, message?: string, assertionResults?: { status: string }[] }[] }} */
  const report = JSON.parse(readFileSync(reportPath, 'utf8'));
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const notes = [];
  for (const file of report.testResults ?? []) {
    const results = file.assertionResults ?? [];
    const failedHere = results.filter((r) => r.status === 'failed').length;
    passed += results.filter((r) => r.status === 'passed').length;
    skipped += results.filter((r) => r.status !== 'passed' && r.status !== 'failed').length;
    failed += failedHere;
    if (file.status === 'failed' && failedHere === 0) {
      failed += 1;
      const why = file.message ? `: ${file.message}` : '';
      notes.push(`${file.name}: failed outside its tests (import, beforeAll or afterAll)${why}`);
    }
  }
  if (report.success === false && failed === 0) {
    failed += 1;
    notes.push(`${reportPath}: vitest reported an error outside any test`);
  }
  return { passed, failed, skipped, notes };
}

/** @param {string[]} reportPaths */
export function summarize(reportPaths) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  /** @type {string[]} */
  const notes = [];
  for (const path of reportPaths) {
    const r = countReport(path);
    passed += r.passed;
    failed += r.failed;
    skipped += r.skipped;
    notes.push(...r.notes);
  }
  if (skipped > 0) notes.push(`${skipped} skipped`);
  return { passed, failed, notes };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { passed, failed, notes } = summarize(process.argv.slice(2));
  for (const note of notes) console.log(note);
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed > 0 ? 1 : 0;
}
