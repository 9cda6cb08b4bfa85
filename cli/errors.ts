// The CLI's two kinds of failure (ARCHITECTURE.md "The spindle CLI"): a UsageError is the
// user's to fix — bad arguments, an unreadable or invalid scenario — and exits with 2;
// anything else is ours and exits with 1. Both print one line, `spindle: <message>`.

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
