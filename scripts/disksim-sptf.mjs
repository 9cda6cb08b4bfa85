// The DiskSim 4.0 side of the C2247A SPTF sweeps (docs/DISKSIM.md "SPTF at depth"):
// writes one .parv per (span, op, depth) from DiskSim's hp_c2247a.parv — the driver's
// scheduler set to SPTF_OPT (policy 8), N closed generators (N requests outstanding) of
// random 4 KiB requests (blocking factor 8, "Sizes = [ uniform, 8.0, 0.0 ]") over the whole
// disk or the first 32,768-sector block group — and, with a DiskSim binary, runs each and
// prints "name access seek rotation transfer response" (ms: the .outv's "Disk … average"
// lines, and "IOdriver Response time average", from the driver's queue to completion).
//   node scripts/disksim-sptf.mjs OUTDIR [path/to/disksim]
// OUTDIR gets the .parv files (copy hp_c2247a.diskspecs, hp_c2247a_validate.model and
// statdefs beside them); tests/data/disksim-ref/c2247a-sptf.txt holds the figures.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const [outDir, disksim] = process.argv.slice(2);
if (!outDir) throw new Error('usage: node scripts/disksim-sptf.mjs OUTDIR [disksim]');
const base = readFileSync(resolve(root, 'tests/data/disksim-validation/hp_c2247a.parv'), 'utf8');
const driverFcfs = 'Scheduler = disksim_ioqueue {\nScheduling policy = 1,';

/** @param {number} depth @param {number} capacity @param {string} readFraction */
function parv(depth, capacity, readFraction) {
  if (!base.includes(driverFcfs)) throw new Error('hp_c2247a.parv: driver scheduler not found');
  const gen = `disksim_synthgen {
   Storage capacity per device  =  ${capacity},
   devices = [ disk0 ],
   Blocking factor =  8,
   Probability of sequential access =  0.0,
   Probability of local access =  0.0,
   Probability of read access =  ${readFraction},
   Probability of time-critical request =  1.0,
   Probability of time-limited request =  0.0,
   Time-limited think times  = [ normal, 30.0, 100.0  ],
   General inter-arrival times  = [ exponential, 0.0, 0.0  ],
   Sequential inter-arrival times  = [ normal, 0.0, 0.0  ],
   Local inter-arrival times  = [ exponential, 0.0, 0.0  ],
   Local distances  = [ normal, 0.0, 40000.0  ],
   Sizes  = [ uniform, 8.0, 0.0  ]
}`;
  return base
    .replace(driverFcfs, 'Scheduler = disksim_ioqueue {\nScheduling policy = 8,')
    .replace(
      /Generators = \[[\s\S]*\] # end of generator list/,
      `Generators = [\n${Array(depth).fill(gen).join(',\n')}\n] # end of generator list`,
    )
    .replace(
      'Number of I/O requests to generate =  10000',
      'Number of I/O requests to generate =  20000',
    );
}

/** @type {Array<[string, number]>} */
const SPANS = [
  ['disk', 2054864],
  ['group0', 32768],
];
for (const [span, capacity] of SPANS) {
  for (const [op, rf] of [
    ['read', '1.0'],
    ['write', '0.0'],
  ]) {
    for (const q of [1, 2, 4, 8, 16, 32, 64]) {
      const name = `c2247a-sptf-${span}-${op}-q${q}`;
      writeFileSync(resolve(outDir, `${name}.parv`), parv(q, capacity, rf ?? ''));
      if (!disksim) continue;
      execFileSync(disksim, [`${name}.parv`, `${name}.outv`, 'ascii', '0', '1'], { cwd: outDir });
      const outv = readFileSync(resolve(outDir, `${name}.outv`), 'utf8');
      /** @param {string} what */
      const avg = (what) => new RegExp(`^Disk ${what} average:\\s+(\\S+)`, 'm').exec(outv)?.[1];
      const response = /^IOdriver Response time average:\s+(\S+)/m.exec(outv)?.[1];
      console.log(
        name,
        avg('Access time'),
        avg('Seek time'),
        avg('Rotational latency'),
        avg('Transfer time'),
        response,
      );
    }
  }
}
