// `spindle presets`: the disks a scenario can name, with their size and speed.
import { geometryOf } from '../src/engine/disk/geometry';
import { getPreset, presetNames } from '../src/engine/disk/presets';
import { flag, parseArgs } from './args';
import { UsageError } from './errors';
import { num, table } from './format';

export interface PresetInfo {
  name: string;
  title: string;
  rpm: number;
  surfaces: number;
  cylinders: number;
  /** addressable 512-byte sectors */
  sectors: number;
  capacityGB: number;
  maxQueueDepth: number;
  ssd: boolean;
}

export function presetInfos(): PresetInfo[] {
  return presetNames().map((name) => {
    const p = getPreset(name)!;
    const sectors = geometryOf(p).totalLbns;
    return {
      name,
      title: p.title,
      rpm: p.rpm,
      surfaces: p.surfaces,
      cylinders: p.cylinders,
      sectors,
      capacityGB: (sectors * 512) / 1e9,
      maxQueueDepth: p.maxQueueDepth,
      ssd: p.ssd !== null,
    };
  });
}

export function presetsCommand(argv: readonly string[], print: (text: string) => void): void {
  const a = parseArgs('presets', argv, { json: { value: false } });
  if (a.positionals.length > 0)
    throw new UsageError(`presets takes no arguments (got ${a.positionals.join(' ')})`);
  const infos = presetInfos();
  if (flag(a, 'json')) {
    print(JSON.stringify({ presets: infos }, null, 2));
    return;
  }
  const rows = infos.map((p) => [
    p.name,
    p.ssd ? 'SSD' : num(p.rpm, 0),
    num(p.sectors, 0),
    p.capacityGB < 0.01 ? `${num(p.sectors * 0.5, 1)} KiB` : `${num(p.capacityGB, 2)} GB`,
    String(p.maxQueueDepth),
    p.title,
  ]);
  print(
    table([['preset', 'rpm', 'sectors', 'capacity', 'max QD', 'description'], ...rows], 'lrrrrl'),
  );
}
