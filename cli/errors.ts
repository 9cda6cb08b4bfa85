// The CLI's two kinds of failure (ARCHITECTURE.md "The spindle CLI"): a UsageError is the
// user's to fix — bad arguments, an unreadable or invalid scenario — and exits with 2;
// anything else is ours and exits with 1. Both print one line, `spindle: <message>`.

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** A trace that cannot be read to the end (parse, replay): the input's fault, not ours, but
 * the figures would be incomplete, so it exits with 1 (without "internal error"). */
export class TraceInputError extends Error {
  override readonly name = 'TraceInputError';
}

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
