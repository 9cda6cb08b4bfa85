// Checks on a scenario's raw JSON value before the schema reads it (issue 20 items 4 and 6):
// a value nested deeper than any scenario is (the schema and structuredClone recurse), and
// keys named `__proto__` — JSON.parse makes them own keys, but an object built from them
// drops them silently (or worse, `--set __proto__.x` reached Object.prototype), so they are
// reported as the unknown keys they are. Iterative: any depth is safe to look at.
import { MAX_JSON_DEPTH } from './json-text';
import type { Problem } from './checks';

const PROTO = '__proto__';

export function rawShapeProblems(json: unknown): Problem[] {
  const problems: Problem[] = [];
  const stack: Array<{ v: unknown; path: string[] }> = [{ v: json, path: [] }];
  while (stack.length > 0 && problems.length < 20) {
    const { v, path } = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (path.length >= MAX_JSON_DEPTH) {
      problems.push({
        path: path.join('.'),
        message: `nested deeper than ${MAX_JSON_DEPTH} levels`,
      });
      continue;
    }
    if (Array.isArray(v)) {
      v.forEach((item, k) => stack.push({ v: item, path: [...path, String(k)] }));
      continue;
    }
    for (const key of Object.keys(v)) {
      if (key === PROTO) {
        problems.push({
          path: [...path, key].join('.'),
          message: 'unknown key ("__proto__" is never a scenario key)',
        });
        continue;
      }
      stack.push({ v: (v as Record<string, unknown>)[key], path: [...path, key] });
    }
  }
  return problems;
}
