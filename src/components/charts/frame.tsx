// The frame every chart draws in: a fixed viewBox (the SVG scales with its box), its title
// and legend inside the SVG (so an exported file explains itself), axes from d3 scales, the
// playback cursor, and a hover / keyboard read-out. React owns the <svg>; d3 computes.
import { useContext, useId, useRef, useState, type ReactNode } from 'react';
import type { ScaleLinear } from 'd3-scale';
import type { Store } from '../../app/store';
import { downloadPng, downloadSvg } from '../../app/exports';
import { Cursor } from './cursor';
import { PlotCanvas } from './plot-canvas';
import { marksSvg, type Plot } from './plot-marks';
import { PlayFromContext } from './play-from';
import { H, LEFT, W, legendPlaces, type Layout, type LegendItem } from './layout';

export { H, W, layout, type Layout, type LegendItem } from './layout';

export interface Readout {
  /** where the guide is drawn, px from the plot's left */
  px: number;
  lines: string[];
}

function Legend({ items }: { items: readonly LegendItem[] }) {
  const places = legendPlaces(items);
  return (
    <g transform={`translate(${LEFT},30)`} className="chart-legend">
      {items.map((item, i) => {
        const { x: at, row } = places[i]!;
        return (
          <g key={item.label} transform={`translate(${at},${row * 16})`}>
            {item.swatch ? (
              <rect x={0} y={2} width={16} height={9} fill={item.colour} />
            ) : item.hollow !== undefined ? (
              <circle
                cx={8}
                cy={7}
                r={3.5}
                fill={item.hollow ? 'none' : item.colour}
                stroke={item.colour}
                strokeWidth={1.4}
              />
            ) : (
              <line
                x1={0}
                x2={18}
                y1={7}
                y2={7}
                stroke={item.colour}
                strokeWidth={2}
                strokeDasharray={item.dash ? '5 3' : undefined}
              />
            )}
            <text x={22} y={11} fontSize={12} fill="#343a40">
              {item.label}
            </text>
          </g>
        );
      })}
    </g>
  );
}

interface AxisScale {
  (v: number): number;
  ticks(n?: number): number[];
}

export function AxisBottom(props: {
  scale: AxisScale;
  lay: Layout;
  label: string;
  format: (v: number) => string;
  ticks?: number;
}) {
  const { scale, lay, label, format } = props;
  return (
    <g transform={`translate(${lay.left},${lay.top + lay.height})`} className="chart-axis">
      <line x1={0} x2={lay.width} stroke="#868e96" />
      {scale.ticks(props.ticks ?? 8).map((t) => (
        <g key={t} transform={`translate(${scale(t)},0)`}>
          <line y2={5} stroke="#868e96" />
          <text y={17} textAnchor="middle" fontSize={12} fill="#495057">
            {format(t)}
          </text>
        </g>
      ))}
      <text x={lay.width / 2} y={36} textAnchor="middle" fontSize={12} fill="#343a40">
        {label}
      </text>
    </g>
  );
}

export function AxisLeft(props: {
  scale: AxisScale;
  lay: Layout;
  label: string;
  format: (v: number) => string;
  ticks?: number;
}) {
  const { scale, lay, label, format } = props;
  return (
    <g transform={`translate(${lay.left},${lay.top})`} className="chart-axis">
      <line y1={0} y2={lay.height} stroke="#868e96" />
      {scale.ticks(props.ticks ?? 5).map((t) => (
        <g key={t} transform={`translate(0,${scale(t)})`}>
          <line x2={lay.width} stroke="#e9ecef" />
          <line x1={-5} stroke="#868e96" />
          <text x={-8} dy="0.32em" textAnchor="end" fontSize={12} fill="#495057">
            {format(t)}
          </text>
        </g>
      ))}
      <text
        transform={`translate(${-52},${lay.height / 2}) rotate(-90)`}
        textAnchor="middle"
        fontSize={12}
        fill="#343a40"
      >
        {label}
      </text>
    </g>
  );
}

export interface ChartFrameProps {
  /** used for file names and test ids: "latency-over-time" */
  id: string;
  title: string;
  /** one line under the chart (what is drawn, sampling, units) */
  note?: string;
  legend: readonly LegendItem[];
  lay: Layout;
  /** the playback cursor on a time axis (ms) */
  cursor?: { store: Store; x: ScaleLinear<number, number> };
  /** the read-out at a point of the plot (px from its left), or null for none */
  readout: (px: number, py: number | null) => Readout | null;
  /** axes and anything outside the plot area */
  axes: ReactNode;
  /** dense marks (dots, long lines), drawn on a canvas over the plot (./plot-canvas.tsx) */
  plot?: Plot;
  /** the plot's SVG marks (a few elements: bars), in plot coordinates */
  children?: ReactNode;
}

export function ChartFrame(props: ChartFrameProps) {
  const { id, title, lay, legend } = props;
  const svgRef = useRef<SVGSVGElement>(null);
  const [at, setAt] = useState<Readout | null>(null);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const noteId = useId();
  const onPlayFrom = useContext(PlayFromContext);
  const x = props.cursor?.x;
  const playFrom =
    onPlayFrom && x
      ? (px: number) => onPlayFrom(Math.max(0, Math.round(x.invert(px) * 1e6)))
      : null;
  const readoutFrom = (px: number, py: number | null = null) => {
    const r = props.readout(Math.min(lay.width, Math.max(0, px)), py);
    setAt(r && playFrom ? { ...r, lines: [...r.lines, 'click or Enter: watch from here'] } : r);
  };

  function plotPoint(e: React.PointerEvent<SVGRectElement> | React.MouseEvent<SVGRectElement>) {
    const box = svgRef.current!.getBoundingClientRect();
    const px = ((e.clientX - box.left) / box.width) * W - lay.left;
    const py = ((e.clientY - box.top) / box.height) * H - lay.top;
    return { px: Math.min(lay.width, Math.max(0, px)), py };
  }

  function onPointer(e: React.PointerEvent<SVGRectElement>) {
    if (!svgRef.current) return;
    const { px, py } = plotPoint(e);
    readoutFrom(px, py);
  }

  function onKey(e: React.KeyboardEvent<SVGSVGElement>) {
    const step = e.shiftKey ? lay.width / 10 : lay.width / 100;
    const from = at?.px ?? -step;
    if (e.key === 'ArrowRight') readoutFrom(from + step);
    else if (e.key === 'ArrowLeft') readoutFrom(Math.max(0, from - step));
    else if (e.key === 'Home') readoutFrom(0);
    else if (e.key === 'End') readoutFrom(lay.width);
    else if (e.key === 'Escape') setAt(null);
    else if (e.key === 'Enter' && playFrom && at) playFrom(at.px);
    else return;
    e.preventDefault();
    e.stopPropagation();
  }

  async function save(kind: 'png' | 'svg') {
    if (!svgRef.current) return;
    setBusy(true);
    setFailed(null);
    try {
      // the canvas's marks go into the file as SVG paths
      const marks = props.plot ? marksSvg(props.plot) : undefined;
      if (kind === 'svg') downloadSvg(svgRef.current, `spindle-${id}.svg`, marks);
      else await downloadPng(svgRef.current, `spindle-${id}.png`, marks);
    } catch (err) {
      // say so beside the buttons; the chart and the run stay as they are
      setFailed(
        `${kind.toUpperCase()} export failed: ${err instanceof Error ? err.message : String(err)}`,
      );
    } finally {
      setBusy(false);
    }
  }

  const boxW = at ? Math.max(...at.lines.map((l) => l.length)) * 6.7 + 14 : 0;
  const boxH = at ? at.lines.length * 15 + 8 : 0;
  const boxX = at ? (at.px + 12 + boxW > lay.width ? at.px - 12 - boxW : at.px + 12) : 0;

  return (
    <figure className="chart" data-testid={`chart-${id}`}>
      <div className="chart-tools">
        <button
          type="button"
          disabled={busy}
          onClick={() => void save('png')}
          aria-label={`Download ${title} as PNG`}
        >
          PNG
        </button>
        <button
          type="button"
          disabled={busy}
          onClick={() => void save('svg')}
          aria-label={`Download ${title} as SVG`}
        >
          SVG
        </button>
        {failed && (
          <span role="alert" className="chart-export-failed">
            {failed}
          </span>
        )}
      </div>
      <div className="chart-plot">
        <svg
          ref={svgRef}
          viewBox={`0 0 ${W} ${H}`}
          xmlns="http://www.w3.org/2000/svg"
          role="img"
          aria-label={`${title}. Arrow keys move the read-out.`}
          aria-describedby={props.note ? noteId : undefined}
          tabIndex={0}
          onKeyDown={onKey}
          onBlur={() => setAt(null)}
          fontFamily="system-ui, -apple-system, 'Segoe UI', sans-serif"
        >
          <rect width={W} height={H} fill="#ffffff" />
          <text x={12} y={19} fontSize={14} fontWeight={600} fill="#212529">
            {title}
          </text>
          <Legend items={legend} />
          {props.axes}
          <g transform={`translate(${lay.left},${lay.top})`}>
            <svg width={lay.width} height={lay.height} overflow="hidden">
              {props.plot && <g data-marks="" />}
              {props.children}
            </svg>
            <rect
              data-export="omit"
              width={lay.width}
              height={lay.height}
              fill="transparent"
              onPointerMove={onPointer}
              onPointerLeave={() => setAt(null)}
              onClick={playFrom ? (e) => svgRef.current && playFrom(plotPoint(e).px) : undefined}
              style={playFrom ? { cursor: 'pointer' } : undefined}
            />
          </g>
        </svg>
        {props.plot && <PlotCanvas plot={props.plot} lay={lay} />}
        {/* the read-out above the canvas's marks */}
        <svg
          className="chart-overlay"
          viewBox={`0 0 ${W} ${H}`}
          aria-hidden="true"
          fontFamily="system-ui, -apple-system, 'Segoe UI', sans-serif"
        >
          <g transform={`translate(${lay.left},${lay.top})`}>
            {at && (
              <g
                className="chart-readout"
                data-testid="chart-readout"
                data-export="omit"
                pointerEvents="none"
              >
                <line
                  x1={at.px}
                  x2={at.px}
                  y1={0}
                  y2={lay.height}
                  stroke="#495057"
                  strokeWidth={1}
                />
                <rect
                  x={boxX}
                  y={4}
                  width={boxW}
                  height={boxH}
                  rx={4}
                  fill="#ffffff"
                  fillOpacity={0.94}
                  stroke="#adb5bd"
                />
                {at.lines.map((line, i) => (
                  <text key={i} x={boxX + 7} y={19 + i * 15} fontSize={12} fill="#212529">
                    {line}
                  </text>
                ))}
              </g>
            )}
          </g>
        </svg>
        {props.cursor && <Cursor store={props.cursor.store} x={props.cursor.x} lay={lay} />}
      </div>
      {props.note && (
        <figcaption id={noteId} className="chart-note">
          {props.note}
        </figcaption>
      )}
    </figure>
  );
}
