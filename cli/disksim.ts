// `spindle disksim-validate X.parv X.trace` (DiskSim's validate mode on the disk the .parv
// describes: simulated against measured, and DiskSim's rms) and `spindle disksim-read
// X.parv` (the Spindle disk it reads, and what it could not apply). docs/DISKSIM.md.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Unapplied } from '../src/engine/disk/disksim/block-reader';
import { readDiskSim, type DiskSimDisk } from '../src/engine/disk/disksim/reader';
import { registerDisk } from '../src/engine/disk/presets';
import { asUserDisk } from '../src/engine/disk/disksim/file-set';
import {
  parseValidationTrace,
  validateDisk,
  type Distribution,
} from '../src/engine/disk/disksim/validate';
import { flag, parseArgs } from './args';
import { UsageError } from './errors';
import { num, table } from './format';
import type { Setting } from './settings';

/** Read a .parv and the files it sources (looked up beside it). */
export function readParv(path: string): DiskSimDisk {
  const dir = dirname(resolve(path));
  const root = resolve(path);
  return readDiskSim(path, (name) => {
    const p = name === path ? root : resolve(dir, name);
    return existsSync(p) ? readFileSync(p, 'utf8') : undefined;
  });
}

/**
 * `--disk-file X.parv`: the disk read from X.parv registered as the page names it
 * ("file:X.parv", engine/disk/presets/user-disks.ts), and the edit that makes it the drive.
 */
export function diskFileSetting(path: string, note: (text: string) => void): Setting {
  if (!existsSync(path)) throw new UsageError(`--disk-file ${path}: no such file`);
  const disk = asUserDisk(readParv(path), path);
  registerDisk(disk.params);
  if (disk.unapplied.length > 0) {
    note(
      `${path}: ${disk.unapplied.length} DiskSim parameters are not applied (spindle disksim-read ${path} lists them)`,
    );
  }
  return { key: 'disk.preset', value: disk.params.name };
}

/** The trace's text, gunzipped when it is gzip (by its magic bytes): the repository keeps
 * DiskSim's traces as .trace.gz (tests/data). zlib is loaded here, not at every start-up
 * (issue 19). */
async function traceText(path: string): Promise<string> {
  const raw = readFileSync(path);
  if (raw.length < 2 || raw[0] !== 0x1f || raw[1] !== 0x8b) return raw.toString('utf8');
  const { gunzipSync } = await import('node:zlib');
  try {
    return gunzipSync(raw).toString('utf8');
  } catch (e) {
    throw new UsageError(`${path}: not a readable gzip file (${(e as Error).message})`);
  }
}

function unappliedLines(list: readonly Unapplied[]): string[] {
  if (list.length === 0) return ['Every parameter that affects a response time was applied.'];
  return [
    `Not applied (${list.length}):`,
    ...list.map((u) => `  ${u.file}:${u.line}  ${u.param} = ${u.value} — ${u.why}`),
  ];
}

export async function disksimValidateCommand(
  argv: readonly string[],
  print: (t: string) => void,
): Promise<void> {
  const a = parseArgs('disksim-validate', argv, { json: { value: false } });
  if (a.positionals.length !== 2) {
    throw new UsageError('disksim-validate needs a .parv and a validation trace (see --help)');
  }
  const [parv, tracePath] = a.positionals as [string, string];
  if (!existsSync(tracePath)) throw new UsageError(`${tracePath}: no such file`);
  const disk = readParv(parv);
  const lines = parseValidationTrace(await traceText(tracePath), tracePath);
  const v = validateDisk(disk.params, lines, disk.scheduler ?? 'fcfs');
  if (flag(a, 'json')) {
    const { simulatedMs: _omit, ...figures } = v;
    void _omit;
    print(
      JSON.stringify(
        { disk: disk.diskType, parv, trace: tracePath, ...figures, unapplied: disk.unapplied },
        null,
        2,
      ),
    );
    return;
  }
  const row = (label: string, d: Distribution): string[] => [
    label,
    num(d.mean, 3),
    num(d.p50, 3),
    num(d.p95, 3),
    num(d.p99, 3),
  ];
  print(`${disk.diskType} (${parv}): ${num(v.requests, 0)} requests, DiskSim validate mode`);
  print(
    table(
      [
        ['ms', 'mean', 'p50', 'p95', 'p99'],
        row('simulated', v.simulated),
        row('measured', v.measured),
      ],
      'lrrrr',
    ),
  );
  print(
    `mean ${v.simulated.mean >= v.measured.mean ? '+' : ''}${num((100 * (v.simulated.mean - v.measured.mean)) / v.measured.mean, 2)}%; ` +
      `demerit (DiskSim's rms) ${num(v.demerit, 4)} ms = ${num(v.demeritPercent, 2)}% of the measured mean`,
  );
  for (const l of unappliedLines(disk.unapplied)) print(l);
}

export function disksimReadCommand(argv: readonly string[], print: (t: string) => void): void {
  const a = parseArgs('disksim-read', argv, { json: { value: false } });
  if (a.positionals.length !== 1) throw new UsageError('disksim-read needs one .parv (see --help)');
  const disk = readParv(a.positionals[0]!);
  if (flag(a, 'json')) {
    print(JSON.stringify(disk, null, 2));
    return;
  }
  const p = disk.params;
  print(
    `${disk.diskType}: ${p.rpm} rpm, ${p.surfaces} surfaces, ${p.cylinders} cylinders, ` +
      `${p.zones.length} zones, seek ${p.seek.type}; scheduler ${disk.scheduler ?? "none of Spindle's"}`,
  );
  print(`Files: ${disk.files.join(', ')}`);
  for (const l of unappliedLines(disk.unapplied)) print(l);
}
