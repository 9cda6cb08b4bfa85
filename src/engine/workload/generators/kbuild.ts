// Concurrent Linux kernel builds (the make -j workload of the seeds' studies): two or four
// builds at once, with a mean interarrival of 19 ms (two builds) and 12 ms (four builds)
// between the requests the disk sees — the figures, read as the whole workload's
// stream, so each build is an open-loop (Poisson) thread with mean builds × interarrival.
//
// Chosen (no finer description was available to this session): half the requests are
// sync reads of sources and headers, 4 to 32 KiB, 60% of them near the previous read (the
// next file of the same directory: within 1 MiB ahead), the rest anywhere in the build's
// source tree; half are async writes of object files, 8 to 64 KiB, laid out one after
// another in the build's output area (a fresh file system allocates them in order). Each
// build works in its own part of the span: sources in the first 3/4, output in the last.
import { nextFloat } from '../../sim/rng';
import type { GenCommon, GenFamily } from './types';
import { BLOCK, randomIn, sizeBetween, toBlocks } from './layout';

export interface KbuildSpec extends GenCommon {
  kind: 'kbuild';
  /** concurrent builds: 2 or 4 (the studies' cases) */
  builds: 2 | 4;
  /** mean interarrival of the whole workload's requests, ms; null = 19 (2 builds) or 12 (4) */
  interarrivalMs: number | null;
}

export const KBUILD_INTERARRIVAL_MS = { 2: 19, 4: 12 } as const;
export const KBUILD_READ_FRACTION = 0.5;
const NEAR = 0.6;
const NEAR_SECTORS = 2048; // 1 MiB

interface KbuildState {
  srcStart: number;
  srcSectors: number;
  outStart: number;
  outSectors: number;
  lastRead: number;
  outCursor: number;
}

export const kbuild: GenFamily<KbuildSpec, KbuildState> = {
  kind: 'kbuild',
  defaultThreads: (spec) => spec.builds,
  depth: () => 1,
  openMeanMs: (spec, count) => (spec.interarrivalMs ?? KBUILD_INTERARRIVAL_MS[spec.builds]) * count,
  init(_spec, env) {
    const src = Math.floor((env.regionSectors * 3) / 4 / BLOCK) * BLOCK;
    return {
      srcStart: env.regionStart,
      srcSectors: src,
      outStart: env.regionStart + src,
      outSectors: env.regionSectors - src,
      lastRead: env.regionStart,
      outCursor: env.regionStart + src,
    };
  },
  next(_spec, st, _env, rng, out) {
    if (nextFloat(rng) < KBUILD_READ_FRACTION) {
      const n = toBlocks(sizeBetween(rng, 4, 32));
      let sector: number;
      const near = st.lastRead + n + NEAR_SECTORS;
      if (nextFloat(rng) < NEAR && near <= st.srcStart + st.srcSectors)
        sector = randomIn(rng, st.lastRead, n + NEAR_SECTORS, n);
      else sector = randomIn(rng, st.srcStart, st.srcSectors, n);
      st.lastRead = sector;
      out.push({ sector, nSectors: n, write: false, sync: true, thinkMs: 0 });
    } else {
      const n = toBlocks(sizeBetween(rng, 8, 64));
      if (st.outCursor + n > st.outStart + st.outSectors) st.outCursor = st.outStart;
      out.push({ sector: st.outCursor, nSectors: n, write: true, sync: false, thinkMs: 0 });
      st.outCursor += n;
    }
  },
};
