// The generator families by kind, the scenario-facing spec (every field resolved), and the
// defaults. See types.ts for the model and each family's file for its parameters' sources.
import { fio, FIO_JOBS, type FioSpec } from './fio';
import { ffsb, FFSB_PROFILES, type FfsbSpec } from './ffsb';
import { postmark, POSTMARK_CONFIGS, type PostmarkSpec } from './postmark';
import { kbuild, type KbuildSpec } from './kbuild';
import { tpcb, type TpcbSpec } from './tpcb';
import { smallfiles, type SmallFilesSpec } from './smallfiles';
import { FS_NAMES } from './fs';
import type { GenFamily } from './types';

export type GeneratorSpec =
  FioSpec | FfsbSpec | PostmarkSpec | KbuildSpec | TpcbSpec | SmallFilesSpec;
export type GeneratorKind = GeneratorSpec['kind'];

export const GENERATOR_KINDS = ['fio', 'ffsb', 'postmark', 'kbuild', 'tpcb', 'smallfiles'] as const;
export { FIO_JOBS, FFSB_PROFILES, POSTMARK_CONFIGS, FS_NAMES };

const FAMILIES: Record<GeneratorKind, GenFamily<never, unknown>> = {
  fio: fio as GenFamily<never, unknown>,
  ffsb: ffsb as GenFamily<never, unknown>,
  postmark: postmark as GenFamily<never, unknown>,
  kbuild: kbuild as GenFamily<never, unknown>,
  tpcb: tpcb as GenFamily<never, unknown>,
  smallfiles: smallfiles as GenFamily<never, unknown>,
};

export function generatorFamily(spec: GeneratorSpec): GenFamily<GeneratorSpec, unknown> {
  return FAMILIES[spec.kind] as unknown as GenFamily<GeneratorSpec, unknown>;
}

/** What each kind's keys mean when left out (startMs 0, durationMs null for all). */
export const GENERATOR_DEFAULTS = {
  common: { startMs: 0, durationMs: null },
  fio: { fileMiB: null, iodepth: 1 },
  ffsb: { scale: 1 },
  postmark: { fs: 'ext3', scale: 1 },
  kbuild: { interarrivalMs: null },
  tpcb: { thinkMs: 0 },
  smallfiles: { pids: 1, fullness: 0, rangeWrites: false, inFlight: 16 },
} as const;

/** Threads when the process gives no count. */
export function generatorThreads(spec: GeneratorSpec): number {
  return generatorFamily(spec).defaultThreads(spec);
}

/** The generators' named variants a user may pick instead of a lesson's (the page's
 * "Workload" settings): plain data, from the same tables the scenario schema checks. */
export interface GeneratorChoice {
  kind: GeneratorKind;
  /** the generator key, as in a scenario file */
  key: string;
  /** the values, as text (numbers written out) */
  choices: string[];
  /** the value when a scenario leaves the key out; null = the key is required */
  defaultValue: string | null;
  doc: string;
}

export const GENERATOR_CHOICES: readonly GeneratorChoice[] = [
  {
    kind: 'ffsb',
    key: 'profile',
    choices: [...FFSB_PROFILES],
    defaultValue: null,
    doc: "FFSB's profile (Heger & Quinn's five)",
  },
  {
    kind: 'postmark',
    key: 'config',
    choices: [...POSTMARK_CONFIGS],
    defaultValue: null,
    doc: 'small or large files × small or large working set',
  },
  {
    kind: 'postmark',
    key: 'fs',
    choices: [...FS_NAMES],
    defaultValue: GENERATOR_DEFAULTS.postmark.fs,
    doc: 'the file system shaping the writes',
  },
  { kind: 'fio', key: 'job', choices: [...FIO_JOBS], defaultValue: null, doc: 'the fio job' },
  {
    kind: 'kbuild',
    key: 'builds',
    choices: ['2', '4'],
    defaultValue: null,
    doc: 'concurrent kernel builds',
  },
  {
    kind: 'smallfiles',
    key: 'pids',
    choices: ['1', '16'],
    defaultValue: String(GENERATOR_DEFAULTS.smallfiles.pids),
    doc: 'processes creating the files (a PID mod 16 picks the mini-group)',
  },
  {
    kind: 'smallfiles',
    key: 'fullness',
    choices: ['0', '0.25', '0.5', '0.75', '0.9'],
    defaultValue: String(GENERATOR_DEFAULTS.smallfiles.fullness),
    doc: 'share of the block group in use before the files are created',
  },
  {
    kind: 'smallfiles',
    key: 'rangeWrites',
    choices: ['true', 'false'],
    defaultValue: String(GENERATOR_DEFAULTS.smallfiles.rangeWrites),
    doc: 'each file a range write over its mini-group’s free blocks, or ext2’s one block',
  },
];
