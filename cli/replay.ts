// `spindle replay <trace.txt|.gz> [--scheduler S] [--disk traced|PRESET] [--mode open|closed|trace-timed]
// [--queue-depth N] [--nr-requests N] [--device MAJ,MIN] [--kernel K] [--json]`: the trace's Qs replayed on a simulated disk
// (src/engine/trace/replay.ts), measured vs simulated. A meta.json beside the trace (the
// shared corpus's) tells the traced scheduler, whether the device rotates, its
// max_sectors_kb and its nr_requests.
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { MAX_QUEUE_DEPTH } from '../src/engine/disk/params';
import { KERNELS, type Kernel } from '../src/engine/iosched/queue-settings';
import { ScenarioError } from '../src/engine/scenario/load';
import { spreadAt } from '../src/engine/disk/fitted';
import {
  replayTrace,
  ReplayError,
  type LatencyMs,
  type DirectionFit,
  type ReplayReport,
  type TraceMeta,
  type UnitFigures,
} from '../src/engine/trace/replay';
import type { BttRow } from '../src/engine/trace/btt';
import { ReplayReader } from '../src/engine/trace/replay-source';
import { traceMetaOf } from '../src/engine/trace/replay-meta';
import { flag, onePositional, parseArgs, single } from './args';
import { TraceInputError, UsageError } from './errors';
import { num } from './format';
import { schedulerSetting } from './settings';
import { diskFileSetting } from './disksim';

export async function replayCommand(
  argv: readonly string[],
  print: (text: string) => void,
  note: (text: string) => void = () => {},
): Promise<void> {
  const a = parseArgs('replay', argv, {
    json: { value: false },
    scheduler: { value: true },
    disk: { value: true },
    'disk-file': { value: true },
    mode: { value: true },
    'queue-depth': { value: true },
    'nr-requests': { value: true },
    device: { value: true },
    kernel: { value: true },
  });
  const path = onePositional(a, 'replay', 'trace file');
  const diskFile = single(a, 'disk-file');
  if (diskFile !== undefined && single(a, 'disk') !== undefined)
    throw new UsageError('--disk and --disk-file both name the simulated device: give one');
  // a DiskSim disk read from its .parv, registered under the page's name for it (file:X.parv)
  const disk =
    diskFile !== undefined ? String(diskFileSetting(diskFile, note).value) : single(a, 'disk');
  const mode = single(a, 'mode') ?? 'open';
  if (mode !== 'open' && mode !== 'closed' && mode !== 'trace-timed')
    throw new UsageError(`--mode ${mode}: must be open, closed or trace-timed`);
  const scheduler = single(a, 'scheduler');
  if (scheduler !== undefined) schedulerSetting(scheduler); // rejects unknown names
  const qd = single(a, 'queue-depth');
  let queueDepth: number | undefined;
  if (qd !== undefined) {
    queueDepth = Number(qd);
    if (!/^\d+$/.test(qd) || queueDepth < 1 || queueDepth > MAX_QUEUE_DEPTH)
      throw new UsageError(
        `--queue-depth ${qd}: must be a whole number from 1 to ${MAX_QUEUE_DEPTH}`,
      );
  }
  const nr = single(a, 'nr-requests');
  if (nr !== undefined && (!/^\d+$/.test(nr) || Number(nr) < 4 || Number(nr) > 8192))
    throw new UsageError(`--nr-requests ${nr}: must be a whole number from 4 to 8192`);
  const kernel = single(a, 'kernel');
  if (kernel !== undefined && !(KERNELS as readonly string[]).includes(kernel))
    throw new UsageError(`--kernel ${kernel}: must be one of ${KERNELS.join(', ')}`);
  const device = single(a, 'device');
  if (device !== undefined && !/^\d+,\d+$/.test(device))
    throw new UsageError(`--device ${device}: give it as MAJOR,MINOR (e.g. 8,0)`);

  const st = await stat(path).catch((e: NodeJS.ErrnoException) => {
    throw new UsageError(`${path}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`);
  });
  if (st.isDirectory()) throw new UsageError(`${path} is a directory, not a trace file`);
  const reader = new ReplayReader();
  await feedFile(path, reader);
  const reading = reader.end();
  if (reading.fatal !== null) throw new TraceInputError(`${path}: ${reading.fatal}`);

  let report: ReplayReport;
  try {
    report = replayTrace(reading, {
      mode,
      ...(scheduler !== undefined ? { scheduler } : {}),
      ...(disk !== undefined ? { disk } : {}),
      ...(queueDepth !== undefined ? { queueDepth } : {}),
      ...(nr !== undefined ? { nrRequests: Number(nr) } : {}),
      ...(device !== undefined ? { device } : {}),
      ...(kernel !== undefined ? { kernel: kernel as Kernel } : {}),
      ...metaBeside(path),
    });
  } catch (e) {
    if (e instanceof ReplayError) throw new UsageError(`${path}: ${e.message}`);
    if (e instanceof ScenarioError) throw new UsageError(e.message);
    throw e;
  }
  print(flag(a, 'json') ? JSON.stringify(report, null, 1) : text(report, path));
}

/** meta.json in the trace's folder (the shared corpus's), when there is one */
export function metaBeside(path: string): { meta?: TraceMeta } {
  const p = join(dirname(path), 'meta.json');
  if (!existsSync(p)) return {};
  let m: unknown;
  try {
    m = JSON.parse(readFileSync(p, 'utf8'));
  } catch (e) {
    throw new UsageError(`${p}: not JSON (${(e as Error).message})`);
  }
  if (typeof m !== 'object' || m === null) return {};
  return { meta: traceMetaOf(m) };
}

async function feedFile(path: string, reader: ReplayReader): Promise<void> {
  const decoder = new TextDecoder('utf-8');
  const raw = createReadStream(path, { highWaterMark: 1 << 20 });
  const gz = await isGzip(path);
  // zlib is loaded for a gzip trace only, not at every start-up (issue 19)
  const source = gz
    ? raw.pipe((await import('node:zlib')).createGunzip({ chunkSize: 1 << 20 }))
    : raw;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      reader.feed(decoder.decode(chunk, { stream: true }));
      if (reader.fatal !== null) break;
    }
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (gz)
      throw new TraceInputError(`${path}: the gzip data is corrupt or truncated (${err.message})`);
    throw new UsageError(`${path}: ${err.code === 'EACCES' ? 'permission denied' : err.message}`);
  } finally {
    raw.destroy();
  }
  if (reader.fatal === null) reader.feed(decoder.decode());
}

async function isGzip(path: string): Promise<boolean> {
  const s = createReadStream(path, { start: 0, end: 1 });
  for await (const b of s as AsyncIterable<Buffer>)
    return b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;
  return false;
}

function lat(l: LatencyMs | null): string {
  if (l === null) return 'none';
  return `mean ${num(l.mean, 3)}  p50 ${num(l.p50, 3)}  p95 ${num(l.p95, 3)}  p99 ${num(l.p99, 3)}  max ${num(l.max, 3)}  (n ${l.n})`;
}

/** one side's figures in one unit: the count and rates, then Q2C and D2C */
function unitLines(side: string, u: UnitFigures | null, noun: string, spanMs: number): string[] {
  if (u === null)
    return [`  ${side.padEnd(10)} none (the trace has no Q: its bios were not traced)`];
  return [
    `  ${side.padEnd(10)} ${num(u.count, 0)} ${noun} completed, ${num(u.iops, 1)} ${noun}/s, ${num(u.mbps, 3)} MB/s over ${num(spanMs, 1)} ms`,
    `    Q2C ms  ${lat(u.q2cMs)}`,
    `    D2C ms  ${lat(u.d2cMs)}`,
  ];
}

function bttRow(name: string, b: BttRow | null): string {
  return b === null ? `${name} none` : `${name} avg ${num(b.avg, 6)} s (n ${b.n})`;
}

function text(r: ReplayReport, path: string): string {
  const m = r.schedulerMapping;
  const me = r.measured;
  const si = r.simulated;
  return [
    `${path}: device ${r.device}, ${r.mode} replay of ${r.requests.replayed} ${r.requests.arrivals === 'D' ? 'Ds (the trace has no Q: its dispatches are the arrivals)' : 'Qs'} (${r.requests.skipped.total} skipped: ${r.requests.skipped.flush} flush, ${r.requests.skipped.discard} discard, ${r.requests.skipped.zeroSize} zero-size) from ${r.processes.length} processes`,
    `issued: ${r.requests.dependent} dependent (after a completion of their own process), ${r.requests.independent} independent (on the clock${r.requests.inPlug > 0 ? `; ${r.requests.inPlug} of them into the plug of their process's previous Q, one submission as traced between P and U` : ''})`,
    `scheduler: traced ${m.traced ?? 'unknown'} (${m.tracedFrom}) → simulated ${m.simulated}: ${m.note}`,
    `disk: ${r.disk.preset} (${r.disk.source}); queue depth ${r.queueDepth.value} (${r.queueDepth.source})`,
    `block layer: kernel ${r.kernel.value} (${r.kernel.source})${r.nrRequests ? `; nr_requests ${r.nrRequests.value} (${r.nrRequests.source})` : ''}`,
    ...flushLines(r),
    `per bio (every Q: Q → the C of its last sectors; D → C of the request that completed it):`,
    ...unitLines('measured', me.perBio, 'bios', me.spanMs),
    ...unitLines('simulated', si.perBio, 'bios', si.spanMs),
    `per request (every D: its first bio's Q → its C; D → C):`,
    ...unitLines('measured', me.perRequest, 'requests', me.spanMs),
    ...unitLines('simulated', si.perRequest, 'requests', si.spanMs),
    `btt (as spindle parse prints it): ${bttRow('Q2C', me.btt.q2c)}; ${bttRow('D2C', me.btt.d2c)}`,
    ...agreementLines(r.agreement),
    ...fitLines(r.fit),
    ...r.caution.map((c) => `CAUTION: ${c}`),
  ].join('\n');
}

/** Kernel 6.18's flush machinery: the traced device's cache, the flagged Qs, the flushes. */
function flushLines(r: ReplayReport): string[] {
  const f = r.flushes;
  if (f.flaggedQs === 0 && f.commands.measured === 0) return [];
  const yes = (v: boolean | null) => (v === null ? 'unknown' : v ? 'yes' : 'no');
  return [
    `flushes: ${f.flaggedQs} Qs with preflush or FUA (${r.requests.emptyFlushes} of them empty flushes replayed); write cache ${yes(f.writeCache)}, FUA ${yes(f.fua)} (${f.source}); flush commands (D FN): measured ${f.commands.measured}, simulated ${f.commands.simulated}` +
      (r.fit?.flush
        ? `; fitted flush ${num(r.fit.flush.baseMs, 4)} ms mean work (traced median D2C ${num(r.fit.flush.tracedD2cMedianMs, 4)} ms, ${r.fit.flush.samples} pairs)`
        : ''),
  ];
}

function pct(x: number): string {
  return `${num(x * 100, 1)}%`;
}

/** The fitted device: its parallelism, each direction's terms, its held-back error. */
function fitLines(f: ReplayReport['fit']): string[] {
  if (f === null) return [];
  const dir = (name: string, d: DirectionFit | null): string =>
    d === null
      ? `  ${name}: too few to fit, served by the other direction's fit`
      : `  ${name}: ${num(d.baseMs, 4)} ms + ${num(d.perKiBMs, 5)} ms/KiB + ${num(d.randomMs, 4)} ms if not sequential + ${num(d.perSqrtGiBMs, 4)} ms·√(GiB from the last), × a ratio from the trace's spread (median ${num(spreadAt(d.spread, 0.5), 2)}, p95 ${num(spreadAt(d.spread, 0.95), 2)}) (${d.samples} pairs)`;
  const h = f.heldBack;
  return [
    `fitted device: ${f.parallelism} served at once, by processor sharing (${f.parallelismNote}); work per request, ${f.samples} D→C pairs:`,
    dir('reads', f.read),
    dir('writes', f.write),
    `  held-back error: median D2C ${pct(h.medianRelErr)}, p95 D2C ${pct(h.p95RelErr)}; per request: median ${pct(h.perRequest.medianRelErr)}, p95 ${pct(h.perRequest.p95RelErr)} (${h.how}); traced median D2C ${num(f.tracedD2cMedianMs, 4)} ms`,
  ];
}

/** a fraction to 3 places, or "none" (nothing to count) */
function frac(x: number | null): string {
  return x === null ? 'none' : num(x, 3);
}

function agreementLines(a: ReplayReport['agreement']): string[] {
  return [
    `agreement with the kernel's order (${a.note})`,
    `  requests: kernel ${num(a.kernelRequests, 0)}, simulated ${num(a.simulatedRequests, 0)}, matched ${num(a.matched, 0)} (unmatched: ${num(a.unmatched.kernel, 0)} kernel, ${num(a.unmatched.simulated, 0)} simulated; excluded: ${num(a.excluded.discards, 0)} discards, ${num(a.excluded.flushes, 0)} flushes)`,
    `  choices ${num(a.choices, 0)} (the kernel's scheduler had ${a.kernelChoices === null ? 'none traced: no I' : num(a.kernelChoices, 0)}): chose the kernel's first ${frac(a.chose)} (arrival order ${frac(a.fifo.chose)})`,
    `  concordance ${conc(a.concordance, a.matched)} (arrival order ${conc(a.fifo.concordance, a.matched)})`,
  ];
}

/** a concordance to 6 places (pairs far apart in time agree under any order, so it sits
 * near 1) with the discordant pairs it stands for */
function conc(c: number | null, matched: number): string {
  if (c === null) return 'none';
  const pairs = (matched * (matched - 1)) / 2;
  return `${num(c, 6)}: ${num(Math.round((1 - c) * pairs), 0)} of ${num(pairs, 0)} pairs discordant`;
}
