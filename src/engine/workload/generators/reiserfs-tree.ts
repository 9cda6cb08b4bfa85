// Where a ReiserFS 3.6 metadata update lands (Postmark's ReiserFS personality, fs.ts): the
// leaf of the S+tree holding the item it changes, or the bitmap block of its data. A leaf
// stays where it is between updates (ReiserFS writes nodes in place), so a file's updates
// — and those of the files that share its leaf — hit the same block; a page cache and the
// journal then log it once per transaction.
//
// The keys (fs/reiserfs, 3.6 format, 4 KiB blocks): Postmark's files share one directory,
// so their items sort by object id and sit side by side: each file's stat data (24-byte item
// head + 44-byte stat data v2), then its body — an indirect item (24 + 4 bytes per data
// block) for what lies in data blocks, and a direct item (24 + its bytes, rounded up to 8)
// for a tail the default smalltail policy keeps in the tree (STORE_TAIL_IN_UNFM_S2: a tail
// of at most MAX_DIRECT_ITEM_LEN, 3,976 bytes, in a file under 4 blocks, the smaller the
// longer the file). A leaf (4096 bytes less its 24-byte block head) holds as many files'
// items as fit, in object id order — about 59 with no body, a handful of small files with
// their tails. A tail in the tree has no data block: its data is written (and journalled)
// with the leaf. A file created during the run gets the next object id, so its items go to
// the last leaf, or a new one. Directory entries sort by the hash of the name (r5, the
// default): a file's entry is in any of the directory's leaves, 126 entries each (one
// 24-byte item head; 16-byte entry head + the name, 16 bytes once padded: Postmark's names
// are short).
//
// Where the leaves sit (chosen; no creation phase is simulated): the allocator places
// formatted nodes among their directory's data (the dirid_groups / packing_groups default),
// and the files were created in order, so each leaf lies just before the data of the first
// file it describes; a leaf made during the run lies just before the file that needed it.
// Bitmap blocks are where ReiserFS keeps them: one per 32,768 blocks, at the start of those
// blocks (the first right after the super block, here the head of the metadata area).
// Simplified (fs/reiserfs, not modelled): a file's items stay in the leaf it was created
// in (the kernel shifts items between neighbours and splits leaves as files grow, and packs
// a tail only when the file is closed); reading a tail costs nothing beyond the stat data's
// leaf, whose read (as every file system's inode read here) is not modelled; a create logs
// the directory's entry and stat data, the file's leaf and the super block (objectid map),
// an unlink those and the bitmap, but not the bitmap of a create's or an append's new data
// blocks nor an unlink's save link (as the other file systems here leave them out).
import { BLOCK } from './layout';

const LEAF_BYTES = 4096 - 24;
/** directory entries per leaf: one item head, then entry head 16 + a padded name 16 bytes */
export const ENTRIES_PER_LEAF = Math.floor((LEAF_BYTES - 24) / (16 + 16));
/** sectors one bitmap block describes: 4096 bytes × 8 bits × 4 KiB blocks */
export const BITMAP_SPAN_SECTORS = 4096 * 8 * BLOCK;
/** MAX_DIRECT_ITEM_LEN(4096): a block less its head, two item heads, a stat data and one
 * unformatted-node pointer */
export const MAX_DIRECT_ITEM_LEN = 4096 - 24 - 2 * 24 - 44 - 4;
const BLOCK_BYTES = 4096;

/** STORE_TAIL_IN_UNFM_S2 negated: a file of `bytes` keeps its tail (bytes past its last
 * whole block) in the tree, as a direct item, under the default smalltail policy. */
export function tailInTree(bytes: number): boolean {
  const tail = bytes % BLOCK_BYTES;
  const max = MAX_DIRECT_ITEM_LEN;
  return !(
    tail === 0 ||
    tail > max ||
    bytes >= 4 * BLOCK_BYTES ||
    (bytes >= 3 * BLOCK_BYTES && tail >= Math.floor(max / 4)) ||
    (bytes >= 2 * BLOCK_BYTES && tail >= Math.floor(max / 2)) ||
    (bytes >= BLOCK_BYTES && tail >= Math.floor((max * 3) / 4))
  );
}

/** The part of a file of `sectors` that lies in data blocks (the rest, a tail, in the tree). */
export function unformattedSectors(sectors: number): number {
  const bytes = Math.round(sectors * 512);
  if (!tailInTree(bytes)) return sectors;
  return (Math.floor(bytes / BLOCK_BYTES) * BLOCK_BYTES) / 512;
}

/** The bytes a file's items take in its leaf: stat data, indirect item, direct item. */
function itemBytes(sectors: number): number {
  const bytes = Math.round(sectors * 512);
  const blocks = Math.ceil((unformattedSectors(sectors) * 512) / BLOCK_BYTES);
  const tail = tailInTree(bytes) ? bytes % BLOCK_BYTES : 0;
  return (
    24 + 44 + (blocks > 0 ? 24 + 4 * blocks : 0) + (tail > 0 ? 24 + Math.ceil(tail / 8) * 8 : 0)
  );
}

export interface ReiserTree {
  /** each slot's object id (-1: no file has been there) */
  oid: number[];
  nextOid: number;
  /** the leaves of the files' items, in object id order: each one's first object id and
   * its sector; the bytes used in the last */
  leafFirst: number[];
  leafAt: number[];
  lastLeafBytes: number;
  /** the directory's leaves */
  dirLeaves: number;
  /** where the file system starts (its super block), and its metadata area */
  fsStart: number;
  metaStart: number;
  dataStart: number;
  slotSectors: number;
}

/** The tree of the files the run starts with: `sizes` (sectors) of object ids 0, 1, … in
 * slots 0, 1, …, among `slots` slots. */
export function createTree(
  sizes: readonly number[],
  slots: number,
  at: Pick<ReiserTree, 'fsStart' | 'metaStart' | 'dataStart' | 'slotSectors'>,
): ReiserTree {
  const oid: number[] = [];
  for (let i = 0; i < slots; i++) oid.push(i < sizes.length ? i : -1);
  const t: ReiserTree = {
    oid,
    nextOid: 0,
    leafFirst: [],
    leafAt: [],
    lastLeafBytes: LEAF_BYTES,
    dirLeaves: Math.ceil(sizes.length / ENTRIES_PER_LEAF),
    ...at,
  };
  sizes.forEach((size, f) => addItems(t, t.nextOid++, f, size));
  return t;
}

/** A file's items join the last leaf, or start a new one just before its data. */
function addItems(t: ReiserTree, oid: number, f: number, sectors: number): void {
  const n = itemBytes(sectors);
  if (t.lastLeafBytes + n > LEAF_BYTES) {
    t.leafFirst.push(oid);
    t.leafAt.push(before(t, f, 1));
    t.lastLeafBytes = 0;
  }
  t.lastLeafBytes += n;
}

/** A file of `sectors` created in slot f: the next object id, its items in the last leaf. */
export function treeCreate(t: ReiserTree, f: number, sectors: number): void {
  t.oid[f] = t.nextOid;
  addItems(t, t.nextOid++, f, sectors);
}

/** the sector `k` blocks before slot f's data */
const before = (t: Pick<ReiserTree, 'dataStart' | 'slotSectors'>, f: number, k: number) =>
  t.dataStart + f * t.slotSectors - k * BLOCK;

/** An integer hash standing in for r5 of the file's name: fixed per file, spread evenly. */
function nameHash(oid: number): number {
  let h = Math.imul(oid ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** the leaf holding object id `oid`'s items: the last whose first object id is ≤ it */
function leafOf(t: ReiserTree, oid: number): number {
  let lo = 0;
  let hi = t.leafFirst.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (t.leafFirst[mid]! <= oid) lo = mid;
    else hi = mid - 1;
  }
  return t.leafAt[lo]!;
}

/** The block an update of file `f`'s stat data or body ('inode'), directory entry ('dir')
 * or data bitmap ('bitmap') writes; or of the directory's own stat data ('dirStat': in the
 * first leaf, chosen: the one after the metadata area's bitmap) or the super block ('super',
 * the file system's first block here). */
export function treeBlock(
  t: ReiserTree,
  which: 'inode' | 'dir' | 'bitmap' | 'dirStat' | 'super',
  f: number,
): number {
  if (which === 'super') return t.fsStart;
  if (which === 'dirStat') return t.metaStart + BLOCK;
  // a slot no file has been in (a delete that found no file) stands for itself
  const oid = t.oid[f]! >= 0 ? t.oid[f]! : f;
  if (which === 'inode') return leafOf(t, oid);
  if (which === 'dir') {
    const leaf = nameHash(oid) % t.dirLeaves;
    return before(t, leaf * ENTRIES_PER_LEAF, 2);
  }
  const region = Math.floor((before(t, f, 0) - t.fsStart) / BITMAP_SPAN_SECTORS);
  return region === 0 ? t.metaStart : t.fsStart + region * BITMAP_SPAN_SECTORS;
}
