// End-to-end: the charts panel (issue #5 item 5) on the built page in headless Chromium —
// every chart draws the run's data, the hover and keyboard read-outs, the playback cursor,
// the whole run from the panel's own worker, compare mode's overlaid runs, and every export
// (PNG, SVG, CSV, JSON, blkparse) downloading a non-empty file of its type. Any console
// error fails a test; screenshots go to test-results/e2e/charts-*.png and are looked at.
import { readFileSync } from 'node:fs';
import type { Download, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { haveChromium, requireChromium, useLab, type Lab, type Opened } from './harness';

requireChromium();

const TABS = [
  ['Latency / time', ['latency-over-time']],
  ['CDF', ['latency-cdf']],
  ['Throughput', ['throughput-over-time', 'iops-over-time']],
  ['Queue depth', ['queue-depth']],
  ['LBA / time', ['lba-over-time']],
  ['Breakdown', ['positioning-breakdown']],
  ['Per process', ['process-shares']],
] as const;

/** An element as the callbacks see it (this file is checked without the DOM lib). */
interface El {
  getAttribute(name: string): string | null;
}

const charts = (page: Page) => page.getByRole('region', { name: 'Charts' });

/** Open the lab with a query and wait for its charts (compare mode has several platters,
 * so the charts panel, not the one platter, says the page is up). */
async function openWith(lab: Lab, query: string): Promise<Opened> {
  const opened = await lab.openPage();
  await opened.page.goto(lab.url + query);
  await charts(opened.page)
    .getByRole('tab', { name: 'Latency / time' })
    .waitFor({ timeout: 60_000 });
  return opened;
}

async function openCharts(page: Page): Promise<Locator> {
  const panel = charts(page);
  await panel.getByRole('tab', { name: 'Latency / time' }).waitFor({ timeout: 30_000 });
  await panel.scrollIntoViewIfNeeded();
  return panel;
}

/** The points the chart's canvas drew (its `data-marks`): dots and lines from the data. */
async function canvasMarks(chart: Locator): Promise<number> {
  const counts = await chart
    .getByTestId('chart-canvas')
    .evaluateAll((cs) => cs.map((c) => Number((c as El).getAttribute('data-marks') ?? 0)));
  return Math.max(0, ...counts);
}

/** The canvas has pixels drawn on it (not all transparent). */
async function canvasInked(chart: Locator): Promise<boolean> {
  return chart.getByTestId('chart-canvas').evaluate((c) => {
    const canvas = c as unknown as {
      width: number;
      height: number;
      getContext(k: '2d'): { getImageData(...a: number[]): { data: Uint8ClampedArray } };
    };
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) return true;
    return false;
  });
}

async function download(
  page: Page,
  click: () => Promise<void>,
): Promise<{ d: Download; bytes: Buffer }> {
  // A PNG is handed to the browser after an await (the SVG is drawn on a canvas first). Now
  // and then headless Chromium drops such a download with no error (seen at about 1 in 3 runs
  // of this sequence on a quiet machine; an SVG, saved inside the click, never): one more
  // click, as a user would. The miss is noted in the session's report, not hidden.
  let d: Download;
  try {
    [d] = await Promise.all([page.waitForEvent('download', { timeout: 10_000 }), click()]);
  } catch {
    [d] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), click()]);
  }
  const path = await d.path();
  return { d, bytes: readFileSync(path) };
}

describe.skipIf(!haveChromium)('the charts panel', () => {
  const lab = useLab();

  it('draws every chart from the run, with a cursor at the playback time', async () => {
    const { page, problems } = await openWith(lab, '?v=1&lesson=cfq-fairness.json');
    const panel = await openCharts(page);
    await expect.poll(() => panel.getByTestId('chart-scope').textContent()).toContain('requests');
    for (const [tab, ids] of TABS) {
      await panel.getByRole('tab', { name: tab }).click();
      expect(await panel.getByRole('tab', { name: tab }).getAttribute('aria-selected')).toBe(
        'true',
      );
      for (const id of ids) {
        const chart = panel.getByTestId(`chart-${id}`);
        await chart.waitFor();
        if (id === 'positioning-breakdown' || id === 'process-shares') {
          // The bar charts draw rects: one per phase or share, with a width.
          const widths = await chart
            .locator('g > svg rect')
            .evaluateAll((rs) =>
              rs.map((r) => Number((r as El).getAttribute('width'))).filter((w) => w > 0),
            );
          expect(widths.length).toBeGreaterThan(3);
        } else {
          // Lines and dots are drawn from the data on the plot's canvas.
          await expect.poll(() => canvasMarks(chart)).toBeGreaterThan(10);
          expect(await canvasInked(chart)).toBe(true);
        }
      }
      await panel.screenshot({ path: `test-results/e2e/charts-panel-${ids[0]}.png` });
    }
    // The cursor follows the clock while the lesson plays.
    await panel.getByRole('tab', { name: 'Latency / time' }).click();
    const cursor = panel.getByTestId('chart-cursor').first();
    const x1 = await cursor.getAttribute('style');
    // it moves in whole device pixels: at this lesson's speed, a pixel every half second or so
    await expect.poll(() => cursor.getAttribute('style'), { timeout: 15_000 }).not.toBe(x1);

    await panel.getByRole('tab', { name: 'All' }).click();
    await expect.poll(() => panel.locator('figure.chart').count(), { timeout: 60_000 }).toBe(8);
    await lab.shot(page, 'charts-all.png', true);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('shows read-outs on hover and from the keyboard', async () => {
    const { page, problems } = await openWith(lab, '?v=1&lesson=cfq-fairness.json');
    const panel = await openCharts(page);
    await page.getByRole('button', { name: 'Pause' }).click();
    const chart = panel.getByTestId('chart-latency-over-time');
    const svg = chart.locator('svg').first();
    const box = (await svg.boundingBox())!;
    await svg.hover({ position: { x: box.width * 0.5, y: box.height * 0.6 } });
    const readout = chart.getByTestId('chart-readout');
    await readout.waitFor();
    expect(await readout.textContent()).toMatch(/Q2C/);
    await lab.shot(page, 'charts-hover.png');

    // Keyboard: arrows move along the tabs (the clock stays where it is). The clock is read on
    // screen: scrolled out of sight it holds still (app/in-view.ts) and would prove nothing.
    const clockNow = async () => {
      await page.getByTestId('clock').scrollIntoViewIfNeeded();
      await page.waitForTimeout(300);
      return page.getByTestId('clock').textContent();
    };
    const clock = await clockNow();
    await panel.getByRole('tab', { name: 'Latency / time' }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await panel.getByRole('tab', { name: 'CDF' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    expect(await clockNow()).toBe(clock);
    // Then into the CDF chart: arrows move the read-out.
    const cdf = panel.getByTestId('chart-latency-cdf').locator('svg').first();
    await cdf.focus();
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowLeft');
    const text = await panel
      .getByTestId('chart-latency-cdf')
      .getByTestId('chart-readout')
      .textContent();
    expect(text).toMatch(/Q2C ≤ .*ms/);
    expect(text).toMatch(/%/);
    await lab.shot(page, 'charts-keyboard.png');

    await panel.getByRole('tab', { name: 'Breakdown' }).click();
    const bars = panel.getByTestId('chart-positioning-breakdown').locator('svg').first();
    const bb = (await bars.boundingBox())!;
    await bars.hover({ position: { x: bb.width * 0.3, y: bb.height * 0.5 } });
    expect(
      await panel
        .getByTestId('chart-positioning-breakdown')
        .getByTestId('chart-readout')
        .textContent(),
    ).toMatch(/seek .*ms/);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('exports each chart as PNG and SVG, the data as CSV and JSON, the run as blkparse text', async () => {
    const { page, problems } = await openWith(lab, '?v=1&lesson=cfq-fairness.json');
    const panel = await openCharts(page);
    await panel.getByRole('tab', { name: 'All' }).click();
    for (const [, ids] of TABS) {
      for (const id of ids) {
        const chart = panel.getByTestId(`chart-${id}`);
        const png = await download(page, () =>
          chart.getByRole('button', { name: /as PNG$/ }).click(),
        );
        expect(png.d.suggestedFilename()).toBe(`spindle-${id}.png`);
        expect(png.bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
        expect(png.bytes.length).toBeGreaterThan(5000);
        // Kept for a human to look at: the exported picture itself.
        if (id === 'latency-over-time' || id === 'positioning-breakdown')
          await png.d.saveAs(`test-results/e2e/charts-export-${id}.png`);
        const svg = await download(page, () =>
          chart.getByRole('button', { name: /as SVG$/ }).click(),
        );
        expect(svg.d.suggestedFilename()).toBe(`spindle-${id}.svg`);
        const text = svg.bytes.toString('utf8');
        expect(text).toMatch(/^<\?xml/);
        expect(text).toContain('<svg');
        expect(text).toContain('xmlns="http://www.w3.org/2000/svg"');
        expect(text).not.toContain('chart-readout');
        if (id !== 'positioning-breakdown' && id !== 'process-shares') {
          // the canvas's dots and lines are in the file as SVG paths
          const longest = Math.max(...[...text.matchAll(/ d="([^"]*)"/g)].map((m) => m[1]!.length));
          expect(longest).toBeGreaterThan(200);
          expect(text).not.toContain('data-marks');
        }
      }
    }
    const csv = await download(page, () =>
      panel.getByRole('button', { name: 'Download the requests as CSV' }).click(),
    );
    const rows = csv.bytes.toString('utf8').trimEnd().split('\n');
    expect(rows[0]).toMatch(/^run,process,op,sync,sector,/);
    expect(rows.length).toBeGreaterThan(100);
    const json = await download(page, () =>
      panel.getByRole('button', { name: 'Download the chart data as JSON' }).click(),
    );
    const data = JSON.parse(json.bytes.toString('utf8')) as {
      runs: Array<{ summary: { iosched: string } }>;
    };
    expect(data.runs[0]!.summary.iosched).toBe('cfq');
    const blk = await download(page, () =>
      panel.getByRole('button', { name: 'Download the run as blkparse text' }).click(),
    );
    const lines = blk.bytes.toString('utf8').split('\n');
    expect(blk.d.suggestedFilename()).toMatch(/\.blkparse\.txt$/);
    expect(lines[0]).toMatch(/^\s+8,0\s+0\s+1\s+0\.\d{9}\s+\d+\s+Q\s+R\s+\d+ \+ 8 \[a\]$/);
    expect(lines.filter((l) => / C /.test(l)).length).toBe(rows.length - 1);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('charts the whole run from its own worker, and overlays runs in compare mode', async () => {
    const { page, problems } = await openWith(lab, '?v=1&lesson=sptf-vs-fcfs.json');
    const panel = await openCharts(page);
    const scope = panel.getByTestId('chart-scope');
    await expect.poll(() => scope.textContent()).toContain('the part played');
    await panel.getByRole('button', { name: 'Chart the whole run' }).click();
    await expect.poll(() => scope.textContent(), { timeout: 60_000 }).toContain('the whole run');
    await panel.getByRole('tab', { name: 'LBA / time' }).click();
    await lab.shot(page, 'charts-whole-run.png');
    await panel.getByRole('button', { name: 'Show the part played' }).click();
    await expect.poll(() => scope.textContent()).toContain('the part played');

    const compare = await openWith(
      lab,
      '?v=1&lesson=cfq-fairness.json&cmp=2&c1.sched=cfq&c2.sched=deadline',
    );
    const cpanel = await openCharts(compare.page);
    await cpanel.getByRole('tab', { name: 'CDF' }).click();
    const legend = await cpanel
      .getByTestId('chart-latency-cdf')
      .locator('.chart-legend')
      .textContent();
    expect(legend).toContain('A · cfq');
    expect(legend).toContain('B · deadline');
    await lab.shot(compare.page, 'charts-compare.png');
    await cpanel.getByRole('tab', { name: 'Per process' }).click();
    await cpanel.screenshot({ path: 'test-results/e2e/charts-compare-shares.png' });
    expect(problems).toEqual([]);
    expect(compare.problems).toEqual([]);
    await page.context().close();
    await compare.page.context().close();
  });

  it('reads in the dark theme', async () => {
    const { page, problems } = await openWith(lab, '?v=1&lesson=merging.json&theme=dark');
    const panel = await openCharts(page);
    await panel.getByRole('tab', { name: 'Breakdown' }).click();
    await panel.getByTestId('chart-positioning-breakdown').waitFor();
    await panel.screenshot({ path: 'test-results/e2e/charts-dark.png' });
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
