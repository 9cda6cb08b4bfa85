// DiskSim's demerit as its rms program computes it (src/rms.c over the distributions
// disksim_stat.c prints): the same buckets, the same printed fractions, the same
// interpolation — checked against a DiskSim 4.0 run of the HP C2247A validation trace
// (tests/data/disksim-ref/hp_c2247a-distributions.txt; rms printed 0.089931).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bucketStarts, disksimCdf, rmsOfCdfs, type Cdf } from '../../src/engine/disk/disksim/rms';
import { parseValidationTrace } from '../../src/engine/disk/disksim/validate';
import { VALIDATION_DIR } from '../helpers/disksim';

function printed(title: string): Cdf {
  const text = readFileSync(
    new URL('../data/disksim-ref/hp_c2247a-distributions.txt', import.meta.url),
    'utf8',
  ).split('\n');
  const start = text.indexOf(title);
  const x: number[] = [];
  const y: number[] = [];
  for (const line of text.slice(start + 1)) {
    const f = line.trim().split(/\s+/).map(Number);
    if (f.length !== 4) break;
    x.push(f[0]!);
    y.push(f[3]!);
    if (f[3]! >= 1) break;
  }
  return { x, y };
}

describe("DiskSim's rms", () => {
  const trace = parseValidationTrace(
    readFileSync(`${VALIDATION_DIR()}/hp_c2247a.trace`, 'utf8'),
    'hp_c2247a.trace',
  );

  it('buckets start 0, 1, 2, … and grow by 1% from 100 µs (statdefs "Start 0 step 1 grow 1")', () => {
    const s = bucketStarts();
    expect(s.slice(0, 4)).toEqual([0, 1, 2, 3]);
    expect(s[100]).toBe(100);
    expect(s[101]).toBe(102); // 100 + 1 + 1% of 100
    expect(s.length).toBe(1750);
  });

  it("the measured response times give DiskSim's printed VALIDATE distribution, row for row", () => {
    const ours = disksimCdf(trace.map((l) => l.measuredMs));
    const theirs = printed('VALIDATE Trace access time distribution');
    expect(ours.x.length).toBe(theirs.x.length);
    expect(ours.x).toEqual(theirs.x.map((v) => Math.round(v * 1000) / 1000));
    expect(ours.y).toEqual(theirs.y);
  });

  it('the two printed distributions of that run give rms = 0.089931, as rms printed', () => {
    const sim = printed('IOdriver Physical access time distribution');
    const measured = printed('VALIDATE Trace access time distribution');
    expect(rmsOfCdfs(sim, measured).toFixed(6)).toBe('0.089931');
    expect(rmsOfCdfs(measured, measured)).toBe(0);
  });
});
