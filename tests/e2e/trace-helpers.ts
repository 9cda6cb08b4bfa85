// The trace browser tests' helpers: driving the trace screen, and the inputs they build (a
// sample of the kernel's ftrace blk text, large generated blkparse text).
import { statSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

export interface CountKib {
  count: number;
  kib: number;
}
export interface BlkparseSummary {
  total: {
    reads_queued: CountKib;
    writes_queued: CountKib;
    reads_completed: CountKib;
    writes_completed: CountKib;
  };
}

export const fmt = (n: number) => new Intl.NumberFormat('en-US').format(n);

/** the page's file input (hidden; Playwright sets files on it directly) */
export async function upload(page: Page, path: string): Promise<void> {
  await page.getByLabel('Trace file').setInputFiles(path);
}

/** the trace screen shows `name`; with `path`, the figures of that very file (several files
 * share a name: their sizes tell them apart) */
export async function waitForTrace(page: Page, name: string, path?: string): Promise<void> {
  await page.getByRole('heading', { name: `Trace: ${name}` }).waitFor({ timeout: 30_000 });
  await page.getByRole('region', { name: 'Trace summary' }).waitFor();
  if (path !== undefined)
    await expect
      .poll(() => page.getByTestId('trace-facts').textContent(), { timeout: 30_000 })
      .toContain(`${fmt(statSync(path).size)} bytes`);
}

export async function closeTrace(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Close the trace view' }).click();
  await page.getByRole('dialog').waitFor({ state: 'hidden' });
}

// the kernel's ftrace `blk` tracer text (as tests/trace/formats.test.ts quotes it)
export const FTRACE = `# tracer: blk
#
#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION
#              | |         |   |||||     |         |
             fio-27608   [001] .....   512.000010: 7,0    Q   R 585608 + 8 [fio]
             fio-27608   [001] .....   512.000016: 7,0    G   R 585608 + 8 [fio]
             fio-27608   [001] .....   512.000018: 7,0    P   N [fio]
             fio-27608   [001] .....   512.000025: 7,0    U   N [fio] 1
   kworker/1:1H-kblockd-58      [001] d..1.   512.000027: 7,0    D   R 585608 + 8 [kworker/1:1H]
          <idle>-0       [000] d.h1.   512.000230: 7,0    C   R 585608 + 8 [0]
`;

/** blkparse text of about `bytes` characters: one process reading 4 KiB at random, Q G I D C. */
export function generated(bytes: number): string {
  const parts: string[] = [];
  let size = 0;
  let seq = 0;
  let t = 0;
  let x = 12345;
  while (size < bytes) {
    const lines: string[] = [];
    for (let i = 0; i < 2000; i++) {
      x = (x * 1103515245 + 12345) % 2147483648;
      const sector = (x % 10_000_000) * 8;
      for (const a of ['Q', 'G', 'I', 'D', 'C']) {
        t += 0.000001;
        seq++;
        lines.push(
          `  8,0    1 ${String(seq).padStart(8)} ${t.toFixed(9).padStart(14)}  4242  ${a}   R ${sector} + 8 [${a === 'C' ? 0 : 'gen'}]`,
        );
      }
    }
    const chunk = lines.join('\n') + '\n';
    parts.push(chunk);
    size += chunk.length;
  }
  return parts.join('');
}

/** what the page-side callbacks below use of a DOM element (the tests have no DOM types) */
interface Cell {
  textContent: string | null;
  getAttribute(name: string): string | null;
  querySelector(selector: string): Cell | null;
  querySelectorAll(selector: string): ArrayLike<Cell>;
}

/** the replay's units table: each row's name (its header's aria-label, else its text) → its
 * cells (measured per bio, simulated per bio, measured per request, simulated per request) */
export async function unitsTable(page: Page): Promise<Record<string, string[]>> {
  return page
    .getByTestId('replay-units')
    .locator('tbody tr')
    .evaluateAll((trs) =>
      Object.fromEntries(
        trs.map((el) => {
          const tr = el as unknown as Cell;
          const th = tr.querySelector('th')!;
          return [
            th.getAttribute('aria-label') ?? th.textContent ?? '',
            Array.from(tr.querySelectorAll('td'), (td) => td.textContent ?? ''),
          ];
        }),
      ),
    );
}
