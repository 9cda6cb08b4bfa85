// The five FFSB profiles of Heger & Quinn (their CFQ-ANN study), 8 threads each:
// sequential read of 40 MB files in 4 KB reads, sequential write of 100 MB files, random
// read, random write, and a mixed profile 60/30/10.
//
// Where the numbers come from: the thread count (8), the file sizes (40 MB read, 100 MB
// written) and the 4 KB request size are the summary of the paper. Chosen here,
// where that summary is silent:
//  - the reads are synchronous 4 KiB reads, one in flight per thread (FFSB's read loop,
//    O_DIRECT-like: no read-ahead growth), so the scheduler sees eight 4 KiB streams;
//  - writes are buffered: 4 KiB async pages the scheduler may merge;
//  - random profiles pick 4 KiB blocks uniformly inside the thread's file set;
//  - "mixed 60/30/10" is 60% random reads, 30% random writes, 10% metadata operations
//    (a file create or delete: one synchronous 4 KiB write to the file system's metadata
//    area at the front of the thread's region, as a journal or inode update the thread
//    waits for);
//  - file sizes scale with `scale` (default 1 = 40 MB / 100 MB); each thread's files fill
//    its part of the span, so a small disk holds fewer files, shaped the same.
import { nextFloat, nextInt } from '../../sim/rng';
import type { GenCommon, GenFamily } from './types';
import { BLOCK, randomIn } from './layout';

export const FFSB_PROFILES = ['seq-read', 'seq-write', 'rand-read', 'rand-write', 'mixed'] as const;
export type FfsbProfile = (typeof FFSB_PROFILES)[number];

export interface FfsbSpec extends GenCommon {
  kind: 'ffsb';
  profile: FfsbProfile;
  /** file sizes × scale (1: 40 MB read files, 100 MB written files) */
  scale: number;
}

/** FFSB's threads (Heger & Quinn) */
export const FFSB_THREADS = 8;
/** the mixed profile's shares: read, write, metadata */
export const FFSB_MIX = [0.6, 0.3, 0.1] as const;
const MB = 2048; // sectors in a MiB
/** metadata area at the front of each thread's region, sectors (1 MiB) */
const META_SECTORS = 1 * MB;

interface FfsbState {
  fileSectors: number;
  files: number;
  /** the file being read or written sequentially, and the next sector in it */
  file: number;
  offset: number;
  dataStart: number;
  dataSectors: number;
}

export const ffsb: GenFamily<FfsbSpec, FfsbState> = {
  kind: 'ffsb',
  defaultThreads: () => FFSB_THREADS,
  depth: () => 1,
  openMeanMs: () => null,
  init(spec, env, rng) {
    const meta = Math.min(META_SECTORS, Math.floor(env.regionSectors / 4 / BLOCK) * BLOCK);
    const dataStart = env.regionStart + meta;
    const dataSectors = env.regionSectors - meta;
    const sizeMB = spec.profile === 'seq-write' ? 100 : 40;
    const want = Math.max(BLOCK, Math.floor((sizeMB * MB * spec.scale) / BLOCK) * BLOCK);
    const fileSectors = Math.min(want, Math.floor(dataSectors / BLOCK) * BLOCK);
    const files = Math.max(1, Math.floor(dataSectors / fileSectors));
    return { fileSectors, files, file: nextInt(rng, files), offset: 0, dataStart, dataSectors };
  },
  next(spec, st, env, rng, out) {
    const fileStart = (f: number) => st.dataStart + f * st.fileSectors;
    const randomBlock = () => randomIn(rng, st.dataStart, st.files * st.fileSectors, BLOCK);
    switch (spec.profile) {
      case 'seq-read':
      case 'seq-write': {
        if (st.offset + BLOCK > st.fileSectors) {
          st.file = nextInt(rng, st.files); // the next file of the set
          st.offset = 0;
        }
        const write = spec.profile === 'seq-write';
        out.push({
          sector: fileStart(st.file) + st.offset,
          nSectors: BLOCK,
          write,
          sync: !write,
          thinkMs: 0,
        });
        st.offset += BLOCK;
        return;
      }
      case 'rand-read':
        out.push({ sector: randomBlock(), nSectors: BLOCK, write: false, sync: true, thinkMs: 0 });
        return;
      case 'rand-write':
        out.push({ sector: randomBlock(), nSectors: BLOCK, write: true, sync: false, thinkMs: 0 });
        return;
      case 'mixed': {
        const u = nextFloat(rng);
        if (u < FFSB_MIX[0])
          out.push({
            sector: randomBlock(),
            nSectors: BLOCK,
            write: false,
            sync: true,
            thinkMs: 0,
          });
        else if (u < FFSB_MIX[0] + FFSB_MIX[1])
          out.push({
            sector: randomBlock(),
            nSectors: BLOCK,
            write: true,
            sync: false,
            thinkMs: 0,
          });
        else {
          const metaLen = st.dataStart - env.regionStart;
          out.push({
            sector: randomIn(rng, env.regionStart, Math.max(BLOCK, metaLen), BLOCK),
            nSectors: BLOCK,
            write: true,
            sync: true,
            thinkMs: 0,
          });
        }
        return;
      }
    }
  },
};
