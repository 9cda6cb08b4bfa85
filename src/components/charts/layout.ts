// A chart's fixed viewBox and where its plot area goes once the legend's rows are placed
// (frame.tsx draws in it; the cursor and the canvas read it without importing the frame).

export const W = 720;
export const H = 300;
export const LEFT = 66;
const RIGHT = 18;
const BOTTOM = 44;

export interface LegendItem {
  label: string;
  colour: string;
  /** a dashed line */
  dash?: boolean;
  /** drawn as an outlined mark (writes) */
  hollow?: boolean;
  /** a filled swatch (bars) rather than a line */
  swatch?: boolean;
}

/** Where each legend item goes: rows of items, wrapped at the plot's width. */
export function legendPlaces(legend: readonly LegendItem[]): Array<{ x: number; row: number }> {
  let row = 0;
  let x = 0;
  return legend.map((item) => {
    const w = 30 + item.label.length * 7.2;
    if (x + w > W - LEFT - RIGHT && x > 0) {
      row++;
      x = 0;
    }
    const at = { x, row };
    x += w;
    return at;
  });
}

/** The plot area for a legend of this many items (rows wrap). */
export function layout(legend: readonly LegendItem[]) {
  const places = legendPlaces(legend);
  const rows = places.length > 0 ? places[places.length - 1]!.row + 1 : 0;
  const top = 30 + rows * 16;
  return {
    top,
    left: LEFT,
    width: W - LEFT - RIGHT,
    height: H - top - BOTTOM,
  };
}

export type Layout = ReturnType<typeof layout>;
