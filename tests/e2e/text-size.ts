// The rendered size of every piece of visible text on the page (issue 16 items 2 and 8: no
// text under 18 px in presenter view, none under 12 px on a phone). HTML text counts its
// computed font size; SVG text its font size times the drawing's scale on screen (a chart
// drawn in a 600-unit viewBox and shown 300 px wide halves its labels).
import type { Page } from 'playwright-core';

export interface SmallText {
  px: number;
  text: string;
  where: string;
}

/** Visible text (in the viewport, or anywhere with `wholePage`) rendered under `minPx`. */
export async function textUnder(
  page: Page,
  minPx: number,
  wholePage = false,
): Promise<SmallText[]> {
  // a string: this file is checked without the DOM lib
  const json = (await page.evaluate(`(() => {
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const vw = window.innerWidth, vh = window.innerHeight;
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent.trim();
      const el = n.parentElement;
      if (!text || !el) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      const r = range.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      if (!${wholePage} && (r.bottom <= 0 || r.right <= 0 || r.top >= vh || r.left >= vw)) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || Number(style.opacity) === 0) continue;
      if (el.closest('.visually-hidden, [hidden], option')) continue;
      let px = parseFloat(style.fontSize);
      if (el instanceof SVGElement && el.getScreenCTM) {
        const m = el.getScreenCTM();
        if (m) px *= Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
      }
      if (px < ${minPx} - 0.01) {
        const cls = el.getAttribute('class');
        out.push({ px: Math.round(px * 10) / 10, text: text.slice(0, 40),
          where: el.tagName.toLowerCase() + (cls ? '.' + cls.split(' ').join('.') : '') });
      }
    }
    return JSON.stringify(out);
  })()`)) as string;
  return JSON.parse(json) as SmallText[];
}
