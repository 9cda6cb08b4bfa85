// DiskSim's HP C2247A validation trace: 9,999 requests with the response times the real
// drive gave them. Replayed as DiskSim's validate mode does (disksim_iotrace.c,
// iotrace_validate_get_ioreq_event): each request is issued when the previous one
// completes plus the previous line's interval (column 6) — one request at a time,
// into the drive as configured (queue depth 1, FCFS, write-through, read-ahead cache),
// Spindle's mean response and response-time distribution are compared with the drive's.
// DiskSim's own model gives mean 15.312 ms and demerit 0.089 ms (0.5%) on it.
// Spindle (2026-11): mean 15.18 ms (−0.8%), demerit 0.20 ms (1.3%); 1561 buffer hits
// against the trace's 1559 "Hit" reads. Tolerances: mean ±1.5%, demerit < 2% of the mean
// (the worst of DiskSim's five validated disks).
import { describe, expect, it } from 'vitest';
import type { TraceSink } from '../../src/engine/events';
import { runScenario } from '../../src/engine/run';
import type { FixedRequest } from '../../src/engine/scenario/types';
import { proc, scenario } from '../helpers/scenario';
import { dataText } from '../helpers/data';

interface Line {
  op: 'read' | 'write';
  sector: number;
  sectors: number;
  measuredMs: number;
  /** pause after the previous request's completion */
  thinkMs: number;
}

function readTrace(): Line[] {
  let previousGap = 0;
  return dataText('disksim-validation', 'hp_c2247a.trace.gz')
    .trim()
    .split('\n')
    .map((line) => {
      const [rw, , start, size, resp, gap] = line.trim().split(/\s+/);
      const l: Line = {
        op: rw === 'R' ? 'read' : 'write',
        sector: Number(start),
        sectors: Number(size),
        measuredMs: Number(resp) / 1000,
        thinkMs: previousGap,
      };
      previousGap = Number(gap) / 1000;
      return l;
    });
}

/** Ruemmler & Wilkes' demerit: RMS horizontal distance between two response-time CDFs. */
export function demerit(a: number[], b: number[]): number {
  const x = [...a].sort((p, q) => p - q);
  const y = [...b].sort((p, q) => p - q);
  const n = 1000;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const q = (i + 0.5) / n;
    const d = x[Math.floor(q * x.length)]! - y[Math.floor(q * y.length)]!;
    sum += d * d;
  }
  return Math.sqrt(sum / n);
}

describe('hp-c2247a on DiskSim validation trace', () => {
  const lines = readTrace();
  const requests: FixedRequest[] = lines.map((l) => ({
    sector: l.sector,
    sizeKiB: l.sectors / 2,
    op: l.op,
    atMs: 0,
    thinkTimeMs: l.thinkMs,
  }));
  // One request at a time, so the n-th completion answers the n-th queued request.
  const simulated: number[] = [];
  const queued: number[] = [];
  const sink: TraceSink = {
    trace(e) {
      if (e.action === 'Q') queued.push(e.tNs);
      if (e.action === 'C') simulated.push((e.tNs - queued[simulated.length]!) / 1e6);
    },
    service() {},
    decision() {},
  };
  const { summary } = runScenario(scenario({ processes: [proc({ requests })] }), { sink });
  const measured = lines.map((l) => l.measuredMs);
  const meanMeasured = measured.reduce((a, b) => a + b, 0) / measured.length;
  const d = demerit(simulated, measured);

  it("replays every request, with the drive's share of buffer hits", () => {
    expect(summary.requests.completed).toBe(9999);
    // The trace marks 1559 reads as buffer hits on the real drive.
    expect(Math.abs(summary.requests.cacheHits - 1559)).toBeLessThan(1559 * 0.05);
  });

  it('mean response within 1.5% of the real drive (15.298 ms)', () => {
    expect(meanMeasured).toBeCloseTo(15.298, 2);
    expect(Math.abs(summary.latencyMs.q2c.mean - meanMeasured) / meanMeasured).toBeLessThan(0.015);
  });

  it('demerit under 2% of the mean response (DiskSim: 0.5%; its worst validated disk: 2.0%)', () => {
    expect(d / meanMeasured).toBeLessThan(0.02);
  });
});
