// Shared structures for the schedulers, like the kernel's elv_rb_* helpers: a list of
// requests kept sorted by start sector (the kernel's red-black "sort tree"), and FIFO
// lists. Plain arrays of request slots, so scheduler state survives structuredClone.
// Lists hold at most nr_requests entries, so sorted insertion into an array is cheap.
import type { ElevatorContext } from './types';
import { insertAt, removeAt } from '../arrays';

/** Request slots sorted by start sector (ties: insertion order). */
export type SortList = number[];

function sectorOf(ctx: ElevatorContext, slot: number): number {
  return ctx.rq(slot).sector;
}

/** Index of the first entry whose sector is ≥ `sector`. */
export function lowerBound(list: SortList, sector: number, ctx: ElevatorContext): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sectorOf(ctx, list[mid]!) < sector) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function sortInsert(list: SortList, slot: number, ctx: ElevatorContext): void {
  const sector = sectorOf(ctx, slot);
  let i = lowerBound(list, sector, ctx);
  while (i < list.length && sectorOf(ctx, list[i]!) === sector) i++;
  insertAt(list, i, slot);
}

export function sortRemove(list: SortList, slot: number): void {
  removeAt(list, list.indexOf(slot));
}

export { insertAt, removeAt } from '../arrays';

/** The request with exactly this start sector, or −1 (front-merge lookup, alias rule). */
export function findBySector(list: SortList, sector: number, ctx: ElevatorContext): number {
  const i = lowerBound(list, sector, ctx);
  return i < list.length && sectorOf(ctx, list[i]!) === sector ? list[i]! : -1;
}

/** The sector successor of `slot` in the list (the next one up), or −1. */
export function successor(list: SortList, slot: number): number {
  const i = list.indexOf(slot);
  return i >= 0 && i + 1 < list.length ? list[i + 1]! : -1;
}

/** The sector predecessor of `slot`, or −1. */
export function predecessor(list: SortList, slot: number): number {
  const i = list.indexOf(slot);
  return i > 0 ? list[i - 1]! : -1;
}

/** The first request at or after `sector`, or −1. */
export function firstAtOrAfter(list: SortList, sector: number, ctx: ElevatorContext): number {
  const i = lowerBound(list, sector, ctx);
  return i < list.length ? list[i]! : -1;
}

/** Remove one slot from a FIFO (arrival-ordered) list. */
export function fifoRemove(fifo: number[], slot: number): void {
  removeAt(fifo, fifo.indexOf(slot));
}

// ── the kernel's jiffy clock (AS and CFQ run on it, as the kernel does) ──

/** Jiffies → ms at a given HZ, as the kernel's defaults are written (e.g. HZ/2 → 500 ms). */
export function jiffiesToMs(jiffies: number, hz: number): number {
  return (jiffies * 1000) / hz;
}

/** The kernel's jiffies at simulated time ctx.now (the counter starts at 0 with the run). */
export function jiffiesNow(ctx: { now: number; hz: number }): number {
  return Math.floor((ctx.now * ctx.hz) / 1e9);
}

/** The simulated time (ns) at which the jiffy counter reaches j: timers fire there. */
export function jiffyNs(j: number, hz: number): number {
  return (j * 1e9) / hz;
}

/** msecs_to_jiffies for HZ ≤ 1000, as a sysfs store does: whole ms, rounded up. */
export function msecsToJiffies(ms: number, hz: number): number {
  return Math.ceil((Math.floor(ms) * hz) / 1000);
}

export const MS = 1e6;
