// DiskSim 4.0's validation files (tests/data/disksim-validation, as plain files) as the reader's
// FileSource, and the five development drives with DiskSim's own figures on them (that
// folder's README: runvalid's expected rms, DiskSim 4.0 built by shared/disksim/build.sh).
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FileSource } from '../../src/engine/disk/disksim/syntax';
import { plainFolder } from './data';

export const VALIDATION_DIR = (): string => plainFolder('disksim-validation');

/** Files looked up in `dir` by name; `extra` files (name → text) shadow them. */
export function filesIn(dir: string, extra: Record<string, string> = {}): FileSource {
  return (name) => {
    if (name in extra) return extra[name];
    const p = resolve(dir, name);
    return existsSync(p) ? readFileSync(p, 'utf8') : undefined;
  };
}

export interface DevDrive {
  /** file stem in the validation folder */
  stem: string;
  /** the .model file (layout dumps are named after it) */
  model: string;
  preset: string;
  /** DiskSim 4.0's mean response on the trace (ms) and its rms against the drive */
  disksimMeanMs: number;
  disksimRms: number;
  /** the real drive's mean (ms) */
  measuredMeanMs: number;
}

export const DEV_DRIVES: DevDrive[] = [
  {
    stem: 'hp_c2247a',
    model: 'hp_c2247a_validate',
    preset: 'hp-c2247a',
    disksimMeanMs: 15.315,
    disksimRms: 0.089931,
    measuredMeanMs: 15.298,
  },
  {
    stem: 'hp_c2490a',
    model: 'hp_c2490a_validate',
    preset: 'hp-c2490a',
    disksimMeanMs: 12.563,
    disksimRms: 0.253762,
    measuredMeanMs: 12.55,
  },
  {
    stem: 'dec_rz26',
    model: 'dec_rz26_validate',
    preset: 'dec-rz26',
    disksimMeanMs: 15.691,
    disksimRms: 0.340367,
    measuredMeanMs: 15.809,
  },
  {
    stem: 'atlas10k',
    model: 'atlas10k',
    preset: 'quantum-atlas-10k',
    disksimMeanMs: 3.971,
    disksimRms: 0.267721,
    measuredMeanMs: 3.893,
  },
  {
    stem: 'cheetah9LP',
    model: 'cheetah9LP',
    preset: 'cheetah-9lp',
    disksimMeanMs: 4.231,
    disksimRms: 0.106906,
    measuredMeanMs: 4.273,
  },
];
