// A profiling harness (not part of `npm run bench`): run one bench case several times and
// print CPU-time throughput plus a fingerprint of the run's results, so a speed change can
// be checked for bit-identical behaviour. Build: node bench/build-profile.mjs.
import { buildModel } from '../src/engine/model';
import { createSimulation, step } from '../src/engine/simulation';
import { randomReads } from './cases';
import type { Scenario } from '../src/engine/scenario/types';
import { TraceParser } from '../src/engine/trace/parse';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';

const SCENARIOS = {
  fcfs: () => randomReads({ scheduler: 'fcfs', queueDepth: 1, processes: 1, requests: 1_000_000 }),
  sptf: () => randomReads({ scheduler: 'sptf', queueDepth: 32, processes: 32, requests: 300_000 }),
  deadline: () =>
    randomReads({
      iosched: 'deadline',
      scheduler: 'fcfs',
      queueDepth: 1,
      processes: 1,
      requests: 1_000_000,
    }),
  cfq: () =>
    randomReads({
      iosched: 'cfq',
      scheduler: 'sptf',
      queueDepth: 32,
      processes: 16,
      requests: 200_000,
    }),
};

function cpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

function runCase(name: keyof typeof SCENARIOS): { perSecond: number; fingerprint: string } {
  const sim = createSimulation(buildModel(SCENARIOS[name]()));
  const t0 = cpuSeconds();
  while (step(sim)) {
    /* run */
  }
  const s = cpuSeconds() - t0;
  const m = sim.state.metrics;
  const fingerprint = [
    sim.state.now,
    sim.state.steps,
    m.q2c.sumNs,
    m.q2d.sumNs,
    m.d2c.sumNs,
    m.seekNs,
    m.rotationNs,
    m.transferNs,
    m.overheadNs,
    sim.state.drive.positioningEstimates,
    hash(JSON.stringify(m, (k, v: unknown) => (k === 'lastWindow' ? undefined : v))),
  ].join(' ');
  return { perSecond: m.iosCompleted / s, fingerprint };
}

function parseCase(): { perSecond: number; fingerprint: string } {
  const dir = resolve(process.cwd(), 'tests', 'data', 'linux-6.18');
  const one = [
    'none_randread_4k',
    'mq-deadline_ext4_smallfiles_fsync',
    'kyber_seqread_1m_split',
    'bfq_randrw7030_jobs4',
  ]
    .map((t) => {
      const text = gunzipSync(readFileSync(resolve(dir, t, 'trace.txt.gz'))).toString('utf8');
      const cut = text.indexOf('\nCPU0 (');
      return cut > 0 ? text.slice(0, cut + 1) : text;
    })
    .join('');
  const text = one.repeat(Math.max(1, Math.round(60e6 / one.length)));
  const p = new TraceParser();
  const t0 = cpuSeconds();
  for (let i = 0; i < text.length; i += 1 << 20) p.feed(text.slice(i, i + (1 << 20)));
  const res = p.end();
  const s = cpuSeconds() - t0;
  return {
    perSecond: text.length / 1e6 / s,
    fingerprint: JSON.stringify(res).length + ' ' + hash(JSON.stringify(res)),
  };
}

function hash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}

/** The bench's order in one process (warm-up, then each case three times), so the JIT sees
 * what it sees in `npm run bench`: best of 3 per case, per CPU second. */
function benchOrder(): void {
  const cases: Array<[string, Scenario, number]> = [
    [
      'fcfs',
      randomReads({ scheduler: 'fcfs', queueDepth: 1, processes: 1, requests: 2_000_000 }),
      3,
    ],
    [
      'sptf',
      randomReads({ scheduler: 'sptf', queueDepth: 32, processes: 32, requests: 500_000 }),
      3,
    ],
    [
      'deadline',
      randomReads({
        iosched: 'deadline',
        scheduler: 'fcfs',
        queueDepth: 1,
        processes: 1,
        requests: 1_000_000,
      }),
      3,
    ],
    [
      'cfq',
      randomReads({
        iosched: 'cfq',
        scheduler: 'sptf',
        queueDepth: 32,
        processes: 16,
        requests: 300_000,
      }),
      3,
    ],
  ];
  const warm = randomReads({ scheduler: 'fcfs', queueDepth: 1, processes: 1, requests: 200_000 });
  const sim0 = createSimulation(buildModel(warm));
  while (step(sim0)) {
    /* warm-up */
  }
  for (const [name, sc, n] of cases) {
    let best = 0;
    for (let r = 0; r < n; r++) {
      const sim = createSimulation(buildModel(sc));
      const t0 = cpuSeconds();
      while (step(sim)) {
        /* run */
      }
      best = Math.max(best, sim.state.metrics.iosCompleted / (cpuSeconds() - t0));
    }
    console.log(`${name} ${Math.round(best).toLocaleString('en-US')}/s`);
  }
}

const which = process.argv[2] ?? 'fcfs';
if (which === 'bench') {
  benchOrder();
  process.exit(0);
}
const reps = Number(process.argv[3] ?? 3);
for (let r = 0; r < reps; r++) {
  const out = which === 'parse' ? parseCase() : runCase(which as keyof typeof SCENARIOS);
  console.log(
    `${which} ${Math.round(out.perSecond).toLocaleString('en-US')}/s  [${out.fingerprint}]`,
  );
}
