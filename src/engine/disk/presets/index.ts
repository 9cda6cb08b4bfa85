// The disk presets by name (ARCHITECTURE.md: disk.preset).
import type { DiskParams } from '../params';
import { hpC2247a } from './hp-c2247a';
import { ostep } from './ostep';

const presets: DiskParams[] = [hpC2247a, ostep];

export function presetNames(): string[] {
  return presets.map((p) => p.name);
}

/** A deep copy of the named preset, or undefined. */
export function getPreset(name: string): DiskParams | undefined {
  const p = presets.find((x) => x.name === name);
  return p ? structuredClone(p) : undefined;
}
