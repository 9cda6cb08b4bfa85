// The command's stderr, made when first used: making process.stderr loads Node's stream
// modules (and its net modules, for a pipe), some 2 ms that most runs, which write nothing
// there, need not spend (issue 19).
import { fstatSync } from 'node:fs';

let made = false;

/** process.stderr; from the first call on, stderrMade() is true. */
export function stderr(): NodeJS.WriteStream {
  made = true;
  return process.stderr;
}

/** Whether stderr was made, and may so hold output to flush before the process exits. */
export const stderrMade = (): boolean => made;

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
