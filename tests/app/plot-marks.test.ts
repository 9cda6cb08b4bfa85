// The charts' canvas marks draw what an exported chart's SVG paths say: the same polylines
// (gaps where a value is NaN, a lone point as a short dash), the same steps, every dot.
import { describe, expect, it } from 'vitest';
import { linePath, stepPath } from '../../src/components/charts/marks';
import { drawMarks, marksSvg, type Mark, type Pen } from '../../src/components/charts/plot-marks';

type Poly = Array<[number, number]>;

/** A Pen that records its subpaths as points, and what was filled and stroked. */
function recorder() {
  const subpaths: Poly[] = [];
  const painted: Array<{ how: 'fill' | 'stroke'; arcs: number; dash: number[] }> = [];
  let arcs = 0;
  let dash: number[] = [];
  const pen: Pen = {
    beginPath: () => {
      arcs = 0;
    },
    moveTo: (x, y) => void subpaths.push([[x, y]]),
    lineTo: (x, y) => void subpaths[subpaths.length - 1]!.push([x, y]),
    arc: () => void arcs++,
    fill: () => void painted.push({ how: 'fill', arcs, dash }),
    stroke: () => void painted.push({ how: 'stroke', arcs, dash }),
    setLineDash: (d) => {
      dash = d;
    },
    globalAlpha: 1,
    fillStyle: '',
    strokeStyle: '',
    lineWidth: 1,
  };
  return { pen, subpaths, painted };
}

/** An SVG path's subpaths as absolute points (M, L, H, V and a relative h; Z ignored). A
 * one-point subpath (d3's line gives a lone point as "Mx,yZ") draws nothing: left out. */
function svgPolys(d: string): Poly[] {
  const out: Poly[] = [];
  let x = 0;
  let y = 0;
  for (const [, cmd, args] of d.replace(/Z/g, '').matchAll(/([MLHVh])([^MLHVh]*)/g)) {
    const n = args!.split(/[ ,]+/).filter(Boolean).map(Number);
    if (cmd === 'M' || cmd === 'L') [x, y] = [n[0]!, n[1]!];
    else if (cmd === 'H') x = n[0]!;
    else if (cmd === 'V') y = n[0]!;
    else x += n[0]!;
    if (cmd === 'M') out.push([[x, y]]);
    else out[out.length - 1]!.push([x, y]);
  }
  return out.filter((p) => p.length > 1);
}

/** The same subpaths, in any order (linePath appends its lone points' dashes at the end). */
const near = (drawn: Poly[], svg: Poly[]) => {
  const byStart = (p: Poly[]) => [...p].sort((u, v) => u[0]![0] - v[0]![0]);
  const [a, b] = [byStart(drawn), byStart(svg)];
  expect(a.length).toBe(b.length);
  a.forEach((p, i) => {
    expect(p.length).toBe(b[i]!.length);
    p.forEach(([x, y], j) => {
      expect(x).toBeCloseTo(b[i]![j]![0], 1);
      expect(y).toBeCloseTo(b[i]![j]![1], 1);
    });
  });
};

const x = (v: number) => v * 10;
const y = (v: number) => 100 - v;

describe('canvas marks and their SVG', () => {
  it('a line breaks at NaN and draws a lone point as a dash, as linePath does', () => {
    const xs = [0, 1, 2, 3, 4, 5, 6];
    const ys = [5, 6, NaN, 7, NaN, 8, 9];
    const { pen, subpaths, painted } = recorder();
    const mark: Mark = { kind: 'line', x: xs, y: ys, colour: '#000', width: 2 };
    expect(drawMarks(pen, { marks: [mark], x, y })).toBe(5);
    near(subpaths, svgPolys(linePath(xs, ys, x, y)));
    expect(painted).toEqual([{ how: 'stroke', arcs: 0, dash: [] }]);
  });

  it('steps hold each value to the next x and the last to the end, as stepPath does', () => {
    const xs = [0, 2, 5];
    const ys = [1, 3, 2];
    const { pen, subpaths, painted } = recorder();
    const mark: Mark = {
      kind: 'steps',
      x: xs,
      y: ys,
      endX: 8,
      colour: '#000',
      width: 1,
      dash: [5, 3],
    };
    drawMarks(pen, { marks: [mark], x, y });
    near(subpaths, svgPolys(stepPath(xs, ys, x, y, 8)));
    expect(painted).toEqual([{ how: 'stroke', arcs: 0, dash: [5, 3] }]);
    expect(marksSvg({ marks: [mark], x, y })).toContain('stroke-dasharray="5 3"');
  });

  it('every dot: reads filled, writes outlined, in the file as two paths', () => {
    const set = {
      run: 0,
      proc: 0,
      x: Float64Array.from([1, 2, 3, 4]),
      y: Float64Array.from([1, 2, 3, 4]),
      write: Uint8Array.from([0, 1, 0, 0]),
    };
    const { pen, painted } = recorder();
    const mark: Mark = { kind: 'dots', set, r: 2, colour: '#123456', opacity: 0.8 };
    expect(drawMarks(pen, { marks: [mark], x, y })).toBe(4);
    expect(painted).toEqual([
      { how: 'fill', arcs: 3, dash: [] },
      { how: 'stroke', arcs: 1, dash: [] },
    ]);
    const svg = marksSvg({ marks: [mark], x, y });
    expect(svg.match(/<path /g)).toHaveLength(2);
    expect(svg.match(/a2,2 /g)).toHaveLength(8); // two half-arcs per dot
    expect(svg).toContain('opacity="0.8"');
  });
});
