// The disk view's static layer: the platter, its zones, track rings and (on a small disk)
// every sector's tick, for one surface. Drawn in the platter's frame; the parent rotates it.
// Changes only when the disk or the active surface changes (STYLE.md habit 11).
import { memo } from 'react';
import type { GeometryView } from '../../worker/client';
import { CX, CY, R_INNER, R_OUTER, cylinderRadius, polar, trackWidth } from './shape';

const ZONE_FILLS = ['#eef2f7', '#e3e9f1'];

interface Props {
  geometry: Readonly<GeometryView>;
  head: number;
}

export const StaticPlatter = memo(function StaticPlatter({ geometry: g, head }: Props) {
  const w = trackWidth(g);
  const rings = g.cylinders <= 200;
  const ticks: string[] = [];
  if (g.trackStart) {
    for (let c = 0; c < g.cylinders; c++) {
      const z = g.zones.find((zz) => c >= zz.firstCylinder && c <= zz.lastCylinder);
      if (!z) continue;
      const r0 = cylinderRadius(g, c) - w / 2;
      const r1 = r0 + w;
      const start = g.trackStart[c]?.[head] ?? 0;
      for (let s = 0; s < z.sectorsPerTrack; s++) {
        const [x0, y0] = polar(r0, start + s / z.sectorsPerTrack);
        const [x1, y1] = polar(r1, start + s / z.sectorsPerTrack);
        ticks.push(`M${x0.toFixed(1)},${y0.toFixed(1)}L${x1.toFixed(1)},${y1.toFixed(1)}`);
      }
    }
  }
  return (
    <g className="platter-static">
      <circle cx={CX} cy={CY} r={R_OUTER + 6} fill="#d5dbe3" />
      {g.zones.map((z, i) => {
        const rOut = cylinderRadius(g, z.firstCylinder) + w / 2;
        const rIn = cylinderRadius(g, z.lastCylinder) - w / 2;
        return (
          <circle
            key={i}
            cx={CX}
            cy={CY}
            r={(rOut + rIn) / 2}
            fill="none"
            stroke={ZONE_FILLS[i % 2]}
            strokeWidth={rOut - rIn}
          />
        );
      })}
      {rings &&
        Array.from({ length: g.cylinders + 1 }, (_, c) => (
          <circle
            key={c}
            cx={CX}
            cy={CY}
            r={R_OUTER - c * w}
            fill="none"
            stroke="#b8c2cf"
            strokeWidth={g.cylinders > 40 ? 0.3 : 1}
          />
        ))}
      {ticks.length > 0 && <path d={ticks.join('')} stroke="#98a4b3" strokeWidth={1} />}
      <circle cx={CX} cy={CY} r={R_INNER - 4} fill="#f8f9fb" stroke="#b8c2cf" />
      {/* The index mark: angle 0 of the platter, so its turning shows even on a dense disk. */}
      <path
        d={`M${polar(R_INNER - 4, 0).join(',')}L${polar(R_OUTER + 6, 0).join(',')}`}
        stroke="#5c6b7a"
        strokeWidth={3}
      />
      <circle cx={CX} cy={CY} r={10} fill="#5c6b7a" />
    </g>
  );
});
