// The adaptive schedulers' and named workloads' lessons (issue 7 item 6), checked through the
// real CLI on the committed scenario files. Each claim of the seed papers is a test: the
// ones that reproduce in this model assert it; the ones that do not are `it.fails` with the
// figures measured, so the suite says plainly which claims hold — and flags the day one
// starts to hold. Decision records (not in the CLI's JSON) are read through the engine.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunSummary } from '../../src/engine/summary';
import type { DecisionRecord, TraceSink } from '../../src/engine/events';
import { loadScenario } from '../../src/engine/scenario/load';
import { runScenario } from '../../src/engine/run';
import type { CfqAnnState } from '../../src/engine/iosched/cfq-ann';
import '../../src/engine/iosched/registry';
import { SCENARIOS, spindleJson } from '../cli/run-cli';

// Each lesson runs several long simulations through the CLI on a shared machine.
vi.setConfig({ testTimeout: 600_000, hookTimeout: 600_000 });

interface Sweep {
  runs: Array<{ settings: Record<string, string | number>; summary: RunSummary }>;
}
const pick = (sweep: Sweep, want: Record<string, string>) =>
  sweep.runs.find((r) => Object.entries(want).every(([k, v]) => r.settings[k] === v))!.summary;

/**
 * A run's decision records whose rule `keep` accepts, through the engine (the CLI's JSON
 * carries none). Only those are kept: a long run makes millions of the drive's and the base
 * schedulers' own.
 */
function decisions(
  file: string,
  keep: (rule: string) => boolean,
  edit: (raw: Record<string, unknown>) => void = () => {},
) {
  const raw = JSON.parse(readFileSync(`${SCENARIOS}/${file}`, 'utf8')) as Record<string, unknown>;
  edit(raw);
  const out: DecisionRecord[] = [];
  const sink: TraceSink = {
    trace: () => {},
    service: () => {},
    decision: (d) => {
      if (keep(d.rule)) out.push(d);
    },
  };
  const r = runScenario(loadScenario(raw, file), { sink });
  return { decisions: out, simulation: r.simulation };
}

describe('lesson: six fio jobs back to back under the switcher (Bautista et al.)', () => {
  const JOBS = ['file-server', 'oltp', 'rand-read', 'rand-write', 'seq-read', 'seq-write'];
  const PHASE_S = 30;
  let results: { as: RunSummary; cfq: RunSummary; sw: RunSummary };
  /** MB/s of each job's threads over its 30 s */
  const phases = (s: RunSummary) =>
    JOBS.map(
      (j) =>
        s.processes
          .filter((p) => p.name.startsWith(`${j}-`))
          .reduce((a, p) => a + (p.mbps * s.simulatedTimeMs) / 1000, 0) / PHASE_S,
    );
  const runs = () => results;
  // AS and CFQ replace the whole iosched object (the switcher's tunables are not theirs)
  const run = (...set: string[]) =>
    spindleJson<RunSummary>(['run', `${SCENARIOS}/fio-switcher.json`, ...set, '--json']);
  beforeAll(async () => {
    const [as, cfq, sw] = await Promise.all([
      run('--set', 'iosched={"name":"anticipatory"}'),
      run('--set', 'iosched={"name":"cfq"}'),
      run(),
    ]);
    results = { as, cfq, sw };
  });

  it('in the random phases (file-server, oltp, rand-read) the switcher is within 5% of the better of AS and CFQ', () => {
    const { as, cfq, sw } = runs();
    const [a, c, s] = [phases(as), phases(cfq), phases(sw)];
    for (const i of [0, 1, 2]) expect(s[i]!).toBeGreaterThanOrEqual(0.95 * Math.max(a[i]!, c[i]!));
  });

  it('it stays on CFQ through the random jobs and moves to anticipatory within ten 1 s samples of seq-read’s start', () => {
    const { decisions: d } = decisions('fio-switcher.json', (r) => r.startsWith('switch'));
    const switches = d.filter(
      (x) => x.rule === 'switch-to-anticipatory' || x.rule === 'switch-to-cfq',
    );
    expect(switches.length).toBeGreaterThan(0);
    expect(switches[0]!.rule).toBe('switch-to-anticipatory');
    const seqRead = 4 * PHASE_S * 1e9;
    expect(switches[0]!.tNs).toBeGreaterThanOrEqual(seqRead);
    expect(switches[0]!.tNs).toBeLessThanOrEqual(seqRead + 10e9);
    // every switch explains itself: the dominant op, the averages, SR against 0.75
    for (const x of switches) expect(x.text).toMatch(/dominate .* SR \d\.\d\d [≥<] 0\.75/);
  });

  it('run alone, each job shows the premise: AS ahead on the sequential jobs, CFQ on file-server, oltp and rand-read', () => {
    const raw = JSON.parse(readFileSync(`${SCENARIOS}/fio-switcher.json`, 'utf8')) as {
      workload: { processes: Array<{ name: string; generator: Record<string, unknown> }> };
    };
    const alone = (job: string, name: string) => {
      const p = raw.workload.processes.find((x) => x.name === job)!;
      const s = loadScenario(
        {
          ...raw,
          iosched: { name },
          workload: { processes: [{ ...p, generator: { ...p.generator, startMs: 0 } }] },
          stop: { timeMs: PHASE_S * 1000 },
        },
        'fio-switcher.json',
      );
      return runScenario(s).summary.throughput.mbps;
    };
    for (const job of ['seq-read', 'seq-write'])
      expect(alone(job, 'anticipatory')).toBeGreaterThan(alone(job, 'cfq'));
    for (const job of ['file-server', 'oltp', 'rand-read'])
      expect(alone(job, 'cfq')).toBeGreaterThan(alone(job, 'anticipatory'));
  });

  // Seed 1, sata-7200-500g, 4 threads × 1 GiB files, 30 s phases; MB/s:
  //   AS       0.98 1.09 0.62 0.69 66.16 75.29   whole run 24.14
  //   CFQ      1.29 1.24 0.69 0.62 69.91 49.16   whole run 20.49
  //   switcher 1.29 1.24 0.69 0.62 68.19 75.29   whole run 24.55
  // (Before 2.6.32's get_request was modelled as the kernel has it — a process refused only
  // at the limit, not behind the sleepers; a running batch left alone — rand-write was 0.68
  // under AS and 0.46 under CFQ, CFQ's seq-write 31.01, its whole run 17.45.)
  // Over the whole run it reproduces; per phase all but rand-write do: there the switcher is
  // on CFQ, as the paper's rule says for a random job, and AS is 11% ahead. The CFQ rules
  // behind it are 2.6.32's own (rand-write alone, 30 s: CFQ 0.61 MB/s, AS 0.67):
  //  - The four threads' buffered writes all go to CFQ's one async queue (be/4: async queues
  //    are shared by every process of a priority), about 145 deep on average (149 writes/s
  //    × 0.97 s: the request pool, 128, and a batcher's requests past it), each waiting
  //    about 0.97 s, far past fifo_expire_async (250 ms). Alone as it is, the queue still
  //    has its 40 ms slice_async expire and is set active again with a fresh slice, and
  //    cfq_check_fifo looks once per slice: each slice starts with the FIFO head, 608 of
  //    4486 dispatches (one in 7.4). AS looks at its write FIFO at most once per
  //    write_expire (as_fifo_expired, 250 ms): 119 of 4925.
  //  - The FIFO head lies in any of the four files, a quarter of the disk apart. 2.6.32
  //    chooses next_rq against the end of the request dispatched before (last_position
  //    moves at activation; cf7c25cf "cfq-iosched: fix next_rq computation" changed that
  //    for 2.6.33), so after a jump the sweep's next request is "behind the head" and the
  //    next arrival ahead of it, in another file, takes its place: CFQ changes file at 398
  //    of its dispatches, AS at 79 (1195 and 100 before the get_request fix).
  // The drive (queue depth 1, write-back, FCFS destage) writes them in that order: a CFQ
  // write costs 2.57 ms of seek and 4.10 of rotation (5203 cylinders on average), an AS
  // write 1.93 and 4.14 (933 cylinders): 149 against 164 writes/s (before the get_request
  // fix 4.80 ms and 21818 cylinders for CFQ, 112 against 161 writes/s). As experiments,
  // not kernels: a FIFO that never expires (fifo_expire_async 10 s) gives CFQ AS's
  // 0.67 MB/s; the 2.6.33 next_rq rule alone gave 0.58 when CFQ made 0.46 (not re-measured
  // since the get_request fix). cfq_may_dispatch's limits (quantum, ×4 alone, low_latency's
  // async depth) never bind at queue depth 1 with no sync I/O. What the model leaves out is the page
  // cache: in the kernel these writes reach CFQ through writeback, each file's dirty pages
  // in offset order; here they come as fio makes them (as in the Postmark lesson below).
  // Two model defects hid this before: the drive's write-back buffer held 2048 random writes
  // (not its 16 segments' worth), destaged first come first served for half a minute after
  // rand-write (seq-read fell to 5–14 MB/s); and a buffered writer was held at 64 bios of
  // its own instead of at the request pool (seq-write 15 MB/s under every scheduler).
  it.fails('paper: the switcher is within 5% of the better of AS and CFQ in every phase', () => {
    const { as, cfq, sw } = runs();
    const [a, c, s] = [phases(as), phases(cfq), phases(sw)];
    for (let i = 0; i < JOBS.length; i++)
      expect(s[i]!).toBeGreaterThanOrEqual(0.95 * Math.max(a[i]!, c[i]!));
  });
  it('paper: over the whole run the switcher beats both AS and CFQ', () => {
    const { as, cfq, sw } = runs();
    expect(sw.throughput.mbps).toBeGreaterThan(Math.max(as.throughput.mbps, cfq.throughput.mbps));
  });
});

describe('lesson: FFSB mixed under CFQ and CFQ-ANN (Heger & Quinn)', () => {
  let sweep: Sweep;
  const spread = (s: RunSummary) => {
    const q = s.processes.map((p) => p.q2cMeanMs);
    const m = q.reduce((a, b) => a + b, 0) / q.length;
    return Math.sqrt(q.reduce((a, b) => a + (b - m) ** 2, 0) / q.length);
  };
  beforeAll(async () => {
    sweep = await spindleJson<Sweep>([
      'sweep',
      `${SCENARIOS}/ffsb-cfq-ann.json`,
      '--vary',
      'iosched.name=cfq,cfq-ann',
      '--json',
    ]);
  });

  it('CFQ-ANN’s throughput stays within 1% of CFQ’s', () => {
    const cfq = pick(sweep, { 'iosched.name': 'cfq' });
    const ann = pick(sweep, { 'iosched.name': 'cfq-ann' });
    expect(cfq.processes).toHaveLength(8);
    expect(Math.abs(ann.throughput.iops / cfq.throughput.iops - 1)).toBeLessThan(0.01);
  });

  it('its extra computation is reported: each proposal’s multiply-adds, and the total in its inspection', () => {
    const { decisions: d, simulation } = decisions(
      'ffsb-cfq-ann.json',
      (r) => r.startsWith('quantum'),
      (raw) => {
        raw.stop = { timeMs: 30000 };
      },
    );
    const proposals = d.filter((x) => x.rule === 'quantum-proposed');
    expect(proposals.length).toBeGreaterThan(50);
    let ops = 0;
    for (const p of proposals) ops += Number(/(\d+) multiply-adds/.exec(p.text ?? '')![1]!);
    const st = simulation.state.host.elevator as CfqAnnState;
    expect(ops).toBeGreaterThan(0);
    // the total also counts the Hebbian learning of kept trials
    expect(st.net.ops).toBeGreaterThanOrEqual(ops);
    expect(d.some((x) => x.rule === 'quantum-kept')).toBe(true);
    expect(d.some((x) => x.rule === 'quantum-reverted')).toBe(true);
  });

  // Does not reproduce (seed 1, sata-7200-500g, 8 threads, 120 s): CFQ 162.94 IOPS, spread
  // (standard deviation of the threads' mean Q2C, about 820 ms) 26.1 ms; CFQ-ANN 162.53 IOPS,
  // spread 21.2 ms. The spread half holds on seed 1, the throughput half does not (0.25%
  // short). Most trials are reverted; quanta wander apart. These means are mostly buffered
  // writes' waits, which no thread sees (seed 2 reverses them: 25.7 → 33.3 ms, with CFQ-ANN
  // again 0.17% short: 162.47 against 162.74 IOPS). Before 2.6.32's get_request was
  // modelled as the kernel has it, the halves were the other way round (seed 1: 163.08 →
  // 163.84 IOPS, spread 24.5 → 29.9 ms; seed 2: 40.5 → 33.0 ms), and counting only the bios
  // the threads wait for, the spread was 0.5, 1.2, 0.7 ms under CFQ and 1.3, 1.4, 1.6 under
  // CFQ-ANN for seeds 1–3 (not re-measured since) — no choice of measure rescues the
  // claim. The network's encoding is this model's own (the paper's was not available): a
  // difference of design, not of the disk or the kernel.
  it.fails(
    'paper: CFQ-ANN’s throughput ≥ CFQ’s with a smaller spread of per-thread response times',
    () => {
      const cfq = pick(sweep, { 'iosched.name': 'cfq' });
      const ann = pick(sweep, { 'iosched.name': 'cfq-ann' });
      expect(ann.throughput.iops).toBeGreaterThanOrEqual(cfq.throughput.iops);
      expect(spread(ann)).toBeLessThan(spread(cfq));
    },
  );
});

describe('lesson: Postmark on four file systems (Riska et al.)', () => {
  let sweep: Sweep;
  const get = (name: string, fs: string, config: string) =>
    pick(sweep, {
      'iosched.name': name,
      'workload.processes.0.generator.fs': fs,
      'workload.processes.0.generator.config': config,
    });
  beforeAll(async () => {
    sweep = await spindleJson<Sweep>([
      'sweep',
      `${SCENARIOS}/postmark-fs.json`,
      '--vary',
      'iosched.name=none,noop,deadline,anticipatory,cfq',
      '--vary',
      'workload.processes.0.generator.fs=ext3,xfs',
      '--vary',
      'workload.processes.0.generator.config=SS,LL',
      '--json',
    ]);
  });

  it('ext3 relies on merging (4 KiB writes glue together), XFS hardly needs it', () => {
    for (const config of ['SS', 'LL']) {
      expect(get('noop', 'ext3', config).requests.mergeRatio).toBeGreaterThan(1.4);
      expect(get('noop', 'xfs', config).requests.mergeRatio).toBeLessThan(1.2);
    }
  });

  /** on ext3: what merging is worth (none → noop) and ordering (noop → the best other), MB/s */
  const gains = (config: string) => {
    const mbps = (n: string) => get(n, 'ext3', config).throughput.mbps;
    const best = Math.max(mbps('deadline'), mbps('anticipatory'), mbps('cfq'));
    return { merging: mbps('noop') - mbps('none'), ordering: best - mbps('noop') };
  };

  it('merging is worth several percent on ext3, and on XFS (large writes) less than half as much', () => {
    for (const config of ['SS', 'LL']) {
      expect(get('noop', 'ext3', config).throughput.mbps).toBeGreaterThan(
        1.03 * get('none', 'ext3', config).throughput.mbps,
      );
      // SS: 0.8% against 7.6%; LL: 3.1% against 13.9%
      const loss = (fs: string) =>
        1 - get('none', fs, config).throughput.mbps / get('noop', fs, config).throughput.mbps;
      expect(loss('xfs')).toBeLessThan(loss('ext3') / 2);
    }
  });

  it('merging makes the most difference with large files (LL, ext3): none → noop gains more than noop → the best seek-based scheduler', () => {
    const g = gains('LL');
    expect(g.merging).toBeGreaterThan(g.ordering);
  });

  // Does not reproduce with small files (SS, ext3): merging gains 0.52 MB/s (none 6.33 → noop
  // 6.86), ordering 1.20 (→ CFQ 8.06). Held at the request pool, one Postmark process keeps
  // enough buffered writes queued for ordering (and CFQ's longer-held, better-merged async
  // writes) to be worth more.
  it.fails('study: merging makes the most difference with small files too (SS, ext3)', () => {
    const g = gains('SS');
    expect(g.merging).toBeGreaterThan(g.ordering);
  });

  // Does not reproduce in full (cheetah-15k4-146g, QD 4, SPTF in the drive, 30 s; MB/s):
  //   SS ext3: none 6.33, noop 6.86, deadline 7.13 (+4%), anticipatory 7.17 (+5%), cfq 8.06 (+18%)
  //   SS xfs:  none 6.93, noop 6.99, deadline 7.25 (+4%), anticipatory 7.23 (+3%), cfq 8.04 (+15%)
  // CFQ pulls well ahead, deadline and AS do not. These runs have no page cache: Postmark's
  // reads all go to the disk (the real SS working set stays in memory), each metadata update
  // reaches the disk (a page cache folds repeated updates of a block into one write), and its
  // writes reach the block layer as it makes them, not as writeback's batches. With the page
  // cache and ext3's journal (workload.pageCache: {}; workload/page-cache.ts, journal.ts) SS
  // stays in memory and the disk sees only kjournald's commits every 5 s: 0.96 MB/s under
  // every scheduler (re-measured with 2.6.32's b_io walk and write_cache_pages' look-ups:
  // unchanged, the flusher writes nothing there), so the claim does not come out that way either (the study's memory size
  // and run length were not available).
  it.fails(
    'study: seek-based schedulers well ahead (≥ 10%) of noop on small random files at queue depth 4',
    () => {
      for (const fs of ['ext3', 'xfs']) {
        const noop = get('noop', fs, 'SS').throughput.mbps;
        for (const n of ['deadline', 'anticipatory', 'cfq'])
          expect(get(n, fs, 'SS').throughput.mbps).toBeGreaterThan(1.1 * noop);
      }
    },
  );
});

describe('lesson: write-back against write-through as the disk queue deepens (Riska et al. §6.2)', () => {
  const DEPTHS = [1, 4, 16, 64];
  let sweep: Sweep;
  const at = (cache: string, qd: number) =>
    sweep.runs.find(
      (r) => r.settings['disk.cache'] === cache && r.settings['disk.queueDepth'] === qd,
    )!.summary;
  beforeAll(async () => {
    sweep = await spindleJson<Sweep>([
      'sweep',
      `${SCENARIOS}/queue-depth-write-back.json`,
      '--vary',
      `disk.queueDepth=${DEPTHS.join(',')}`,
      '--vary',
      'disk.cache=write-through,write-back',
      '--json',
    ]);
  });

  it('write-back’s effective queue is longer than it advertises: far ahead at depth 1, until its buffer fills and QUEUE FULL pushes back', () => {
    const wb1 = at('write-back', 1);
    expect(wb1.throughput.iops).toBeGreaterThan(2 * at('write-through', 1).throughput.iops);
    // its effective queue is its 16 write segments: at depth 1 it does what write-through
    // does at depth 16
    const wt16 = at('write-through', 16).throughput.iops;
    expect(wb1.throughput.iops).toBeGreaterThan(0.95 * wt16);
    expect(wb1.throughput.iops).toBeLessThan(1.05 * wt16);
    expect(wb1.drive.bufferFullMs).toBeGreaterThan(0);
    expect(wb1.drive.queueFullRefusals).toBeGreaterThan(0);
    for (const qd of DEPTHS) expect(at('write-through', qd).drive.queueFullRefusals).toBe(0);
  });

  it('a deeper queue helps write-through at every step and write-back hardly at all: the gap narrows', () => {
    let gap = Infinity;
    let wt = 0;
    for (const qd of DEPTHS) {
      const t = at('write-through', qd).throughput.iops;
      const b = at('write-back', qd).throughput.iops;
      expect(t).toBeGreaterThan(wt);
      expect(b - t).toBeLessThan(gap);
      wt = t;
      gap = b - t;
    }
    expect(at('write-back', 64).throughput.iops).toBeLessThan(
      1.05 * at('write-back', 1).throughput.iops,
    );
  });

  // Reproduces (seed 1, cheetah-15k4-146g, 64 sync random 4 KiB writers, noop, SPTF):
  // write-through 160, 218, 320, 446 IOPS at depth 1, 4, 16, 64; write-back 321, 322, 319,
  // 319. The drive's buffer holds at most 16 runs of written data (its segments; DiskSim's
  // "Maximum number of write segments"), so write-back's effective queue is 16 writes deep
  // whatever the depth, and write-through at depth 64 chooses among more (QUEUE FULL sends
  // write-back's surplus back to the host). Before the segment rule the buffer counted only
  // sectors — 512 random writes in 4096 — and write-back stayed at 680 (write-through 447).
  it('study: with deep queues write-through comes close (within 10%) to write-back', () => {
    expect(at('write-through', 64).throughput.iops).toBeGreaterThan(
      0.9 * at('write-back', 64).throughput.iops,
    );
  });
});
