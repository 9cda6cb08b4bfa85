// The canvas a chart's dense marks are drawn on (./plot-marks.ts), over the plot area of its
// SVG: redrawn when the marks change and when its box is resized, at device pixels.
import { useLayoutEffect, useRef } from 'react';
import { H, W, type Layout } from './layout';
import { drawMarks, type Plot } from './plot-marks';

/**
 * The canvas over the plot area, redrawn when its marks change and when its box is resized
 * (at the screen's device pixels). `data-marks` says how many points it drew.
 */
export function PlotCanvas({ plot, lay }: { plot: Plot; lay: Layout }) {
  const ref = useRef<HTMLCanvasElement>(null);
  useLayoutEffect(() => {
    const canvas = ref.current;
    if (!canvas) return;
    const draw = () => {
      const dpr = window.devicePixelRatio || 1;
      const w = canvas.clientWidth;
      const h = canvas.clientHeight;
      if (w === 0 || h === 0) return;
      canvas.width = Math.round(w * dpr);
      canvas.height = Math.round(h * dpr);
      const ctx = canvas.getContext('2d');
      if (!ctx) return;
      ctx.setTransform(canvas.width / lay.width, 0, 0, canvas.height / lay.height, 0, 0);
      ctx.clearRect(0, 0, lay.width, lay.height);
      canvas.dataset.marks = String(drawMarks(ctx, plot));
    };
    draw();
    let first = true;
    const resized = new ResizeObserver(() => {
      // the first report is the size just drawn at
      if (!first) draw();
      first = false;
    });
    resized.observe(canvas);
    return () => resized.disconnect();
  }, [plot, lay.width, lay.height]);
  const pct = (v: number, of: number) => `${((v / of) * 100).toFixed(4)}%`;
  return (
    <canvas
      ref={ref}
      className="chart-canvas"
      aria-hidden="true"
      data-testid="chart-canvas"
      style={{
        left: pct(lay.left, W),
        top: pct(lay.top, H),
        width: pct(lay.width, W),
        height: pct(lay.height, H),
      }}
    />
  );
}
