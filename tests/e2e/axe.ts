// axe-core over the page as it is on screen (issue 16 item 8). The engine's source is
// evaluated in the page through the DevTools protocol (the page's Content-Security-Policy
// forbids an injected <script>); the result lists each violated rule with its impact and
// the elements it found, so a failing test says what to fix.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; summary: string }[];
}

/** Every violation axe finds in the page now, all rules (WCAG 2.x A/AA and best practice). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const json = (await page.evaluate(`(async () => {
    if (!window.axe) { ${axeSource}\n }
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return JSON.stringify(r.violations.map((v) => ({
      id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, summary: n.failureSummary || '' })),
    })));
  })()`)) as string;
  return JSON.parse(json) as AxeViolation[];
}

/** The serious and critical violations, one readable line per element. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const all = await axeViolations(page);
  return all
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) =>
      v.nodes.map((n) => `${v.impact} ${v.id} (${v.help}): ${n.target.join(' ')} — ${n.summary}`),
    );
}
