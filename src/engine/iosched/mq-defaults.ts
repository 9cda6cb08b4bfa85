// Kernel 6.18's default tag-pool size, alone in a pure module: the engine's pool
// (tags-mq.ts), a replay's choice (replay-mapping.ts) and the page's settings panel (which
// shows the default a 6.18 run will get) read it.

/** BLKDEV_DEFAULT_RQ: the cap on the driver depth a scheduler's tag count doubles */
export const BLKDEV_DEFAULT_RQ = 128;

/**
 * The pool's depth in kernel 6.18: nr_requests if it was set (with `none`, sysfs shows the
 * driver's tag count there), else blk_mq_default_nr_requests = 2 × min(tag set depth, 128)
 * with a scheduler, the tag set's depth without (elevator_disable: q->nr_requests = the tag
 * set's depth). A SCSI or SATA disk's tag set belongs to its host adapter (AHCI: 32 tags),
 * not to the queue depth the disk is set to (sysfs device/queue_depth limits dispatch, not
 * tags): the tag set is taken as deep as the drive's largest queue (the preset's
 * maxQueueDepth: NCQ 32 on SATA), whatever the scenario's queueDepth.
 */
export function mqTagDepth(
  driverDepth: number,
  scheduler: boolean,
  nrRequests: number | null,
): number {
  if (nrRequests !== null) return nrRequests;
  return scheduler ? 2 * Math.min(driverDepth, BLKDEV_DEFAULT_RQ) : driverDepth;
}
