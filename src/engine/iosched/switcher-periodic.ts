// The periodic part of switcher and adio: both decide once per period, and both poll the
// drain of the elevator switch a period began (switcher-core.ts) until it is done.
import { beginSwitch, pollSwitch, setOwnTimer, switching, type SwitchCore } from './switcher-core';
import type { ElevatorContext } from './types';

/** A wrapper that decides once per period (switcher's sampling, adio's adaptation). */
export interface PeriodicCore extends SwitchCore {
  periodNs: number;
  /** the period timer runs (it starts with the first request, stops when a period is idle) */
  sampling: boolean;
}

/** How a periodic wrapper writes its records (a decision record and an `m` message). */
export type SwitchRecord = (
  ctx: ElevatorContext,
  rule: 'switch-done' | 'switch-drain-wait',
  text: string,
) => void;

/** Begin the switch a period's rule chose; one nothing held is done at once. */
export function switchTo(
  core: PeriodicCore,
  name: string,
  ctx: ElevatorContext,
  record: SwitchRecord,
): void {
  if (!beginSwitch(core, name, ctx)) return;
  record(ctx, 'switch-done', `elevator switch to ${name}: nothing held the old elevator`);
  setOwnTimer(core, ctx.now + core.periodNs, ctx);
}

/**
 * The own-timer and activity hooks of a periodic wrapper: at a period's end, `decide`; while
 * a switch is under way, poll the drain (the kernel's elevator switch) and, once done, start
 * the next period (the sampler's write to sysfs returns).
 */
export function periodicHooks<S extends PeriodicCore>(
  decide: (s: S, ctx: ElevatorContext) => void,
  record: SwitchRecord,
): { ownTimer(s: S, ctx: ElevatorContext): void; noteActivity(s: S, ctx: ElevatorContext): void } {
  return {
    ownTimer(s, ctx) {
      if (!switching(s)) {
        decide(s, ctx);
        return;
      }
      const from = s.old!.name;
      const startedNs = s.switchStartNs;
      if (pollSwitch(s, ctx)) {
        record(
          ctx,
          'switch-done',
          `elevator switch ${from} → ${s.cur!.name} took ${((ctx.now - startedNs) / 1e6).toFixed(1)} ms`,
        );
        setOwnTimer(s, ctx.now + s.periodNs, ctx);
      } else {
        record(
          ctx,
          'switch-drain-wait',
          `elevator switch: ${s.oldPriv} request(s) still hold ${from}'s data`,
        );
      }
    },
    noteActivity(s, ctx) {
      if (s.sampling || switching(s)) return;
      s.sampling = true;
      setOwnTimer(s, ctx.now + s.periodNs, ctx);
    },
  };
}
