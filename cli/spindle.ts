// Entry point of the `spindle` command (bundled to dist-cli/spindle.mjs; bin/spindle.mjs
// loads it). Runs main() on import. See main.ts and `spindle --help`.
import { main } from './main';

// A reader that stops early (`spindle export … | head`) closes the pipe: stop quietly.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  debug: process.env.SPINDLE_DEBUG === '1',
});
