// What the trace screen's replay form offers (issue 15 item 7): the device (the one fitted to
// the trace, or a preset), the kernel whose block layer runs the replay, the mode — each in
// plain words with the engine's name beside — and the engine notes that speak of the CLI's
// options, reworded for the form's menus. Pure: the components read these.
import type { ReplayMode } from '../engine';
// straight from its module: the engine's index would bring the whole engine into the page
import { defaultKernel } from '../engine/trace/replay-kernel';

/** the engine's name for the device fitted to the trace (ReplayOptions.disk) */
export const TRACED_DISK = 'traced';

export type ReplayKernel = '6.18' | '2.6.32';

export const KERNEL_CHOICES: ReadonlyArray<{ value: ReplayKernel; label: string }> = [
  { value: '6.18', label: '6.18 — blk-mq, per-process plugging' },
  { value: '2.6.32', label: '2.6.32 — queue plug, unplug timer' },
];

/** The kernel the form starts on until one is chosen: the CLI's default for the same trace
 * and scheduler (`traced`: the scheduler the trace or its meta.json names, null if none). */
export function defaultKernelFor(scheduler: string, traced: string | null): ReplayKernel {
  // the rule's choices are the form's two kernels; 2.6.16 is never a default
  return defaultKernel(traced, scheduler).value === '6.18' ? '6.18' : '2.6.32';
}

export const MODE_CHOICES: ReadonlyArray<{ value: ReplayMode; label: string; what: string }> = [
  {
    value: 'open',
    label: 'at the traced times (open)',
    what: 'every request is issued at its traced time, whatever the device does',
  },
  {
    value: 'closed',
    label: 'waiting as traced (closed)',
    what: 'a request that followed a completion of its own process waits for that completion, then its traced think time; the others keep their traced gaps',
  },
  {
    value: 'trace-timed',
    label: 'the traced service times (trace-timed)',
    what: 'the kernel’s requests at their traced times, each served in its traced D2C with no merging: only the scheduler’s order differs',
  },
];

/** a device menu's option: the fitted device first, then the presets */
export function deviceLabel(disk: string): string {
  return disk === TRACED_DISK ? 'fitted to this trace (traced)' : disk;
}

/** The engine's notes name the CLI's options; on the page each is a menu of the form. */
export function pageNote(note: string): string {
  return note
    .replace(/chosen with --scheduler/g, 'chosen in the Scheduler menu')
    .replace(/^--kernel$/, 'chosen in the Kernel menu')
    .replace(/; give --kernel 6\.18 for a blk-mq trace/g, '; choose 6.18 for a blk-mq trace')
    .replace(/^--disk$/, 'chosen in the Simulated device menu')
    .replace(
      /--disk PRESET for a drive model/g,
      'a preset from the Simulated device menu for a drive model',
    )
    .replace(/--disk /g, 'the Simulated device menu: ')
    .replace(/--disk traced: /g, 'the fitted device: ')
    .replace(/use --mode open or closed/g, 'choose the open or closed mode')
    .replace(/--mode trace-timed/g, 'the trace-timed mode')
    .replace(/: --nr-requests$/, '')
    .replace(/pick one with --device MAJ,MIN/g, 'pick one in the Replay device menu')
    .replace(/--device /g, 'device ');
}
