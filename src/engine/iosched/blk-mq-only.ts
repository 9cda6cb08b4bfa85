// The schedulers that exist only in blk-mq kernels (LINUX-SCHEDULERS.md §9): left without a
// kernel, a scenario with one of them runs on kernel 6.18's block layer. A pure module:
// the engine's loader and the page's settings read the same list.
export const BLK_MQ_ONLY = new Set(['mq-deadline', 'kyber', 'bfq']);

/** The kernel a scenario without one runs on: 6.18 for these, else 2.6.32. */
export function defaultKernelOf(scheduler: unknown): '6.18' | '2.6.32' {
  return typeof scheduler === 'string' && BLK_MQ_ONLY.has(scheduler) ? '6.18' : '2.6.32';
}
