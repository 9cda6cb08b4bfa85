// Placement helpers shared by the generator families: 4 KiB blocks, files laid out in a
// region, random blocks inside an extent. Sizes are in sectors (512 B) unless named KiB.
import { nextFloat, nextInt, type Rng } from '../../sim/rng';

/** sectors in one file-system block (4 KiB) */
export const BLOCK = 8;

export const kib = (k: number): number => Math.round(k * 2);

/** A random start, 4 KiB-aligned when the size allows, for nSectors inside [start, start+len). */
export function randomIn(rng: Rng, start: number, len: number, nSectors: number): number {
  const align = nSectors % BLOCK === 0 ? BLOCK : 1;
  const slots = Math.max(1, Math.floor((len - nSectors) / align) + 1);
  return start + nextInt(rng, slots) * align;
}

/** Uniform size in [minKiB, maxKiB], rounded up to whole 512-byte sectors. */
export function sizeBetween(rng: Rng, minKiB: number, maxKiB: number): number {
  return Math.max(1, Math.ceil((minKiB + nextFloat(rng) * (maxKiB - minKiB)) * 2));
}

/** round sectors up to whole 4 KiB blocks */
export const toBlocks = (sectors: number): number => Math.ceil(sectors / BLOCK) * BLOCK;

/** Split [start, start+len) into `count` 4 KiB-aligned parts; part k. */
export function part(
  start: number,
  len: number,
  k: number,
  count: number,
): { start: number; sectors: number } {
  const a = Math.floor((len * k) / count / BLOCK) * BLOCK;
  const b = k + 1 === count ? len : Math.floor((len * (k + 1)) / count / BLOCK) * BLOCK;
  return { start: start + a, sectors: Math.max(BLOCK, b - a) };
}

/** Pick by weight: `weights` need not sum to 1. */
export function pickWeighted(rng: Rng, weights: readonly number[]): number {
  let total = 0;
  for (const w of weights) total += w;
  let u = nextFloat(rng) * total;
  for (let i = 0; i < weights.length; i++) {
    u -= weights[i]!;
    if (u < 0) return i;
  }
  return weights.length - 1;
}
