// Run the real `spindle` command (bin/spindle.mjs → dist-cli/spindle.mjs, built by the unit
// project's global setup) as a user would, from the repository root.
import { execFile } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(__dirname, '../..');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function spindle(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bin/spindle.mjs', ...args],
      { cwd: ROOT, env: { ...process.env, ...env }, maxBuffer: 256 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** `spindle …` that must succeed quietly; its stdout parsed as one JSON document. */
export async function spindleJson<T = unknown>(args: readonly string[]): Promise<T> {
  const r = await spindle(args);
  if (r.code !== 0 || r.stderr !== '')
    throw new Error(`spindle ${args.join(' ')} → exit ${r.code}\n${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

export const SCENARIOS = 'public/scenarios';
