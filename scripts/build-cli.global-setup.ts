// Vitest global setup for the unit project: build dist-cli/ (the command) once before any test,
// so CLI tests (which spawn `node bin/spindle.mjs`) exercise the current cli/ and engine code.
import { build } from 'vite';

export default async function buildCli(): Promise<void> {
  await build({ mode: 'cli', logLevel: 'warn' });
}
