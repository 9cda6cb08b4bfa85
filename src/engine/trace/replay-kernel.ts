// Which block layer a replay runs on when none is chosen: one rule for the CLI
// (replay-mapping.ts chooseKernel) and the page's replay form (app/replay-choices.ts), which
// imports it straight from here to keep the engine out of the page's first load.
import { BLK_MQ_ONLY } from '../iosched/blk-mq-only';
import { KERNELS, type Kernel } from '../iosched/queue-settings';

export interface KernelChoice {
  value: Kernel;
  source: string;
}

/** the schedulers that exist only in blk-mq kernels (LINUX-SCHEDULERS.md §9) */
const BLK_MQ_SCHEDULERS = new Set(['mq-deadline', 'bfq', 'kyber', 'none']);
/** the Spindle schedulers that blk-mq kernels have: the others are 2.6's (their block layer) */
const BLK_MQ_SIMULATED = new Set([...BLK_MQ_ONLY, 'none']);

/** the block layer a trace recorded under `traced` (null: unknown) replays on under `simulated` */
export function defaultKernel(traced: string | null, simulated: string): KernelChoice {
  // mq-deadline, bfq and kyber exist only on blk-mq kernels: any trace replays on 6.18; so
  // does "none" (blk-mq without a scheduler) where the trace does not say it was 2.6's
  if (
    (BLK_MQ_ONLY.has(simulated) || (simulated === 'none' && traced === null)) &&
    !(traced !== null && BLK_MQ_SCHEDULERS.has(traced))
  )
    return {
      value: '6.18',
      source: `${simulated} exists only in blk-mq kernels: kernel 6.18's block layer (each process plugs its own submissions)`,
    };
  const blkMq = traced !== null && BLK_MQ_SCHEDULERS.has(traced);
  if (blkMq && BLK_MQ_SIMULATED.has(simulated))
    return {
      value: '6.18',
      source: `a blk-mq trace (${traced}) under ${simulated}: each process plugs its own submissions`,
    };
  return {
    value: KERNELS[0],
    source: blkMq
      ? `${simulated} is a 2.6 scheduler: it runs on the 2.6 block layer (queue plug, unplug timer)`
      : traced === null
        ? 'the traced scheduler is unknown: the 2.6 block layer; give --kernel 6.18 for a blk-mq trace'
        : `the traced ${traced} is a 2.6 scheduler`,
  };
}
