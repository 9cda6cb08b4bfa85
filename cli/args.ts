// Command-line arguments: positionals and `--name value` / `--name=value` options, each
// command declaring which options it takes (so an unknown one is an error, not ignored).
// Node's own util.parseArgs reads them (strict: unknown options, a missing value, a value
// given to a flag are errors; `--` ends the options; `-` is a positional, stdin); this file
// only maps its errors to the CLI's messages and refuses a repeat of an option that is not
// meant to repeat (util.parseArgs would keep the last silently). What it does not do, and
// neither does Spindle now: take a value that starts with "-" after a space (`--set -1`
// is ambiguous to it; `--set=-1` is not).
import { parseArgs as nodeParseArgs } from 'node:util';
import { UsageError } from './errors';

export interface OptionSpec {
  /** takes a value (else a flag) */
  value: boolean;
  /** may be given more than once (values collect in order) */
  repeat?: boolean;
}

export interface ParsedArgs {
  positionals: string[];
  /** option name → its values (flags: ['true']) */
  options: Map<string, string[]>;
}

export function parseArgs(
  command: string,
  argv: readonly string[],
  specs: Record<string, OptionSpec>,
): ParsedArgs {
  const declared = Object.fromEntries(
    Object.entries(specs).map(([name, s]) => [
      name,
      { type: s.value ? ('string' as const) : ('boolean' as const), multiple: true },
    ]),
  );
  let parsed: {
    values: Record<string, unknown>;
    positionals: string[];
  };
  try {
    parsed = nodeParseArgs({
      args: [...argv],
      options: declared,
      allowPositionals: true,
      strict: true,
    });
  } catch (e) {
    throw new UsageError(usage(command, e));
  }
  const options = new Map<string, string[]>();
  for (const [name, values] of Object.entries(parsed.values)) {
    // every option is declared `multiple`: a list, so a repeat can be told
    if (!Array.isArray(values)) continue;
    if (values.length > 1 && specs[name]?.repeat !== true)
      throw new UsageError(`--${name} given more than once`);
    options.set(
      name,
      values.map((v: unknown) => (typeof v === 'string' ? v : 'true')),
    );
  }
  return { positionals: parsed.positionals, options };
}

/** util.parseArgs's error in the CLI's words. */
function usage(command: string, e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  const code = (e as { code?: string }).code;
  const help = `(see spindle ${command} --help)`;
  const name = /Option '(-[-\w]+)/.exec(message)?.[1] ?? /'(-[^']*)'/.exec(message)?.[1] ?? '';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION')
    return `unknown option ${name} for "${command}" ${help}`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    if (/argument missing/.test(message)) return `${name} needs a value ${help}`;
    if (/does not take an argument/.test(message)) return `${name} takes no value`;
    if (/ambiguous/.test(message))
      return `${name}: its value starts with "-": write it as ${name}=<value>`;
  }
  return `${message.split('\n')[0]} ${help}`;
}

export function flag(a: ParsedArgs, name: string): boolean {
  return a.options.has(name);
}

export function single(a: ParsedArgs, name: string): string | undefined {
  return a.options.get(name)?.[0];
}

export function all(a: ParsedArgs, name: string): string[] {
  return a.options.get(name) ?? [];
}

/** Exactly one positional: the scenario (or trace) file. */
export function onePositional(a: ParsedArgs, command: string, what: string): string {
  if (a.positionals.length === 0)
    throw new UsageError(`${command} needs a ${what} (see spindle ${command} --help)`);
  if (a.positionals.length > 1)
    throw new UsageError(
      `${command} takes one ${what}, got ${a.positionals.length}: ${a.positionals.join(' ')}`,
    );
  return a.positionals[0]!;
}
