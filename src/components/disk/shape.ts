// Where things go in the disk view's SVG: the platter's centre and radii, a cylinder's
// radius, a point at a platter angle. Pure layout; the heads read at the platter's angle 0,
// drawn at the east of the platter, where the arm's head sits.
import type { GeometryView } from '../../worker/client';

export const VIEW_W = 640;
export const VIEW_H = 520;
export const CX = 260;
export const CY = 260;
export const R_OUTER = 230;
export const R_INNER = 70;

/** Width of one cylinder's ring on screen. */
export function trackWidth(g: Readonly<GeometryView>): number {
  return (R_OUTER - R_INNER) / Math.max(1, g.cylinders);
}

/** The radius of a (possibly fractional) cylinder's centre line; cylinder 0 is outermost. */
export function cylinderRadius(g: Readonly<GeometryView>, cylinder: number): number {
  return R_OUTER - (cylinder + 0.5) * trackWidth(g);
}

/** A point at radius r and platter angle a (fraction of a turn), in the platter's own frame. */
export function polar(r: number, a: number): [number, number] {
  const th = a * 2 * Math.PI;
  return [CX + r * Math.cos(th), CY + r * Math.sin(th)];
}

/** An annular sector from angle a0 to a1 (fractions of a turn), radii r0 < r1, as a path. */
export function bandPath(r0: number, r1: number, a0: number, a1: number): string {
  const span = Math.min(0.999, Math.max(0.003, a1 - a0));
  const end = a0 + span;
  const large = span > 0.5 ? 1 : 0;
  const [x0, y0] = polar(r1, a0);
  const [x1, y1] = polar(r1, end);
  const [x2, y2] = polar(r0, end);
  const [x3, y3] = polar(r0, a0);
  const f = (n: number) => n.toFixed(2);
  return (
    `M${f(x0)},${f(y0)}A${f(r1)},${f(r1)} 0 ${large} 1 ${f(x1)},${f(y1)}` +
    `L${f(x2)},${f(y2)}A${f(r0)},${f(r0)} 0 ${large} 0 ${f(x3)},${f(y3)}Z`
  );
}

/** The sectors per track of a cylinder's zone (12 for an unknown one, never 0). */
export function sectorsPerTrack(g: Readonly<GeometryView>, cylinder: number): number {
  const z = g.zones.find((zz) => cylinder >= zz.firstCylinder && cylinder <= zz.lastCylinder);
  return Math.max(1, z?.sectorsPerTrack ?? 12);
}

/** The arm's pivot, off the platter to the lower right. */
export const PIVOT: [number, number] = [CX + R_OUTER + 60, CY + R_OUTER - 10];
