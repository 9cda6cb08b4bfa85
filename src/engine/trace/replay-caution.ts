// The replay's visible cautions (issue 15 item 7): a simulated device whose per-request
// median D2C is more than CAUTION_FACTOR away from the traced one's is not the traced device,
// whatever the scheduler comparison built on it says; and lines the parser could not read
// are not replayed — the figures then cover less than the file.
import type { ParseReport } from './summary';

export const CAUTION_FACTOR = 2;

/** 3 significant figures, no exponent for the sizes a D2C has */
function ms(x: number): string {
  return String(Number(x.toPrecision(3)));
}

/** The caution, when the two per-request median D2Cs differ by more than CAUTION_FACTOR. */
export function d2cCaution(simulatedMs: number, tracedMs: number): string[] {
  if (!(simulatedMs > 0) || !(tracedMs > 0)) return [];
  const r = simulatedMs / tracedMs;
  if (r <= CAUTION_FACTOR && r >= 1 / CAUTION_FACTOR) return [];
  return [
    `the simulated device's median D2C (${ms(simulatedMs)} ms) differs from the traced one (${ms(tracedMs)} ms) by more than ${CAUTION_FACTOR}×`,
  ];
}

/** The caution, when some lines of the trace could not be read (so were not replayed). */
export function unreadableCaution(report: Pick<ParseReport, 'malformed' | 'problems'>): string[] {
  const n = report.malformed;
  if (n === 0) return [];
  const first = report.problems[0];
  const where = first ? `, the first at line ${first.line} (${first.reason})` : '';
  return [
    `${n} line${n === 1 ? '' : 's'} of the trace could not be read and ${n === 1 ? 'is' : 'are'} not replayed${where}; the trace's summary lists them`,
  ];
}
