// A scheduler's doc page (docs/iosched/*.md) against its declared tunables: the table rows
// whose first cell matches `row`, as [name, default, unit, doc], beside the declared ones.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TunableSpec } from '../../src/engine/iosched/types';

type Row = [name: string, value: number, unit: string, doc: string];

export function docTunables(page: string, row: RegExp = /^\| `[a-z_]+` /) {
  const md = readFileSync(
    fileURLToPath(new URL(`../../docs/iosched/${page}`, import.meta.url)),
    'utf8',
  );
  const rows = md
    .split('\n')
    .filter((l) => row.test(l))
    .map((l): Row => {
      const [name, def, unit, , doc] = l
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim().replaceAll('`', ''));
      return [name!, Number(def), unit!, doc!];
    });
  return { md, rows };
}

export const declared = (tunables: readonly TunableSpec[]): Row[] =>
  tunables.map((t) => [t.name, t.default, t.unit, t.doc]);
