// The sim worker's side of "Open a DiskSim disk": the files the page passes (as Blobs, read
// here, off the main thread), .zip archives unpacked (./unzip.ts), every .parv read by the
// engine's DiskSim reader (engine/disk/disksim/file-set.ts) and registered as a user's disk
// beside the presets (engine/disk/presets/user-disks.ts), with what the reader could not
// apply kept for the settings panel.
import type { UserDiskInfo } from '../app/config';
import { readDiskSimSet, type SetFile } from '../engine/disk/disksim/file-set';
import { forgetDisk, registerDisk } from '../engine/disk/presets';
import { isZip, unzip, ZipError } from './unzip';

/** A file the page hands over: a picked or dropped File, or a kept file's text as a Blob. */
export interface DiskFileInput {
  name: string;
  blob: Blob;
}

export interface OpenedUserDisk extends UserDiskInfo {
  /** the files read, with their text: what the page keeps in IndexedDB */
  kept: Array<{ path: string; text: string }>;
}

export interface OpenOutcome {
  opened: OpenedUserDisk[];
  /** one sentence per file or .parv that could not be read */
  errors: string[];
}

/** A file above this is no DiskSim parameter file (a trace, say) and is not read. */
export const MAX_FILE_BYTES = 32 * 1024 * 1024;

const infos = new Map<string, UserDiskInfo>();

export function userDiskInfo(name: string): UserDiskInfo | undefined {
  return infos.get(name);
}

const tooLarge = (size: number) =>
  `${(size / 1024 / 1024).toFixed(0)} MiB, too large for a DiskSim parameter file (at most ${MAX_FILE_BYTES / 1024 / 1024} MiB)`;

export async function openDiskFiles(inputs: readonly DiskFileInput[]): Promise<OpenOutcome> {
  const set: SetFile[] = [];
  const errors: string[] = [];
  const text = new TextDecoder('utf-8');
  for (const { name, blob } of inputs) {
    if (blob.size > MAX_FILE_BYTES && !/\.zip$/i.test(name)) {
      set.push({ path: name, text: null, skipped: tooLarge(blob.size) });
      continue;
    }
    const bytes = new Uint8Array(await blob.arrayBuffer());
    if (!isZip(bytes)) {
      set.push({ path: name, text: text.decode(bytes) });
      continue;
    }
    try {
      for (const e of await unzip(name, bytes, MAX_FILE_BYTES)) {
        set.push(
          e.bytes === null
            ? { path: e.path, text: null, skipped: tooLarge(e.size) }
            : { path: e.path, text: text.decode(e.bytes) },
        );
      }
    } catch (e) {
      if (!(e instanceof ZipError)) throw e;
      errors.push(e.message);
    }
  }
  if (set.length === 0) return { opened: [], errors };
  const read = readDiskSimSet(set);
  const opened = read.disks.map((d): OpenedUserDisk => {
    registerDisk(d.disk.params);
    const info: UserDiskInfo = {
      name: d.name,
      parv: d.parv,
      diskType: d.disk.diskType,
      files: d.used.map((u) => u.path),
      scheduler: d.disk.scheduler,
      unapplied: d.disk.unapplied,
    };
    infos.set(d.name, info);
    return { ...info, kept: d.used };
  });
  return { opened, errors: [...errors, ...read.errors] };
}

export function forgetUserDisk(name: string): boolean {
  infos.delete(name);
  return forgetDisk(name);
}
