// Entry point of the `spindle` command: bundled to dist-cli/spindle.cjs, which
// dist-cli/spindle.mjs runs (vite.config.ts) and bin/spindle.mjs loads. Runs main() when
// loaded. See main.ts and `spindle --help`.
import { main } from './main';
import { stderr, stderrMade } from './stderr';

// A reader that stops early (`spindle export … | head`) closes the pipe: stop quietly.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

void main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: { write: (text: string) => stderr().write(text) },
  debug: process.env.SPINDLE_DEBUG === '1',
}).then((code) => {
  process.exitCode = code;
  // Exit once stdout and stderr have taken everything written, rather than when Node
  // would: after V8's background threads finish optimising the engine's functions, which
  // will not run again (some 5-10 ms of a short run; issue 19).
  process.stdout.write('', () =>
    stderrMade() ? stderr().write('', () => process.exit()) : process.exit(),
  );
});
