// Every real linux-6.18 trace through the real CLI: `spindle replay … --json` has its shape,
// states the scheduler mapping, replays every traced Q (or counts it skipped), and its
// measured figures are `spindle parse`'s.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spindle, spindleJson } from '../cli/run-cli';
import { dataPath, dataText } from '../helpers/data';
import type { ReplayReport } from '../../src/engine/trace/replay';
import type { ParseReport } from '../../src/engine/trace/parse';

const TRACES = [
  ['none_randread_4k', 'none', 'none'],
  ['bfq_randrw7030_jobs4', 'bfq', 'bfq'],
  ['kyber_seqread_1m_split', 'kyber', 'kyber'],
  ['mq-deadline_ext4_smallfiles_fsync', 'mq-deadline', 'mq-deadline'],
] as const;

describe.each(TRACES)('spindle replay %s', (name, traced, simulated) => {
  const path = dataPath('linux-6.18', name, 'trace.txt.gz');

  it('open: shape, mapping, counts, measured figures as spindle parse', async () => {
    const [r, p] = await Promise.all([
      spindleJson<ReplayReport>(['replay', path, '--json']),
      spindleJson<ParseReport>(['parse', path, '--json']),
    ]);
    const meta = JSON.parse(dataText('linux-6.18', name, 'meta.json')) as {
      device: { devno: string };
    };
    expect(r.device).toBe(meta.device.devno);
    expect(r.mode).toBe('open');
    expect(r.schedulerMapping).toMatchObject({ traced, tracedFrom: 'meta.json', simulated });
    expect(r.schedulerMapping.note.length).toBeGreaterThan(20);
    // a trace of a blk-mq scheduler replays under itself on kernel 6.18's block layer
    expect(r.kernel.value).toBe('6.18');
    expect(r.simulated.iosched).toBe(simulated);
    // the default device: fitted to the trace (replay-fit.ts), reported with its error
    expect(r.disk.preset).toBe('traced');
    expect(r.disk.source).toMatch(/^fitted to this trace's \d+ D→C pairs/);
    expect(r.fit?.device.parallelism).toBe(r.fit?.parallelism);
    expect(r.fit?.heldBack.n).toBeGreaterThan(0);
    expect(Array.isArray(r.caution)).toBe(true);
    // the fitted device takes as many as Spindle models: the trace's own most in flight
    expect(r.queueDepth.source).toMatch(/^the trace's most requests in flight on the device/);
    expect(r.queueDepth.source).not.toMatch(/capped/);

    // every traced Q is replayed or counted skipped; every replayed one completes
    expect(r.requests.tracedQ).toBe(p.actions.Q);
    expect(r.requests.replayed + r.requests.skipped.total).toBe(p.actions.Q);
    expect(r.processes.reduce((n, q) => n + q.requests, 0)).toBe(r.requests.replayed);
    expect(r.requests.reads + r.requests.writes).toBe(r.requests.replayed);
    // (empty flushes are replayed, and have no data to count as a bio)
    const withData = r.requests.replayed - r.requests.emptyFlushes;
    expect(r.simulated.perBio.count).toBe(withData);
    expect(r.summary.requests.queued).toBe(r.requests.replayed);
    // the simulated side counted from the run's events: the run's own counts
    expect(r.simulated.perRequest.count).toBe(r.summary.requests.completed);

    // measured: btt's rows exactly as parse prints them (null where it prints none)
    expect(r.measured.btt.q2c).toEqual(p.btt.q2c.n > 0 ? p.btt.q2c : null);
    expect(r.measured.btt.d2c).toEqual(p.btt.d2c.n > 0 ? p.btt.d2c : null);
    // per bio: every Q of these traces completes (split ones too); btt's Q2C where btt
    // pairs every Q
    const bio = r.measured.perBio!;
    expect(bio.count).toBe(withData);
    if (p.btt.q2c.n === withData) {
      expect(bio.q2cMs!.mean).toBeCloseTo(p.btt.q2c.avg * 1000, 6);
      expect(bio.q2cMs!.max).toBeCloseTo(p.btt.q2c.max * 1000, 6);
    }
    // per request: each kernel request's D → C, btt's D2C where btt pairs them all
    const rq = r.measured.perRequest;
    expect(rq.count).toBe(p.btt.merge.d);
    if (p.btt.d2c.n === p.btt.merge.d) expect(rq.d2cMs!.mean).toBeCloseTo(p.btt.d2c.avg * 1000, 6);
    expect(rq.mbps).toBeCloseTo(bio.mbps, 9); // the same data either way

    // throughput over time: the same windows for both
    const t = r.throughputOverTime;
    expect(t.windowMs).toBeGreaterThan(0);
    expect(t.measured.length).toBe(t.simulated.length);
    expect(t.measured.length).toBeGreaterThan(0);
    // every completed sector lands in one window (btt's blkTotal: the sectors of every C with data)
    const mb = t.measured.reduce((n, w) => n + (w.mbps * t.windowMs) / 1000, 0);
    expect(mb).toBeCloseTo((p.btt.merge.blkTotal * 512) / 1e6, 6);

    // agreement: labelled as the approximation it is; every request counted somewhere
    const a = r.agreement;
    expect(a.note).toMatch(/^approximate \(open replay\)/);
    expect(a.matched + a.unmatched.kernel).toBe(a.kernelRequests);
    expect(a.matched + a.unmatched.simulated).toBe(a.simulatedRequests);
    expect(a.simulatedRequests).toBe(r.summary.requests.dispatched);
    for (const x of [a.chose, a.concordance, a.fifo.chose, a.fifo.concordance])
      expect(x === null || (x >= 0 && x <= 1)).toBe(true);
    expect(a.chose === null).toBe(a.choices === 0);
  }, 120_000);

  it('closed: the same requests, think times instead of traced times', async () => {
    const r = await spindleJson<ReplayReport>(['replay', path, '--mode', 'closed', '--json']);
    expect(r.mode).toBe('closed');
    expect(r.simulated.perBio.count).toBe(r.requests.replayed - r.requests.emptyFlushes);
    expect(r.agreement.note).toMatch(/^approximate \(closed replay\)/);
  }, 120_000);
});

describe('spindle replay --mode trace-timed', () => {
  it('serves every request in its traced D2C: with the traced FIFO (none), the replay is the trace', async () => {
    const path = dataPath('linux-6.18', 'none_randread_4k', 'trace.txt.gz');
    const r = await spindleJson<ReplayReport>(['replay', path, '--mode', 'trace-timed', '--json']);
    expect(r.mode).toBe('trace-timed');
    expect(r.requests.untimed).toBe(0);
    expect(r.simulated.perBio.count).toBe(r.requests.replayed);
    // Same service times, same FIFO order: D2C and Q2C as measured (within 1%), and the
    // simulated scheduler dispatched exactly what the kernel did, in its order — with never
    // a choice to make (each request was dispatched before the next arrived).
    const within = (sim: number, meas: number) =>
      expect(Math.abs(sim - meas) / meas).toBeLessThan(0.01);
    within(r.simulated.perRequest.d2cMs!.mean, r.measured.perRequest.d2cMs!.mean);
    within(r.simulated.perBio.q2cMs!.mean, r.measured.perBio!.q2cMs!.mean);
    expect(r.agreement).toMatchObject({
      matched: 8192,
      unmatched: { kernel: 0, simulated: 0 },
      choices: 0,
      kernelChoices: null, // blk-mq without a scheduler traces no I
      chose: null,
      concordance: 1,
      fifo: { chose: null, concordance: 1 },
    });
    expect(r.agreement.note).toMatch(/^trace-timed/);
  }, 120_000);

  it('splits 1 MiB bios at the traced max_sectors_kb (128) as the kernel did: the same dispatches', async () => {
    const path = dataPath('linux-6.18', 'kyber_seqread_1m_split', 'trace.txt.gz');
    const r = await spindleJson<ReplayReport>(['replay', path, '--mode', 'trace-timed', '--json']);
    const a = r.agreement;
    expect(r.summary.requests.dispatched).toBe(a.kernelRequests); // 384 Qs → 3072 pieces
    // the trace's 384 bios of 1 MiB went down as 3,072 requests: those are replayed
    expect(r.measured.perBio!.count).toBe(384);
    expect(r.measured.perRequest.count).toBe(3072);
    expect(r.simulated.perRequest.count).toBe(3072);
    expect(a.matched).toBe(a.kernelRequests);
    // kyber is replayed under Spindle's kyber on kernel 6.18, as the trace was taken
    expect(r.kernel.value).toBe('6.18');
    expect(r.schedulerMapping.simulated).toBe('kyber');
    // on the fitted device, as deep as the trace ran, it never holds two (docs/VALIDATION.md)
    expect(a.choices).toBe(0);
    expect(a.concordance).toBe(a.fifo.concordance);
  }, 120_000);

  it('replays the kernel’s requests (merged as traced): mq-deadline never has a choice, CFQ makes its own', async () => {
    const path = dataPath('linux-6.18', 'mq-deadline_ext4_smallfiles_fsync', 'trace.txt.gz');
    const [mq, cfq] = await Promise.all(
      ['mq-deadline', 'cfq'].map((s) =>
        spindleJson<ReplayReport>([
          'replay',
          path,
          '--mode',
          'trace-timed',
          '--scheduler',
          s,
          '--json',
        ]),
      ),
    );
    // 11,934 Qs, merged by the kernel into 3,963 requests with data and 30 empty flushes
    // (fsync's Q FWS): those are replayed, through kernel 6.18's flush machinery
    expect(mq!.requests.units).toBe('requests');
    expect(mq!.requests.replayed).toBe(3993);
    expect(mq!.requests.emptyFlushes).toBe(30);
    expect(mq!.agreement.kernelRequests).toBe(3963);
    expect(mq!.agreement.matched).toBe(3963);
    // the trace's 2,576 flush commands (D FN) and the replay's are left out of the order
    expect(mq!.agreement.excluded).toEqual({ discards: 0, flushes: 2576 });
    // served in their traced D2C, the requests never wait for mq-deadline: no choice at all
    // (the kernel's mq-deadline held two or more at 8 of its 3,963 dispatches)
    expect(mq!.agreement.choices).toBe(0);
    expect(mq!.agreement.kernelChoices).toBe(8);
    expect(mq!.agreement.chose).toBeNull();
    // CFQ idles and reorders: a backlog builds, and at its choices it picks the kernel's
    // first far less often than arrival order would. With no merging at all (nomerges 2)
    // each of its dispatches is a kernel request
    const c = cfq!.agreement;
    expect(c.matched).toBe(3963);
    expect(c.choices).toBeGreaterThan(1000);
    expect(c.chose!).toBeLessThan(c.fifo.chose! - 0.3);
  }, 120_000);

  // On this trace (four fio jobs, 70% random reads, a fast virtio disk) the kernel's BFQ
  // raised all four new queues and preempted the in-service one 1,227 times (its message
  // notes: "expire (4, …)"): a queue whose next request came soon after it emptied, with
  // budget left, preempts. Spindle's BFQ does the same, so it never idles with a request of
  // another queue waiting: served in their traced D2C, no two requests are ever held at once
  // — no choice to make, and the order is arrival order, the kernel's but for 66 pairs. (It
  // idled before preemption and injection were modelled: 1,015 choices, 0.122 the kernel's.)
  it('a bfq trace under Spindle’s bfq: no choice to make, arrival order kept', async () => {
    const path = dataPath('linux-6.18', 'bfq_randrw7030_jobs4', 'trace.txt.gz');
    const r = await spindleJson<ReplayReport>(['replay', path, '--mode', 'trace-timed', '--json']);
    expect(r.schedulerMapping.simulated).toBe('bfq');
    expect(r.kernel.value).toBe('6.18');
    const a = r.agreement;
    expect(a).toMatchObject({ matched: 2048, kernelChoices: 158, choices: 0, chose: null });
    expect(a.concordance).toBe(a.fifo.concordance);
    expect(Math.round((1 - a.fifo.concordance!) * ((2048 * 2047) / 2))).toBe(66);
  }, 120_000);

  it('with another scheduler the agreement drops, and says what it compared', async () => {
    const path = dataPath('linux-6.18', 'bfq_randrw7030_jobs4', 'trace.txt.gz');
    const r = await spindleJson<ReplayReport>([
      'replay',
      path,
      '--mode',
      'trace-timed',
      '--scheduler',
      'cfq',
      '--json',
    ]);
    expect(r.schedulerMapping.simulated).toBe('cfq');
    const a = r.agreement;
    expect(a.choices).toBeGreaterThan(0);
    expect(a.chose!).toBeLessThan(a.fifo.chose!);
    expect(a.concordance!).toBeLessThan(a.fifo.concordance!);
    expect(a.note).toMatch(/^trace-timed/);
  }, 120_000);
});

describe('spindle replay of a trace with lines it cannot read', () => {
  it('says how many lines were not replayed and where the first is, in the text and the JSON', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spindle-cut-'));
    const path = join(dir, 'cut.txt');
    writeFileSync(
      path,
      [
        '  8,0    0        1     0.000000000   100  Q   R 1000 + 8 [reader]',
        '  8,0    0        2     0.000010000   100  D   R 1000 + 8 [reader]',
        '  8,0    0        3     0.001000000     0  C   R 10', // cut mid-line
      ].join('\n'),
    );
    const args = ['replay', path, '--scheduler', 'mq-deadline'];
    const r = await spindleJson<ReplayReport>([...args, '--json']);
    expect(r.caution[0]).toBe(
      "1 line of the trace could not be read and is not replayed, the first at line 3 (no [error] at the end of a completion); the trace's summary lists them",
    );
    const text = await spindle(args);
    expect(text.stdout).toContain('CAUTION: 1 line of the trace could not be read');
  }, 60_000);
});
