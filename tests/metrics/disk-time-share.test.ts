// diskTimeShare: each process's share of the media time (seek + rotation + transfer) spent
// on its data. Under write-back a write completes from the drive's buffer with no media
// time; its destage, a drive-internal job, puts it on the media later, and that media time
// is the writer's. The expected shares here come from the drive's service records (the
// mechanism's start and media end), not from the collector.
import { describe, expect, it } from 'vitest';
import type { ServiceRecord, TraceEvent, TraceSink } from '../../src/engine/events';
import { runScenario } from '../../src/engine/run';
import '../../src/engine/iosched/registry';
import type { Scenario } from '../../src/engine/scenario/types';
import { proc, scenario } from '../helpers/scenario';
import { wr } from '../helpers/traced-run';

/** A run with its D events and the services the mechanism finished by the run's end. */
function withServices(s: Scenario) {
  const services: ServiceRecord[] = [];
  const d: TraceEvent[] = [];
  const sink: TraceSink = {
    trace: (e) => {
      if (e.action === 'D') d.push(e);
    },
    service: (x) => services.push({ ...x }),
    decision: () => {},
  };
  const { summary, simulation } = runScenario(s, { sink });
  const done = services.filter((x) => x.freeNs <= simulation.state.now);
  return { summary, sim: simulation, services: done, d };
}

/** Seek + rotation + transfer of a service: from the mechanism's start to the media end. */
const mediaNs = (x: ServiceRecord) => x.mediaEndNs - x.startNs;

const near = (a: number, b: number) =>
  expect(Math.abs(a - b)).toBeLessThanOrEqual(1e-9 * Math.max(Math.abs(b), 1));

/** A random reader and a random 4 KiB writer on the Cheetah 15K.4 (no merging: none). */
function readerAndWriter(cache: 'write-back' | 'write-through'): Scenario {
  return scenario({
    preset: 'cheetah-15k4-146g',
    cache,
    queueDepth: 4,
    iosched: 'none',
    processes: [
      proc({ name: 'reader', op: 'read', pattern: 'random', sizeKiB: 4, outstanding: 1 }),
      proc({ name: 'writer', op: 'write', pattern: 'random', sizeKiB: 4, outstanding: 2 }),
    ],
    stopRequests: 600,
  });
}

describe('diskTimeShare: the media time spent on each process’s data', () => {
  it('write-back: a lone writer’s share is 100% — its destages’ media time is its own', () => {
    const { summary, services } = withServices(
      scenario({
        preset: 'cheetah-15k4-146g',
        cache: 'write-back',
        processes: [proc({ name: 'writer', op: 'write', pattern: 'random', sizeKiB: 4 })],
        stopRequests: 200,
      }),
    );
    expect(summary.requests.cacheHits).toBe(summary.requests.completed); // every write buffered
    expect(services.length).toBeGreaterThan(100); // its destages
    expect(summary.processes[0]!.diskTimeShare).toBe(1);
  });

  it('write-back: a reader and a writer split by the media time of the reads and of the destages', () => {
    const { summary, services, d, sim } = withServices(readerAndWriter('write-back'));
    // a service of a request the host dispatched is a read (writes complete from the
    // buffer); any other is a destage, the writer's
    const hostProc = new Map(d.map((e) => [e.rq, e.proc]));
    let reads = 0;
    let destages = 0;
    for (const x of services) {
      if (hostProc.has(x.rq)) {
        expect(hostProc.get(x.rq)).toBe(0);
        reads += mediaNs(x);
      } else destages += mediaNs(x);
    }
    expect(destages).toBeGreaterThan(0);
    near(sim.state.metrics.processes[0]!.diskNs, reads);
    near(sim.state.metrics.processes[1]!.diskNs, destages);
    const [r, w] = summary.processes;
    near(r!.diskTimeShare, reads / (reads + destages));
    near(w!.diskTimeShare, destages / (reads + destages));
    // the writer's share is of the media, not zero as when destages went uncounted
    expect(w!.diskTimeShare).toBeGreaterThan(0.3);
  });

  it('write-back: the breakdown per request counts the destages’ seek, rotation and transfer (it showed none for the writes)', () => {
    const { summary, services } = withServices(readerAndWriter('write-back'));
    const p = summary.positioningMs;
    const perRequestMs = (ns: number) => ns / summary.requests.completed / 1e6;
    // every service the mechanism finished — reads and destages — is in the means
    const media = services.reduce((a, x) => a + mediaNs(x), 0);
    expect(Math.abs(p.seek + p.rotation + p.transfer - perRequestMs(media))).toBeLessThan(1e-9);
    const seekEnds = services.reduce((a, x) => a + x.seekEndNs - x.startNs, 0);
    expect(Math.abs(p.seek - perRequestMs(seekEnds))).toBeLessThan(1e-9);
  });

  it('write-through: each process’s share is its own requests’ media time (no destages)', () => {
    const { summary, services, d } = withServices(readerAndWriter('write-through'));
    const hostProc = new Map(d.map((e) => [e.rq, e.proc]));
    const by = [0, 0];
    for (const x of services) by[hostProc.get(x.rq)!]! += mediaNs(x);
    expect(summary.requests.cacheHits).toBe(0);
    near(summary.processes[0]!.diskTimeShare, by[0]! / (by[0]! + by[1]!));
    near(summary.processes[1]!.diskTimeShare, by[1]! / (by[0]! + by[1]!));
  });

  it('write-back: a destage of a merged write carrying two processes’ bios is split by their sectors', () => {
    // noop back-merges b's 8 KiB bio into a's 4 KiB request while the queue is plugged
    // (elv_rq_merge_ok does not ask whose a bio is): one request, one destage of 24 sectors
    const { summary, services, sim } = withServices(
      scenario({
        preset: 'cheetah-15k4-146g',
        cache: 'write-back',
        iosched: 'noop',
        processes: [
          proc({ name: 'a', requests: [wr(10_000, 0, 4)] }),
          proc({ name: 'b', requests: [wr(10_008, 0, 8)] }),
        ],
      }),
    );
    expect(summary.requests.backMerges).toBe(1);
    expect(summary.requests.completed).toBe(1);
    expect(services).toHaveLength(1);
    const ns = mediaNs(services[0]!);
    near(sim.state.metrics.processes[0]!.diskNs, ns / 3);
    near(sim.state.metrics.processes[1]!.diskNs, (2 * ns) / 3);
    near(summary.processes[0]!.diskTimeShare, 1 / 3);
    near(summary.processes[1]!.diskTimeShare, 2 / 3);
  });
});
