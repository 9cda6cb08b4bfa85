// DiskSim 4.0's parameter-file syntax (libparam): blocks `type name { Key = value, … }`,
// lists `[ … ]`, `source file` includes, `instantiate [ … ] as Type` and `topology`.
// Every value keeps the file and line it came from, so the reader can name them.
// docs/DISKSIM.md describes what the reader does with the tree.

/** Where a token was: file name as given to the parser, 1-based line. */
export interface Pos {
  file: string;
  line: number;
}

export type Value =
  | { kind: 'number'; v: number; pos: Pos }
  | { kind: 'word'; v: string; pos: Pos }
  | { kind: 'list'; items: Value[]; pos: Pos }
  | { kind: 'block'; block: Block; pos: Pos };

/** `type [name] { params }`; `Key = value` pairs in file order. */
export interface Block {
  type: string;
  name: string | null;
  params: Param[];
  pos: Pos;
}

export interface Param {
  name: string;
  value: Value;
  pos: Pos;
}

/** `topology type name [ children ]` */
export interface TopologyNode {
  type: string;
  name: string;
  children: TopologyNode[];
  pos: Pos;
}

export type TopItem =
  | { kind: 'block'; block: Block }
  | { kind: 'instantiate'; names: string[]; as: string; pos: Pos }
  | { kind: 'topology'; node: TopologyNode };

/** A parsed set of files: top-level items in order, `source` includes expanded in place. */
export interface ParamTree {
  items: TopItem[];
  /** every file read, in the order first read */
  files: string[];
}

/** Any fault in the DiskSim files or trace a user gave: the message names file and line. */
export class DiskSimInputError extends Error {
  override name = 'DiskSimInputError';
}

export class DiskSimSyntaxError extends DiskSimInputError {
  override name = 'DiskSimSyntaxError';
  constructor(
    readonly pos: Pos,
    message: string,
  ) {
    super(`${pos.file}:${pos.line}: ${message}`);
  }
}

/** Returns a file's text, or undefined if there is no such file. */
export type FileSource = (name: string) => string | undefined;

interface Token {
  t: string;
  /** punctuation: { } [ ] , = ; else a word */
  punct: boolean;
  pos: Pos;
}

const PUNCT = new Set(['{', '}', '[', ']', ',', '=']);

export function tokenize(text: string, file: string): Token[] {
  const out: Token[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const hash = raw.indexOf('#');
    const line = hash >= 0 ? raw.slice(0, hash) : raw;
    const pos = { file, line: i + 1 };
    let word = '';
    const flush = (): void => {
      if (word) out.push({ t: word, punct: false, pos });
      word = '';
    };
    for (const ch of line) {
      if (PUNCT.has(ch)) {
        flush();
        out.push({ t: ch, punct: true, pos });
      } else if (/\s/.test(ch)) flush();
      else word += ch;
    }
    flush();
  }
  return out;
}

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** Parse `rootFile` and every file it sources (looked up through `files`). */
export function parseParamFiles(rootFile: string, files: FileSource): ParamTree {
  const read: string[] = [];
  const stack: string[] = [];

  function load(name: string, from: Pos | null): Token[] {
    const text = files(name);
    if (text === undefined) {
      const where = from ? `${from.file}:${from.line}: ` : '';
      throw new DiskSimInputError(`${where}file "${name}" not found`);
    }
    if (stack.includes(name)) {
      throw new DiskSimSyntaxError(from!, `"${name}" sources itself (${stack.join(' → ')})`);
    }
    if (!read.includes(name)) read.push(name);
    return tokenize(text, name);
  }

  function parseFile(name: string, from: Pos | null): TopItem[] {
    const tokens = load(name, from);
    stack.push(name);
    const p = new Parser(tokens, name, (n, at) => parseFile(n, at));
    const items = p.topLevel();
    stack.pop();
    return items;
  }

  return { items: parseFile(rootFile, null), files: read };
}

class Parser {
  private i = 0;
  constructor(
    private readonly toks: Token[],
    private readonly file: string,
    private readonly include: (name: string, at: Pos) => TopItem[],
  ) {}

  private peek(k = 0): Token | undefined {
    return this.toks[this.i + k];
  }

  private endPos(): Pos {
    const last = this.toks[this.toks.length - 1];
    return last ? last.pos : { file: this.file, line: 1 };
  }

  private next(what: string): Token {
    const t = this.toks[this.i++];
    if (!t) throw new DiskSimSyntaxError(this.endPos(), `unexpected end of file, expected ${what}`);
    return t;
  }

  private expect(p: string): Token {
    const t = this.next(`"${p}"`);
    if (!t.punct || t.t !== p)
      throw new DiskSimSyntaxError(t.pos, `expected "${p}", found "${t.t}"`);
    return t;
  }

  private word(what: string): Token {
    const t = this.next(what);
    if (t.punct) throw new DiskSimSyntaxError(t.pos, `expected ${what}, found "${t.t}"`);
    return t;
  }

  private isPunct(t: Token | undefined, p: string): boolean {
    return t !== undefined && t.punct && t.t === p;
  }

  topLevel(): TopItem[] {
    const items: TopItem[] = [];
    while (this.peek()) {
      const t = this.word('a block, "source", "instantiate" or "topology"');
      if (t.t === 'source') {
        const f = this.word('a file name');
        items.push(...this.include(f.t, f.pos));
      } else if (t.t === 'instantiate') {
        const names = this.nameList();
        const as = this.word('"as"');
        if (as.t !== 'as') throw new DiskSimSyntaxError(as.pos, `expected "as", found "${as.t}"`);
        items.push({ kind: 'instantiate', names, as: this.word('a type name').t, pos: t.pos });
      } else if (t.t === 'topology') {
        items.push({ kind: 'topology', node: this.topologyNode() });
      } else {
        items.push({ kind: 'block', block: this.blockAfterType(t) });
      }
    }
    return items;
  }

  private nameList(): string[] {
    this.expect('[');
    const names: string[] = [];
    while (!this.isPunct(this.peek(), ']')) {
      if (this.isPunct(this.peek(), ',')) {
        this.i++;
        continue;
      }
      names.push(this.word('a name').t);
    }
    this.expect(']');
    return names;
  }

  private topologyNode(): TopologyNode {
    const type = this.word('a component type');
    const name = this.word('a component name');
    this.expect('[');
    const children: TopologyNode[] = [];
    while (!this.isPunct(this.peek(), ']')) {
      if (this.isPunct(this.peek(), ',')) {
        this.i++;
        continue;
      }
      children.push(this.topologyNode());
    }
    this.expect(']');
    return { type: type.t, name: name.t, children, pos: type.pos };
  }

  /** After the type word: an optional name, then `{ params }`. */
  private blockAfterType(type: Token): Block {
    let name: string | null = null;
    if (!this.isPunct(this.peek(), '{')) name = this.word('a block name or "{"').t;
    this.expect('{');
    const params: Param[] = [];
    while (!this.isPunct(this.peek(), '}')) {
      if (this.isPunct(this.peek(), ',')) {
        this.i++;
        continue;
      }
      params.push(this.param());
    }
    this.expect('}');
    return { type: type.t, name, params, pos: type.pos };
  }

  private param(): Param {
    const first = this.word('a parameter name');
    const words = [first.t];
    while (!this.isPunct(this.peek(), '=')) {
      const t = this.next('"="');
      if (t.punct) throw new DiskSimSyntaxError(t.pos, `expected "=" after "${words.join(' ')}"`);
      words.push(t.t);
    }
    this.expect('=');
    return { name: words.join(' '), value: this.value(), pos: first.pos };
  }

  private value(): Value {
    const t = this.next('a value');
    if (this.isPunct(t, '[')) {
      const items: Value[] = [];
      while (!this.isPunct(this.peek(), ']')) {
        if (this.isPunct(this.peek(), ',')) {
          this.i++;
          continue;
        }
        items.push(this.value());
      }
      this.expect(']');
      return { kind: 'list', items, pos: t.pos };
    }
    if (t.punct) throw new DiskSimSyntaxError(t.pos, `expected a value, found "${t.t}"`);
    if (t.t === 'source') {
      // `Model = source x.model`: the value is the (single) block that file defines.
      const f = this.word('a file name');
      const blocks = this.include(f.t, f.pos).filter((x) => x.kind === 'block');
      if (blocks.length !== 1) {
        throw new DiskSimSyntaxError(f.pos, `"${f.t}" must define exactly one block`);
      }
      const b = blocks[0]!.block;
      return { kind: 'block', block: b, pos: f.pos };
    }
    // `type { … }` or `type name { … }` is a block value.
    if (this.isPunct(this.peek(), '{') || this.isPunct(this.peek(1), '{')) {
      if (!this.isPunct(this.peek(), '{') && this.peek()?.punct) {
        throw new DiskSimSyntaxError(t.pos, `unexpected "${this.peek()!.t}"`);
      }
      return { kind: 'block', block: this.blockAfterType(t), pos: t.pos };
    }
    if (NUMBER.test(t.t)) return { kind: 'number', v: Number(t.t), pos: t.pos };
    return { kind: 'word', v: t.t, pos: t.pos };
  }
}
