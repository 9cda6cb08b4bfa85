// The played window (src/worker/played.ts, log.ts): a log recorded from a time `from` > 0.
// Checked against a log recorded from 0 by the same sink: every request alive at `from`
// is whole (its earlier events, real times, in order), nothing else before `from` is kept,
// the bound counts from `from`, the same scenario and seed give the same log, and the
// page's replay and charts start at the window.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { throughput, timeDomainMs } from '../../src/app/chart-data';
import { queueDepth } from '../../src/app/chart-depth';
import { indexLog, pendingAt } from '../../src/app/replay';
import { playedPart, startTime, windowText } from '../../src/app/window';
import { buildModel, createSimulation, loadScenario, step } from '../../src/engine';
import '../../src/engine/iosched/registry';
import { runScenario } from '../../src/engine/run';
import { createLogSink, MAX_COMPLETIONS, MAX_SIM_NS, type LogEvent } from '../../src/worker/log';
import { runLog, windowStart } from '../../src/worker/played';

function lesson(file: string) {
  const path = `public/scenarios/${file}`;
  return loadScenario(JSON.parse(readFileSync(path, 'utf8')), path);
}

const FILE = 'cfq-fairness.json';
const FROM = 3e9;

/** Everything from 0, stopped where the window's bound stops (completions counted from
 * `from`): the reference the window is checked against. */
function recordedFromZero(from: number): { events: LogEvent[]; endNs: number } {
  const s = lesson(FILE);
  const model = buildModel(s, s.seed);
  const sink = createLogSink(model.disk.geometry);
  const sim = createSimulation(model, sink);
  sink.bind(sim);
  let completions = 0;
  let seen = 0;
  while (step(sim)) {
    for (; seen < sink.events.length; seen++) {
      const e = sink.events[seen]!;
      if (e.action === 'C' && e.tNs >= from) completions++;
    }
    if (completions >= MAX_COMPLETIONS || sim.state.now >= from + MAX_SIM_NS) break;
  }
  return { events: sink.events, endNs: sim.state.now };
}

describe('a played window that starts later in the run', () => {
  const s = lesson(FILE);
  const log = runLog(s, s.seed, FROM);
  const ref = recordedFromZero(FROM);

  it('keeps, before `from`, exactly the events of the requests and bios alive at `from`', () => {
    // alive at from: requests with an event before it and no C before it
    const doneBefore = new Set(
      ref.events.filter((e) => e.action === 'C' && e.tNs < FROM).map((e) => e.rq),
    );
    const aliveRq = new Set(
      ref.events.filter((e) => e.rq >= 0 && e.tNs < FROM && !doneBefore.has(e.rq)).map((e) => e.rq),
    );
    // their bios, and bios queued before `from` that get their request later
    const aliveBio = new Set<number>();
    for (const e of ref.events) {
      if (e.bio === undefined || e.bio < 0) continue;
      if (e.rq >= 0 && (aliveRq.has(e.rq) || e.tNs >= FROM)) aliveBio.add(e.bio);
    }
    const plug = (e: LogEvent) => e.rq < 0 && (e.bio === undefined || e.bio < 0);
    const expected = ref.events.filter(
      (e) =>
        e.tNs >= FROM || (!plug(e) && (aliveRq.has(e.rq) || (e.rq < 0 && aliveBio.has(e.bio!)))),
    );
    expect(aliveRq.size).toBeGreaterThan(0);
    expect(log.events.length).toBe(expected.length);
    expect(log.events).toEqual(expected);
    expect(log.endNs).toBe(ref.endNs);
    // each alive request is whole: its first event (a G or I) is before the window
    const before = log.events.filter((e) => e.tNs < FROM);
    expect(new Set(before.filter((e) => e.rq >= 0).map((e) => e.rq))).toEqual(aliveRq);
    expect(before.some((e) => e.action === 'C')).toBe(false);
  });

  it('keeps no decision before `from`, and the service that places the arm at `from`', () => {
    expect(log.fromNs).toBe(FROM);
    expect(log.decisions.length).toBeGreaterThan(0);
    expect(log.decisions.every((d) => d.tNs >= FROM)).toBe(true);
    const earlier = log.services.filter((x) => x.startNs < FROM);
    expect(earlier.length).toBeGreaterThanOrEqual(1);
    expect(earlier.length).toBeLessThanOrEqual(2);
  });

  it('counts the bound from `from`', () => {
    // the lesson made long enough for 2,000 completions before and after `from`
    const long = { ...s, stop: { requests: null, timeMs: 200_000 } };
    const from = 100e9;
    const w = runLog(long, s.seed, from);
    const cs = w.events.filter((e) => e.action === 'C');
    expect(w.bounded).toBe(true);
    expect(cs.length).toBe(MAX_COMPLETIONS);
    expect(cs.every((e) => e.tNs >= from)).toBe(true);
    expect(w.endNs).toBe(cs.at(-1)!.tNs);
    expect(w.endNs - from).toBeLessThan(MAX_SIM_NS);
    // the whole-run summary counts those before the window too
    expect(w.summary.requests.completed).toBeGreaterThan(2 * MAX_COMPLETIONS);
  });

  it('gives the same log for the same scenario, seed and window', () => {
    const again = runLog(s, s.seed, FROM);
    expect(again.events).toEqual(log.events);
    expect(again.services).toEqual(log.services);
    expect(again.decisions).toEqual(log.decisions);
    expect(again.tables).toEqual(log.tables);
    expect(again.endNs).toBe(log.endNs);
  });

  it('replays from the window: stops start at `from`, the alive requests pending there', () => {
    const r = indexLog(log);
    expect(r.stops[0]).toBe(FROM);
    const pending = pendingAt(r, FROM).map((q) => q.rq);
    const atFrom = log.events.filter((e) => e.tNs < FROM && e.rq >= 0).map((e) => e.rq);
    expect(new Set(pending)).toEqual(new Set(atFrom));
    expect(startTime(log, undefined)).toBe(FROM);
    expect(startTime(log, 0)).toBe(FROM);
    expect(startTime(log, log.endNs + 1)).toBe(log.endNs);
    expect(playedPart(log)).toBe(`showing ${windowText(log)} of the run`);
    expect(windowText({ fromNs: 3e9, endNs: 4.25e9 })).toBe('3000.0–4250.0 ms');
    expect(windowText({ fromNs: 124e9, endNs: 128.56e9 })).toBe('124.0–128.6 s');
  });

  it('charts the window: the time axis, bins and depth steps start at `from`', () => {
    const runs = [{ label: FILE, log }];
    expect(timeDomainMs(runs)).toEqual([FROM / 1e6, log.endNs / 1e6]);
    const t = throughput(runs);
    expect(t.series[0]!.x[0]).toBe(FROM / 1e6);
    expect(t.series[0]!.ios).toBe(log.tables.ios.cNs.filter((c) => c === c).length);
    for (const d of queueDepth(runs)) {
      expect(d.x[0]).toBe(FROM / 1e6);
      expect(d.mean).toBeGreaterThan(0);
    }
  });
});

describe('where the window starts', () => {
  it('the page’s choice, else the lesson’s play.fromMs, else 0', () => {
    const s = lesson(FILE);
    expect(windowStart(s)).toBe(0);
    const hinted = { ...s, play: { fromMs: 1500 } };
    expect(windowStart(hinted)).toBe(1.5e9);
    expect(windowStart(hinted, 0)).toBe(0);
    expect(windowStart(hinted, 2e9)).toBe(2e9);
  });

  it('play.fromMs is a viewing hint: loaded, and the run is the same with it or without', () => {
    const path = 'public/scenarios/merging.json';
    const raw = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    const plain = loadScenario(raw, path);
    const hinted = loadScenario({ ...raw, play: { fromMs: 2500 } }, path);
    expect(plain.play).toBeUndefined();
    expect(hinted.play).toEqual({ fromMs: 2500 });
    expect(runScenario(hinted).summary).toEqual(runScenario(plain).summary);
  });

  it('a window past the run’s end is its last instant, empty', () => {
    const s = lesson('merging.json');
    const log = runLog(s, s.seed, 1e15);
    expect(log.fromNs).toBe(log.endNs);
    expect(log.decisions).toEqual([]);
    expect(indexLog(log).stops).toEqual([log.endNs]);
    expect(playedPart(log)).toMatch(/^the run ends at [\d.]+ (s|ms), before the time asked/);
  });

  it('fio-switcher opens just before the first switch to anticipatory (a tenth of a second: under a minute at the default speed)', () => {
    const s = lesson('fio-switcher.json');
    const from = windowStart(s);
    const log = runLog(s, s.seed, from);
    const sw = log.decisions.find((d) => d.rule === 'switch-to-anticipatory');
    expect(sw).toBeDefined();
    expect(sw!.tNs - from).toBeGreaterThan(0);
    expect(sw!.tNs - from).toBeLessThanOrEqual(0.1e9);
  }, 60_000);
});
