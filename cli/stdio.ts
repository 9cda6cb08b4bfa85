// The command's stdout and stderr, each made when first needed (issue 19): making
// process.stdout or process.stderr loads Node's stream modules (and its net modules, for a
// pipe), ~5 ms of a short run — which prints its figures once and, as a rule, nothing to
// stderr.
import { fstatSync, writeSync } from 'node:fs';

let outMade = false;
let errMade = false;

/** process.stdout; from the first call on, all of stdout goes through it (writeOut too). */
export function stdout(): NodeJS.WriteStream {
  if (!outMade) {
    outMade = true;
    // A reader that stops early (`spindle export … | head`) closes the pipe: stop quietly.
    process.stdout.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(0);
      throw e;
    });
  }
  return process.stdout;
}

/**
 * Write `text` to stdout: straight to fd 1 with fs.writeSync, as Node's own stream does for a
 * file, until process.stdout is made. A write that fails or would wait (no fd 1, a reader gone,
 * a full non-blocking pipe) hands what is left, and all that follows, to process.stdout, which
 * then does what it always did; so the bytes, their order and the errors are as they were.
 * On Windows, always process.stdout (a console takes UTF-16 from it).
 */
export function writeOut(text: string): void {
  if (outMade || process.platform === 'win32') {
    stdout().write(text);
    return;
  }
  const bytes = Buffer.from(text, 'utf8');
  let done = 0;
  try {
    while (done < bytes.length) done += writeSync(1, bytes, done);
  } catch {
    stdout().write(bytes.subarray(done));
  }
}

/** Whether process.stdout was made, and may so hold output to flush before the process exits. */
export const stdoutMade = (): boolean => outMade;

/** process.stderr; from the first call on, stderrMade() is true. */
export function stderr(): NodeJS.WriteStream {
  errMade = true;
  return process.stderr;
}

/** Whether process.stderr was made, and may so hold output to flush before the process exits. */
export const stderrMade = (): boolean => errMade;

/** Whether stderr is a terminal, without making it where it cannot be one: a terminal is a
 * character device (so is /dev/null, which the stream then tells apart). */
export function stderrIsTTY(): boolean {
  try {
    if (!fstatSync(2).isCharacterDevice()) return false;
  } catch {
    // no fd 2 to look at: ask the stream, as ever
  }
  return stderr().isTTY === true;
}
