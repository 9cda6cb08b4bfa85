// cli/format.ts num(): the CLI's numbers without Intl (issue 19, start-up) must read exactly
// as toLocaleString('en-US') printed them — grouping, rounding of ties on the shortest
// decimal (1.005 → 1.01), negative zero — or every table in the CLI's output would change.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { num } from '../../cli/format';

const locale = (x: number, d: number): string =>
  x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });

describe('num: exactly what toLocaleString("en-US") gives', () => {
  it('ties, carries, grouping, signs and the cases it hands to Intl', () => {
    const cases = [
      0,
      -0,
      1.005,
      2.675,
      0.125,
      -0.125,
      0.5,
      1.5,
      2.5,
      -2.5,
      9.995,
      99.995,
      999.9951,
      0.045,
      1234.5,
      999999.995,
      -999.995,
      1e20,
      123456789012345680000,
      1e21,
      5e-7,
      -5e-7,
      0.0000015,
      -0.001,
      0.001,
      4.35,
      1.45,
      8.345,
      1.0049999999999999,
      40146.29112033816,
      0.30000000000000004,
      Number.MAX_SAFE_INTEGER,
      2 ** 53 + 2,
      1e-300,
    ];
    for (const x of cases)
      for (const d of [0, 1, 2, 3, 6]) expect([x, d, num(x, d)]).toEqual([x, d, locale(x, d)]);
  });

  it('30,000 numbers of every size, and decimals that end in 5 (the ties)', () => {
    const tie = fc
      .tuple(fc.integer({ min: -1e9, max: 1e9 }), fc.integer({ min: 1, max: 6 }))
      .map(([n, k]) => (n * 10 + 5) / 10 ** k);
    const any = fc.oneof(
      fc.double({ noNaN: true, min: -1e25, max: 1e25 }),
      fc.double({ noNaN: true, min: -1000, max: 1000 }),
      fc.integer({ min: -1e12, max: 1e12 }),
      tie,
    );
    fc.assert(
      fc.property(any, fc.integer({ min: 0, max: 4 }), (x, d) => {
        expect(num(x, d)).toBe(locale(x, d));
      }),
      { numRuns: 30_000, seed: 19 },
    );
  }, 30_000);

  it('not finite: as before, String(x)', () => {
    expect([num(Infinity), num(-Infinity), num(NaN)]).toEqual(['Infinity', '-Infinity', 'NaN']);
  });
});
