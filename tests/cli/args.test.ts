// Issue 20 item 11: the CLI's arguments are read by Node's util.parseArgs (cli/args.ts), with
// the CLI's own messages; what it adds is refusing a repeat of an option that is not meant to
// repeat (util.parseArgs keeps the last one silently).
import { describe, expect, it } from 'vitest';
import { parseArgs, type OptionSpec } from '../../cli/args';
import { UsageError } from '../../cli/errors';

const SPECS: Record<string, OptionSpec> = {
  set: { value: true, repeat: true },
  seed: { value: true },
  json: { value: false },
};
const read = (...argv: string[]) => parseArgs('run', argv, SPECS);
const why = (...argv: string[]): string => {
  try {
    read(...argv);
  } catch (e) {
    if (e instanceof UsageError) return e.message;
    throw e;
  }
  return '(read)';
};

describe('spindle’s arguments (util.parseArgs)', () => {
  it('--name value, --name=value, repeats in order, flags, positionals, - and --', () => {
    const a = read('s.json', '--set', 'a=1', '--set=b=2', '--json', '--seed=7', '-', '--', '--x');
    expect(a.positionals).toEqual(['s.json', '-', '--x']);
    expect(Object.fromEntries(a.options)).toEqual({
      set: ['a=1', 'b=2'],
      json: ['true'],
      seed: ['7'],
    });
  });

  it('strict: unknown options, missing values, values to flags, repeats — each an error', () => {
    expect(why('--bogus')).toBe('unknown option --bogus for "run" (see spindle run --help)');
    expect(why('-x')).toBe('unknown option -x for "run" (see spindle run --help)');
    expect(why('--seed')).toBe('--seed needs a value (see spindle run --help)');
    expect(why('--json=yes')).toBe('--json takes no value');
    expect(why('--seed', '1', '--seed', '2')).toBe('--seed given more than once');
    expect(why('--json', '--json')).toBe('--json given more than once');
  });

  it('a value starting with "-" is written --name=-value (util.parseArgs finds it ambiguous)', () => {
    expect(why('--set', '-1')).toBe('--set: its value starts with "-": write it as --set=<value>');
    expect(read('--set=-1').options.get('set')).toEqual(['-1']);
  });
});
