// The two case-study lessons (public/scenarios/range-writes-*.json) say what they show.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runCollect, completions } from './helpers';

// whole simulation runs: slower than unit tests on a shared machine
vi.setConfig({ testTimeout: 60_000 });

const dir = join(__dirname, '../../public/scenarios');
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const read = (f: string): Json => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Json;

/** The ordinary version: each process writes the next block of its span instead. */
function withoutRanges(s: Json): Json {
  const c = structuredClone(s);
  for (const p of c.workload.processes) {
    p.range = null;
    p.pattern = 'sequential';
  }
  return c;
}

describe('journal commits (log skipping)', () => {
  const s = read('range-writes-journal.json');
  it('writing each commit at the next block loses most of a revolution; a range removes it', () => {
    const plain = runCollect(withoutRanges(s)).result.summary;
    const ranged = runCollect(s).result.summary;
    expect(plain.positioningMs.rotation).toBeGreaterThan(0.75 * 11.111);
    expect(ranged.positioningMs.rotation).toBeLessThan(0.1 * plain.positioningMs.rotation);
    expect(ranged.latencyMs.q2c.p95).toBeLessThan(plain.latencyMs.q2c.p50 / 2);
  });
});

describe('small-file creation by sixteen processes', () => {
  const s = read('range-writes-small-files.json');
  it('range writes create the 1000 files in well under half the time', () => {
    const plain = runCollect(withoutRanges(s)).result.summary;
    const ranged = runCollect(s).result.summary;
    expect(ranged.simulatedTimeMs).toBeLessThan(0.5 * plain.simulatedTimeMs);
  });
  it('every file lands in its own process’s mini-group, each block once', () => {
    const { events } = runCollect(s);
    const cs = completions(events);
    expect(cs.length).toBe(1000);
    for (const c of cs) {
      const span = s.workload.processes[c.proc].span;
      expect(c.sector).toBeGreaterThanOrEqual(span.startSector);
      expect(c.sector + c.nSectors).toBeLessThanOrEqual(span.startSector + span.sectors);
    }
    expect(new Set(cs.map((c) => c.sector)).size).toBe(1000);
  });
});
