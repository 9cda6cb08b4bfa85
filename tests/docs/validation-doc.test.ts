// docs/VALIDATION.md against the suite: each row's test exists, and its status is the test's
// kind — a claim marked **no** is an `it.fails`, one marked yes an ordinary test.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));
const doc = readFileSync(root('docs/VALIDATION.md'), 'utf8');

interface Row {
  claim: string;
  holds: boolean;
  file: string;
  name: string;
}

/** The body rows of the claim tables (those whose header opens `| claim`); other tables are figures. */
function claimRows(text: string): string[] {
  const out: string[] = [];
  let inClaims = false;
  let previous = '';
  for (const l of text.split('\n')) {
    if (!l.startsWith('| ')) inClaims = false;
    else if (!previous.startsWith('| ')) inClaims = l.startsWith('| claim');
    else if (inClaims && !l.startsWith('| ---')) out.push(l);
    previous = l;
  }
  return out;
}

const rows: Row[] = claimRows(doc).map((l) => {
  const cells = l.split(' | ').map((c) => c.replace(/^\| |\s*\|$/g, '').trim());
  const m = /^`([^`]+)` › "(.+)"$/.exec(cells[3] ?? '');
  if (!m || !['yes', '**no**'].includes(cells[2]!)) throw new Error(`malformed row: ${l}`);
  return { claim: cells[0]!, holds: cells[2] === 'yes', file: m[1]!, name: m[2]! };
});

/** The kind of test whose name contains `name`: the call opening on its line or the one before. */
function kindOf(file: string, name: string): 'it' | 'it.fails' | 'missing' | 'ambiguous' {
  const lines = readFileSync(root(file), 'utf8').split('\n');
  const at = lines.flatMap((l, i) => (l.includes(name) ? [i] : []));
  if (at.length === 0) return 'missing';
  if (at.length > 1) return 'ambiguous';
  const opening = lines.slice(Math.max(0, at[0]! - 1), at[0]! + 1).join('\n');
  if (/\bit\.fails\(/.test(opening)) return 'it.fails';
  return /\bit(\.each\([^)]*\))?\(/.test(opening) ? 'it' : 'missing';
}

describe('docs/VALIDATION.md', () => {
  it('lists claims that hold and claims that do not', () => {
    expect(rows.filter((r) => r.holds).length).toBeGreaterThan(20);
    expect(rows.filter((r) => !r.holds).length).toBeGreaterThan(0);
  });
  it.each(rows)(
    '$file › "$name": the test exists and its kind says whether the claim holds',
    (r) => {
      expect(kindOf(r.file, r.name)).toBe(r.holds ? 'it' : 'it.fails');
    },
  );
  it('every it.fails among the claims’ test files is in the table', () => {
    const files = [...new Set(rows.map((r) => r.file))];
    for (const f of files) {
      const text = readFileSync(root(f), 'utf8');
      const fails = text.split('it.fails(').length - 1;
      expect(rows.filter((r) => r.file === f && !r.holds)).toHaveLength(fails);
    }
  });
});
