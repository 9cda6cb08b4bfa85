// The agreement between a replayed scheduler's choices and the kernel's
// (src/engine/trace/replay-agreement.ts, replay-sim-order.ts): hand-built kernel and
// simulated orders with known answers, then a real trace.
import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '../../src/engine/events';
import {
  computeAgreement,
  inversions,
  type KernelRequest,
} from '../../src/engine/trace/replay-agreement';
import { SimulatedOrderRecorder } from '../../src/engine/trace/replay-sim-order';
import { readTraceText } from '../../src/engine/trace/replay-source';
import { replayTrace } from '../../src/engine/trace/replay';
import '../../src/engine/iosched/registry';
import { dataText } from '../helpers/data';

// ---- the simulated side, as the run's sink sees it ----
const ev = (action: TraceEvent['action'], fields: Partial<TraceEvent>): TraceEvent => ({
  tNs: 0,
  action,
  rq: -1,
  pid: 1,
  proc: 0,
  sector: 0,
  nSectors: 0,
  write: false,
  sync: true,
  ...fields,
});
/** request `rq` (its bio has the same id) queued and allocated */
const qg = (rq: number, sector: number, pid = 1): TraceEvent[] => [
  ev('Q', { bio: rq, sector, nSectors: 8, pid }),
  ev('G', { rq, bio: rq, sector, nSectors: 8, pid }),
];
/** queued, allocated and inserted into the scheduler (the 2.6 block layer) */
const arrive = (rq: number, sector: number): TraceEvent[] => [
  ...qg(rq, sector),
  ev('I', { rq, sector, nSectors: 8 }),
];
const D = (rq: number, sector: number, nSectors = 8): TraceEvent =>
  ev('D', { rq, sector, nSectors });
const R = (rq: number, sector: number): TraceEvent => ev('R', { rq, sector, nSectors: 8 });

function simulated(events: TraceEvent[], taskPlugs = false) {
  const rec = new SimulatedOrderRecorder(taskPlugs);
  for (const e of events) rec.event(e);
  return rec.finish();
}

// ---- the kernel's side ----
/** a read of 8 sectors arriving at `arrival`, dispatched at `dispatch` */
const k = (sector: number, arrival: number, dispatch: number): KernelRequest => ({
  sector,
  nSectors: 8,
  write: false,
  kind: 'data',
  arrivalNs: arrival,
  dispatchNs: dispatch,
});
const other = (kind: 'discard' | 'flush', t: number): KernelRequest => ({
  sector: kind === 'flush' ? -1 : 5000,
  nSectors: kind === 'flush' ? 0 : 64,
  write: true,
  kind,
  arrivalNs: t,
  dispatchNs: t,
});

/** the kernel: A B C D (sectors 100…400) arrive together and leave in that order */
const KERNEL = [k(100, 0, 10), k(200, 1, 11), k(300, 2, 12), k(400, 3, 13)];
const HELD_ALL = [...arrive(1, 100), ...arrive(2, 200), ...arrive(3, 300), ...arrive(4, 400)];

describe('agreement on hand-built orders', () => {
  it('the kernel’s order with all four held: every choice agrees, as arrival order does', () => {
    const sim = simulated([...HELD_ALL, D(1, 100), D(2, 200), D(3, 300), D(4, 400)]);
    const a = computeAgreement(KERNEL, sim, 'trace-timed');
    // choices at A (4 held), B (3), C (2); D alone is none
    expect(a).toMatchObject({
      kernelRequests: 4,
      simulatedRequests: 4,
      matched: 4,
      unmatched: { kernel: 0, simulated: 0 },
      excluded: { discards: 0, flushes: 0 },
      choices: 3,
      chose: 1,
      concordance: 1,
      fifo: { chose: 1, concordance: 1 },
    });
    expect(a.note).toMatch(/trace-timed/);
  });

  it('one swap costs one discordant pair of six, and one choice of three', () => {
    const sim = simulated([...HELD_ALL, D(2, 200), D(1, 100), D(3, 300), D(4, 400)]);
    const a = computeAgreement(KERNEL, sim, 'trace-timed');
    // at B's dispatch the kernel's first held was A: a miss; arrival order picks A: a hit
    expect(a.choices).toBe(3);
    expect(a.chose).toBeCloseTo(2 / 3, 12);
    expect(a.concordance).toBeCloseTo(5 / 6, 12);
    expect(a.fifo).toEqual({ chose: 1, concordance: 1 });
  });

  it('an unmatched D and a discard in the middle change nothing but their counts', () => {
    // the kernel: A, X (a request the replay never made), a discard, a flush, B, C
    const kernel = [
      k(100, 0, 10),
      k(900, 1, 11),
      other('discard', 2),
      other('flush', 3),
      k(200, 4, 14),
      k(300, 5, 15),
    ];
    // the simulation: A, Y (never in the kernel's list: merged differently), B, C — all held
    const sim = simulated([
      ...arrive(1, 100),
      ...arrive(2, 700),
      ...arrive(3, 200),
      ...arrive(4, 300),
      D(1, 100),
      D(2, 700, 16),
      D(3, 200),
      D(4, 300),
    ]);
    const a = computeAgreement(kernel, sim, 'open');
    expect(a).toMatchObject({
      kernelRequests: 4,
      simulatedRequests: 4,
      matched: 3,
      unmatched: { kernel: 1, simulated: 1 },
      excluded: { discards: 1, flushes: 1 },
      // at A (A B C held) and at B (B C); Y's dispatch is left out, C's is alone
      choices: 2,
      chose: 1,
      concordance: 1,
      fifo: { chose: 1, concordance: 1 },
    });
    expect(a.note).toMatch(/approximate \(open replay\)/);
  });

  it('no choices (each request dispatched before the next arrives): chose is null', () => {
    const sim = simulated([
      ...arrive(1, 100),
      D(1, 100),
      ...arrive(2, 200),
      D(2, 200),
      ...arrive(3, 300),
      D(3, 300),
      ...arrive(4, 400),
      D(4, 400),
    ]);
    const a = computeAgreement(KERNEL, sim, 'trace-timed');
    expect(a.choices).toBe(0);
    expect(a.chose).toBeNull();
    expect(a.fifo.chose).toBeNull();
    expect(a.concordance).toBe(1);
    // one matched request: no pair to count either
    const one = computeAgreement([k(100, 0, 1)], simulated([...arrive(1, 100), D(1, 100)]), 'open');
    expect(one).toMatchObject({ matched: 1, concordance: null, fifo: { concordance: null } });
  });

  it('the k-th request of a sector and size matches the k-th, in arrival order', () => {
    // the kernel dispatched the second write of sector 100 before the first
    const kernel = [k(100, 0, 11), k(100, 1, 10)];
    const sim = simulated([...arrive(1, 100), ...arrive(2, 100), D(1, 100), D(2, 100)]);
    const a = computeAgreement(kernel, sim, 'trace-timed');
    expect(a).toMatchObject({ matched: 2, choices: 1, chose: 0, concordance: 0 });
    expect(a.fifo).toEqual({ chose: 0, concordance: 0 });
  });

  it('a D the device refused (R) is not a dispatch: the request stays held until its last D', () => {
    const sim = simulated([
      ...arrive(1, 100),
      ...arrive(2, 200),
      D(2, 200),
      R(2, 200),
      D(2, 200),
      D(1, 100),
    ]);
    const a = computeAgreement([k(100, 0, 10), k(200, 1, 11)], sim, 'trace-timed');
    // one choice (at B's last D, A and B held); the refused D counted nothing
    expect(a).toMatchObject({ choices: 1, chose: 0, concordance: 0, fifo: { chose: 1 } });
  });

  it('arrival is the Q: a request that slept for a tag and got it late arrived first', () => {
    // bio 1 is queued first but gets its request after bio 2 (woken late)
    const sim = simulated([
      ev('Q', { bio: 1, sector: 100, nSectors: 8 }),
      ev('S', { bio: 1, sector: 100, nSectors: 8 }),
      ...qg(2, 200, 2),
      ev('I', { rq: 2 }),
      ev('G', { rq: 1, bio: 1, sector: 100, nSectors: 8 }),
      ev('I', { rq: 1 }),
      D(2, 200),
      D(1, 100),
    ]);
    const a = computeAgreement([k(100, 0, 10), k(200, 1, 11)], sim, 'trace-timed');
    expect(a).toMatchObject({ choices: 1, chose: 0, fifo: { chose: 1, concordance: 1 } });
  });

  it('kernel 6.18: a request is held from its plug’s flush (U, UT), I or none', () => {
    // pid 1 plugs A and B, flushes them (U 2) — 'none' inserts no I — then plugs C
    const sim = simulated(
      [
        ...qg(1, 100),
        ...qg(2, 200),
        ev('U', { pid: 1, count: 2 }),
        ...qg(3, 300),
        D(1, 100), // A and B held (C is still in the plug): a choice
        ev('T', { pid: 1, count: 1 }),
        D(2, 200), // B and C: a choice
        D(3, 300),
      ],
      true,
    );
    const a = computeAgreement([k(100, 0, 10), k(200, 1, 11), k(300, 2, 12)], sim, 'trace-timed');
    expect(a).toMatchObject({ choices: 2, chose: 1 });
    // on the 2.6 block layer U's count is not the plug's: only I makes a request held
    const old = simulated([
      ...qg(1, 100),
      ...qg(2, 200),
      ev('U', { pid: 1, count: 2 }),
      D(1, 100),
      D(2, 200),
    ]);
    expect(computeAgreement(KERNEL.slice(0, 2), old, 'open').choices).toBe(0);
  });
});

describe('the kernel’s own choices (I, not yet D, at each D)', () => {
  let seq = 0;
  const line = (t: number, a: string, rwbs: string, rest: string): string =>
    `  8,0    0 ${String(++seq).padStart(8)} ${t.toFixed(9).padStart(15)}   100  ${a} ${rwbs.padStart(3)} ${rest}`;
  const request = (t: number, sector: number): string[] =>
    ['Q', 'G', 'I'].map((a) => line(t, a, 'W', `${sector} + 8 [writer]`));

  it('counts a choice where two or more were held; a request merged away is not held', () => {
    // A (100) and B (108) and C (500) inserted; the kernel merges B into A (no event) and
    // dispatches 100 + 16 with all three held (a choice), then C alone (none)
    const text = [
      ...request(0.001, 100),
      ...request(0.002, 108),
      ...request(0.003, 500),
      line(0.004, 'D', 'W', '100 + 16 [writer]'),
      line(0.005, 'D', 'W', '500 + 8 [writer]'),
      line(0.006, 'C', 'W', '100 + 16 [0]'),
      line(0.007, 'C', 'W', '500 + 8 [0]'),
    ].join('\n');
    const dev = readTraceText(text).devices.get('8,0')!;
    expect(dev.kernelHeld).toEqual({ inserted: 3, choices: 1 });
  });

  it('is null in the report where the trace has no I (blk-mq without a scheduler)', () => {
    const a = computeAgreement(KERNEL, simulated([...HELD_ALL]), 'open', {
      inserted: 0,
      choices: 0,
    });
    expect(a.kernelChoices).toBeNull();
    expect(
      computeAgreement(KERNEL, simulated([...HELD_ALL]), 'open', { inserted: 4, choices: 2 })
        .kernelChoices,
    ).toBe(2);
  });
});

describe('inversions (discordant pairs) by merge sort', () => {
  it('equals the count of every pair on random orders', () => {
    let seed = 7;
    const rand = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let t = 0; t < 50; t++) {
      const n = 1 + Math.floor(rand() * 60);
      const order = Array.from({ length: n }, () => Math.floor(rand() * 40));
      let brute = 0;
      for (let i = 0; i < n; i++)
        for (let j = i + 1; j < n; j++) if (order[i]! > order[j]!) brute++;
      expect(inversions(order)).toBe(brute);
    }
    expect(inversions([3, 2, 1, 0])).toBe(6);
    expect(inversions([])).toBe(0);
  });
});

describe('agreement on a real trace', () => {
  // the kyber trace: two fio jobs, 1 MiB reads split into 3,072 requests of 128 KiB; the
  // kernel dispatched them in their arrival (G) order but for one pair (G 93.396401 ms,
  // D 93.401078 ms; G 93.396889 ms, D 93.399919 ms)
  const reading = readTraceText(dataText('linux-6.18', 'kyber_seqread_1m_split', 'trace.txt.gz'));
  const meta = { scheduler: 'kyber', rotational: 1, maxSectorsKb: 128, nrRequests: 256 };

  it('trace-timed: every request matched, arrival order the kernel’s but one pair', () => {
    const a = replayTrace(reading, { mode: 'trace-timed', meta }).agreement;
    expect(a).toMatchObject({
      mode: 'trace-timed',
      kernelRequests: 3072,
      simulatedRequests: 3072,
      matched: 3072,
      unmatched: { kernel: 0, simulated: 0 },
      excluded: { discards: 0, flushes: 0 },
    });
    // the kernel's kyber held two or more requests at 5 of its 3,072 dispatches
    expect(a.kernelChoices).toBe(5);
    // requests are issued at their traced G times: the simulated arrival order is the kernel's
    expect(a.fifo.concordance).toBe(1 - 1 / ((3072 * 3071) / 2));
    // on the fitted device, 64 deep as traced, Kyber never holds two: it keeps arrival order
    expect(a).toMatchObject({ choices: 0, chose: null, fifo: { chose: null } });
    expect(a.concordance).toBe(a.fifo.concordance);
    // CFQ's idling makes a backlog of its own; at its choices arrival order is the kernel's
    const c = replayTrace(reading, { mode: 'trace-timed', meta, scheduler: 'cfq' }).agreement;
    expect(c.choices).toBeGreaterThan(3000);
    expect(c.fifo.chose).toBe(1);
    expect(c.chose!).toBeLessThan(0.5);
    expect(c.concordance!).toBeLessThan(c.fifo.concordance!);
    expect(Object.keys(a.definitions).sort()).toEqual([
      'choices',
      'chose',
      'concordance',
      'fifo',
      'unmatched',
    ]);
  }, 60_000);

  it('the run is deterministic: the same figures twice', () => {
    const once = replayTrace(reading, { mode: 'trace-timed', meta, scheduler: 'mq-deadline' });
    const again = replayTrace(reading, { mode: 'trace-timed', meta, scheduler: 'mq-deadline' });
    expect(again.agreement).toEqual(once.agreement);
  }, 60_000);
});
