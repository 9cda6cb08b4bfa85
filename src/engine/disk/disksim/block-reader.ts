// Reading one DiskSim block: typed lookups that say file and line when a value is missing
// or of the wrong kind, and a record of every parameter read — so that what the reader did
// not use can be reported (never silently dropped).
import { DiskSimInputError, type Block, type Param, type Pos, type Value } from './syntax';

/** A parameter Spindle read but does not apply, or applies differently (docs/DISKSIM.md). */
export interface Unapplied {
  /** the parameter's name as the file spells it, prefixed by its block type */
  param: string;
  value: string;
  file: string;
  line: number;
  why: string;
}

export class DiskSimReadError extends DiskSimInputError {
  override name = 'DiskSimReadError';
  constructor(
    readonly pos: Pos,
    message: string,
  ) {
    super(`${pos.file}:${pos.line}: ${message}`);
  }
}

export function show(v: Value): string {
  switch (v.kind) {
    case 'number':
      return String(v.v);
    case 'word':
      return v.v;
    case 'list':
      return `[${v.items.map(show).join(', ')}]`;
    case 'block':
      return `${v.block.type} { … }`;
  }
}

export class BlockReader {
  private readonly used = new Set<string>();

  constructor(
    readonly block: Block,
    private readonly notes: Unapplied[],
  ) {}

  /** The parameter, or undefined (marks it read). Later duplicates win, as in libparam. */
  param(name: string): Param | undefined {
    this.used.add(name);
    let found: Param | undefined;
    for (const p of this.block.params) if (p.name === name) found = p;
    return found;
  }

  private required(name: string): Param {
    const p = this.param(name);
    if (!p) {
      throw new DiskSimReadError(
        this.block.pos,
        `${this.block.type} ${this.block.name ?? ''}: missing "${name}"`.replace('  ', ' '),
      );
    }
    return p;
  }

  num(name: string): number;
  num(name: string, fallback: number): number;
  num(name: string, fallback?: number): number {
    const p = fallback === undefined ? this.required(name) : this.param(name);
    if (!p) return fallback!;
    if (p.value.kind !== 'number') {
      throw new DiskSimReadError(p.pos, `"${name}" must be a number, not ${show(p.value)}`);
    }
    return p.value.v;
  }

  word(name: string): string;
  word(name: string, fallback: string): string;
  word(name: string, fallback?: string): string {
    const p = fallback === undefined ? this.required(name) : this.param(name);
    if (!p) return fallback!;
    if (p.value.kind !== 'word') {
      throw new DiskSimReadError(p.pos, `"${name}" must be a name, not ${show(p.value)}`);
    }
    return p.value.v;
  }

  list(name: string, optional = false): Value[] {
    const p = optional ? this.param(name) : this.required(name);
    if (!p) return [];
    if (p.value.kind !== 'list') {
      throw new DiskSimReadError(p.pos, `"${name}" must be a list [ … ], not ${show(p.value)}`);
    }
    return p.value.items;
  }

  numbers(name: string, optional = false): number[] {
    return this.list(name, optional).map((v) => {
      if (v.kind !== 'number') {
        throw new DiskSimReadError(v.pos, `"${name}" must hold numbers, not ${show(v)}`);
      }
      return v.v;
    });
  }

  block_(name: string): Block {
    const p = this.required(name);
    if (p.value.kind !== 'block') {
      throw new DiskSimReadError(p.pos, `"${name}" must be a block, not ${show(p.value)}`);
    }
    return p.value.block;
  }

  /** A reader for a sub-block, reporting into the same notes. */
  child(name: string): BlockReader {
    return new BlockReader(this.block_(name), this.notes);
  }

  /** Note a parameter as not applied (if present). */
  note(name: string, why: string): void {
    const p = this.param(name);
    if (p) this.noteParam(p, why);
  }

  noteParam(p: Param, why: string): void {
    this.notes.push({
      param: `${this.block.type}: ${p.name}`,
      value: show(p.value),
      file: p.pos.file,
      line: p.pos.line,
      why,
    });
  }

  /**
   * Spindle behaves as this parameter set to `modelled` (a number); any other value is
   * noted with `why`. Absent is fine: DiskSim would refuse it, Spindle uses its behaviour.
   */
  expect(name: string, modelled: number, why: string): void {
    const p = this.param(name);
    if (!p) return;
    if (p.value.kind !== 'number' || p.value.v !== modelled) this.noteParam(p, why);
  }

  /** Parameters with no bearing on a response time (statistics printing and the like). */
  ignore(...names: string[]): void {
    for (const n of names) this.used.add(n);
  }

  /** Every parameter not looked at: noted, so nothing is dropped silently. */
  finish(): void {
    for (const p of this.block.params) {
      if (!this.used.has(p.name)) this.noteParam(p, 'not a parameter Spindle reads');
    }
  }
}
