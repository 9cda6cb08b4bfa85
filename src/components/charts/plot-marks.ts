// A chart's dense marks — thousands of dots, lines of a thousand vertices — as data: drawn on
// a canvas in the page (drawMarks, one loop over typed arrays, where an SVG path of the same
// marks is a string of hundreds of KB for the page to build, parse and paint on its main
// thread), and as SVG paths only when the chart is exported (marksSvg), so a file stays
// vector. DOM-free: the canvas is anything with a 2D context's drawing methods.
import type { PointSet } from '../../app/chart-data';
import { dotsPath, linePath, stepPath } from './marks';

/** The 2D context's drawing methods the marks use (a CanvasRenderingContext2D has them). */
export interface Pen {
  beginPath(): void;
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  arc(x: number, y: number, r: number, start: number, end: number): void;
  fill(): void;
  stroke(): void;
  setLineDash(segments: number[]): void;
  globalAlpha: number;
  fillStyle: unknown;
  strokeStyle: unknown;
  lineWidth: number;
}

type Scale = (v: number) => number;

interface Stroke {
  colour: string;
  width: number;
  /** dash and gap lengths, in the chart's units (SVG stroke-dasharray) */
  dash?: readonly number[];
}

export type Mark =
  /** circles of radius r: reads filled, writes outlined; `opacity` for the whole set */
  | { kind: 'dots'; set: PointSet; r: number; colour: string; opacity: number }
  /** a polyline broken where y is NaN; a point with gaps on both sides is a short dash */
  | ({ kind: 'line'; x: ArrayLike<number>; y: ArrayLike<number> } & Stroke)
  /** y[i] holds from x[i] to x[i+1], the last one to endX */
  | ({ kind: 'steps'; x: ArrayLike<number>; y: ArrayLike<number>; endX: number } & Stroke);

export interface Plot {
  marks: readonly Mark[];
  x: Scale;
  y: Scale;
}

/** px: the width of a lone point's dash (as marks.ts linePath draws it) */
const LONE_DASH = 6;

function strokeWith(ctx: Pen, s: Stroke): void {
  ctx.strokeStyle = s.colour;
  ctx.lineWidth = s.width;
  ctx.setLineDash(s.dash ? [...s.dash] : []);
  ctx.stroke();
}

/** Draw the marks in plot units (the context is scaled to them); the points drawn. */
export function drawMarks(ctx: Pen, plot: Plot): number {
  const { x, y } = plot;
  let points = 0;
  for (const m of plot.marks) {
    ctx.beginPath();
    if (m.kind === 'dots') {
      const { set, r } = m;
      ctx.globalAlpha = m.opacity;
      for (const write of [0, 1]) {
        ctx.beginPath();
        for (let i = 0; i < set.x.length; i++) {
          if (set.write[i] !== write) continue;
          const px = x(set.x[i]!);
          const py = y(set.y[i]!);
          ctx.moveTo(px + r, py);
          ctx.arc(px, py, r, 0, 2 * Math.PI);
          points++;
        }
        if (write) strokeWith(ctx, { colour: m.colour, width: 1 });
        else {
          ctx.fillStyle = m.colour;
          ctx.fill();
        }
      }
      ctx.globalAlpha = 1;
    } else if (m.kind === 'line') {
      const n = m.x.length;
      const defined = (i: number) => m.y[i] === m.y[i];
      for (let i = 0; i < n; i++) {
        if (!defined(i)) continue;
        const px = x(m.x[i]!);
        const py = y(m.y[i]!);
        const joined = i > 0 && defined(i - 1);
        if (joined) ctx.lineTo(px, py);
        else if (i + 1 < n && defined(i + 1)) ctx.moveTo(px, py);
        else {
          ctx.moveTo(px - LONE_DASH / 2, py);
          ctx.lineTo(px + LONE_DASH / 2, py);
        }
        points++;
      }
      strokeWith(ctx, m);
    } else {
      const n = m.x.length;
      if (n === 0) continue;
      ctx.moveTo(x(m.x[0]!), y(m.y[0]!));
      for (let i = 1; i < n; i++) {
        const px = x(m.x[i]!);
        ctx.lineTo(px, y(m.y[i - 1]!));
        ctx.lineTo(px, y(m.y[i]!));
      }
      ctx.lineTo(x(m.endX), y(m.y[n - 1]!));
      points += n;
      strokeWith(ctx, m);
    }
  }
  return points;
}

const attr = (v: string | number) => String(v).replace(/&/g, '&amp;').replace(/"/g, '&quot;');

function strokeAttrs(s: Stroke): string {
  return `fill="none" stroke="${attr(s.colour)}" stroke-width="${s.width}"${s.dash ? ` stroke-dasharray="${s.dash.join(' ')}"` : ''}`;
}

/** The same marks as SVG markup in plot units, for an exported file. */
export function marksSvg(plot: Plot): string {
  const { x, y } = plot;
  return plot.marks
    .map((m) => {
      if (m.kind === 'dots') {
        const c = attr(m.colour);
        return (
          `<g opacity="${m.opacity}"><path d="${dotsPath(m.set, x, y, m.r, 0)}" fill="${c}"/>` +
          `<path d="${dotsPath(m.set, x, y, m.r, 1)}" fill="none" stroke="${c}" stroke-width="1"/></g>`
        );
      }
      const xs = Array.from(m.x);
      const ys = Array.from(m.y);
      const d = m.kind === 'line' ? linePath(xs, ys, x, y) : stepPath(xs, ys, x, y, m.endX);
      return `<path d="${d}" ${strokeAttrs(m)}/>`;
    })
    .join('');
}
