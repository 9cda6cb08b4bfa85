// The playback cursor over a chart's time axis (./frame.tsx draws it).
import { useEffect, useRef } from 'react';
import type { ScaleLinear } from 'd3-scale';
import { useInView } from '../../app/in-view';
import type { Store } from '../../app/store';
import { H, W, type Layout } from './layout';

/**
 * The playback clock as a vertical line over the plot. It is an HTML element on its own
 * compositor layer, moved by a transform straight from the store: a frame of playback moves
 * it without re-rendering or repainting the chart. It moves in whole device pixels (a frame
 * that would move it less changes nothing on screen), and not at all while the chart is
 * scrolled out of sight. It is not part of an exported file.
 */
export function Cursor({
  store,
  x,
  lay,
}: {
  store: Store;
  x: ScaleLinear<number, number>;
  lay: Layout;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [areaRef, shown] = useInView<HTMLDivElement>();
  useEffect(() => {
    const el = ref.current;
    if (!el || !shown) return;
    let width = el.clientWidth;
    let last = NaN;
    const move = () => {
      const at = x(store.get().tNs / 1e6) / lay.width;
      const dpr = window.devicePixelRatio || 1;
      const px = Math.round(at * width * dpr) / dpr;
      if (px === last) return;
      last = px;
      el.style.transform = `translateX(${px}px)`;
      el.style.visibility = at >= 0 && at <= 1 ? 'visible' : 'hidden';
    };
    const resized = new ResizeObserver(() => {
      width = el.clientWidth;
      last = NaN;
      move();
    });
    resized.observe(el);
    move();
    const unsubscribe = store.subscribe(move);
    return () => {
      unsubscribe();
      resized.disconnect();
    };
  }, [store, x, lay.width, shown]);
  const pct = (v: number, of: number) => `${((v / of) * 100).toFixed(4)}%`;
  return (
    <div
      ref={areaRef}
      className="chart-cursor-area"
      style={{
        left: pct(lay.left, W),
        top: pct(lay.top, H),
        width: pct(lay.width, W),
        height: pct(lay.height, H),
      }}
    >
      <div ref={ref} className="chart-cursor" data-testid="chart-cursor" />
    </div>
  );
}
