// Trace-timed replay replays the kernel's requests exactly: the queue is set to nomerges 2
// (no merging at all, not even the one-hit cache), so each traced request is one simulated
// request — none is merged into another, whatever max_sectors_kb allows.
import { describe, expect, it } from 'vitest';
import '../../src/engine/iosched/registry';
import { readTraceText } from '../../src/engine/trace/replay-source';
import { buildScenario, replayTrace } from '../../src/engine/trace/replay';
import { dataText } from '../helpers/data';

describe('trace-timed replay: no merging at all', () => {
  // the kyber trace's 1 MiB reads were split into adjacent 128 KiB requests; without its
  // meta.json's max_sectors_kb (an upload alone) the simulated queue allows 512 KiB, and the
  // one-hit cache used to join them (3,072 requests became 1,670)
  const reading = readTraceText(dataText('linux-6.18', 'kyber_seqread_1m_split', 'trace.txt.gz'));

  it('the scenario sets nomerges 2', () => {
    const { scenario } = buildScenario(reading, {
      mode: 'trace-timed',
      meta: { scheduler: 'kyber' },
    });
    expect(scenario.iosched.queue.nomerges).toBe(2);
  });

  it.each(['6.18', '2.6.32'] as const)(
    "kernel %s: the kernel's 3,072 requests, each dispatched once, no M or F",
    (kernel) => {
      const r = replayTrace(reading, {
        mode: 'trace-timed',
        kernel,
        meta: { scheduler: 'kyber' },
      });
      const dev = reading.devices.get(r.device)!;
      const kernelRequests = dev.requests.filter((q) => q.dispatchedNs >= 0).length;
      expect(kernelRequests).toBe(3072);
      expect(r.requests.replayed).toBe(kernelRequests);
      expect(r.summary.requests.dispatched).toBe(kernelRequests);
      expect(r.simulated.perRequest.count).toBe(kernelRequests);
      expect(r.summary.requests.backMerges + r.summary.requests.frontMerges).toBe(0);
    },
  );
});

describe('trace-timed replay of requests without a traced D→C', () => {
  /** blkparse lines on CPU 0 of 8,0: [ms, action, sector]; reads of 8 sectors by pid 100 */
  function trace(events: Array<[number, string, number]>): string {
    return events
      .map(
        ([ms, a, sector], i) =>
          `  8,0    0 ${String(i + 1).padStart(8)} ${(ms / 1000).toFixed(9).padStart(15)}   100  ${a}   R ${sector} + 8 ${a === 'C' ? '[0]' : '[fio]'}`,
      )
      .join('\n');
  }
  const qgd = (ms: number, sector: number): Array<[number, string, number]> => [
    [ms, 'Q', sector],
    [ms, 'G', sector],
    [ms + 0.1, 'D', sector],
  ];

  it('a trace without C events: every request served by the device model, and a caution says so', () => {
    const noC = trace([...qgd(0, 1000), ...qgd(1, 5000), ...qgd(2, 9000)]);
    const r = replayTrace(readTraceText(noC), { mode: 'trace-timed', meta: { scheduler: 'none' } });
    expect(r.requests.untimed).toBe(3);
    expect(r.caution).toContain(
      `trace-timed, but all 3 requests had no traced D→C and were served by the device model (${r.disk.preset}) instead: for them the figures compare the device as well as the scheduler`,
    );
  });

  it('some completed, one not: "1 of 3", and no caution when all have their D→C', () => {
    const events = [...qgd(0, 1000), ...qgd(1, 5000), ...qgd(2, 9000)];
    const some = trace([...events, [3, 'C', 1000], [4, 'C', 5000]]);
    const r = replayTrace(readTraceText(some), {
      mode: 'trace-timed',
      meta: { scheduler: 'none' },
    });
    expect(r.requests.untimed).toBe(1);
    expect(
      r.caution.some((c) =>
        c.startsWith('trace-timed, but 1 of 3 requests had no traced D→C and was served'),
      ),
    ).toBe(true);
    const all = trace([...events, [3, 'C', 1000], [4, 'C', 5000], [5, 'C', 9000]]);
    const r2 = replayTrace(readTraceText(all), {
      mode: 'trace-timed',
      meta: { scheduler: 'none' },
    });
    expect(r2.requests.untimed).toBe(0);
    expect(r2.caution.filter((c) => c.startsWith('trace-timed'))).toEqual([]);
  });
});
