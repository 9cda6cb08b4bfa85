// Which simulated device a replay runs on: by default the device fitted to the trace
// ("traced", replay-fit.ts), else the preset --disk names. The fitted device is described in
// the scenario as `disk: { preset: "traced", fitted: {...} }` (presets/traced.ts), its
// address space grown to the trace's highest sector when that is beyond the preset's 2 TiB,
// so the replay's addresses are never packed for it.
import { getPreset } from '../disk/presets';
import { TRACED_PRESET, TRACED_SECTORS_PER_TRACK } from '../disk/presets/traced';
import { geometryOf } from '../disk/geometry';
import { zone } from '../disk/presets/zone';
import { ReplayError } from './replay-errors';
import { fitDevice, MIN_FIT_PAIRS, servicePairs, type DeviceFit } from './replay-fit';
import type { DeviceTrace } from './replay-source';

export interface DiskChoice {
  /** a preset's name, or "traced" for the device fitted to this trace */
  preset: string;
  source: string;
}

const DEFAULT_ROTATING_DISK = 'sata-7200-500g';
const DEFAULT_SSD = 'ssd';
/** the most cylinders a scenario's disk may have (disk-overrides.ts) */
const MAX_CYLINDERS = 1e7;

export interface DiskSetup {
  disk: DiskChoice;
  fit: DeviceFit | null;
  /** the scenario's `disk` keys besides preset and queueDepth */
  json: Record<string, unknown>;
  cautions: string[];
}

/** A preset when the trace has nothing to fit (as before the fitted device existed). */
function presetFor(rotational: number | undefined, why: string): DiskChoice {
  return rotational === 0
    ? { preset: DEFAULT_SSD, source: `${why}: default for a non-rotating device (meta.json)` }
    : {
        preset: DEFAULT_ROTATING_DISK,
        source: `${why}: default ${rotational === 1 ? 'for a rotating device (meta.json rotational=1)' : '(the trace does not say whether the device rotates)'}`,
      };
}

/**
 * The device for a replay of `dev`: `requested` (--disk) is a preset's name or "traced" (the
 * default). `highestSector`: the end of the replayed requests' furthest extent.
 */
export function chooseDisk(
  dev: DeviceTrace,
  requested: string | undefined,
  rotational: number | undefined,
  highestSector: number,
): DiskSetup {
  if (requested !== undefined && requested !== TRACED_PRESET)
    return { disk: { preset: requested, source: '--disk' }, fit: null, json: {}, cautions: [] };
  const fit = fitDevice(dev, rotational !== 0);
  if (fit === null) {
    const n = servicePairs(dev).length;
    const why = `the trace has ${n} D→C pairs, too few to fit a device (${MIN_FIT_PAIRS} needed)`;
    if (requested === TRACED_PRESET) throw new ReplayError(`--disk traced: ${why}`);
    const disk = presetFor(rotational, why);
    return {
      disk,
      fit: null,
      json: {},
      cautions: [`no device could be fitted (${why}): replayed on the ${disk.preset} preset`],
    };
  }
  const json: Record<string, unknown> = { fitted: fit.device };
  const sectors = geometryOf(getPreset(TRACED_PRESET)!).totalLbns;
  if (highestSector > sectors) {
    const cylinders = Math.min(MAX_CYLINDERS, Math.ceil(highestSector / TRACED_SECTORS_PER_TRACK));
    json.cylinders = cylinders;
    json.zones = [zone(0, cylinders - 1, TRACED_SECTORS_PER_TRACK, 0, 0, 0, 0, 0)];
  }
  return {
    disk: {
      preset: TRACED_PRESET,
      source: `fitted to this trace's ${fit.samples} D→C pairs (the default; --disk PRESET for a drive model)`,
    },
    fit,
    json,
    cautions: [],
  };
}

/** How many sectors the replay's disk holds (for replay-addresses.ts' packing). */
export function diskSectors(choice: DiskSetup): number {
  const p = getPreset(choice.disk.preset);
  if (p === undefined) return Number.MAX_SAFE_INTEGER; // loadScenario reports the name
  if (typeof choice.json.cylinders === 'number')
    return choice.json.cylinders * TRACED_SECTORS_PER_TRACK;
  return geometryOf(p).totalLbns;
}
