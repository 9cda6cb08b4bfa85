// The parser's byte path (issue 19): ASCII chunks go in with their bytes as the codes
// (TraceParser.feedAscii, cli/parse.ts bytesFeeder) instead of being UTF-8-decoded and
// re-encoded. It must give exactly the report of the decoded text, whatever the chunking
// and whatever non-ASCII bytes (a character split between chunks, a byte-order mark, bad
// UTF-8) turn up between ASCII chunks.
import { describe, expect, it } from 'vitest';
import { bytesFeeder } from '../../cli/parse';
import { TraceParser, parseTraceText } from '../../src/engine/trace/parse';
import { dataBytes } from '../helpers/data';

const TRACE = dataBytes('linux-6.18', 'none_randread_4k', 'trace.txt.gz');

/** The report of `bytes` cut at `cuts`, through the CLI's byte feeder. */
function viaBytes(bytes: Buffer, cuts: number[]): unknown {
  const p = new TraceParser();
  const feed = bytesFeeder(p);
  let at = 0;
  for (const c of [...cuts, bytes.length]) {
    feed(bytes.subarray(at, c));
    at = c;
  }
  feed(null);
  const { report, fatal } = p.end();
  return { ...report, fatal };
}

/** What the old path gave: the whole input decoded as UTF-8 (BOM dropped at the start). */
const viaText = (bytes: Buffer): unknown => parseTraceText(new TextDecoder().decode(bytes));

/** Cut points: a fixed pseudo-random walk, so a failure is reproducible. */
function cutsOf(length: number, seed: number, mean: number): number[] {
  const cuts: number[] = [];
  let x = seed;
  for (let at = 0; ;) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    at += 1 + (x % (2 * mean));
    if (at >= length) return cuts;
    cuts.push(at);
  }
}

describe('the byte path gives the decoded text’s report', () => {
  it('a real trace, ASCII throughout, in chunks of any size', () => {
    const want = viaText(TRACE);
    for (const [seed, mean] of [
      [1, 70_000],
      [2, 1_000],
      [3, 1 << 20],
    ] as const)
      expect(viaBytes(TRACE, cutsOf(TRACE.length, seed, mean))).toEqual(want);
  });

  it('non-ASCII between ASCII chunks: a split character, a late BOM, bad bytes', () => {
    const lines = TRACE.toString('latin1').split('\n').slice(0, 400);
    // a command with a two- and a three-byte character, a stray byte-order mark (U+FEFF)
    // at a line's start and a byte that is not UTF-8 at all
    lines[120] = '\uFEFF' + lines[120]!;
    const lateBom = Buffer.from(lines.join('\n'), 'utf8'); // the mark the first non-ASCII
    expect(lines[50]).toContain('[fio]');
    lines[50] = lines[50]!.replace('[fio]', '[fïo€]');
    const text = Buffer.from(lines.join('\n'), 'utf8');
    const bad = Buffer.concat([text.subarray(0, 9000), Buffer.from([0xff]), text.subarray(9000)]);
    for (const bytes of [text, bad, lateBom]) {
      const want = viaText(bytes);
      const fi = bytes.indexOf('ï');
      const euro = bytes.indexOf('€');
      const bom = bytes.indexOf('\uFEFF');
      // cut inside each multi-byte character, just before the BOM, and elsewhere at random
      const cuts = [fi + 1, euro + 1, euro + 2, bom, ...cutsOf(bytes.length, 4, 3000)].filter(
        (c) => c > 0,
      );
      expect(
        viaBytes(
          bytes,
          [...new Set(cuts)].sort((a, b) => a - b),
        ),
      ).toEqual(want);
      expect(viaBytes(bytes, cutsOf(bytes.length, 5, 200))).toEqual(want);
    }
    // a lead byte with no continuation, cut after it: the decoder holds it back, so the
    // ASCII chunk that follows must go through the decoder too (it reads U+FFFD there)
    const at = text.indexOf('\n', 20_000) + 3; // inside the next line's device column
    const lone = Buffer.concat([text.subarray(0, at), Buffer.from([0xc3]), text.subarray(at)]);
    expect(viaBytes(lone, [at + 1, at + 500, at + 30_000])).toEqual(viaText(lone));
    // and the mark at the very start is dropped, as the decoder does
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), text]);
    expect(viaBytes(withBom, [3, 5000])).toEqual(viaText(withBom));
    expect(viaBytes(withBom, [1, 2, 3])).toEqual(viaText(withBom));
  });
});
