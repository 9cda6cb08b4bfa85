// The `spindle` command: dispatch to a command, turn every failure into one
// `spindle: <message>` line per problem on stderr and an exit status (errors.ts).
import { ScenarioError } from '../src/engine/scenario/load';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError } from './errors';
import { DiskSimInputError } from '../src/engine/disk/disksim/syntax';
import { disksimReadCommand, disksimValidateCommand } from './disksim';
import { exportCommand } from './export';
import { parseCommand, TraceInputError } from './parse';
import { COMMANDS, helpText, type CommandName } from './help';
import { presetsCommand } from './presets';
import { rangeSweepCommand } from './range-sweep';
import { replayCommand } from './replay';
import { runCommand, sweepCommand } from './run';

export interface Io {
  stdout: NodeJS.WritableStream & import('node:stream').Writable;
  stderr: { write(text: string): unknown };
  debug: boolean;
}

const wantsHelp = (argv: readonly string[]): boolean =>
  argv.includes('--help') || argv.includes('-h');

export async function main(argv: readonly string[], io: Io): Promise<number> {
  const print = (text: string): void => void io.stdout.write(text + '\n');
  // a note says what an option implied; said once, on stderr, so --json output stays clean
  const said = new Set<string>();
  const note = (text: string): void => {
    if (!said.has(text)) io.stderr.write(`spindle: note: ${text}\n`);
    said.add(text);
  };
  try {
    const [command, ...rest] = argv;
    if (command === undefined) {
      io.stderr.write(helpText('main') + '\n');
      return EXIT_USAGE;
    }
    if (command === '--help' || command === '-h' || command === 'help') {
      const topic = rest[0];
      print(helpText(topic !== undefined && isCommand(topic) ? topic : 'main'));
      return EXIT_OK;
    }
    if (!isCommand(command)) {
      throw new UsageError(
        `unknown command "${command}" (commands: ${COMMANDS.join(', ')}; see spindle --help)`,
      );
    }
    if (wantsHelp(rest)) {
      print(helpText(command));
      return EXIT_OK;
    }
    switch (command) {
      case 'run':
        runCommand(rest, print, note);
        break;
      case 'sweep':
        sweepCommand(rest, print, note);
        break;
      case 'export':
        await exportCommand(rest, io.stdout, note);
        break;
      case 'presets':
        presetsCommand(rest, print);
        break;
      case 'parse':
        await parseCommand(rest, print);
        break;
      case 'replay':
        await replayCommand(rest, print, note);
        break;
      case 'range-sweep':
        rangeSweepCommand(rest, print);
        break;
      case 'disksim-validate':
        disksimValidateCommand(rest, print);
        break;
      case 'disksim-read':
        disksimReadCommand(rest, print);
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
