// File-system personalities for Postmark (Riska et al., "Evaluating Block-level Optimization
// through the IO Path"): how ext2, ext3, ReiserFS and XFS turn a file operation into bios.
// What the study found, and what each field below encodes:
//  - ext3 and ReiserFS write file data as 4 KiB buffers (one bio per block) and rely on the
//    I/O scheduler to merge them (writeBioKiB 4); ReiserFS keeps a small file's tail in its
//    tree's leaves instead of a data block (reiserfs-tree.ts);
//  - ext2 and XFS build large bios (mpage / extent writes: writeBioKiB 256, chosen — a
//    bio of up to 256 KiB, below the default max_sectors_kb of 512);
//  - journaling adds writes: ext3 and ReiserFS log every metadata update as a 4 KiB
//    journal block (the study's extra journal traffic); XFS logs into 32 KiB log buffers,
//    one per 8 metadata updates (delayed logging, chosen); ext2 has no journal.
// With a page cache on, ext3's journal is modelled as jbd's (workload/journal.ts): metadata
// updates join a transaction that kjournald commits every 5 s, after the ordered data; and
// ReiserFS's as fs/reiserfs/journal.c's (workload/reiserfs-journal.ts): updates join a
// transaction that the sync_supers thread ends and commits at its 5 s super-block sync, or
// the reiserfs/0 workqueue once a batch is full (900 blocks) or 30 s old — the ordered data
// first, then descriptor, copies and commit block; logged blocks are written in place by
// writeback, or when the log needs room. XFS's delayed logging stays as above.
// Metadata blocks (inodes, directories, bitmaps) are 4 KiB async writes in place: for ext2,
// ext3 and XFS in the files' block group (allocation group), just before their data
// (postmark.ts lays it out); for ReiserFS in the leaves of its balanced tree, which sit among
// the data they describe and stay put: a file's stat data shares a leaf with 58 others, its
// directory entry one of the directory's leaves (reiserfs-tree.ts). The journal sits before
// the group.
export const FS_NAMES = ['ext2', 'ext3', 'reiserfs', 'xfs'] as const;
export type FsName = (typeof FS_NAMES)[number];

export interface FsPersonality {
  /** largest data write bio, KiB (4 = one page per bio) */
  writeBioKiB: number;
  /** journal write size, KiB, and how many metadata updates share one; 0 = no journal */
  journalKiB: number;
  journalEvery: number;
  /** with a page cache: its journal is jbd's (ext3: transactions committed by kjournald,
   * ordered data first; workload/journal.ts) rather than a write per metadata update */
  jbd: boolean;
  /** with a page cache: its journal is ReiserFS's (transactions ended and committed by the
   * sync_supers thread or the reiserfs/0 workqueue: workload/reiserfs-journal.ts) */
  reiserfs: boolean;
  /** where metadata lives: an inode-table area ('table') or tree nodes near the data ('tree') */
  metadata: 'table' | 'tree';
}

export const FS_PERSONALITIES: Record<FsName, FsPersonality> = {
  ext2: {
    writeBioKiB: 256,
    journalKiB: 0,
    journalEvery: 1,
    jbd: false,
    reiserfs: false,
    metadata: 'table',
  },
  ext3: {
    writeBioKiB: 4,
    journalKiB: 4,
    journalEvery: 1,
    jbd: true,
    reiserfs: false,
    metadata: 'table',
  },
  reiserfs: {
    writeBioKiB: 4,
    journalKiB: 4,
    journalEvery: 1,
    jbd: false,
    reiserfs: true,
    metadata: 'tree',
  },
  xfs: {
    writeBioKiB: 256,
    journalKiB: 32,
    journalEvery: 8,
    jbd: false,
    reiserfs: false,
    metadata: 'table',
  },
};

/** ext3's default journal for a file system of this size: 32 MiB (mke2fs), in sectors */
export const JOURNAL_SECTORS = 32 * 2048;
