// The replay's visible cautions (issue 15 item 7): a simulated device whose per-request
// median D2C is more than CAUTION_FACTOR away from the traced one's is not the traced device,
// whatever the scheduler comparison built on it says; and lines the parser could not read
// are not replayed — the figures then cover less than the file; and a trace-timed replay whose
// requests lack a traced D→C serves those on the device model, so it compares more than the
// schedulers.
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

/** The caution, when a trace-timed replay served some requests on the device model because
 * the trace has no D→C for them (e.g. a trace recorded without C events). */
export function untimedCaution(untimed: number, replayed: number, device: string): string[] {
  if (untimed === 0) return [];
  return [
    `trace-timed, but ${untimed === replayed ? 'all' : `${untimed} of`} ${replayed} request${replayed === 1 ? '' : 's'} had no traced D→C and ${untimed === 1 ? 'was' : 'were'} served by the device model (${device}) instead: for ${untimed === 1 ? 'it' : 'them'} the figures compare the device as well as the scheduler`,
  ];
}
