// The real inputs the tests read live in tests/data (see its README): a fresh clone passes its
// tests with nothing beside it. Large files are gzip-compressed; these helpers give a test the
// path, the text or the bytes, or a plain copy under the original name (for the page's file
// input or a CLI whose output names the file).
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

export const DATA = fileURLToPath(new URL('../data', import.meta.url));

/** The path of a file or folder under tests/data; a clear error when it is not there. */
export function dataPath(...parts: string[]): string {
  const p = resolve(DATA, ...parts);
  if (!existsSync(p)) throw new Error(`${p} not found (tests/data, see its README.md)`);
  return p;
}

/** A file's bytes, gunzipped when its name ends in .gz. */
export function dataBytes(...parts: string[]): Buffer {
  const p = dataPath(...parts);
  const raw = readFileSync(p);
  return p.endsWith('.gz') ? gunzipSync(raw) : raw;
}

/** A file's text (UTF-8), gunzipped when its name ends in .gz. */
export function dataText(...parts: string[]): string {
  return dataBytes(...parts).toString('utf8');
}

let plainDir: string | undefined;
const plainRoot = (): string => (plainDir ??= mkdtempSync(join(tmpdir(), 'spindle-data-')));

/**
 * A plain (gunzipped) copy of a data file under its name without .gz, in a fresh temporary
 * folder named after its parent, e.g. `.../none_randread_4k/trace.txt`.
 */
export function plainCopy(...parts: string[]): string {
  const p = dataPath(...parts);
  const dir = join(plainRoot(), ...parts.slice(0, -1));
  const out = join(dir, basename(p).replace(/\.gz$/, ''));
  if (!existsSync(out)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(out, dataBytes(...parts));
  }
  return out;
}

/** A folder of tests/data as plain files (each .gz gunzipped, under its name without .gz), for
 * a reader that looks files up by name in one folder (DiskSim's .parv names its .diskspecs). */
export function plainFolder(...parts: string[]): string {
  const dir = dataPath(...parts);
  for (const name of readdirSync(dir)) plainCopy(...parts, name);
  return join(plainRoot(), ...parts);
}
