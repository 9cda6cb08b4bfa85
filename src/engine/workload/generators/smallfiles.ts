// Small-file creation in one ext2 block group, with and without range writes: the range-
// writes paper's file-system case study (Anand et al., OSDI '08, §4: "Incorporating Range
// Writes into ext2", Figures 9–11; DISK-MODEL.md §5).
//
// From the paper:
//  - ext2 picks a goal for a new file's first data block in the inode's block group: the
//    creating process's PID mod 16 picks one of 16 start locations, the "mini-groups";
//    the block is the nearest free block to the goal;
//  - the range-aware variant follows the same policy but hands the disk the free ranges of
//    the mini-group instead of one block; the disk picks, and reports, the block;
//  - writes are asynchronous (ext2 mounted async), the disk queue holds 16, HRS;
//  - "a single PID" creates every file, or "each file was created by a different PID";
//  - a fuller group: the group already holds data before the files are created.
//
// Chosen here (the paper does not say): the span is the block group (the case-study
// scenarios use an ext2 4 KiB-block group of 32,768 blocks: 128 MiB, mini-groups of 2048
// blocks — "all file data are created within the same mini-group" for 1000 files needs
// mini-groups of at least 1000 blocks); a file is one 4 KiB block; "fullness" marks that
// share of the group's blocks in use, chosen uniformly at random (the process's seed);
// the PIDs of `pids` creating processes are consecutive, files made by them in turn, so
// with 16 or more each mini-group gets every 16th file. The file system counts how many
// free blocks of each mini-group it has handed out; when a mini-group has none left the
// next file goes to the next mini-group (ext2's nearest free block after the goal), in
// both variants. A range write names the mini-group's free extents as they were before
// the run: the drive remembers the blocks it has written (no barrier) and never reuses
// one, which is what a file system removing completed writes' blocks from its list would
// achieve. The writes are buffered (async); the writeback keeps `inFlight` of them out
// (16: the paper's disk queue depth), so the drive's queue is the only queue.
import { nextInt } from '../../sim/rng';
import type { RangeWrite } from '../../disk/range';
import type { GenCommon, GenEnv, GenFamily } from './types';
import { BLOCK, part } from './layout';

export interface SmallFilesSpec extends GenCommon {
  kind: 'smallfiles';
  /** files are created by this many processes in turn; a PID mod 16 picks the mini-group */
  pids: number;
  /** share of the group's blocks in use before the first file, 0 to 0.99 */
  fullness: number;
  /** each file a range write over its mini-group's free blocks; false: ext2's one block */
  rangeWrites: boolean;
  /** writes the writeback keeps in flight (the paper's disk queue depth, 16) */
  inFlight: number;
}

/** ext2's start locations per block group (PID mod 16) */
export const MINI_GROUPS = 16;

export interface SmallFilesState {
  /** the block group: first sector and blocks */
  start: number;
  blocks: number;
  /** block index of each mini-group's first block (MINI_GROUPS + 1 entries) */
  mgStart: number[];
  /** 1: in use (before the run, or given to a file by the ordinary allocator) */
  used: Uint8Array;
  /** free blocks of each mini-group not yet given to a file */
  left: number[];
  /** range writes: each mini-group's free extents before the run, in sectors */
  extents: Array<Array<{ begin: number; end: number }>>;
  /** files created so far (file i is created by PID i mod pids) */
  files: number;
}

/** The mini-group holding block index b. */
export function miniGroupOf(st: Pick<SmallFilesState, 'mgStart'>, b: number): number {
  let m = 0;
  while (m + 1 < MINI_GROUPS && st.mgStart[m + 1]! <= b) m++;
  return m;
}

/** The block group's mini-groups: block indexes [mgStart[m], mgStart[m+1]). */
function miniGroupStarts(blocks: number): number[] {
  return Array.from({ length: MINI_GROUPS + 1 }, (_, m) =>
    m === MINI_GROUPS ? blocks : part(0, blocks * BLOCK, m, MINI_GROUPS).start / BLOCK,
  );
}

export const smallfiles: GenFamily<SmallFilesSpec, SmallFilesState> = {
  kind: 'smallfiles',
  defaultThreads: () => 1,
  depth: () => 1,
  asyncLimit: (spec) => spec.inFlight,
  openMeanMs: () => null,
  init(spec, env: GenEnv, rng) {
    // one thread is the file system's writeback for one group; several threads, one each
    const start = Math.ceil(env.regionStart / BLOCK) * BLOCK;
    const blocks = Math.floor((env.regionStart + env.regionSectors - start) / BLOCK);
    if (blocks < MINI_GROUPS)
      throw new Error(`smallfiles: a block group needs at least ${MINI_GROUPS} blocks`);
    const used = new Uint8Array(blocks);
    // exactly round(fullness · blocks) blocks in use, uniformly (a partial Fisher–Yates)
    const fill = Math.round(spec.fullness * blocks);
    const order = Array.from({ length: blocks }, (_, i) => i);
    for (let i = 0; i < fill; i++) {
      const j = i + nextInt(rng, blocks - i);
      const t = order[i]!;
      order[i] = order[j]!;
      order[j] = t;
      used[order[i]!] = 1;
    }
    const mgStart = miniGroupStarts(blocks);
    const left: number[] = [];
    const extents: SmallFilesState['extents'] = [];
    for (let m = 0; m < MINI_GROUPS; m++) {
      let free = 0;
      const ex: Array<{ begin: number; end: number }> = [];
      for (let b = mgStart[m]!; b < mgStart[m + 1]!; b++) {
        if (used[b]) continue;
        free++;
        const s = start + b * BLOCK;
        const last = ex[ex.length - 1];
        if (last && last.end === s) last.end = s + BLOCK;
        else ex.push({ begin: s, end: s + BLOCK });
      }
      left.push(free);
      extents.push(spec.rangeWrites ? ex : []);
    }
    return { start, blocks, mgStart, used, left, extents, files: 0 };
  },
  next(spec, st, _env, _rng, out) {
    const goal = (st.files % spec.pids) % MINI_GROUPS;
    st.files++;
    // the first mini-group from the goal's, onwards and round, with a free block left
    let m = goal;
    for (let i = 0; i < MINI_GROUPS && st.left[m] === 0; i++) m = (m + 1) % MINI_GROUPS;
    if (st.left[m] === 0)
      throw new Error(
        `smallfiles: the block group (sectors ${st.start}–${st.start + st.blocks * BLOCK - 1}) is full after ${st.files - 1} files`,
      );
    st.left[m]!--;
    if (spec.rangeWrites) {
      const ranges = st.extents[m]!;
      const range: RangeWrite = { ranges, align: BLOCK, barrier: false };
      out.push({
        sector: ranges[0]!.begin,
        nSectors: BLOCK,
        write: true,
        sync: false,
        thinkMs: 0,
        range,
      });
      return;
    }
    // ext2: the nearest free block at or after the goal (the mini-group's first block)
    let b = st.mgStart[m]!;
    while (st.used[b]) b++; // left[m] > 0: a free block lies ahead inside the mini-group
    st.used[b] = 1;
    out.push({
      sector: st.start + b * BLOCK,
      nSectors: BLOCK,
      write: true,
      sync: false,
      thinkMs: 0,
    });
  },
};
