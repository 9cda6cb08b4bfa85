// Parser speed (issue 4, item 6): MB/s of blkparse text through the streaming parser and the
// summary (blkparse's figures and btt's rows), on a large text built by repeating the real
// linux-6.18 traces, fed in 1 MiB chunks as the CLI feeds a file; and the heap it keeps.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { TraceParser } from '../src/engine/trace/parse';
import { cpuSeconds, type BenchFigure } from './cases';

const TRACES = [
  'none_randread_4k',
  'mq-deadline_ext4_smallfiles_fsync',
  'kyber_seqread_1m_split',
  'bfq_randrw7030_jobs4',
];
const CHUNK = 1 << 20;

/** The repository's copy of a linux-6.18 trace (tests/data, gzip-compressed). */
function traceText(name: string): string {
  const gz = readFileSync(
    resolve(process.cwd(), 'tests', 'data', 'linux-6.18', name, 'trace.txt.gz'),
  );
  return gunzipSync(gz).toString('utf8');
}

/** The four traces' event lines (no summary block), repeated to about `mb` MB. */
export function buildText(mb: number): string {
  const one = TRACES.map((t) => {
    const text = traceText(t);
    const cut = text.indexOf('\nCPU0 (');
    return cut > 0 ? text.slice(0, cut + 1) : text;
  }).join('');
  return one.repeat(Math.max(1, Math.round((mb * 1e6) / one.length)));
}

function parseOnce(text: string): { seconds: number; heapMb: number } {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const heap0 = process.memoryUsage().heapUsed;
  let peak = heap0;
  const p = new TraceParser();
  const t0 = cpuSeconds(); // CPU time: see throughput() in cases.ts
  for (let i = 0, k = 0; i < text.length; i += CHUNK, k++) {
    p.feed(text.slice(i, i + CHUNK));
    if ((k & 63) === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
  }
  const { report } = p.end();
  const seconds = cpuSeconds() - t0;
  if (report.malformed !== 0) throw new Error(`bench text: ${report.malformed} unreadable lines`);
  return { seconds, heapMb: (peak - heap0) / 1e6 };
}

export function parseCases(mb = 200): BenchFigure[] {
  const text = buildText(mb);
  const megabytes = text.length / 1e6; // ASCII: one byte per character
  parseOnce(text.slice(0, 20e6)); // warm-up
  let best = Infinity;
  let heap = 0;
  for (let run = 0; run < 3; run++) {
    const r = parseOnce(text);
    best = Math.min(best, r.seconds);
    heap = Math.max(heap, r.heapMb);
  }
  return [
    {
      name: 'spindle parse: blkparse text → blkparse summary + btt rows',
      value: megabytes / best,
      unit: 'MB/s',
      target: 200,
      higherIsBetter: true,
      note: `${megabytes.toFixed(0)} MB (the four linux-6.18 traces repeated), 1 MiB chunks, best of 3`,
    },
    {
      name: 'spindle parse: heap growth while streaming that text',
      value: heap,
      unit: 'MB',
      target: null,
      higherIsBetter: false,
      note: 'peak heapUsed above the start, sampled every 64 chunks (bounded: in-flight state only)',
    },
  ];
}
