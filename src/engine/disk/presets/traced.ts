// The device fitted to a trace ("traced"): not a drive of its own — `spindle replay` fits one
// to each trace (trace/replay-fit.ts) and writes it as disk.fitted beside this preset, which
// only gives the rest of DiskParams. No mechanism, no command overheads or cache (the fit's
// service times include whatever the device did); the geometry is only the address space,
// 2 TiB (one surface, 65,536 cylinders of 65,536 sectors), grown by the replay for a trace
// that addresses more. Kept out of presetNames(): without a fit it is no device.
import { MAX_QUEUE_DEPTH, type DiskParams } from '../params';
import { IDEAL_CONTROLLER } from './ideal-controller';
import { zone } from './zone';

export const TRACED_PRESET = 'traced';
export const TRACED_SECTORS_PER_TRACK = 65536;

export const traced: DiskParams = {
  name: TRACED_PRESET,
  title:
    'The device fitted to a trace — service time by direction, size and distance, parallel channels',
  provenance: [
    "Fitted by spindle replay to the trace's own D→C pairs (trace/replay-fit.ts; ARCHITECTURE.md",
    '"Fitted device"): disk.fitted holds the fit. Geometry: the address space only (1 surface ×',
    '65,536 cylinders × 65,536 sectors = 2 TiB, grown for a larger trace); seek constant 0; rpm',
    'nominal and unused; no cache, overheads or bus time.',
  ].join(' '),
  rpm: 10000,
  surfaces: 1,
  cylinders: 65536,
  zones: [zone(0, 65535, TRACED_SECTORS_PER_TRACK, 0, 0, 0, 0, 0)],
  initialAngle: 0,
  seek: { type: 'constant', ms: 0 },
  headSwitchMs: 0,
  writeSettleMs: 0,
  minWriteSeekMs: 0,
  ...IDEAL_CONTROLLER,
  // as deep as Spindle goes: the trace's own most in flight sets the replay's depth
  maxQueueDepth: MAX_QUEUE_DEPTH,
  ssd: null,
  fitted: null,
};
