// Where a ReiserFS 3.6 metadata update lands (Postmark's ReiserFS personality, fs.ts): the
// leaf of the S+tree holding the item it changes, or the bitmap block of its data. A leaf
// stays where it is between updates (ReiserFS writes nodes in place), so a file's updates
// — and those of the files that share its leaf — hit the same block; a page cache and the
// journal then log it once per transaction.
//
// The keys (fs/reiserfs, 3.6 format, 4 KiB blocks): Postmark's files share one directory,
// so their stat data items sort by object id and sit side by side — a leaf (4096 bytes,
// less its 24-byte block head) holds 59 of them (24-byte item head + 44-byte stat data v2).
// A file created during the run gets the next object id, so its stat data goes to the tail
// leaves. Directory entries sort by the hash of the name (r5, the default): a file's entry
// is in any of the directory's leaves, 126 entries each (one 24-byte item head; 16-byte
// entry head + the name, 16 bytes once padded: Postmark's names are short).
//
// Where the leaves sit (chosen; no creation phase is simulated): the allocator places
// formatted nodes among their directory's data (the dirid_groups / packing_groups default),
// and the files were created in order, so each leaf lies just before the data of the first
// file it describes; a leaf first needed during the run lies just before the file that
// needed it. Bitmap blocks are where ReiserFS keeps them: one per 32,768 blocks, at the
// start of those blocks (the first right after the super block, here the head of the
// metadata area).
// Simplified (fs/reiserfs, not modelled): a leaf holds only stat data items here, but in the
// key order each file's body items follow its stat data in the same leaves — an indirect
// item (24-byte head + 4 bytes per data block) and, for a file the default smalltail policy
// packs on close (all of it within MAX_DIRECT_ITEM_LEN, 3976 bytes), a direct item holding
// its data, with no data block — so fewer files share a leaf, and leaves split as files
// grow; and an update here writes one leaf, where the kernel's create also logs the
// directory's stat data, the super block (objectid map) and, for its data blocks, the
// bitmap; an append the bitmap for new blocks; an unlink the directory's stat data, the
// super block and the save link's leaf.
import { BLOCK } from './layout';

const LEAF_BYTES = 4096 - 24;
/** stat data items per leaf: item head 24 + stat data v2 44 bytes */
export const STAT_DATA_PER_LEAF = Math.floor(LEAF_BYTES / (24 + 44));
/** directory entries per leaf: one item head, then entry head 16 + a padded name 16 bytes */
export const ENTRIES_PER_LEAF = Math.floor((LEAF_BYTES - 24) / (16 + 16));
/** sectors one bitmap block describes: 4096 bytes × 8 bits × 4 KiB blocks */
export const BITMAP_SPAN_SECTORS = 4096 * 8 * BLOCK;

export interface ReiserTree {
  /** each slot's object id (-1: no file has been there) */
  oid: number[];
  /** the files the run starts with (object ids 0 … files − 1, in slots 0 … files − 1) */
  files: number;
  nextOid: number;
  /** the sector of each stat data leaf first needed during the run (index: leaf) */
  newLeafAt: number[];
  /** the directory's leaves */
  dirLeaves: number;
  /** where the file system starts (its super block), and its metadata area */
  fsStart: number;
  metaStart: number;
  dataStart: number;
  slotSectors: number;
}

export function createTree(
  files: number,
  slots: number,
  at: Pick<ReiserTree, 'fsStart' | 'metaStart' | 'dataStart' | 'slotSectors'>,
): ReiserTree {
  const oid: number[] = [];
  for (let i = 0; i < slots; i++) oid.push(i < files ? i : -1);
  return {
    oid,
    files,
    nextOid: files,
    newLeafAt: [],
    dirLeaves: Math.ceil(files / ENTRIES_PER_LEAF),
    ...at,
  };
}

/** A created file in slot f: the next object id. */
export function treeCreate(t: ReiserTree, f: number): void {
  t.oid[f] = t.nextOid++;
}

/** the sector just before slot f's data */
const before = (t: ReiserTree, f: number, k: number) => t.dataStart + f * t.slotSectors - k * BLOCK;

/** An integer hash standing in for r5 of the file's name: fixed per file, spread evenly. */
function nameHash(oid: number): number {
  let h = Math.imul(oid ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The block an update of file `f`'s stat data ('inode'), directory entry ('dir') or data
 * bitmap ('bitmap') writes. */
export function treeBlock(t: ReiserTree, which: 'inode' | 'dir' | 'bitmap', f: number): number {
  // a slot no file has been in (a delete that found no file) stands for itself
  const oid = t.oid[f]! >= 0 ? t.oid[f]! : f;
  if (which === 'inode') {
    const leaf = Math.floor(oid / STAT_DATA_PER_LEAF);
    const first = leaf * STAT_DATA_PER_LEAF;
    if (first < t.files) return before(t, first, 1);
    t.newLeafAt[leaf] ??= before(t, f, 1);
    return t.newLeafAt[leaf]!;
  }
  if (which === 'dir') {
    const leaf = nameHash(oid) % t.dirLeaves;
    return before(t, leaf * ENTRIES_PER_LEAF, 2);
  }
  const region = Math.floor((before(t, f, 0) - t.fsStart) / BITMAP_SPAN_SECTORS);
  return region === 0 ? t.metaStart : t.fsStart + region * BITMAP_SPAN_SECTORS;
}
