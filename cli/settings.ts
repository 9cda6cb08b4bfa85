// `--set a.b.c=v`, `--vary a.b=v1,v2`, `--scheduler S` and `--seed N`: edits to the
// scenario's raw JSON, made before validation so that any problem names the JSON path
// (ARCHITECTURE.md: "--set a.b.c=v on the CLI addresses the same paths").
import { DISK_SCHEDULERS } from '../src/engine/disk/disk-scheduler';
import { elevatorNames } from '../src/engine/iosched/elevator';
import '../src/engine/iosched/registry';
import { UsageError } from './errors';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [k: string]: JsonValue };

/** One edit: the dotted path and the value. */
export interface Setting {
  key: string;
  value: JsonValue;
}

const NUMBER = /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A value from the command line: numbers, true/false/null and JSON objects/lists/strings
 * are parsed; anything else is a plain string (`disk.cache=write-back`). */
export function parseValue(text: string, context: string): JsonValue {
  const t = text.trim();
  if (NUMBER.test(t)) return Number(t);
  if (t === 'true' || t === 'false') return t === 'true';
  if (t === 'null') return null;
  if (t.startsWith('{') || t.startsWith('[') || t.startsWith('"')) {
    try {
      return JSON.parse(t) as JsonValue;
    } catch (e) {
      throw new UsageError(`${context}: the value is not valid JSON (${(e as Error).message})`);
    }
  }
  return text;
}

/** `key=value` → {key, value}. */
export function parseSetting(arg: string, option: string): Setting {
  const eq = arg.indexOf('=');
  const key = eq < 0 ? '' : arg.slice(0, eq).trim();
  if (eq < 0 || !/^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/.test(key)) {
    throw new UsageError(
      `${option} ${arg}: expected key.path=value, e.g. ${option} disk.queueDepth=16`,
    );
  }
  return { key, value: parseValue(arg.slice(eq + 1), `${option} ${arg}`) };
}

/** `key=v1,v2,…` → the key and its values (commas inside {…}, […] or "…" do not split). */
export function parseVary(arg: string): { key: string; values: JsonValue[] } {
  const eq = arg.indexOf('=');
  const { key } = parseSetting(eq < 0 ? arg : `${arg.slice(0, eq)}=0`, '--vary');
  const parts = splitTopLevel(arg.slice(eq + 1));
  if (parts.some((p) => p.trim() === ''))
    throw new UsageError(`--vary ${arg}: empty value in the list`);
  return { key, values: parts.map((p) => parseValue(p, `--vary ${arg}`)) };
}

function splitTopLevel(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      out.push(s.slice(start, i));
      start = i + 1;
    }
  }
  out.push(s.slice(start));
  return out;
}

/** Set `key` (dotted; numbers index lists) in `root`, creating objects on the way. */
export function applySetting(root: unknown, { key, value }: Setting, option = '--set'): void {
  if (root === null || typeof root !== 'object')
    throw new UsageError(`${option} ${key}: the scenario is not a JSON object`);
  const parts = key.split('.');
  let node = root as Record<string, unknown> | unknown[];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const here = parts.slice(0, i + 1).join('.');
    const last = i === parts.length - 1;
    if (Array.isArray(node)) {
      const index = /^\d+$/.test(part) ? Number(part) : NaN;
      if (!(index <= node.length)) {
        throw new UsageError(
          `${option} ${key}: ${here} must be a list index from 0 to ${node.length} (${parts.slice(0, i).join('.')} has ${node.length} ${node.length === 1 ? 'entry' : 'entries'})`,
        );
      }
      if (last) node[index] = value;
      else node = (node[index] ??= {}) as Record<string, unknown>;
    } else {
      // own keys only: `__proto__` (or `constructor`) becomes a key of the scenario, which
      // validation reports as unknown — never a walk into Object.prototype
      if (last) own(node, part, value);
      else {
        if (!Object.hasOwn(node, part) || node[part] === undefined) own(node, part, {});
        node = node[part] as Record<string, unknown>;
      }
    }
    if (!last && (node === null || typeof node !== 'object')) {
      throw new UsageError(
        `${option} ${key}: ${here} is ${JSON.stringify(node)}, not an object or a list`,
      );
    }
  }
}

/** Set an own, plain data property (`o[key] = v` would call the `__proto__` setter). */
function own(o: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true });
}

/** `--scheduler S`: an I/O scheduler name sets iosched.name, a drive scheduler disk.scheduler. */
export function schedulerSetting(name: string): Setting {
  if (elevatorNames().includes(name)) return { key: 'iosched.name', value: name };
  if ((DISK_SCHEDULERS as readonly string[]).includes(name))
    return { key: 'disk.scheduler', value: name };
  throw new UsageError(
    `--scheduler ${name}: not a scheduler; I/O schedulers: ${elevatorNames().join(', ')}; drive schedulers: ${DISK_SCHEDULERS.join(', ')}`,
  );
}

/** `--seed N` → the scenario's seed (validated with the scenario, as `seed`). */
export function seedSetting(text: string): Setting {
  if (!/^\d+$/.test(text.trim()))
    throw new UsageError(`--seed ${text}: must be a whole number from 0 to 4294967295`);
  return { key: 'seed', value: Number(text) };
}
