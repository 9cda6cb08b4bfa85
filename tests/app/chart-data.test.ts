// The charts' series against the engine's own summary of the same run: what a chart shows
// must agree with `spindle run --json`. Runs real lessons through the worker's recorder.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  breakdown,
  latencyCdf,
  latencyOverTime,
  lbaOverTime,
  nearestRank,
  throughput,
  type ChartRun,
} from '../../src/app/chart-data';
import { queueDepth } from '../../src/app/chart-depth';
import { processShares } from '../../src/app/chart-shares';
import { chartsJson, requestsCsv } from '../../src/app/chart-files';
import {
  buildModel,
  createSimulation,
  loadScenario,
  runUntil,
  summarize,
  type Scenario,
} from '../../src/engine';
import '../../src/engine/iosched/registry';
import { chartRun, runWithin, WHOLE_RUN_BOUND, type ChartLog } from '../../src/worker/chart-tables';
import { createLogSink, PLAYED_BOUND } from '../../src/worker/log';
import { runLog } from '../../src/worker/played';

function lesson(file: string) {
  const path = `public/scenarios/${file}`;
  return loadScenario(JSON.parse(readFileSync(path, 'utf8')), path);
}

function run(
  file: string,
  completions = PLAYED_BOUND.completions,
  stopRequests?: number,
  cache?: Scenario['disk']['cache'],
): ChartRun {
  const loaded = lesson(file);
  const cached = cache ? { ...loaded, disk: { ...loaded.disk, cache } } : loaded;
  const s = stopRequests ? { ...cached, stop: { requests: stopRequests, timeMs: null } } : cached;
  const simNs = stopRequests ? WHOLE_RUN_BOUND.simNs : PLAYED_BOUND.simNs;
  return { label: file, log: chartRun(s, s.seed, { completions, simNs }) };
}

/** Relative closeness: the engine's histogram quantiles are within 0.05 % beyond 4096 samples. */
const near = (a: number, b: number, rel = 6e-4) =>
  expect(Math.abs(a - b)).toBeLessThanOrEqual(rel * Math.max(Math.abs(b), 1e-9));

function checkAgainstSummary(r: ChartRun) {
  const s = r.log.summary;
  const [all] = latencyCdf([r]);
  expect(all!.figures.count).toBe(s.requests.iosCompleted);
  const exact = all!.figures.count <= 4096;
  const rel = exact ? 1e-12 : 6e-4;
  near(all!.figures.mean, s.latencyMs.q2c.mean, 1e-9);
  near(all!.figures.p50, s.latencyMs.q2c.p50, rel);
  near(all!.figures.p95, s.latencyMs.q2c.p95, rel);
  near(all!.figures.p99, s.latencyMs.q2c.p99, rel);
  near(all!.figures.max, s.latencyMs.q2c.max, 1e-12);

  const tp = throughput([r]).series[0]!;
  expect(tp.ios).toBe(s.requests.iosCompleted);
  near(tp.totalIops, s.throughput.iops, 1e-9);
  near(tp.totalMbps, s.throughput.mbps, 1e-9);
  // The bins hold every completed I/O once.
  const { binMs } = throughput([r]);
  const endMs = r.log.endNs / 1e6;
  const binS = (b: number) => Math.min(binMs, endMs - b * binMs) / 1000;
  near(
    tp.iops.reduce((a, v, b) => a + v * binS(b), 0),
    s.requests.iosCompleted,
    1e-9,
  );

  const [b] = breakdown([r]);
  expect(b!.requests).toBe(s.requests.completed);
  expect(b!.cacheHits).toBe(s.requests.cacheHits);
  for (const phase of ['seek', 'rotation', 'transfer', 'overhead'] as const)
    near(b!.meanMs[phase], s.positioningMs[phase], 1e-9);

  const shares = processShares([r]);
  expect(shares.map((p) => p.name)).toEqual(s.processes.map((p) => p.name));
  shares.forEach((p, i) => {
    const sp = s.processes[i]!;
    expect(p.ios).toBe(sp.completed);
    near(p.q2cMeanMs, sp.q2cMeanMs, 1e-9);
    near(p.q2cMaxMs, sp.q2cMaxMs, 1e-12);
    near(p.mbps, sp.mbps, 1e-9);
    // The summary counts a request's mechanism time when the media work ends, the chart
    // when it completes: at a bound the two differ by the requests between.
    expect(Math.abs(p.diskShare - sp.diskTimeShare)).toBeLessThan(r.log.bounded ? 0.02 : 1e-9);
  });
}

describe('chart series agree with the engine summary of the same run', () => {
  for (const file of [
    'seek-rotate-transfer.json',
    'cfq-fairness.json',
    'merging.json',
    'sptf-vs-fcfs.json',
    'c2247a-block-group-writes.json',
    'ssd.json',
    'queue-depth-write-back.json',
    'page-cache.json',
  ]) {
    it(file, () => checkAgainstSummary(run(file)));
  }

  it('write-back, whole runs: the shares count each destage for its writer, as the summary does', () => {
    // 64 sync writers, every write buffered: the rows hold no media time, the destages all
    const writers = run('queue-depth-write-back.json', 20_000, 1500);
    expect(writers.log.bounded).toBe(false);
    const t = writers.log.tables;
    expect(t.requests.n).toBe(writers.log.summary.requests.cacheHits);
    expect(t.destageNs.every((ns) => ns > 0)).toBe(true);
    checkAgainstSummary(writers);
    // a writer and a reader (deadline-promise on a write-back drive)
    const mixed = run('deadline-promise.json', 20_000, 400, 'write-back');
    expect(mixed.log.bounded).toBe(false);
    expect(mixed.log.summary.writePolicy).toBe('write-back');
    const writer = processShares([mixed]).find((p) => p.name === 'writer')!;
    expect(writer.diskShare).toBeGreaterThan(0.1);
    checkAgainstSummary(mixed);
  });

  it('beyond the histogram’s exact range (10,000 requests): quantiles within 0.05 %', () => {
    const r = run('sptf-vs-fcfs.json', 20_000, 10_000);
    expect(r.log.summary.requests.iosCompleted).toBeGreaterThan(4096);
    checkAgainstSummary(r);
  });
});

describe('the played log carries the same tables as a chart-only run', () => {
  it('createLogSink bound to the simulation records what chartRun records', () => {
    const s = lesson('cfq-fairness.json');
    const model = buildModel(s, s.seed);
    const sink = createLogSink(model.disk.geometry);
    const sim = createSimulation(model, sink);
    sink.bind(sim);
    const bounded = runWithin(sim, () => sink.completions, PLAYED_BOUND);
    const fromLog = sink.tables();
    const alone: ChartLog = chartRun(s, s.seed, PLAYED_BOUND);
    expect(bounded).toBe(alone.bounded);
    expect(fromLog.requests.n).toBe(alone.tables.requests.n);
    expect(Array.from(fromLog.requests.cNs)).toEqual(Array.from(alone.tables.requests.cNs));
    expect(Array.from(fromLog.ios.qNs)).toEqual(Array.from(alone.tables.ios.qNs));
    expect(summarize(sim, s).latencyMs).toEqual(alone.summary.latencyMs);
  });
});

describe('a played window counts the destages the mechanism finished in it', () => {
  it('queue-depth-write-back from 2 s: each writer’s destage time is the engine’s disk time of the window', () => {
    const s = lesson('queue-depth-write-back.json');
    const fromNs = 2e9;
    const log = runLog(s, s.seed, fromNs);
    expect(log.fromNs).toBe(fromNs);
    // the engine's disk time at the window's start and end (only destages: writes are buffered)
    const sim = createSimulation(buildModel(s, s.seed), null);
    runUntil(sim, fromNs);
    const before = sim.state.metrics.processes.map((p) => p.diskNs);
    runUntil(sim, log.endNs);
    const inWindow = sim.state.metrics.processes.map((p, i) => p.diskNs - before[i]!);
    expect(log.tables.destageNs).toHaveLength(inWindow.length);
    log.tables.destageNs.forEach((ns, i) => near(ns, inWindow[i]!, 1e-9));
    const total = inWindow.reduce((a, x) => a + x, 0);
    const shares = processShares([{ label: 'w', log }]);
    shares.forEach((p, i) => near(p.diskShare, inWindow[i]! / total, 1e-9));
  });
});

describe('series shapes', () => {
  const r = run('cfq-fairness.json');

  it('latency over time: every completed I/O once (stride 1 when few), means per bin', () => {
    const l = latencyOverTime([r]);
    expect(l.stride).toBe(1);
    expect(l.points.reduce((a, p) => a + p.x.length, 0)).toBe(r.log.summary.requests.iosCompleted);
    expect(new Set(l.points.map((p) => p.proc))).toEqual(new Set([0, 1, 2, 3]));
    expect(l.yMaxMs).toBeCloseTo(r.log.summary.latencyMs.q2c.max, 9);
  });

  it('CDF: one curve for all and one per process, rising to 1', () => {
    const c = latencyCdf([r]);
    expect(c.map((x) => x.proc)).toEqual([-1, 0, 1, 2, 3]);
    for (const curve of c) {
      expect(curve.y[curve.y.length - 1]).toBe(1);
      for (let i = 1; i < curve.x.length; i++)
        expect(curve.x[i]!).toBeGreaterThanOrEqual(curve.x[i - 1]!);
    }
  });

  it('queue depth: drive depth ≤ queue depth 1; its time-mean is the D2C sum over the run time', () => {
    const d = queueDepth([r]);
    const drive = d.find((s) => s.where === 'drive')!;
    expect(drive.max).toBe(1);
    const t = r.log.tables;
    let busy = 0;
    for (let i = 0; i < t.requests.n; i++) busy += t.requests.cNs[i]! - t.requests.dNs[i]!;
    for (const dn of t.inDriveDNs) busy += r.log.endNs - dn;
    near(drive.mean, busy / r.log.endNs, 1e-9);
    const host = d.find((s) => s.where === 'host')!;
    expect(host.max).toBeGreaterThanOrEqual(1);
    expect(host.max).toBeLessThanOrEqual(4);
  });

  it('breakdown: per-process rows add up to the run (requests and weighted phase means)', () => {
    const rows = breakdown([r]);
    const [all, ...procs] = rows;
    expect(all!.proc).toBe(-1);
    expect(procs.map((p) => p.proc)).toEqual([0, 1, 2, 3]);
    expect(procs.reduce((a, p) => a + p.requests, 0)).toBe(all!.requests);
    for (const phase of ['seek', 'rotation', 'transfer', 'overhead'] as const) {
      const weighted = procs.reduce((a, p) => a + p.meanMs[phase] * p.requests, 0) / all!.requests;
      near(weighted, all!.meanMs[phase], 1e-9);
    }
  });

  it('LBA: every completed request at its D time, within the disk', () => {
    const l = lbaOverTime([r]);
    expect(l.points.reduce((a, p) => a + p.x.length, 0)).toBe(r.log.summary.requests.completed);
    expect(l.maxSector).toBeGreaterThan(0);
  });

  it('compare: two runs share one time axis and bin width, a curve each', () => {
    const other = run('sptf-vs-fcfs.json');
    const both = [r, other];
    const tp = throughput(both);
    expect(tp.series).toHaveLength(2);
    expect(tp.series[0]!.x).toEqual(tp.series[1]!.x);
    expect(latencyCdf(both).map((c) => c.run)).toEqual([0, 1]);
  });

  it('CSV: a header and one row per completed request; JSON parses with the summary', () => {
    const csv = requestsCsv([r]).trimEnd().split('\n');
    expect(csv[0]).toMatch(/^run,process,op,/);
    expect(csv).toHaveLength(1 + r.log.summary.requests.completed);
    const json = JSON.parse(chartsJson([r])) as { runs: Array<{ summary: unknown }> };
    expect(json.runs[0]!.summary).toEqual(JSON.parse(JSON.stringify(r.log.summary)));
  });

  it('nearest rank as the engine defines it', () => {
    const xs = Float64Array.from({ length: 100 }, (_, i) => i + 1);
    expect(nearestRank(xs, 0.07)).toBe(7);
    expect(nearestRank(xs, 0.5)).toBe(50);
    expect(nearestRank(xs, 1)).toBe(100);
  });
});
