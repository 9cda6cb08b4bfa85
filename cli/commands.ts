// The `spindle` commands, in the order `spindle --help` lists them (main.ts dispatches on
// these; help.ts has each one's text).

export const COMMANDS = [
  'run',
  'sweep',
  'export',
  'presets',
  'parse',
  'replay',
  'range-sweep',
  'disksim-validate',
  'disksim-read',
] as const;
export type CommandName = (typeof COMMANDS)[number];
