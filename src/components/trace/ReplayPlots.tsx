// The replay's two small plots: each latency distribution as a ladder (p50 → max with p95,
// p99 and the mean) measured against simulated, and completions per second over time.
import type { LatencyMs, ReplayReport } from '../../engine';
import { count, fixed, ms } from './format';

export const MEASURED = '#1c7ed6';
export const SIMULATED = '#e8590c';

/** p50 → max of each distribution on one logarithmic axis, p95/p99 ticks and the mean. */
export function LatencyLadder({
  measured,
  simulated,
  label,
}: {
  measured: LatencyMs | null;
  simulated: LatencyMs | null;
  label: string;
}) {
  const all = [measured, simulated].filter((l): l is LatencyMs => l !== null && l.n > 0);
  if (all.length === 0) return null;
  const values = all.flatMap((l) => [l.p50, l.max, l.mean]).filter((v) => v > 0);
  if (values.length === 0) return null;
  const lo = 10 ** Math.floor(Math.log10(Math.min(...values)));
  const hi = 10 ** Math.ceil(Math.log10(Math.max(...values)));
  const W = 420;
  const left = 70;
  const right = 40;
  const x = (v: number): number =>
    left +
    ((Math.log10(Math.max(v, lo)) - Math.log10(lo)) / Math.max(Math.log10(hi / lo), 1e-9)) *
      (W - left - right);
  const decades: number[] = [];
  for (let d = lo; d <= hi * 1.0001; d *= 10) decades.push(d);
  const row = (l: LatencyMs | null, y: number, colour: string, name: string) =>
    l === null || l.n === 0 ? null : (
      <g key={name}>
        <text x={4} y={y + 4} className="svg-small">
          {name}
        </text>
        <line x1={x(l.p50)} x2={x(l.max)} y1={y} y2={y} stroke={colour} strokeWidth={2} />
        {[l.p50, l.p95, l.p99, l.max].map((v, i) => (
          <line key={i} x1={x(v)} x2={x(v)} y1={y - 6} y2={y + 6} stroke={colour} strokeWidth={2} />
        ))}
        <circle cx={x(l.mean)} cy={y} r={4} fill="#fff" stroke={colour} strokeWidth={2} />
      </g>
    );
  return (
    <figure className="latency-box">
      <figcaption className="small">{label}, ms</figcaption>
      <svg
        className="latency-ladder"
        viewBox={`0 0 ${W} 74`}
        role="img"
        aria-label={`${label}: p50, p95, p99 and max (ticks) and the mean (circle), measured against simulated, on a log scale`}
      >
        {decades.map((d) => (
          <g key={d}>
            <line x1={x(d)} x2={x(d)} y1={6} y2={54} stroke="#dee2e6" />
            <text x={x(d)} y={68} textAnchor="middle" className="svg-small">
              {d >= 1 ? count(d) : String(d)} ms
            </text>
          </g>
        ))}
        {row(measured, 18, MEASURED, 'measured')}
        {row(simulated, 42, SIMULATED, 'simulated')}
      </svg>
    </figure>
  );
}

/** completions per second in each window, measured and simulated, on one time axis */
export function ThroughputPlot({ report }: { report: ReplayReport }) {
  const t = report.throughputOverTime;
  const n = Math.max(t.measured.length, t.simulated.length);
  if (n === 0) return null;
  const peak = Math.max(1, ...t.measured.map((w) => w.iops), ...t.simulated.map((w) => w.iops));
  const W = 640;
  const H = 160;
  const left = 56;
  const bottom = 22;
  const x = (k: number): number => left + (k / Math.max(n, 1)) * (W - left - 8);
  const y = (v: number): number => 6 + (1 - v / peak) * (H - bottom - 6);
  const path = (ws: ReplayReport['throughputOverTime']['measured']): string =>
    ws
      .map(
        (w, k) =>
          `${k === 0 ? 'M' : 'L'}${x(k).toFixed(1)},${y(w.iops).toFixed(1)}H${x(k + 1).toFixed(1)}`,
      )
      .join('');
  const endMs = n * t.windowMs;
  return (
    <figure className="throughput-figure">
      <figcaption className="small">
        Requests completed per second in {ms(t.windowMs)} ms windows:{' '}
        <span style={{ color: MEASURED }}>measured</span> and{' '}
        <span style={{ color: SIMULATED }}>simulated</span>
      </figcaption>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={`requests completed per second over time, measured against simulated, peak ${fixed(peak, 0)} over ${ms(endMs)} ms`}
      >
        <line x1={left} x2={W - 8} y1={H - bottom} y2={H - bottom} stroke="#adb5bd" />
        <line x1={left} x2={left} y1={6} y2={H - bottom} stroke="#adb5bd" />
        <text x={left - 4} y={12} textAnchor="end" className="svg-small">
          {count(Math.round(peak))}
        </text>
        <text x={left - 4} y={H - bottom} textAnchor="end" className="svg-small">
          0
        </text>
        <text x={left} y={H - 6} className="svg-small">
          0 ms
        </text>
        <text x={W - 8} y={H - 6} textAnchor="end" className="svg-small">
          {ms(endMs)} ms
        </text>
        <path d={path(t.measured)} fill="none" stroke={MEASURED} strokeWidth={1.5} />
        <path d={path(t.simulated)} fill="none" stroke={SIMULATED} strokeWidth={1.5} />
      </svg>
    </figure>
  );
}
