// The DiskSim disks a user opened, kept in IndexedDB (persist.ts, beside the kept trace) so
// that a reload, or a link naming "file:x.parv", still has them: per disk the files its
// reader read, by the names its `source` lines give, with their text (parameter files are
// small). Opening the same .parv again replaces what was kept.
import { kvGet, kvSet } from './persist';

const DISKS_KEY = 'disks.files';

export interface KeptDisk {
  /** "file:<parv base name>" */
  name: string;
  /** the .parv first, then each file it sources */
  files: Array<{ path: string; text: string }>;
  savedAt: number;
}

function valid(v: unknown): v is KeptDisk {
  if (v === null || typeof v !== 'object') return false;
  const d = v as Partial<KeptDisk>;
  return (
    typeof d.name === 'string' &&
    Array.isArray(d.files) &&
    d.files.every((f) => typeof f?.path === 'string' && typeof f?.text === 'string')
  );
}

/** Every kept disk (what another page version stored in another shape is left out). */
export async function keptDisks(): Promise<KeptDisk[]> {
  const v = await kvGet<unknown>(DISKS_KEY);
  return Array.isArray(v) ? v.filter(valid) : [];
}

/** Keep these disks (replacing any of the same name); false when storage refused. */
export async function keepDisks(disks: readonly KeptDisk[]): Promise<boolean> {
  const names = new Set(disks.map((d) => d.name));
  const others = (await keptDisks()).filter((d) => !names.has(d.name));
  return kvSet(DISKS_KEY, [...others, ...disks]);
}

export async function forgetKeptDisk(name: string): Promise<boolean> {
  const left = (await keptDisks()).filter((d) => d.name !== name);
  return kvSet(DISKS_KEY, left);
}
