// The disk presets by name (ARCHITECTURE.md: disk.preset).
import type { DiskParams } from '../params';
import { cheetah10k7 } from './cheetah-10k7-300g';
import { cheetah15k3 } from './cheetah-15k3-18g';
import { cheetah15k4 } from './cheetah-15k4-146g';
import { cheetah15k5 } from './cheetah-15k5';
import { hpC2247a } from './hp-c2247a';
import { ostep } from './ostep';
import { sata7200 } from './sata-7200-500g';
import { ssd } from './ssd';
import { teaching } from './teaching';

const presets: DiskParams[] = [
  hpC2247a,
  ostep,
  teaching,
  cheetah15k3,
  cheetah15k4,
  cheetah10k7,
  cheetah15k5,
  sata7200,
  ssd,
];

export function presetNames(): string[] {
  return presets.map((p) => p.name);
}

/** A deep copy of the named preset, or undefined. */
export function getPreset(name: string): DiskParams | undefined {
  const p = presets.find((x) => x.name === name);
  return p ? structuredClone(p) : undefined;
}
