#!/usr/bin/env node
// Launcher for the `spindle` command. The CLI is TypeScript (cli/spindle.ts), which Node 20
// cannot run, so `npm ci`/`npm install` bundle it into dist-cli/ (the `prepare` script, or
// `npm run build:cli`; vite.config.ts); this file only loads dist-cli/spindle.mjs, which
// runs the bundle.
import { existsSync } from 'node:fs';

const bundle = new URL('../dist-cli/spindle.mjs', import.meta.url);
if (existsSync(bundle)) {
  await import(bundle.href);
} else {
  console.error(
    'spindle: the CLI is not built yet — run `npm run build:cli` in the Spindle folder.',
  );
  process.exitCode = 1;
}
