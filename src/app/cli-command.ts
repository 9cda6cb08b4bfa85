// The terminal command that runs what the page runs: a lesson with the page's overrides as
// `spindle run public/scenarios/<file> --set path=value …` (the CLI's --set addresses the
// scenario's JSON paths, cli/settings.ts). The lesson steps show it in a collapsed line; a
// test checks that the CLI's edits and applyOverrides load to the same scenario.
import type { RunOverrides } from './config';
import { couldRange } from './run-extras';
import { asObject } from './workload-config';

type Edit = [path: string, value: string];

/** The --set edits for `o` on the lesson's raw JSON, in the order applyOverrides applies. */
export function cliEdits(lesson: unknown, o: RunOverrides): Edit[] {
  const raw = asObject(lesson);
  const iosched = asObject(raw.iosched);
  const procs = asObject(raw.workload).processes;
  const list = Array.isArray(procs) ? (procs as unknown[]).map(asObject) : [];
  const out: Edit[] = [];
  const lessonSched = typeof iosched.name === 'string' ? iosched.name : 'none';
  if (o.sched !== undefined && o.sched !== lessonSched) {
    out.push(['iosched.name', o.sched]);
    // another scheduler starts from its own defaults, as on the page
    if (Object.keys(asObject(iosched.tunables)).length > 0) out.push(['iosched.tunables', '{}']);
  }
  for (const [k, v] of Object.entries(o.tunables)) out.push([`iosched.tunables.${k}`, String(v)]);
  for (const [k, v] of Object.entries(o.queue)) out.push([`iosched.queue.${k}`, String(v)]);
  if (o.kernel !== undefined) out.push(['iosched.kernel', o.kernel]);
  if (o.hz !== undefined) out.push(['iosched.hz', String(o.hz)]);
  if (o.disk !== undefined) out.push(['disk.preset', o.disk]);
  if (o.qd !== undefined) out.push(['disk.queueDepth', String(o.qd)]);
  if (o.dsched !== undefined) out.push(['disk.scheduler', o.dsched]);
  if (o.cache !== undefined) out.push(['disk.cache', o.cache]);
  if (o.pc !== undefined)
    out.push(
      o.pc > 0 ? ['workload.pageCache.memoryMiB', String(o.pc)] : ['workload.pageCache', 'null'],
    );
  for (const [name, value] of Object.entries(o.gen)) {
    const [kind, key] = name.split('.');
    list.forEach((p, i) => {
      if (asObject(p.generator).kind === kind)
        out.push([`workload.processes.${i}.generator.${key}`, value]);
    });
  }
  if (o.ranges === false)
    list.forEach((p, i) => {
      if (p.range !== undefined && p.range !== null) {
        out.push([`workload.processes.${i}.range`, 'null']);
        out.push([`workload.processes.${i}.pattern`, 'sequential']);
      }
    });
  if (o.ranges === true)
    list.forEach((p, i) => {
      // the processes applyRangesOn gives a range: one over the span they write in
      if (couldRange(p))
        out.push([`workload.processes.${i}.range.sizeSectors`, String(asObject(p.span).sectors)]);
    });
  for (const [i, p] of Object.entries(o.ioprio ?? {})) {
    out.push([`workload.processes.${i}.ioprio.class`, p.class]);
    out.push([`workload.processes.${i}.ioprio.level`, String(p.level)]);
  }
  if (o.stop)
    out.push([
      'stop',
      o.stop.requests !== null
        ? JSON.stringify({ requests: o.stop.requests })
        : JSON.stringify({ timeMs: o.stop.timeMs }),
    ]);
  return out;
}

/** A word for a POSIX shell: as it is when it is plain, else in single quotes. */
export function shellWord(s: string): string {
  return /^[A-Za-z0-9_.,=/:+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The whole command line for one run. */
export function cliCommand(file: string, lesson: unknown, o: RunOverrides, seed?: number): string {
  const words = ['spindle', 'run', `public/scenarios/${file}`];
  for (const [path, value] of cliEdits(lesson, o)) words.push('--set', `${path}=${value}`);
  if (seed !== undefined) words.push('--seed', String(seed));
  return words.map(shellWord).join(' ');
}
