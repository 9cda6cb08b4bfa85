// Command-line arguments: positionals and `--name value` / `--name=value` options, each
// command declaring which options it takes (so an unknown one is an error, not ignored).
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
  const positionals: string[] = [];
  const options = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--') || arg === '-') {
      if (arg.startsWith('-') && arg !== '-')
        throw new UsageError(
          `unknown option ${arg} for "${command}" (see spindle ${command} --help)`,
        );
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const spec = specs[name];
    if (!spec)
      throw new UsageError(
        `unknown option --${name} for "${command}" (see spindle ${command} --help)`,
      );
    let value = 'true';
    if (spec.value) {
      if (eq >= 0) value = arg.slice(eq + 1);
      else if (i + 1 < argv.length) value = argv[++i]!;
      else throw new UsageError(`--${name} needs a value (see spindle ${command} --help)`);
    } else if (eq >= 0) {
      throw new UsageError(`--${name} takes no value`);
    }
    const seen = options.get(name);
    if (seen && !spec.repeat) throw new UsageError(`--${name} given more than once`);
    options.set(name, [...(seen ?? []), value]);
  }
  return { positionals, options };
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
