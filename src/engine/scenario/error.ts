// The scenario loader's error (load.ts), in a file of its own: the CLI's start-up imports
// it to report a failure without loading the loader and its schemas (issue 19).
import type { Problem } from './checks';

/** A scenario that cannot be run; `message` has one line per problem. */
export class ScenarioError extends Error {
  override readonly name = 'ScenarioError';
  constructor(
    readonly source: string,
    readonly problems: readonly Problem[],
  ) {
    super(
      problems
        .map((p) => `${source}: ${p.path === '' ? '' : `${p.path}: `}${p.message}`)
        .join('\n'),
    );
  }
}
