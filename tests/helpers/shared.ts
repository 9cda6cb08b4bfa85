// The team's shared folder (real traces, design notes) sits beside the checkout, as it does
// in CI; SPINDLE_SHARED points elsewhere when a clone lives somewhere else.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';

export function sharedPath(...parts: string[]): string {
  const root =
    process.env.SPINDLE_SHARED ??
    resolve(fileURLToPath(new URL('../../..', import.meta.url)), 'shared');
  const p = resolve(root, ...parts);
  if (!existsSync(p)) {
    throw new Error(
      `${p} not found: the shared/ folder must sit beside the checkout (or set SPINDLE_SHARED)`,
    );
  }
  return p;
}
