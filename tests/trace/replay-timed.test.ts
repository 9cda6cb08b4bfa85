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
