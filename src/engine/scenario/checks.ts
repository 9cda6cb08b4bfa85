// Small building blocks for the scenario loader: zod leaf schemas that carry one plain
// "must be …" phrase each, zod issues turned into `key.path: what was expected (got …)`
// lines, and "did you mean" suggestions for unknown keys.
//
// zod/mini (`z.optional(x)` for classic's `x.optional()`): the scenario's schemas are built
// before every `spindle run`, and classic zod defines all its schema classes when loaded and
// gives each some sixty methods when first used — ~10 ms and 1 MB of a short run (issue 19);
// mini's unused classes are left out of the bundle. Both parse with zod's core, so the checks
// and messages are the same (the English messages set below; classic's memoizer serves
// schemas with cycles, and these have none). Schemas are told apart by core's classes
// (`z.core.$ZodObject`), which classic and mini schemas both are.
import * as z from 'zod/mini';

// zod's English messages, for the checks given no phrase of their own: classic sets them as
// its first schema is made, mini leaves that to its user
if (!z.core.globalConfig.localeError) z.config(z.locales.en());

export type Path = ReadonlyArray<string | number>;

/** One problem found in a scenario: where (a key path) and what is wrong. */
export interface Problem {
  path: string;
  message: string;
}

export function pathString(path: Path): string {
  return path.length === 0 ? '(top level)' : path.join('.');
}

export function problem(path: Path, message: string): Problem {
  return { path: pathString(path), message };
}

// ---- Leaf schemas: every check reports the same single phrase -------------------------

const fmt = (x: number): string => String(x);

// Each leaf is one z.number() given all its checks at once: `.int().min().max()` would make
// a schema per call, each copying the last — the same checks, three times the work, and these
// schemas are built as the scenario loader loads, before every `spindle run` (issue 19).

/** An integer in [lo, hi]. */
export function intIn(
  lo: number,
  hi: number,
  phrase = `must be an integer from ${fmt(lo)} to ${fmt(hi)}`,
) {
  const e = { error: phrase };
  return z.number(e).check(z.int(e), z.gte(lo, e), z.lte(hi, e));
}

/** A finite number in [lo, hi] (or (lo, hi] when `positive`). */
export function numIn(
  lo: number,
  hi: number,
  phrase = `must be a number from ${fmt(lo)} to ${fmt(hi)}`,
) {
  const e = { error: phrase };
  return z.number(e).check(z.gte(lo, e), z.lte(hi, e));
}

/** A finite number > 0 and ≤ hi. */
export function positive(
  hi: number,
  phrase = `must be a number greater than 0 and at most ${fmt(hi)}`,
) {
  const e = { error: phrase };
  return z.number(e).check(z.gt(0, e), z.lte(hi, e));
}

export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: `must be one of ${values.map((v) => `"${v}"`).join(', ')}` });
}

export function text(phrase = 'must be a string') {
  return z.string({ error: phrase });
}

/** A string matching `re`; `phrase` for anything else. */
export function matching(re: RegExp, phrase: string) {
  return z.string({ error: phrase }).check(z.regex(re, { error: phrase }));
}

export function bool(phrase = 'must be true or false') {
  return z.boolean({ error: phrase });
}

export function object<S extends z.core.$ZodLooseShape>(shape: S, what = 'an object') {
  return z.strictObject(shape, { error: `must be ${what}` });
}

/** A list of `element`s, `phrase` for anything else; with `nonEmpty`, the phrase for an
 * empty list. */
export function list<T extends z.core.$ZodType>(element: T, phrase: string, nonEmpty?: string) {
  const a = z.array(element, { error: phrase });
  return nonEmpty === undefined ? a : a.check(z.minLength(1, { error: nonEmpty }));
}

// ---- Schemas for the keys a file gives ------------------------------------------------

// A scenario gives few of the keys it may: most processes have no fixed requests, generator
// or range. Every zod schema is an object built with its checks, and the whole grammar is
// some 700 of them — most of a short `spindle run`'s validation time (issue 19). So the
// loader builds an optional key's schema only where the input gives that key, and puts a
// shared stand-in where it does not. That changes nothing zod reports: an optional schema
// passes a missing value through without looking at what it wraps (its inner schema is
// consulted only for a default, and none of these has one), so the stand-in answers for a
// missing key exactly as the key's own schema would; and the object still lists every key,
// so unknown keys and "did you mean" are reported as before.

let notGivenSchema: z.ZodMiniOptional<z.ZodMiniUnknown> | undefined;
const notGiven = () => (notGivenSchema ??= z.optional(z.unknown()));

/** Whether any of `inputs` (raw JSON values: objects, or anything else) gives `key`. */
export function givesKey(inputs: readonly unknown[], key: string): boolean {
  return inputs.some(
    (v) => v !== null && typeof v === 'object' && (v as Record<string, unknown>)[key] !== undefined,
  );
}

/**
 * Optional keys, in the order given: each one's schema (`build()`, made optional) where
 * one of `inputs` gives the key, else the stand-in. `inputs` are the raw values the object
 * schema will check (several for a list's elements). Typed as the keys' own schemas: the
 * stand-in stands only where a value is never there to be typed.
 */
export function optionalKeys<B extends Record<string, () => z.core.SomeType>>(
  inputs: readonly unknown[],
  builders: B,
): { [K in keyof B]: z.ZodMiniOptional<ReturnType<B[K]>> } {
  const shape: Record<string, z.core.SomeType> = {};
  for (const [key, build] of Object.entries(builders))
    shape[key] = givesKey(inputs, key) ? z.optional(build()) : notGiven();
  return shape as { [K in keyof B]: z.ZodMiniOptional<ReturnType<B[K]>> };
}

/** The value at `key` of a raw JSON value, as a list of inputs for `optionalKeys` (none
 * where it is not an object, or the key is missing). */
export function inputsAt(input: unknown, key: string): unknown[] {
  const v =
    input !== null && typeof input === 'object'
      ? (input as Record<string, unknown>)[key]
      : undefined;
  return v === undefined ? [] : [v];
}

/** The elements of a raw JSON list, as inputs for `optionalKeys` (none if it is no list). */
export function elementsOf(input: unknown): unknown[] {
  return Array.isArray(input) ? input : [];
}

// ---- Issues → problems ----------------------------------------------------------------

/** The raw value at `path` inside `root`, or undefined. */
export function valueAt(root: unknown, path: Path): unknown {
  let v = root;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[k];
  }
  return v;
}

/** A short rendering of a value for "(got …)". */
export function show(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (Array.isArray(v)) return v.length === 0 ? 'an empty list' : 'a list';
  if (v !== null && typeof v === 'object') return 'an object';
  const s = JSON.stringify(v);
  return s.length > 40 ? `${s.slice(0, 37)}…` : s;
}

/**
 * zod issues as problems. `root` is the raw input (for "got" values), `schema` the schema
 * it was checked against (for the known keys that "did you mean" draws on).
 */
export function issueProblems(
  issues: readonly z.core.$ZodIssue[],
  root: unknown,
  schema: z.core.$ZodType,
  prefix: Path = [],
): Problem[] {
  const out: Problem[] = [];
  for (const issue of issues) addIssue(out, issue, root, schema, prefix, []);
  return out;
}

function addIssue(
  out: Problem[],
  issue: z.core.$ZodIssue,
  root: unknown,
  schema: z.core.$ZodType,
  prefix: Path,
  base: Path,
): void {
  const path = [...base, ...(issue.path as Array<string | number>)];
  const full = [...prefix, ...path];
  if (issue.code === 'unrecognized_keys') {
    const known = knownKeys(schema, path, root);
    for (const key of issue.keys) out.push(unknownKey([...full, key], key, known));
    return;
  }
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    // The input is of one branch's kind (e.g. an object for `number | {min, max}`):
    // report that branch's problems rather than "matches neither".
    const fitting = issue.errors.filter(
      (errs) => !errs.some((e) => e.code === 'invalid_type' && e.path.length === 0),
    );
    if (fitting.length === 1) {
      for (const e of fitting[0]!) addIssue(out, e, root, schema, prefix, path);
      return;
    }
  }
  const got = valueAt(root, path);
  if (issue.code === 'custom') out.push(problem(full, issue.message));
  else if (got === undefined) out.push(problem(full, `missing (${issue.message})`));
  else out.push(problem(full, `${issue.message} (got ${show(got)})`));
}

export function unknownKey(path: Path, key: string, known: readonly string[]): Problem {
  const guess = suggest(key, known);
  return problem(
    path,
    guess
      ? `unknown key (did you mean "${guess}"?)`
      : `unknown key (expected one of: ${known.join(', ')})`,
  );
}

/** The keys the schema allows at `path`, following the raw input through unions. */
export function knownKeys(schema: z.core.$ZodType, path: Path, root: unknown): string[] {
  let s: z.core.$ZodType | undefined = schema;
  let v = root;
  for (const k of path) {
    s = s && pick(unwrap(s), v);
    s = s && childSchema(s, k);
    v = valueAt(v, [k]);
  }
  const last = s && pick(unwrap(s), v);
  return last instanceof z.core.$ZodObject ? Object.keys(last._zod.def.shape) : [];
}

/** The schema inside an optional, nullable, default or pipe (zod's core classes, which
 * classic and mini schemas both are). */
export function unwrap(s: z.core.$ZodType): z.core.$ZodType {
  for (;;) {
    if (
      s instanceof z.core.$ZodOptional ||
      s instanceof z.core.$ZodNullable ||
      s instanceof z.core.$ZodDefault
    )
      s = s._zod.def.innerType;
    else if (s instanceof z.core.$ZodPipe) s = s._zod.def.in;
    else return s;
  }
}

/** Whether `o` is an object schema whose `key` is a literal admitting `value`. */
export function hasLiteral(o: z.core.$ZodObject, key: string, value: unknown): boolean {
  const t = o._zod.def.shape[key];
  return t instanceof z.core.$ZodLiteral && t._zod.values.has(value as never);
}

/** For a union, the branch the value belongs to (by `type` discriminator or by kind). */
function pick(s: z.core.$ZodType, v: unknown): z.core.$ZodType {
  if (!(s instanceof z.core.$ZodUnion)) return s;
  const options = s._zod.def.options as z.core.$ZodType[];
  const objects = options
    .map(unwrap)
    .filter((o): o is z.core.$ZodObject => o instanceof z.core.$ZodObject);
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    const type = (v as Record<string, unknown>).type;
    return objects.find((o) => hasLiteral(o, 'type', type)) ?? objects[0] ?? s;
  }
  return s;
}

function childSchema(s: z.core.$ZodType, k: string | number): z.core.$ZodType | undefined {
  if (s instanceof z.core.$ZodObject) return s._zod.def.shape[k];
  if (s instanceof z.core.$ZodArray) return s._zod.def.element;
  if (s instanceof z.core.$ZodRecord) return s._zod.def.valueType;
  if (s instanceof z.core.$ZodTuple) return s._zod.def.items[Number(k)];
  return undefined;
}

// ---- "Did you mean" -------------------------------------------------------------------

/** The known key closest to `key`, if it is close enough to be a likely typo. */
export function suggest(key: string, known: readonly string[]): string | null {
  let best: string | null = null;
  let bestD = Infinity;
  for (const k of known) {
    const d = closeness(key.toLowerCase(), k.toLowerCase());
    if (d < bestD) {
      best = k;
      bestD = d;
    }
  }
  return bestD <= Math.max(2, Math.floor(key.length / 3)) ? best : null;
}

/** Edit distance, except that a unit added or dropped ("thinkTime" for "thinkTimeMs",
 * "sizeKiBs") counts as one edit. */
function closeness(a: string, b: string): number {
  if ((a.startsWith(b) || b.startsWith(a)) && Math.abs(a.length - b.length) <= 3) {
    return Math.min(1, Math.abs(a.length - b.length));
  }
  return editDistance(a, b);
}

function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j]!;
      prev[j] = Math.min(up + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length]!;
}
