// JSON text → value, with problems located by line and column.
// JSON.parse is the parser; its error messages differ between engines and often carry
// no position ("Unexpected end of JSON input"), so when it fails a small scanner walks
// the text to find where and why. The scanner also reports duplicate keys, which
// JSON.parse would silently resolve to the last one.

export interface JsonProblem {
  line: number; // 1-based
  column: number; // 1-based
  message: string;
}

export type JsonParse =
  { ok: true; value: unknown; duplicates: string[] } | { ok: false; problem: JsonProblem };

/** Parse `text`; on failure say where (line, column) and what was expected. */
export function parseJsonText(text: string): JsonParse {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const scan = scanJson(text);
    const offset = scan.error?.offset ?? positionIn(e) ?? text.length;
    const message = scan.error?.message ?? (e instanceof Error ? e.message : String(e));
    return { ok: false, problem: { ...lineColumn(text, offset), message } };
  }
  // JSON.parse takes any depth; what reads the value after it (this scanner, the
  // validation, structuredClone) recurses, so a deeper value is refused here
  const scan = scanJson(text);
  if (scan.error !== null) {
    return {
      ok: false,
      problem: { ...lineColumn(text, scan.error.offset), message: scan.error.message },
    };
  }
  return { ok: true, value, duplicates: scan.duplicates };
}

/** No scenario comes near this: its deepest value (a zone's slips) is 5 levels down. */
export const MAX_JSON_DEPTH = 64;

function positionIn(e: unknown): number | undefined {
  const m = e instanceof Error ? /position (\d+)/.exec(e.message) : null;
  return m ? Number(m[1]) : undefined;
}

export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

interface Scan {
  error: { offset: number; message: string } | null;
  /** key paths (a.b.0.c) that appear twice in one object */
  duplicates: string[];
}

class ScanError extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

/** A recursive-descent pass over the JSON grammar (RFC 8259) that builds nothing. */
function scanJson(text: string): Scan {
  let i = 0;
  const duplicates: string[] = [];

  const describe = (at: number): string =>
    at >= text.length ? 'end of input' : JSON.stringify(text[at]);
  const fail = (expected: string): never => {
    throw new ScanError(i, `expected ${expected}, found ${describe(i)}`);
  };
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const literal = (word: string): void => {
    if (text.startsWith(word, i)) i += word.length;
    else fail('a value');
  };
  const string = (): string => {
    const start = ++i;
    while (i < text.length) {
      const c = text[i]!;
      if (c === '"') return JSON.parse(text.slice(start - 1, ++i)) as string;
      if (c === '\\') {
        const n = text[i + 1];
        if (n === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else if (n !== undefined && '"\\/bfnrt'.includes(n)) i += 2;
        else throw new ScanError(i, 'bad escape in string');
      } else if (c.charCodeAt(0) < 0x20) {
        throw new ScanError(i, 'control character (e.g. a line break) inside a string');
      } else i++;
    }
    throw new ScanError(i, 'unterminated string');
  };
  const number = (): void => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m) fail('a value');
    i += m![0].length;
  };
  let depth = 0;
  const value = (path: string): void => {
    ws();
    const c = text[i];
    if ((c === '{' || c === '[') && depth >= MAX_JSON_DEPTH)
      throw new ScanError(
        i,
        `nested deeper than ${MAX_JSON_DEPTH} levels (at ${path === '' ? 'the top' : path})`,
      );
    depth++;
    if (c === '{') object(path);
    else if (c === '[') array(path);
    else if (c === '"') string();
    else if (c === 't') literal('true');
    else if (c === 'f') literal('false');
    else if (c === 'n') literal('null');
    else if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) number();
    else fail('a value');
    depth--;
  };
  const object = (path: string): void => {
    i++;
    ws();
    if (text[i] === '}') {
      i++;
      return;
    }
    const seen = new Set<string>();
    for (;;) {
      ws();
      if (text[i] !== '"') fail(seen.size === 0 ? 'a "key" or }' : 'a "key" (no trailing comma)');
      const key = string();
      const keyPath = path ? `${path}.${key}` : key;
      if (seen.has(key)) duplicates.push(keyPath);
      seen.add(key);
      ws();
      if (text[i] !== ':') fail('":" after the key');
      i++;
      value(keyPath);
      ws();
      if (text[i] === ',') i++;
      else if (text[i] === '}') {
        i++;
        return;
      } else fail('"," or "}"');
    }
  };
  const array = (path: string): void => {
    i++;
    ws();
    if (text[i] === ']') {
      i++;
      return;
    }
    for (let n = 0; ; n++) {
      value(path ? `${path}.${n}` : String(n));
      ws();
      if (text[i] === ',') i++;
      else if (text[i] === ']') {
        i++;
        return;
      } else fail('"," or "]"');
    }
  };

  try {
    value('');
    ws();
    if (i < text.length) fail('end of input after the value');
    return { error: null, duplicates };
  } catch (e) {
    if (e instanceof ScanError)
      return { error: { offset: e.offset, message: e.message }, duplicates };
    throw e;
  }
}
