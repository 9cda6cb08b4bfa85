// Fuzz (issue 4, item 7): over 100,000 generated and mutated inputs with a fixed seed, no
// exception escapes the parser and every line is accounted for — an event, a summary line,
// a skipped line, or a counted problem (lines = events + summaryLines + skipped + malformed).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseLine } from '../../src/engine/trace/parse-line';
import { TraceParser } from '../../src/engine/trace/parse';
import { dataText } from '../helpers/data';

const SEED = 20_261_121;
const corpus = (name: string, n: number): string[] =>
  dataText('linux-6.18', name, 'trace.txt.gz')
    .split('\n')
    .filter((_, k) => k % 97 === 0)
    .slice(0, n);
const SEEDS = [
  ...corpus('bfq_randrw7030_jobs4', 150),
  ...corpus('mq-deadline_ext4_smallfiles_fsync', 150),
  ...corpus('kyber_seqread_1m_split', 60),
  ...dataText('public', 'modern-fio-sde-summary.txt').split('\n'),
  '  3,0    0       26     0.004890361 13528  I   R 56 (12 00 00 00 38 ..) [inquiry]',
  '  8,0    2      948    86.167989424   927  A WSM 5865760 + 192 <- (8,3) 2537760',
  '             fio-27608   [001] .....   512.000010: 7,0    Q   R 585608 + 8 [fio]',
  '  7,0    1   512.000010000 27608  Q   R 585608 + 8 [fio]',
];
const ALPHABET = ' 0123456789,.+-/[]()<:#\tQGIDCMFPUTXARSBmNWDFAESM\r\u0000\uFFFD';

/** A real line with a few random edits: replace, insert, delete, cut, number blow-up. */
const mutated = fc
  .tuple(
    fc.constantFrom(...SEEDS),
    fc.array(
      fc.tuple(
        fc.integer({ min: 0, max: 4 }),
        fc.nat(),
        fc.constantFrom(...ALPHABET.split(''), '99999999999999999999', '-1', '4294967296'),
      ),
      { minLength: 1, maxLength: 4 },
    ),
  )
  .map(([line, edits]) => {
    let s = line;
    for (const [kind, at, text] of edits) {
      const i = s.length === 0 ? 0 : at % (s.length + 1);
      if (kind === 0) s = s.slice(0, i) + text + s.slice(i + 1);
      else if (kind === 1) s = s.slice(0, i) + text + s.slice(i);
      else if (kind === 2) s = s.slice(0, i) + s.slice(i + 3);
      else if (kind === 3) s = s.slice(0, i);
      else s = s.replace(/\d+/, text);
    }
    return s;
  });
const randomLine = fc
  .array(fc.constantFrom(...ALPHABET.split('')), { maxLength: 80 })
  .map((cs) => cs.join(''));
const anyLine = fc.oneof(
  { weight: 4, arbitrary: mutated },
  { weight: 1, arbitrary: randomLine },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
);

describe('fuzz', () => {
  it('parseLine: 100,000 mutated and generated lines, no exception, one verdict each', () => {
    const started = Date.now();
    fc.assert(
      fc.property(anyLine, (line) => {
        const r = parseLine(line, 1);
        expect(['event', 'summary', 'skip', 'problem']).toContain(r.kind);
        if (r.kind === 'event') {
          const e = r.event;
          expect(Number.isSafeInteger(e.tNs) && e.tNs >= 0).toBe(true);
          expect(e.nSectors).toBeGreaterThanOrEqual(0);
          expect(Number.isSafeInteger(e.sector + e.nSectors)).toBe(true);
        }
        if (r.kind === 'problem') expect(r.reason.length).toBeGreaterThan(0);
      }),
      { seed: SEED, numRuns: 100_000 },
    );
    expect(Date.now() - started).toBeLessThan(20_000);
  }, 30_000);

  it('the streaming parser: 2,000 mutated multi-line inputs in random chunks, every line accounted for', () => {
    fc.assert(
      fc.property(
        fc.array(anyLine, { minLength: 1, maxLength: 60 }),
        fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 8 }),
        fc.constantFrom('\n', '\r\n'),
        (lines, sizes, eol) => {
          const text = lines.map((l) => l.replace(/[\r\n]/g, ' ')).join(eol);
          const p = new TraceParser({ maxLineLength: 200 });
          let k = 0;
          for (let i = 0; i < text.length; k++) {
            const n = sizes[k % sizes.length]!;
            p.feed(text.slice(i, i + n));
            i += n;
          }
          const { stats, report } = p.end();
          if (stats.fatal !== null && stats.lines === 0) return; // whole input refused (binary, …)
          expect(stats.lines).toBe(
            stats.events + stats.summaryLines + stats.skipped + stats.malformed,
          );
          expect(report.malformed).toBe(stats.malformed);
          expect(stats.problems.length).toBe(Math.min(5, stats.malformed));
          for (const pr of stats.problems) expect(pr.line).toBeGreaterThanOrEqual(1);
        },
      ),
      { seed: SEED, numRuns: 2_000 },
    );
  }, 30_000);
});
