// ReiserFS's metadata in the leaves of its tree (reiserfs-tree.ts): where Postmark's
// updates land, rule by rule.
import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/engine/sim/rng';
import { postmark, type PostmarkSpec } from '../../src/engine/workload/generators/postmark';
import {
  BITMAP_SPAN_SECTORS,
  ENTRIES_PER_LEAF,
  STAT_DATA_PER_LEAF,
  createTree,
  treeBlock,
  treeCreate,
} from '../../src/engine/workload/generators/reiserfs-tree';
import { resolveGenerator } from '../../src/engine/workload/generators/schema';
import type { GenEnv, Step } from '../../src/engine/workload/generators/types';

const at = { fsStart: 0, metaStart: 65536, dataStart: 70000, slotSectors: 24 };
const slot = (f: number) => at.dataStart + f * at.slotSectors;

describe('ReiserFS leaves (3.6 format, 4 KiB blocks)', () => {
  it('a leaf holds 59 stat data items (24 + 44 bytes) and 126 directory entries (16 + 16)', () => {
    expect(STAT_DATA_PER_LEAF).toBe(59);
    expect(ENTRIES_PER_LEAF).toBe(126);
  });

  it('stat data sort by object id: files 0–58 share a leaf, just before file 0’s data; file 59 starts the next', () => {
    const t = createTree(1000, 2000, at);
    const leaf0 = treeBlock(t, 'inode', 0);
    expect(leaf0).toBe(slot(0) - 8);
    for (const f of [1, 30, 58]) expect(treeBlock(t, 'inode', f)).toBe(leaf0);
    expect(treeBlock(t, 'inode', 59)).toBe(slot(59) - 8);
  });

  it('a leaf stays put: the same file’s updates write the same block, even after its first file is deleted and its slot reused', () => {
    const t = createTree(1000, 2000, at);
    const before = treeBlock(t, 'inode', 5);
    treeCreate(t, 0); // slot 0 now holds a new file
    expect(treeBlock(t, 'inode', 5)).toBe(before);
    expect(treeBlock(t, 'inode', 5)).toBe(before);
  });

  it('a created file gets the next object id: its stat data go to the tail leaves, the first of them where it was first needed', () => {
    const t = createTree(1000, 2000, at);
    treeCreate(t, 1500); // object id 1000: leaf 16 (ids 944–1002), begun by file 944
    expect(treeBlock(t, 'inode', 1500)).toBe(slot(944) - 8);
    treeCreate(t, 1501); // 1001
    treeCreate(t, 1502); // 1002
    treeCreate(t, 1600); // 1003: leaf 17, new during the run, just before the file that needed it
    expect(treeBlock(t, 'inode', 1600)).toBe(slot(1600) - 8);
    treeCreate(t, 1700); // 1004: the same leaf, which stays where it was made
    expect(treeBlock(t, 'inode', 1700)).toBe(slot(1600) - 8);
  });

  it('directory entries sort by name hash: 1000 files’ entries fill 8 leaves, each file always in the same one', () => {
    const t = createTree(1000, 2000, at);
    const leaves = new Set<number>();
    for (let f = 0; f < 1000; f++) {
      const b = treeBlock(t, 'dir', f);
      expect(treeBlock(t, 'dir', f)).toBe(b);
      leaves.add(b);
    }
    expect(leaves.size).toBe(Math.ceil(1000 / ENTRIES_PER_LEAF));
    // spread evenly: no leaf holds more than twice its share
    const count = new Map<number, number>();
    for (let f = 0; f < 1000; f++) {
      const b = treeBlock(t, 'dir', f);
      count.set(b, (count.get(b) ?? 0) + 1);
    }
    for (const n of count.values()) expect(n).toBeLessThan((2 * 1000) / leaves.size);
  });

  it('bitmap blocks: one per 32,768 blocks, the first at the head of the metadata area', () => {
    const t = createTree(1000, 2000, { ...at, slotSectors: 1000 });
    expect(treeBlock(t, 'bitmap', 0)).toBe(at.metaStart);
    const far = Math.ceil((BITMAP_SPAN_SECTORS - at.dataStart) / 1000) + 1;
    expect(treeBlock(t, 'bitmap', far)).toBe(BITMAP_SPAN_SECTORS);
  });
});

describe('Postmark on ReiserFS', () => {
  const env: GenEnv = {
    spanStart: 0,
    spanSectors: 2_000_000,
    k: 0,
    count: 1,
    regionStart: 0,
    regionSectors: 2_000_000,
  };
  const run = (fs: PostmarkSpec['fs'], ops: number): Step[] => {
    const spec = resolveGenerator({ kind: 'postmark', config: 'SS', fs }) as PostmarkSpec;
    const rng = createRng(7, 'test');
    const st = postmark.init(spec, env, rng);
    const out: Step[] = [];
    for (let i = 0; i < ops; i++) postmark.next(spec, st, env, rng, out);
    return out;
  };
  it('its metadata updates keep to a few dozen leaves (and a bitmap), not a new block each time', () => {
    const meta = run('reiserfs', 2000).filter((x) => x.meta);
    expect(meta.length).toBeGreaterThan(2000);
    const blocks = new Set(meta.map((x) => x.sector));
    // 17 stat data leaves for the first 1000 files, 17 or 18 more for the ~1000 the 2000
    // transactions create (object ids 1000 on), 8 directory leaves, one bitmap (the old
    // placement, a random block within 512 KiB of the file each time: 3789 blocks
    // for these 5978 updates)
    expect(blocks.size).toBeLessThanOrEqual(17 + 18 + 8 + 1);
  });
  it('the same run gives the same blocks (no randomness in where a leaf is)', () => {
    expect(run('reiserfs', 300)).toEqual(run('reiserfs', 300));
  });
});
