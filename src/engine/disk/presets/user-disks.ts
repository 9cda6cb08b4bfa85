// Disks a user opened from files (a DiskSim .parv with its sourced files), kept beside the
// built-in presets for as long as the program runs: the page's sim worker registers what the
// user opens (and what IndexedDB kept from a last visit), `spindle run --disk-file` what it
// reads. Their names begin with "file:" — no built-in preset's does — so they cannot clash.
import type { DiskParams } from '../params';

export const USER_DISK_PREFIX = 'file:';

const userDisks = new Map<string, DiskParams>();

export function isUserDiskName(name: string): boolean {
  return name.startsWith(USER_DISK_PREFIX);
}

/** The user-disk name for a file, e.g. "file:hp_c2247a.parv" (its base name: a path's
 * folders are the user's, not the disk's). */
export function userDiskName(fileName: string): string {
  return USER_DISK_PREFIX + (fileName.split(/[\\/]/).pop() ?? fileName);
}

/** The file a user-disk name was read from ("file:x.parv" → "x.parv"). */
export function userDiskFile(name: string): string {
  return name.slice(USER_DISK_PREFIX.length);
}

/** Why a scenario naming a user's disk cannot run where that disk was not opened. */
export function userDiskMissing(name: string): string {
  const file = userDiskFile(name);
  return `"${name}" is a DiskSim disk read from ${file}, and it has not been opened here: open ${file} again (the page: Settings → Disk; spindle run: --disk-file ${file})`;
}

/** Register (or replace: the same file opened again) a user's disk under its own name. */
export function registerDisk(params: DiskParams): void {
  if (!isUserDiskName(params.name) || params.name.length === USER_DISK_PREFIX.length) {
    throw new Error(
      `a user's disk is named "${USER_DISK_PREFIX}<file>" (got "${params.name}"): built-in preset names are not taken`,
    );
  }
  userDisks.set(params.name, structuredClone(params));
}

export function forgetDisk(name: string): boolean {
  return userDisks.delete(name);
}

export function userDiskNames(): string[] {
  return [...userDisks.keys()];
}

export function getUserDisk(name: string): DiskParams | undefined {
  const p = userDisks.get(name);
  return p ? structuredClone(p) : undefined;
}
