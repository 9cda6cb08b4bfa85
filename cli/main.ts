// The `spindle` command: dispatch to a command, turn every failure into one
// `spindle: <message>` line per problem on stderr and an exit status (errors.ts).
// Each command's module is imported when that command runs, so a command runs the top-level
// code of its own modules only (`spindle parse` builds no scenario schemas; in the bundle,
// vite.config.ts, each module is initialised when first imported): start-up is most of a
// short run's time (issue 19). This file imports only what every command needs: the error
// classes that report() tells apart.
import { ScenarioError } from '../src/engine/scenario/error';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, TraceInputError, UsageError } from './errors';
import { DiskSimInputError } from '../src/engine/disk/disksim/syntax';
import { COMMANDS, type CommandName } from './commands';

export interface Io {
  /** the stream, for output written as it is made (export) */
  stdout: NodeJS.WritableStream & import('node:stream').Writable;
  /** output written in one piece (stdio.ts writeOut) */
  out(text: string): void;
  stderr: { write(text: string): unknown };
  debug: boolean;
}

const wantsHelp = (argv: readonly string[]): boolean =>
  argv.includes('--help') || argv.includes('-h');

export async function main(argv: readonly string[], io: Io): Promise<number> {
  const print = (text: string): void => io.out(text + '\n');
  // a note says what an option implied; said once, on stderr, so --json output stays clean
  const said = new Set<string>();
  const note = (text: string): void => {
    if (!said.has(text)) io.stderr.write(`spindle: note: ${text}\n`);
    said.add(text);
  };
  try {
    const [command, ...rest] = argv;
    if (command === undefined) {
      io.stderr.write((await import('./help')).helpText('main') + '\n');
      return EXIT_USAGE;
    }
    if (command === '--help' || command === '-h' || command === 'help') {
      const topic = rest[0];
      const { helpText } = await import('./help');
      print(helpText(topic !== undefined && isCommand(topic) ? topic : 'main'));
      return EXIT_OK;
    }
    if (!isCommand(command)) {
      throw new UsageError(
        `unknown command "${command}" (commands: ${COMMANDS.join(', ')}; see spindle --help)`,
      );
    }
    if (wantsHelp(rest)) {
      print((await import('./help')).helpText(command));
      return EXIT_OK;
    }
    switch (command) {
      case 'run':
        (await import('./run')).runCommand(rest, print, note);
        break;
      case 'sweep':
        (await import('./run')).sweepCommand(rest, print, note);
        break;
      case 'export':
        await (await import('./export')).exportCommand(rest, io.stdout, note);
        break;
      case 'presets':
        (await import('./presets')).presetsCommand(rest, print);
        break;
      case 'parse':
        await (await import('./parse')).parseCommand(rest, print);
        break;
      case 'replay':
        await (await import('./replay')).replayCommand(rest, print, note);
        break;
      case 'range-sweep':
        (await import('./range-sweep')).rangeSweepCommand(rest, print);
        break;
      case 'disksim-validate':
        await (await import('./disksim')).disksimValidateCommand(rest, print);
        break;
      case 'disksim-read':
        (await import('./disksim')).disksimReadCommand(rest, print);
        break;
    }
    return EXIT_OK;
  } catch (e) {
    return report(e, io);
  }
}

function isCommand(s: string): s is CommandName {
  return (COMMANDS as readonly string[]).includes(s);
}

function report(e: unknown, io: Io): number {
  if (e instanceof ScenarioError) {
    for (const line of e.message.split('\n')) io.stderr.write(`spindle: ${line}\n`);
    return EXIT_USAGE;
  }
  if (e instanceof TraceInputError || e instanceof DiskSimInputError) {
    io.stderr.write(`spindle: ${e.message}\n`);
    return EXIT_FAILURE;
  }
  if (e instanceof UsageError) {
    io.stderr.write(`spindle: ${e.message}\n`);
    return EXIT_USAGE;
  }
  const message = e instanceof Error ? e.message.split('\n')[0] : String(e);
  if (io.debug && e instanceof Error && e.stack) io.stderr.write(e.stack + '\n');
  io.stderr.write(
    `spindle: internal error: ${message}${io.debug ? '' : ' (SPINDLE_DEBUG=1 shows the stack)'}\n`,
  );
  return EXIT_FAILURE;
}
