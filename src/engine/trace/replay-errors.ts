// The replay's usage errors (a bad option, nothing to replay): the CLI prints them as such.
export class ReplayError extends Error {
  override readonly name = 'ReplayError';
}
