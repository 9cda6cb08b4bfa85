// Checking a configuration against the catalog (the engine's tables the worker sends) and the
// lesson list: the settings panel's inline messages and a link's problems, in plain words.
import {
  DEFAULT_LESSON,
  emptyOverrides,
  type Catalog,
  type LabConfig,
  type PresetInfo,
  type RunOverrides,
  type TunableInfo,
} from './config';
import { isUserDiskName, userDiskFile } from '../engine/disk/presets/user-disks';
import { sanitizeExtras } from './run-extras';

/** A problem with one value, for a person: `where` names the setting as Linux does. */
export interface Problem {
  where: string;
  message: string;
}

const UNIT_WORDS: Record<TunableInfo['unit'], string> = {
  ms: 'ms',
  us: 'µs',
  ns: 'ns',
  requests: 'requests',
  sectors: 'sectors',
  bool: '(0 or 1)',
  count: '',
  KiB: 'KiB',
};

export function unitWord(unit: TunableInfo['unit']): string {
  return UNIT_WORDS[unit];
}

/** null when `value` is acceptable for the tunable, else the sentence to show. */
export function checkTunable(t: TunableInfo, value: number): string | null {
  if (!Number.isFinite(value)) return `${t.name} must be a number`;
  if (!Number.isInteger(value) && t.unit !== 'ms') return `${t.name} must be a whole number`;
  if (value < t.min || value > t.max) {
    const unit = t.unit === 'bool' ? '' : ` ${unitWord(t.unit)}`;
    return `${t.name} must be from ${t.min} to ${t.max}${unit}`.trimEnd();
  }
  return null;
}

/** The overrides with every value the catalog does not accept removed, and why. */
export function sanitizeOverrides(
  o: RunOverrides,
  catalog: Catalog,
  label = '',
): { overrides: RunOverrides; problems: Problem[] } {
  const problems: Problem[] = [];
  const at = (w: string) => (label ? `${label}: ${w}` : w);
  const out: RunOverrides = emptyOverrides();
  if (o.sched !== undefined) {
    if (catalog.schedulers.some((s) => s.name === o.sched)) out.sched = o.sched;
    else
      problems.push({
        where: at('scheduler'),
        message: `there is no I/O scheduler "${o.sched}"; available: ${catalog.schedulers.map((s) => s.name).join(', ')}`,
      });
  }
  if (o.kernel !== undefined) {
    if (catalog.kernels.includes(o.kernel)) out.kernel = o.kernel;
    else
      problems.push({
        where: at('kernel'),
        message: `must be one of ${catalog.kernels.join(', ')}`,
      });
  }
  if (o.hz !== undefined) {
    if (catalog.hz.includes(o.hz)) out.hz = o.hz;
    else problems.push({ where: at('HZ'), message: `must be one of ${catalog.hz.join(', ')}` });
  }
  let preset: PresetInfo | undefined;
  if (o.disk !== undefined) {
    preset = catalog.presets.find((p) => p.name === o.disk);
    if (preset) out.disk = o.disk;
    else if (isUserDiskName(o.disk))
      problems.push({
        where: at('disk'),
        message: `${o.disk} is a DiskSim disk this browser does not have: open ${userDiskFile(o.disk)} again (Settings → Disk → Open a DiskSim disk, with the files it sources); until then the lesson's disk runs`,
      });
    else
      problems.push({
        where: at('disk'),
        message: `there is no disk preset "${o.disk}"; available: ${catalog.presets.map((p) => p.name).join(', ')}`,
      });
  }
  if (o.qd !== undefined) {
    const max = preset?.maxQueueDepth ?? 64;
    if (Number.isInteger(o.qd) && o.qd >= 1 && o.qd <= max) out.qd = o.qd;
    else
      problems.push({
        where: at('queue depth'),
        message: `must be a whole number from 1 to ${max}`,
      });
  }
  if (o.dsched !== undefined) {
    if (catalog.diskSchedulers.includes(o.dsched)) out.dsched = o.dsched;
    else
      problems.push({
        where: at('drive scheduler'),
        message: `must be one of ${catalog.diskSchedulers.join(', ')}`,
      });
  }
  if (o.pc !== undefined) {
    if (Number.isInteger(o.pc) && o.pc >= 0 && o.pc <= 1048576) out.pc = o.pc;
    else
      problems.push({
        where: at('page cache'),
        message: 'must be a whole number of MiB from 0 (none) to 1048576',
      });
  }
  sanitizeExtras(o, out, (where, message) => problems.push({ where: at(where), message }));
  // Tunables belong to the scheduler that runs: without a scheduler override, to the
  // lesson's, which the worker checks (the catalog alone cannot know it); here, any
  // scheduler's table that has the name.
  const table = out.sched
    ? (catalog.schedulers.find((s) => s.name === out.sched)?.tunables ?? [])
    : catalog.schedulers.flatMap((s) => s.tunables);
  for (const [name, value] of Object.entries(o.tunables)) {
    const t = table.find((x) => x.name === name);
    if (!t) {
      problems.push({
        where: at(name),
        message: out.sched
          ? `"${out.sched}" has no tunable ${name}`
          : `no I/O scheduler has a tunable ${name}`,
      });
      continue;
    }
    const bad = checkTunable(t, value);
    if (bad) problems.push({ where: at(name), message: bad });
    else out.tunables[name] = value;
  }
  for (const [name, value] of Object.entries(o.queue)) {
    const t = catalog.queue.find((x) => x.name === name);
    const bad = t ? checkTunable(t, value) : `the request queue has no setting ${name}`;
    if (bad || !t) problems.push({ where: at(name), message: bad ?? '' });
    else out.queue[name] = value;
  }
  for (const [name, value] of Object.entries(o.gen)) {
    const g = catalog.generators.find((x) => `${x.kind}.${x.key}` === name);
    if (!g) problems.push({ where: at(name), message: `no workload generator has a key ${name}` });
    else if (!g.choices.includes(value))
      problems.push({ where: at(name), message: `must be one of ${g.choices.join(', ')}` });
    else out.gen[name] = value;
  }
  return { overrides: out, problems };
}

/** The whole configuration against the catalog and the lesson list: what is usable, and
 * a message for everything dropped (it falls back to the lesson's value). */
export function sanitizeConfig(
  c: LabConfig,
  catalog: Catalog,
  lessons: readonly string[],
): { config: LabConfig; problems: Problem[] } {
  const problems: Problem[] = [];
  let lesson = c.lesson;
  if (lessons.length > 0 && !lessons.includes(lesson)) {
    problems.push({ where: 'lesson', message: `there is no lesson "${lesson}"` });
    lesson = DEFAULT_LESSON;
  }
  const run = sanitizeOverrides(c.run, catalog);
  problems.push(...run.problems);
  const compare = c.compare?.map((col, i) => {
    const r = sanitizeOverrides(col, catalog, `column ${i + 1}`);
    problems.push(...r.problems);
    return r.overrides;
  });
  return {
    config: { ...c, lesson, run: run.overrides, compare: compare ?? null },
    problems,
  };
}
