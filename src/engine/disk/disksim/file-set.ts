// A set of files a user opened together (picked in one dialog, dropped together, or unpacked
// from one .zip) as the DiskSim reader's FileSource, and every .parv among them read into a
// user's disk ("file:<name>.parv", presets/user-disks.ts). A `source` line names a file as
// DiskSim opens it (relative to where it runs); in a set it is found by its path beside the
// .parv, else by its base name when only one file has it. docs/DISKSIM.md.
import { userDiskName } from '../presets/user-disks';
import { readDiskSim, type DiskSimDisk } from './reader';
import { DiskSimInputError, type FileSource } from './syntax';

/** One file of the set: its path inside the set ("x.parv", or "valid/x.parv" in a zip) and
 * its text, or why it has none (too large to be a parameter file). */
export interface SetFile {
  path: string;
  text: string | null;
  /** set when `text` is null */
  skipped?: string;
}

export interface OpenedDisk {
  /** the user-disk name, "file:<parv base name>" */
  name: string;
  /** the .parv's path in the set */
  parv: string;
  disk: DiskSimDisk;
  /** the files the reader read (the .parv first), to keep for the next visit */
  used: Array<{ path: string; text: string }>;
}

export interface SetOutcome {
  disks: OpenedDisk[];
  /** one message per .parv that could not be read (or for a set with none) */
  errors: string[];
}

const baseName = (p: string): string => p.split(/[\\/]/).pop() ?? p;
const dirName = (p: string): string => {
  const i = Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\'));
  return i < 0 ? '' : p.slice(0, i + 1);
};
const norm = (p: string): string => p.replace(/\\/g, '/').replace(/^\.\//, '');

export const isParv = (path: string): boolean => /\.parv$/i.test(path);

/**
 * The FileSource for the .parv at `parvPath`: the .parv itself under its base name (the name
 * the reader is given), and each file a `source` line names — at that path beside the .parv,
 * else the one file in the set with that base name. `missing` collects names not found.
 */
export function setSource(
  files: readonly SetFile[],
  parvPath: string,
  missing: string[],
): FileSource {
  const byPath = new Map(files.map((f) => [norm(f.path), f]));
  const parv = byPath.get(norm(parvPath));
  const here = norm(dirName(parvPath));
  return (name) => {
    if (name === baseName(parvPath) && parv) return text(parv);
    const exact = byPath.get(norm(here + name)) ?? byPath.get(norm(name));
    if (exact) return text(exact);
    const same = files.filter((f) => baseName(f.path) === baseName(name));
    if (same.length > 1) {
      throw new DiskSimInputError(
        `${baseName(parvPath)}: "${name}" could be any of ${same.map((f) => f.path).join(', ')}: open the set with one of them only`,
      );
    }
    if (same.length === 1) return text(same[0]!);
    missing.push(name);
    return undefined;
  };
}

function text(f: SetFile): string {
  if (f.text === null) {
    throw new DiskSimInputError(`${f.path}: ${f.skipped ?? 'not read'}`);
  }
  return f.text;
}

/** The disk under its user-disk name ("file:x.parv") and a title naming its DiskSim type. */
export function asUserDisk(disk: DiskSimDisk, parvPath: string): DiskSimDisk {
  const title = `${disk.diskType} (DiskSim, ${baseName(parvPath)})`;
  return { ...disk, params: { ...disk.params, name: userDiskName(parvPath), title } };
}

/** Read every .parv in the set; a .parv the reader refuses is an error, the rest are disks. */
export function readDiskSimSet(files: readonly SetFile[]): SetOutcome {
  const parvs = files.filter((f) => isParv(f.path));
  if (parvs.length === 0) {
    return {
      disks: [],
      errors: [
        `no .parv among the files opened (${files.map((f) => f.path).join(', ') || 'none'}): a DiskSim disk is opened by its .parv, with the files it sources`,
      ],
    };
  }
  const disks: OpenedDisk[] = [];
  const errors: string[] = [];
  for (const p of parvs) {
    const twin = parvs.find((q) => q !== p && baseName(q.path) === baseName(p.path));
    if (twin) {
      errors.push(`${p.path} and ${twin.path} have the same name: open them one at a time`);
      continue;
    }
    const missing: string[] = [];
    const source = setSource(files, p.path, missing);
    const used: OpenedDisk['used'] = [];
    const recording: FileSource = (name) => {
      const t = source(name);
      if (t !== undefined && !used.some((u) => u.path === name)) used.push({ path: name, text: t });
      return t;
    };
    try {
      const disk = asUserDisk(readDiskSim(baseName(p.path), recording), p.path);
      disks.push({ name: disk.params.name, parv: p.path, disk, used });
    } catch (e) {
      if (!(e instanceof DiskSimInputError)) throw e;
      errors.push(missingHint(e.message, baseName(p.path), missing, files));
    }
  }
  return { disks, errors };
}

/** The reader's message, and for a file not in the set, what to do about it. */
function missingHint(
  message: string,
  parv: string,
  missing: readonly string[],
  files: readonly SetFile[],
): string {
  const lead = message.startsWith(`${parv}:`) ? message : `${parv}: ${message}`;
  const name = missing[missing.length - 1];
  if (name === undefined) return lead;
  const like = files.find((f) => baseName(f.path).toLowerCase() === baseName(name).toLowerCase());
  const near = like ? ` (there is ${like.path}: names must match exactly)` : '';
  return (
    `${lead}${near}. Open ${baseName(name)} together with ${parv} — pick them in one dialog, ` +
    `drop them together, or put them in one .zip. Opened: ${files.map((f) => f.path).join(', ')}`
  );
}
