// Entry point of the `spindle` command: bundled to dist-cli/spindle.cjs, which
// dist-cli/spindle.mjs runs (vite.config.ts) and bin/spindle.mjs loads. Runs main() when
// loaded. See main.ts and `spindle --help`.
import { main } from './main';
import { stderr, stderrMade, stdout, stdoutMade, writeOut } from './stdio';

void main(process.argv.slice(2), {
  get stdout() {
    return stdout();
  },
  out: writeOut,
  stderr: { write: (text: string) => stderr().write(text) },
  debug: process.env.SPINDLE_DEBUG === '1',
}).then((code) => {
  process.exitCode = code;
  // Exit once stdout and stderr have taken everything written, rather than when Node
  // would: after V8's background threads finish optimising the engine's functions, which
  // will not run again (some 5-10 ms of a short run; issue 19).
  const flushErr = (): void =>
    stderrMade() ? void stderr().write('', () => process.exit()) : process.exit();
  if (stdoutMade()) stdout().write('', flushErr);
  else flushErr();
});
