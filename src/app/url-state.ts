// The whole configuration in the page's URL (issue #5 item 9), so a link reproduces what
// the sender saw. Pure functions; no DOM.
//
// The encoding: plain query parameters, readable and editable by a teacher, versioned.
//
//   ?v=1&lesson=deadline-promise.json&seed=7
//    &sched=deadline&t.read_expire=250&t.fifo_batch=8      I/O scheduler and its tunables
//    &q.nr_requests=64&kernel=2.6.16&hz=1000                queue settings, kernel era, HZ
//    &disk=cheetah-15k4-146g&qd=16&dsched=sptf             disk preset, depth, drive's scheduler
//    &pc=64                                                 page cache of 64 MiB (0: none)
//    &cache=write-back&ranges=0                             drive's write policy, range writes off (1: on)
//    &io.3=idle.7&io.0=be.0                                 a process's I/O priority (class.level)
//    &stop.requests=500  (or &stop.timeMs=2000)             the run's length
//    &w.ffsb.profile=rand-read&w.postmark.fs=xfs            workload generators' variants
//    &cmp=2&c1.sched=noop&c2.sched=deadline&c2.t.read_expire=100    compare mode: 2–4 columns
//    &_hide=seed,speed&present=1&embed=1&quiz=1&theme=dark&at=1500000  hidden controls, modes, time
//    &from=124000000000                                     play the window from 124 s on
//
// Times are whole nanoseconds of simulated time. `at` is where playback starts, paused; `from`
// is where the played window starts (the worker runs the simulation to it unrecorded, then
// records its bounded log from there): absent = where the lesson's `play.fromMs` says, else
// the start; `from=0` = the run's start even when the lesson says otherwise.
// Why not base64 JSON: a teacher can read and write these by hand (`_hide=seed`), and a
// shared link says what it changes. Only what differs from the lesson is written.
//
// Reading is strict and total: every key is known, every value matches a narrow pattern
// (names of letters, digits and `_.-`; numbers of at most 12 digits), the whole query is
// bounded in size. Anything else is reported as a Problem, in plain words, and left at its
// default — the function never throws, and nothing from the URL is ever used as markup
// (the page shows these messages as React text). A link from a future version (`v=2`) is
// not guessed at: it is reported and the defaults are used. Values are then checked against
// the engine's tables (config-check.ts sanitizeConfig) once the worker has sent them.
import {
  HIDEABLE,
  MAX_COLUMNS,
  MIN_COLUMNS,
  defaultConfig,
  emptyOverrides,
  type Hideable,
  type LabConfig,
  type RunOverrides,
} from './config';
import type { Problem } from './config-check';
import { ioprioText, parseIoprio } from './run-extras';

export const URL_VERSION = 1;
/** longer queries are refused whole (no real configuration comes near this) */
export const MAX_QUERY_CHARS = 4000;
const MAX_PARAMS = 200;

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
// eslint-disable-next-line no-control-regex
const FILE_DISK = /^file:[^\u0000-\u001f\u007f/\\]{1,200}$/;
const LESSON = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,79}\.json$/;
const TUNABLE = /^[a-z][a-z0-9_]{0,39}$/;
const NUMBER = /^-?\d{1,12}(\.\d{1,9})?$/;
const UINT = /^\d{1,12}$/;
/** a simulated time in ns: up to 15 digits (11 days; 12 digits would stop at 16 minutes) */
const TIME_NS = /^\d{1,15}$/;
const COLUMN_KEY = /^c([1-9])\.(.*)$/s;
const GEN_KEY = /^[a-z]{1,20}\.[a-zA-Z]{1,20}$/;

export interface ParsedUrl {
  config: LabConfig;
  problems: Problem[];
  /** true when the query said anything at all about the configuration */
  given: boolean;
}

/** Show a piece of a hostile URL safely in a sentence: quoted, trimmed, no controls. */
function shown(s: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = s.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
  return JSON.stringify(clean.length > 40 ? `${clean.slice(0, 40)}…` : clean);
}

/** Set one run-level key on `o`; returns a problem message or null (consumed) or
 * undefined (not a run key). */
function setRunKey(o: RunOverrides, key: string, value: string): string | null | undefined {
  const num = () => (NUMBER.test(value) ? Number(value) : NaN);
  const name = () => (NAME.test(value) ? value : null);
  switch (key) {
    case 'disk':
      // a user's DiskSim disk is named after its file ("file:x.parv", any file name)
      if (FILE_DISK.test(value)) {
        o.disk = value;
        return null;
      }
    // falls through: a preset's name
    case 'sched':
    case 'dsched':
    case 'kernel': {
      const n = name();
      if (n === null) return `${key}: ${shown(value)} is not a name`;
      o[key] = n;
      return null;
    }
    case 'cache': {
      if (value !== 'write-through' && value !== 'write-back')
        return `cache: ${shown(value)} is not write-through or write-back`;
      o.cache = value;
      return null;
    }
    case 'ranges': {
      if (value !== '0' && value !== '1')
        return `ranges: ${shown(value)} is not 0 (range writes off) or 1 (on)`;
      o.ranges = value === '1';
      return null;
    }
    case 'stop.requests':
    case 'stop.timeMs': {
      if (o.stop) return "the run's length is given twice (stop.requests and stop.timeMs)";
      if (key === 'stop.requests') {
        if (!UINT.test(value)) return `${key}: ${shown(value)} is not a whole number`;
        o.stop = { requests: Number(value), timeMs: null };
      } else {
        if (!NUMBER.test(value)) return `${key}: ${shown(value)} is not a number`;
        o.stop = { requests: null, timeMs: Number(value) };
      }
      return null;
    }
    case 'hz':
    case 'pc':
    case 'qd': {
      if (!UINT.test(value)) return `${key}: ${shown(value)} is not a whole number`;
      o[key] = Number(value);
      return null;
    }
  }
  const dot = key.indexOf('.');
  if (dot < 0) return undefined;
  const table = key.slice(0, dot);
  const tunable = key.slice(dot + 1);
  if (table === 'io') {
    if (!/^\d{1,3}$/.test(tunable)) return `${shown(key)}: io. takes a process number`;
    const p = parseIoprio(value);
    if (!p) return `${key}: ${shown(value)} is not class.level (rt, be or idle; 0–7), e.g. idle.7`;
    (o.ioprio ??= {})[String(Number(tunable))] = p;
    return null;
  }
  if (table === 'w') {
    if (!GEN_KEY.test(tunable)) return `${shown(key)} is not a generator's key`;
    const n = name();
    if (n === null) return `${tunable}: ${shown(value)} is not a name`;
    o.gen[tunable] = n;
    return null;
  }
  if (table !== 't' && table !== 'q') return undefined;
  if (!TUNABLE.test(tunable)) return `${shown(key)} is not a tunable's name`;
  const n = num();
  if (!Number.isFinite(n)) return `${tunable}: ${shown(value)} is not a number`;
  (table === 't' ? o.tunables : o.queue)[tunable] = n;
  return null;
}

/** Read a query string (with or without its leading "?"). Never throws. */
export function parseUrlState(search: string): ParsedUrl {
  const config = defaultConfig();
  const problems: Problem[] = [];
  const query = search.startsWith('?') ? search.slice(1) : search;
  if (query.trim() === '') return { config, problems, given: false };
  if (query.length > MAX_QUERY_CHARS) {
    problems.push({
      where: 'link',
      message: `the link's settings are ${query.length} characters long (at most ${MAX_QUERY_CHARS}); showing the defaults`,
    });
    return { config, problems, given: true };
  }
  let params: [string, string][];
  try {
    params = [...new URLSearchParams(query).entries()];
  } catch {
    problems.push({ where: 'link', message: 'the link cannot be read; showing the defaults' });
    return { config, problems, given: true };
  }
  if (params.length > MAX_PARAMS) {
    problems.push({
      where: 'link',
      message: `the link has ${params.length} settings (at most ${MAX_PARAMS}); showing the defaults`,
    });
    return { config, problems, given: true };
  }
  const version = params.find(([k]) => k === 'v')?.[1];
  if (version !== undefined && version !== String(URL_VERSION)) {
    problems.push({
      where: 'link',
      message: `the link is version ${shown(version)}; this page reads version ${URL_VERSION}, so it shows the defaults`,
    });
    return { config, problems, given: true };
  }

  const seen = new Set<string>();
  let columns = 0;
  const cols: RunOverrides[] = Array.from({ length: MAX_COLUMNS }, emptyOverrides);
  let colUsed = 0;
  const bad = (where: string, message: string) => problems.push({ where, message });

  for (const [key, value] of params) {
    if (seen.has(key)) {
      bad('link', `${shown(key)} appears twice; the first is used`);
      continue;
    }
    seen.add(key);
    switch (key) {
      case 'v':
        continue;
      case 'lesson':
        if (LESSON.test(value)) config.lesson = value;
        else bad('lesson', `${shown(value)} is not a lesson file name`);
        continue;
      case 'seed':
        if (UINT.test(value) && Number(value) <= 4294967295) config.seed = Number(value);
        else bad('seed', `${shown(value)} is not a whole number from 0 to 4294967295`);
        continue;
      case 'cmp':
        if (/^[2-4]$/.test(value)) columns = Number(value);
        else
          bad(
            'compare',
            `cmp=${shown(value)}: compare takes ${MIN_COLUMNS} to ${MAX_COLUMNS} columns`,
          );
        continue;
      case '_hide': {
        const ids = value.split(',').filter((x) => x !== '');
        for (const id of ids) {
          if ((HIDEABLE as readonly string[]).includes(id)) {
            if (!config.hide.includes(id as Hideable)) config.hide.push(id as Hideable);
          } else bad('_hide', `${shown(id)} is not a control that can be hidden`);
        }
        continue;
      }
      case 'present':
      case 'embed':
      case 'quiz':
        if (value === '1') config[key] = true;
        else if (value !== '0') bad(key, `${key}=${shown(value)}: use 1 or 0`);
        continue;
      case 'theme':
        if (value === 'light' || value === 'dark') config.theme = value;
        else bad('theme', `${shown(value)}: use light or dark`);
        continue;
      case 'at':
      case 'from':
        if (TIME_NS.test(value)) config[key === 'at' ? 'atNs' : 'fromNs'] = Number(value);
        else bad(key, `${shown(value)} is not a time in whole nanoseconds`);
        continue;
    }
    const col = COLUMN_KEY.exec(key);
    if (col) {
      const i = Number(col[1]) - 1;
      if (i >= MAX_COLUMNS) {
        bad('compare', `${shown(key)}: there are at most ${MAX_COLUMNS} columns`);
        continue;
      }
      const r = setRunKey(cols[i]!, col[2]!, value);
      if (r === undefined) bad('link', `${shown(key)} is not a setting this page knows`);
      else if (r !== null) bad(`column ${i + 1}`, r);
      else colUsed = Math.max(colUsed, i + 1);
      continue;
    }
    const r = setRunKey(config.run, key, value);
    if (r === undefined) bad('link', `${shown(key)} is not a setting this page knows`);
    else if (r !== null)
      bad(
        ['t', 'q'].includes(key.split('.')[0]!)
          ? 'tunable'
          : key.startsWith('w.')
            ? 'workload'
            : key,
        r,
      );
  }
  if (colUsed > 0 && columns === 0) {
    bad('compare', 'the link sets compare columns but not how many (cmp=2…4); compare is off');
  } else if (colUsed > columns) {
    bad(
      'compare',
      `the link sets column ${colUsed} but cmp=${columns}; the extra columns are left out`,
    );
  }
  if (columns > 0) config.compare = cols.slice(0, columns);
  config.hide.sort((a, b) => HIDEABLE.indexOf(a) - HIDEABLE.indexOf(b));
  return { config, problems, given: true };
}

function writeRun(out: [string, string][], o: RunOverrides, prefix: string): void {
  const put = (k: string, v: string | number | undefined) => {
    if (v !== undefined) out.push([prefix + k, String(v)]);
  };
  put('sched', o.sched);
  for (const k of Object.keys(o.tunables).sort()) put(`t.${k}`, o.tunables[k]);
  put('kernel', o.kernel);
  put('hz', o.hz);
  for (const k of Object.keys(o.queue).sort()) put(`q.${k}`, o.queue[k]);
  put('disk', o.disk);
  put('qd', o.qd);
  put('dsched', o.dsched);
  put('cache', o.cache);
  put('pc', o.pc);
  for (const k of Object.keys(o.gen).sort()) put(`w.${k}`, o.gen[k]);
  if (o.ranges !== undefined) put('ranges', o.ranges ? 1 : 0);
  const io = o.ioprio ?? {};
  for (const k of Object.keys(io).sort((a, b) => Number(a) - Number(b)))
    put(`io.${k}`, ioprioText(io[k]!));
  if (o.stop?.requests != null) put('stop.requests', o.stop.requests);
  if (o.stop?.timeMs != null) put('stop.timeMs', o.stop.timeMs);
}

/** The configuration as a query string ("?v=1&…"), canonical: the same configuration
 * always gives the same string, and parseUrlState gives the configuration back. */
export function serializeUrlState(c: LabConfig): string {
  const out: [string, string][] = [['v', String(URL_VERSION)]];
  out.push(['lesson', c.lesson]);
  if (c.seed !== undefined) out.push(['seed', String(c.seed)]);
  writeRun(out, c.run, '');
  if (c.compare) {
    out.push(['cmp', String(c.compare.length)]);
    c.compare.forEach((col, i) => writeRun(out, col, `c${i + 1}.`));
  }
  if (c.hide.length > 0) {
    const hide = [...new Set(c.hide)].sort((a, b) => HIDEABLE.indexOf(a) - HIDEABLE.indexOf(b));
    out.push(['_hide', hide.join(',')]);
  }
  if (c.present) out.push(['present', '1']);
  if (c.embed) out.push(['embed', '1']);
  if (c.quiz) out.push(['quiz', '1']);
  if (c.theme) out.push(['theme', c.theme]);
  if (c.fromNs !== undefined) out.push(['from', String(Math.round(c.fromNs))]);
  if (c.atNs !== undefined) out.push(['at', String(Math.round(c.atNs))]);
  // URLSearchParams encodes every value; "," in _hide stays readable.
  return `?${new URLSearchParams(out).toString().replace(/%2C/g, ',')}`;
}
