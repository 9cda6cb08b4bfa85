// CFQ's sysfs tunables (queue/iosched/), declared once (STYLE.md habit 6), with the
// 2.6.32 defaults. Jiffy-based defaults depend on HZ: defaultForHz gives the value sysfs
// shows at that HZ (jiffies_to_msecs of the kernel's HZ/n). Inside, CFQ keeps jiffies,
// converted from ms with msecs_to_jiffies (rounding up) as the sysfs store does.
import { jiffiesToMs } from './common';
import { msecsToJiffies, type CfqTunables } from './cfq-types';
import { defaultAt, type ElevatorContext, type TunableSpec } from './types';

/** HZ/n jiffies as sysfs shows it, in ms; at least one jiffy (cfq_init's floor). */
function hzFraction(n: number): (hz: number) => number {
  return (hz) => jiffiesToMs(Math.max(1, Math.floor(hz / n)), hz);
}

export const CFQ_TUNABLES: readonly TunableSpec[] = [
  {
    name: 'quantum',
    default: 4,
    unit: 'requests',
    min: 1,
    max: 64,
    doc: 'Most requests the active queue may have in the driver while other queues wait (×4 when alone).',
  },
  {
    name: 'fifo_expire_sync',
    default: 125,
    defaultForHz: hzFraction(8),
    unit: 'ms',
    min: 1,
    max: 10000,
    doc: 'FIFO deadline of a sync request; checked once per slice.',
  },
  {
    name: 'fifo_expire_async',
    default: 250,
    defaultForHz: hzFraction(4),
    unit: 'ms',
    min: 1,
    max: 10000,
    doc: 'FIFO deadline of an async request; checked once per slice.',
  },
  {
    name: 'back_seek_max',
    default: 16384,
    unit: 'KiB',
    min: 0,
    max: 1048576,
    doc: 'Largest backward seek preferred over a forward one when choosing the next request.',
  },
  {
    name: 'back_seek_penalty',
    default: 2,
    unit: 'count',
    min: 1,
    max: 100,
    doc: 'A backward seek counts this many times its distance.',
  },
  {
    name: 'slice_sync',
    default: 100,
    defaultForHz: hzFraction(10),
    unit: 'ms',
    min: 1,
    max: 10000,
    doc: 'Base time slice of a sync queue (level 4); ±20% per priority level.',
  },
  {
    name: 'slice_async',
    default: 40,
    defaultForHz: hzFraction(25),
    unit: 'ms',
    min: 1,
    max: 10000,
    doc: 'Base time slice of an async queue (level 4); ±20% per priority level.',
  },
  {
    name: 'slice_async_rq',
    default: 2,
    unit: 'requests',
    min: 1,
    max: 64,
    doc: 'Base of the async request budget per slice: 2 × (n + n × (7 − level)).',
  },
  {
    name: 'slice_idle',
    default: 8,
    defaultForHz: hzFraction(125),
    unit: 'ms',
    min: 0,
    max: 1000,
    doc: 'How long an emptied sync queue idles for its next request (0: never idle).',
  },
  {
    name: 'low_latency',
    default: 1,
    unit: 'bool',
    min: 0,
    max: 1,
    doc: 'Async dispatch depth ramps up by one per slice_sync after the last sync completion.',
  },
];

/** The run's tunables (ms, as sysfs takes them) → the kernel's fields (jiffies). */
export function cfqTunables(given: Record<string, number>, ctx: ElevatorContext): CfqTunables {
  const hz = ctx.hz;
  const v = (name: string): number => {
    const spec = CFQ_TUNABLES.find((t) => t.name === name)!;
    const x = given[name] ?? defaultAt(spec, hz);
    // the sysfs store clamps to its minimum
    return Math.max(spec.min, x);
  };
  const j = (name: string): number => msecsToJiffies(v(name), hz);
  return {
    quantum: v('quantum'),
    fifoExpireSync: j('fifo_expire_sync'),
    fifoExpireAsync: j('fifo_expire_async'),
    backSeekMaxKiB: v('back_seek_max'),
    backSeekPenalty: v('back_seek_penalty'),
    sliceSync: j('slice_sync'),
    sliceAsync: j('slice_async'),
    sliceAsyncRq: v('slice_async_rq'),
    sliceIdle: j('slice_idle'),
    lowLatency: v('low_latency') ? 1 : 0,
  };
}
