// DiskSim's `validate` mode on a Spindle disk (disksim_iotrace.c
// iotrace_validate_get_ioreq_event): each trace line is one request, issued the previous
// line's gap (column 6, µs) after the previous request completed — one request at a time,
// straight to the drive (no host block layer) — and its response time is set beside the
// real drive's (column 5, µs). docs/DISKSIM.md.
import type { TraceSink } from '../../events';
import { buildModel } from '../../model';
import { PROCESS_DEFAULTS } from '../../scenario/process';
import type { Scenario } from '../../scenario/types';
import { createSimulation, runToEnd } from '../../simulation';
import { summarize } from '../../summary';
import { compileDisk } from '../compile';
import type { DiskSchedulerName } from '../disk-scheduler';
import { geometryOf } from '../geometry';
import type { DiskParams } from '../params';
import { disksimRms } from './rms';
import { DiskSimInputError } from './syntax';

export interface ValidationLine {
  write: boolean;
  /** the real drive's hit/miss annotation (not an input) */
  flag: string;
  sector: number;
  sectors: number;
  measuredMs: number;
  /** the gap after this request's completion before the next is issued, ms */
  gapMs: number;
}

export class ValidationTraceError extends DiskSimInputError {
  override name = 'ValidationTraceError';
  constructor(file: string, line: number, message: string) {
    super(`${file}:${line}: ${message}`);
  }
}

/** A validate-format trace: `R|W flag start size response_µs gap_µs` per line. */
export function parseValidationTrace(text: string, file: string): ValidationLine[] {
  const out: ValidationLine[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.trim();
    if (!raw) continue;
    const f = raw.split(/\s+/);
    const bad = (what: string): never => {
      throw new ValidationTraceError(file, i + 1, what);
    };
    if (f.length < 6)
      bad(`expected 6 fields (op, flag, start, size, response µs, gap µs), found ${f.length}`);
    const [op, flag, start, size, resp, gap] = f as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    if (op !== 'R' && op !== 'W') bad(`op must be R or W, not "${op}"`);
    const sector = Number(start);
    const sectors = Number(size);
    if (!Number.isInteger(sector) || sector < 0)
      bad(`start block must be a whole number ≥ 0, not "${start}"`);
    if (!Number.isInteger(sectors) || sectors < 1)
      bad(`size must be a whole number of blocks ≥ 1, not "${size}"`);
    const us = Number(resp);
    const gapUs = Number(gap);
    if (!Number.isFinite(us) || us < 0) bad(`response time must be µs ≥ 0, not "${resp}"`);
    if (!Number.isFinite(gapUs) || gapUs < 0) bad(`gap must be µs ≥ 0, not "${gap}"`);
    // As DiskSim: servtime / 1000 (the rms buckets truncate this value's µs).
    out.push({
      write: op === 'W',
      flag,
      sector,
      sectors,
      measuredMs: us / 1000,
      gapMs: gapUs / 1000,
    });
  }
  if (out.length === 0) throw new ValidationTraceError(file, 1, 'no requests');
  return out;
}

export interface Distribution {
  mean: number;
  p50: number;
  p95: number;
  p99: number;
}

export interface ValidationResult {
  requests: number;
  simulated: Distribution;
  measured: Distribution;
  /** DiskSim's rms (ms) between the simulated and measured response-time distributions */
  demerit: number;
  /** the demerit as a percentage of the measured mean */
  demeritPercent: number;
  /** reads served from the drive's buffer in the simulation */
  bufferHits: number;
  /** Spindle's response time for each line, ms */
  simulatedMs: number[];
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
}

export function distribution(values: readonly number[]): Distribution {
  const s = [...values].sort((a, b) => a - b);
  return {
    mean: values.reduce((a, b) => a + b, 0) / values.length,
    p50: percentile(s, 0.5),
    p95: percentile(s, 0.95),
    p99: percentile(s, 0.99),
  };
}

/** Replay `lines` on `params` as DiskSim's validate mode does. */
export function validateDisk(
  params: DiskParams,
  lines: readonly ValidationLine[],
  scheduler: DiskSchedulerName = 'fcfs',
): ValidationResult {
  const total = geometryOf(params).totalLbns;
  lines.forEach((l, i) => {
    if (l.sector + l.sectors > total) {
      throw new DiskSimInputError(
        `trace line ${i + 1}: blocks ${l.sector}–${l.sector + l.sectors - 1} lie past the disk's ${total} blocks`,
      );
    }
  });
  let previousGap = 0;
  const requests = lines.map((l) => {
    const r = {
      sector: l.sector,
      sizeKiB: l.sectors / 2,
      op: l.write ? ('write' as const) : ('read' as const),
      atMs: 0,
      thinkTimeMs: previousGap,
    };
    previousGap = l.gapMs;
    return r;
  });
  // One closed process, one request outstanding, no I/O scheduler ('none'), drive depth 1.
  const scenario: Scenario = {
    name: 'disksim-validate',
    title: params.title,
    lesson: '',
    seed: 1,
    disk: {
      preset: 'hp-c2247a', // replaced by `params` below
      queueDepth: 1,
      scheduler,
      cache: null,
      agingWeight: 6,
      overrides: {},
    },
    iosched: { name: 'none', tunables: {}, queue: {}, kernel: '2.6.32', hz: 250 },
    workload: {
      processes: [{ ...PROCESS_DEFAULTS, name: 'trace', rateIops: 0, requests }],
    },
    stop: { requests: null, timeMs: null },
    source: 'disksim-validate',
  };
  const model = buildModel(scenario);
  model.disk = compileDisk(params);
  model.writePolicy = params.cache.writePolicy;
  // One request at a time, so the n-th completion answers the n-th queued request.
  const queued: number[] = [];
  const simulatedMs: number[] = [];
  const sink: TraceSink = {
    trace(e) {
      if (e.action === 'Q') queued.push(e.tNs);
      if (e.action === 'C') simulatedMs.push((e.tNs - queued[simulatedMs.length]!) / 1e6);
    },
    service() {},
    decision() {},
  };
  const sim = createSimulation(model, sink);
  runToEnd(sim);
  if (simulatedMs.length !== lines.length) {
    throw new Error(`${simulatedMs.length} of ${lines.length} requests completed`);
  }
  const measuredMs = lines.map((l) => l.measuredMs);
  const measured = distribution(measuredMs);
  const demerit = disksimRms(simulatedMs, measuredMs);
  return {
    requests: lines.length,
    simulated: distribution(simulatedMs),
    measured,
    demerit,
    demeritPercent: (100 * demerit) / measured.mean,
    bufferHits: summarize(sim, scenario).requests.cacheHits,
    simulatedMs,
  };
}
