// Trace replay on small hand-made traces whose replayed workload and simulated outcome are
// known (src/engine/trace/replay*.ts).
import { describe, expect, it } from 'vitest';
import '../../src/engine/iosched/registry';
import { readTraceText } from '../../src/engine/trace/replay-source';
import { buildScenario, replayTrace } from '../../src/engine/trace/replay';
import { dataText } from '../helpers/data';

let seq = 0;
const line = (t: number, pid: number, a: string, rwbs: string, rest: string): string =>
  `  8,0    0 ${String(++seq).padStart(8)} ${t.toFixed(9).padStart(15)} ${String(pid).padStart(5)}  ${a} ${rwbs.padStart(3)} ${rest}`;

/** reader (pid 100): two reads, the second 2 ms after the first completes; writer (pid 200):
 * one sync write (WS); an empty flush, a discard; the kernel dispatches in arrival order */
function smallTrace(): string {
  seq = 0;
  return [
    line(0.0, 100, 'Q', 'R', '1000 + 8 [reader]'),
    line(0.00001, 100, 'D', 'R', '1000 + 8 [reader]'),
    line(0.001, 0, 'C', 'R', '1000 + 8 [0]'),
    line(0.002, 200, 'Q', 'WS', '500000 + 16 [kworker/u8:2]'),
    line(0.00201, 200, 'D', 'WS', '500000 + 16 [kworker/u8:2]'),
    line(0.003, 100, 'Q', 'R', '2000 + 8 [reader]'),
    line(0.004, 200, 'Q', 'FWS', '[kworker/u8:2]'),
    line(0.0041, 200, 'Q', 'D', '9000 + 8 [kworker/u8:2]'),
    line(0.005, 0, 'C', 'WS', '500000 + 16 [0]'),
    line(0.00501, 100, 'D', 'R', '2000 + 8 [reader]'),
    line(0.006, 0, 'C', 'R', '2000 + 8 [0]'),
  ].join('\n');
}

describe('trace → scenario', () => {
  it('one process per pid, named after its comm, with open-mode times', () => {
    const { scenario, mapping } = buildScenario(readTraceText(smallTrace()), {
      meta: { scheduler: 'mq-deadline' },
    });
    expect(mapping).toMatchObject({ traced: 'mq-deadline', simulated: 'mq-deadline' });
    expect(scenario.iosched.name).toBe('mq-deadline');
    const [reader, writer] = scenario.workload.processes;
    expect(reader!.name).toBe('reader-100');
    expect(writer!.name).toBe('kworker_u8_2-200');
    expect(reader!.requests).toEqual([
      { sector: 1000, sizeKiB: 4, op: 'read', atMs: 0, thinkTimeMs: null },
      { sector: 2000, sizeKiB: 4, op: 'read', atMs: 3, thinkTimeMs: null },
    ]);
    // the empty flush (Q FWS, no sectors) goes on as one: kernel 6.18's flush machinery
    expect(writer!.requests).toEqual([
      { sector: 500000, sizeKiB: 8, op: 'write', atMs: 2, thinkTimeMs: null },
      { sector: 0, sizeKiB: 0, op: 'write', atMs: 4, thinkTimeMs: null, preflush: true },
    ]);
    expect(writer!.sync).toBe(true); // WS
    expect(reader!.sync).toBeNull(); // reads: sync anyway
  });

  it('closed mode: think time = this Q − the process’s latest completion before it', () => {
    const { scenario } = buildScenario(readTraceText(smallTrace()), {
      mode: 'closed',
      meta: { scheduler: 'none' },
    });
    const reader = scenario.workload.processes[0]!;
    expect(reader.requests![0]).toMatchObject({ atMs: 0, thinkTimeMs: null });
    expect(reader.requests![1]!.thinkTimeMs).toBeCloseTo(2, 9);
  });

  it('counts the skipped Qs and replays the rest', () => {
    const r = replayTrace(readTraceText(smallTrace()), { meta: { scheduler: 'none' } });
    // kernel 6.18 replays the empty flush (and the bios with data count: 3)
    expect(r.kernel.value).toBe('6.18');
    expect(r.requests).toMatchObject({
      tracedQ: 5,
      replayed: 4,
      skipped: { flush: 0, discard: 1, zeroSize: 0, total: 1 },
      reads: 2,
      writes: 2,
      kib: 16,
      syncMismatched: 0,
    });
    expect(r.simulated.perBio.count).toBe(3);
    // the 2.6 block layer has no flush machinery: the empty flush is left out
    const old = replayTrace(readTraceText(smallTrace()), {
      meta: { scheduler: 'none' },
      kernel: '2.6.32',
    });
    expect(old.requests).toMatchObject({
      tracedQ: 5,
      replayed: 3,
      skipped: { flush: 1, discard: 1, zeroSize: 0, total: 2 },
      writes: 1,
    });
  });

  it('three requests: dispatched as the kernel did', () => {
    const r = replayTrace(readTraceText(smallTrace()), {
      meta: { scheduler: 'none', rotational: 1 },
    });
    expect(r.disk.preset).toBe('sata-7200-500g');
    // the trace has no G: the kernel's requests are its dispatches (the discard's Q is
    // skipped, and no discard was dispatched). The simulated disk takes milliseconds to
    // seek: the write and the second read wait together for the first read, and the write,
    // the kernel's next, goes first — one choice, the kernel's
    expect(r.agreement).toMatchObject({
      kernelRequests: 3,
      simulatedRequests: 3,
      matched: 3,
      excluded: { discards: 0, flushes: 0 },
      choices: 1,
      chose: 1,
      concordance: 1,
      fifo: { chose: 1, concordance: 1 },
    });
    // measured: Q2C 1 ms, 3 ms and 3 ms per bio (btt's too); here each bio is a request
    expect(r.measured.perBio!.q2cMs).toMatchObject({ n: 3, p50: 3, max: 3 });
    expect(r.measured.perBio!.q2cMs!.mean).toBeCloseTo(7 / 3, 9);
    expect(r.measured.btt.q2c!.avg).toBeCloseTo(7 / 3 / 1000, 12);
    expect(r.measured.perRequest.q2cMs!.mean).toBeCloseTo(7 / 3, 9);
  });

  it('an unknown traced scheduler needs --scheduler; a given one is stated', () => {
    const reading = readTraceText(smallTrace());
    expect(() => replayTrace(reading)).toThrow(/no BFQ or CFQ messages\): give --scheduler/);
    const r = replayTrace(reading, { scheduler: 'noop' });
    expect(r.schedulerMapping).toMatchObject({ traced: null, simulated: 'noop' });
    expect(r.schedulerMapping.note).toMatch(/--scheduler/);
  });
});

describe('a trace without Qs (blktrace -a issue -a complete)', () => {
  const full = dataText('linux-6.18', 'none_randread_4k', 'trace.txt.gz');
  // only its D and C lines (and the summary block), as those masks record
  const dc = full
    .split('\n')
    .filter((l) => !/^\s+\d+,\d+\s+\d+\s+\d+\s+[\d.]+\s+\d+\s+(Q|G|I|P|U|UT|M|F)\s/.test(l))
    .join('\n');

  it('replays its dispatches as the arrivals, each paired with its C for the measured D2C', () => {
    const fromQ = replayTrace(readTraceText(full), { scheduler: 'none' });
    const r = replayTrace(readTraceText(dc), { scheduler: 'none' });
    expect(fromQ.requests.arrivals).toBe('Q');
    expect(r.requests.arrivals).toBe('D');
    expect(r.requests.replayed).toBe(fromQ.requests.replayed); // 8,192: one D per Q here
    expect(r.simulated.perBio.count).toBe(r.requests.replayed);
    // each D → its C: btt's D2C of the full trace; no Q, so no bios and no Q2C (none, not 0)
    expect(r.measured.perRequest.d2cMs!.n).toBe(fromQ.measured.btt.d2c!.n);
    expect(r.measured.perRequest.d2cMs!.mean).toBeCloseTo(fromQ.measured.btt.d2c!.avg * 1000, 9);
    expect(r.measured.perBio).toBeNull();
    expect(r.measured.perRequest.q2cMs).toBeNull();
    expect(r.measured.btt.q2c).toBeNull();
  }, 60_000); // two replays of 8,192 requests: seconds on a loaded machine

  it('trace-timed mode, which replays the kernel’s requests from their G, says to use open or closed', () => {
    expect(() =>
      replayTrace(readTraceText(dc), { scheduler: 'none', mode: 'trace-timed' }),
    ).toThrow(/no dispatched G: use --mode open or closed/);
  });
});

describe('the traced scheduler from message lines', () => {
  it('CFQ’s `cfq…` messages name CFQ (a 2.6–4.20 trace with no meta.json)', () => {
    const r = replayTrace(readTraceText(dataText('public', 'cfq-messages.txt')), {});
    expect(r.schedulerMapping.traced).toBe('cfq');
    expect(r.schedulerMapping.tracedFrom).toBe('message lines');
    expect(r.schedulerMapping.simulated).toBe('cfq');
  });

  it('BFQ’s `bfq…` messages name BFQ; a message of neither names nothing', () => {
    const line = (msg: string): string =>
      `  8,0    0        0     0.000001000     0  m   N ${msg}\n  8,0    0        1     0.000002000   100  Q   R 8 + 8 [fio]`;
    expect(readTraceText(line('bfq100S put_queue')).messageScheduler).toBe('bfq');
    expect(readTraceText(line('cfq schedule dispatch')).messageScheduler).toBe('cfq');
    expect(readTraceText(line('something else')).messageScheduler).toBeNull();
  });
});
