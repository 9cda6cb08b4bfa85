// Postmark (Katcher, NetApp TR3022) as Riska et al. ran it: four configurations SS, SL, LS,
// LL — (S)mall or (L)arge files × a (S)mall or (L)arge working set — on ext2, ext3,
// ReiserFS and XFS (the personality in fs.ts shapes the bios).
//
// Where the numbers come from:
//  - Postmark's defaults (TR3022): small files 500 B to 9.77 KB; transactions pair a read
//    or an append (bias 5: half each) with a create or a delete (bias 5: half each);
//    buffered I/O; one process.
//  - Chosen (the study's exact sizes were not available to this session): large files
//    64 KiB to 1 MiB; a small working set of 1,000 files, a large one of 20,000 files;
//    `scale` multiplies the file count (browser runs may use less).
//  - The files are laid out one after another from the front of the data area (as a fresh
//    file system allocates them), each in a slot of the largest file size; when the large
//    working set would not fit in the span, both working-set sizes shrink by the same
//    factor (the shape — file sizes, and a small set 1/20 of the large one — is kept).
//  - Postmark's files share one directory, so they and their metadata share a block group:
//    the metadata area just before the data holds the block bitmap, the inode bitmap, the
//    inode table (128-byte inodes, ext2/3's default) and the directory (24-byte entries:
//    8 bytes plus Postmark's short names); an update writes the block holding that file's
//    inode or entry. The journal (ext3, ReiserFS, XFS) sits before the group.
//  - The creation phase is not simulated: the file set starts as if created, and the run
//    measures the transaction phase.
//  - A read goes through the page cache: one sync read per read-ahead window (128 KiB) of
//    the file. An append writes 0.5 KiB up to the file-size maximum at the file's end;
//    data writes and metadata are async (write-back), as Postmark's buffered writes are.
import { nextFloat, nextInt } from '../../sim/rng';
import type { GenCommon, GenFamily, Step } from './types';
import { BLOCK, sizeBetween, toBlocks } from './layout';
import { FS_PERSONALITIES, JOURNAL_SECTORS, type FsName } from './fs';
import {
  createTree,
  treeBlock,
  treeCreate,
  unformattedSectors,
  type ReiserTree,
} from './reiserfs-tree';
import { READ_AHEAD_KIB } from './fio';

export const POSTMARK_CONFIGS = ['SS', 'SL', 'LS', 'LL'] as const;
export type PostmarkConfig = (typeof POSTMARK_CONFIGS)[number];

export interface PostmarkSpec extends GenCommon {
  kind: 'postmark';
  config: PostmarkConfig;
  fs: FsName;
  /** the file count × scale */
  scale: number;
}

/** file sizes, KiB: small = Postmark's default range, large = chosen */
export const POSTMARK_SIZES = { S: [0.5, 9.77], L: [64, 1024] } as const;
/** working-set sizes, files */
export const POSTMARK_FILES = { S: 1000, L: 20000 } as const;

interface PostmarkState {
  /** each slot's file size in sectors (the slot's place is fixed; 0 = no file: deleted) */
  fileSize: number[];
  /** slots holding a file and free slots (sets: order means nothing), and each slot's
   * index in its set */
  live: number[];
  free: number[];
  pos: number[];
  slotSectors: number;
  dataStart: number;
  metaStart: number;
  metaSectors: number;
  journalStart: number;
  journalSectors: number;
  /** next journal sector (the log wraps) and metadata updates not yet logged */
  journalCursor: number;
  unlogged: number;
  /** ReiserFS: its tree's object ids and leaves (null for the other file systems) */
  tree: ReiserTree | null;
}

function metaWrites(
  st: PostmarkState,
  spec: PostmarkSpec,
  blocks: readonly (MetaBlock | TreeBlock)[],
  out: Step[],
  /** the file the update is about: its slot */
  f: number,
): void {
  const fs = FS_PERSONALITIES[spec.fs];
  for (const which of blocks) {
    const sector =
      fs.metadata === 'tree'
        ? treeBlock(st.tree!, which, f)
        : st.metaStart + metaBlock(st.fileSize.length, which as MetaBlock, f) * BLOCK;
    out.push({
      sector,
      nSectors: BLOCK,
      write: true,
      sync: false,
      thinkMs: 0,
      file: METADATA_FILE,
      meta: true,
    });
    if (fs.journalKiB === 0) continue;
    st.unlogged++;
    if (st.unlogged < fs.journalEvery) continue;
    st.unlogged = 0;
    const n2 = fs.journalKiB * 2;
    if (st.journalCursor + n2 > st.journalStart + st.journalSectors)
      st.journalCursor = st.journalStart;
    // the journal is written by the file system itself, not by page-cache writeback
    out.push({
      sector: st.journalCursor,
      nSectors: n2,
      write: true,
      sync: false,
      thinkMs: 0,
      direct: true,
      journal: true,
    });
    st.journalCursor += n2;
  }
}

/** The metadata block an update writes, in the file system's metadata area. */
type MetaBlock = 'inode' | 'dir' | 'bitmap';
/** ReiserFS's also: the directory's stat data, the super block (reiserfs-tree.ts) */
type TreeBlock = MetaBlock | 'dirStat' | 'super';
/** what a create and an unlink update: the directory block and the inode (an unlink the
 * block bitmap too); on ReiserFS also the directory's stat data (its size and times) and the
 * super block (the objectid map) — reiserfs_create / reiserfs_unlink's journal_mark_dirty */
const CREATE_BLOCKS: Record<'table' | 'tree', readonly TreeBlock[]> = {
  table: ['dir', 'inode'],
  tree: ['dir', 'inode', 'dirStat', 'super'],
};
const UNLINK_BLOCKS: Record<'table' | 'tree', readonly TreeBlock[]> = {
  table: ['dir', 'inode', 'bitmap'],
  tree: ['dir', 'inode', 'bitmap', 'dirStat', 'super'],
};
const INODE_BYTES = 128;
const DIRENT_BYTES = 24;
const BLOCK_BYTES = BLOCK * 512;
/** metadata area layout (blocks): block bitmap, inode bitmap, inode table, directory */
function metaBlock(slots: number, which: MetaBlock, f: number): number {
  const inodeTable = Math.ceil((slots * INODE_BYTES) / BLOCK_BYTES);
  if (which === 'bitmap') return 0;
  if (which === 'inode') return 2 + Math.floor((f * INODE_BYTES) / BLOCK_BYTES);
  return 2 + inodeTable + Math.floor((f * DIRENT_BYTES) / BLOCK_BYTES);
}
function metaAreaBlocks(slots: number): number {
  return metaBlock(slots, 'dir', slots - 1) + 1;
}

/** Metadata blocks belong to the block device's own inode (buffer heads), written back
 * together in block order; a file's data to the file (its slot number). */
const METADATA_FILE = -1;

/** data writes of [sector, sector+n) of file f as the file system sends them */
function dataWrites(spec: PostmarkSpec, f: number, sector: number, n: number, out: Step[]): void {
  const bio = FS_PERSONALITIES[spec.fs].writeBioKiB * 2;
  for (let s = 0; s < n; s += bio)
    out.push({
      sector: sector + s,
      nSectors: Math.min(bio, n - s),
      write: true,
      sync: false,
      thinkMs: 0,
      file: f,
    });
}

export const postmark: GenFamily<PostmarkSpec, PostmarkState> = {
  kind: 'postmark',
  defaultThreads: () => 1,
  depth: () => 1,
  openMeanMs: () => null,
  journalled: (spec) => FS_PERSONALITIES[spec.fs].jbd,
  reiserfs: (spec) => FS_PERSONALITIES[spec.fs].reiserfs,
  journalArea: (_spec, st) => ({ startSector: st.journalStart, sectors: st.journalSectors }),
  init(spec, env, rng) {
    const [minK, maxK] = POSTMARK_SIZES[spec.config[0] as 'S' | 'L'];
    const wanted = POSTMARK_FILES[spec.config[1] as 'S' | 'L'] * spec.scale;
    const len = env.regionSectors;
    const journalSectors =
      FS_PERSONALITIES[spec.fs].journalKiB === 0
        ? 0
        : Math.min(JOURNAL_SECTORS, Math.floor(len / 20 / BLOCK) * BLOCK);
    // Each file has a slot of the largest size; twice the set's slots (half free for creates).
    // If the large working set does not fit, both working sets shrink by the same factor, so
    // the small set stays 1/20 of the large one and the file sizes stay as they are.
    const slotSectors = toBlocks(Math.ceil(maxK * 2));
    const room = len - journalSectors;
    const perFile = 2 * slotSectors + (2 * BLOCK * (INODE_BYTES + DIRENT_BYTES)) / BLOCK_BYTES;
    const fit = Math.min(1, room / (2 * POSTMARK_FILES.L * spec.scale * perFile));
    const files = Math.max(2, Math.floor(wanted * fit));
    // the journal, then the files' block group: its metadata area, then their data
    const journalStart = env.regionStart;
    const metaStart = journalStart + journalSectors;
    const metaSectors = metaAreaBlocks(2 * files) * BLOCK;
    const dataStart = metaStart + metaSectors;
    const fileSize: number[] = [];
    for (let i = 0; i < files; i++)
      fileSize.push(Math.min(slotSectors, sizeBetween(rng, minK, maxK)));
    // twice the working set's slots: half hold files, half are free for creates
    for (let i = 0; i < files; i++) fileSize.push(0);
    const live = fileSize.map((_, i) => i).slice(0, files);
    const free = fileSize.map((_, i) => i).slice(files);
    const pos = fileSize.map((_, i) => (i < files ? i : i - files));
    return {
      fileSize,
      live,
      free,
      pos,
      slotSectors,
      dataStart,
      metaStart,
      metaSectors,
      journalStart,
      journalSectors,
      journalCursor: journalStart,
      unlogged: 0,
      tree:
        FS_PERSONALITIES[spec.fs].metadata === 'tree'
          ? createTree(fileSize.slice(0, files), fileSize.length, {
              fsStart: journalStart,
              metaStart,
              dataStart,
              slotSectors,
            })
          : null,
    };
  },
  next(spec, st, _env, rng, out) {
    const [minK, maxK] = POSTMARK_SIZES[spec.config[0] as 'S' | 'L'];
    const slots = st.fileSize.length;
    const start = (f: number) => st.dataStart + f * st.slotSectors;
    /** where a file of `size` sectors ends in data blocks (ReiserFS keeps a small tail in
     * its tree: reiserfs-tree.ts) */
    const dataEnd = (size: number) => (st.tree ? unformattedSectors(size) : size);
    /** a random slot that holds a file (want true) or is free; any slot if none is */
    const pick = (want: boolean): number => {
      const set = want ? st.live : st.free;
      return set.length === 0 ? nextInt(rng, slots) : set[nextInt(rng, set.length)]!;
    };
    /** move slot f from one set to the other */
    const move = (f: number, from: number[], to: number[]): void => {
      const i = st.pos[f]!;
      const last = from.pop()!;
      if (last !== f) {
        from[i] = last;
        st.pos[last] = i;
      }
      st.pos[f] = to.length;
      to.push(f);
    };
    // read or append (bias 5)
    const f = pick(true);
    if (nextFloat(rng) < 0.5) {
      const ra = READ_AHEAD_KIB * 2;
      const size = toBlocks(dataEnd(st.fileSize[f]!)); // a tail in the tree is read with the leaf
      for (let s = 0; s < size; s += ra)
        out.push({
          sector: start(f) + s,
          nSectors: Math.min(ra, size - s),
          write: false,
          sync: true,
          thinkMs: 0,
        });
    } else if (st.fileSize[f] === 0) {
      // every file was deleted (pick fell back to any slot): nothing to append to — the
      // size is still drawn, so the random stream is as if it had been
      sizeBetween(rng, 0.5, maxK);
    } else {
      const add = Math.min(st.slotSectors - st.fileSize[f]!, sizeBetween(rng, 0.5, maxK));
      if (add > 0) {
        // the append rewrites the file's last partial block and goes on from there
        const from = Math.floor(st.fileSize[f]! / BLOCK) * BLOCK;
        const to = toBlocks(dataEnd(st.fileSize[f]! + add));
        if (to > from) dataWrites(spec, f, start(f) + from, to - from, out);
        st.fileSize[f]! += add;
      }
      metaWrites(st, spec, ['inode'], out, f); // the inode's size and times
    }
    // create or delete (bias 5)
    if (nextFloat(rng) < 0.5) {
      const g = pick(false);
      if (st.fileSize[g] === 0) move(g, st.free, st.live);
      st.fileSize[g] = Math.min(st.slotSectors, sizeBetween(rng, minK, maxK));
      if (st.tree) treeCreate(st.tree, g, st.fileSize[g]!);
      dataWrites(spec, g, start(g), toBlocks(dataEnd(st.fileSize[g]!)), out);
      metaWrites(st, spec, CREATE_BLOCKS[FS_PERSONALITIES[spec.fs].metadata], out, g);
    } else {
      const g = pick(true);
      if (st.fileSize[g]! > 0) move(g, st.live, st.free);
      // its pages go (a page cache drops them, dirty or not: no I/O)
      out.push({
        sector: start(g),
        nSectors: st.slotSectors,
        write: true,
        sync: false,
        thinkMs: 0,
        drop: true,
        file: g, // deleted: a new file in the slot is a new inode
      });
      st.fileSize[g] = 0;
      metaWrites(st, spec, UNLINK_BLOCKS[FS_PERSONALITIES[spec.fs].metadata], out, g);
    }
  },
};
