// Range writes in the run log (issue #6): each drive decision's range-write records placed on
// the platter — the write's ranges track by track, each examined piece's arc and best start,
// and the block it would take — so the disk view draws them without the engine's geometry.
import type { DecisionRecord, RangeDecisionRecord, RangePieceRecord } from '../engine/events';
import {
  lbnToPhys,
  sectorAngle,
  trackStartAngle,
  zoneOfLbn,
  type Geometry,
  type PhysAddr,
} from '../engine/disk/geometry';

/** A stretch of one track on the platter: angles are fractions of a revolution, start in
 * [0, 1), end = start + the stretch's share of the track (may pass 1: it wraps). */
export interface TrackArc {
  cylinder: number;
  head: number;
  startAngle: number;
  endAngle: number;
}

/** A range write's track piece as examined, placed: the arc its candidate blocks cover,
 * and the arc of its best start (bestStart −1 when not estimated or every start is in use). */
export interface LogRangePiece extends RangePieceRecord, TrackArc {
  bestStart: number;
  bestEnd: number;
}

/** A range write in a drive decision, placed on the platter for the disk view. */
export interface LogRangeRecord extends RangeDecisionRecord {
  pieces: LogRangePiece[];
  /** the write's ranges track by track (shared between records with the same ranges) */
  tracks: TrackArc[];
  /** where its best start would write (the block taken when this write is chosen) */
  block: TrackArc | null;
}

/** A decision record as the log keeps it: range writes carry their physical places. */
export interface LogDecision extends DecisionRecord {
  ranges?: LogRangeRecord[];
}

/** Places range-write records on the platter: each piece's and best block's arc, and the
 * write's ranges track by track (cached by ranges: a journal's writes share one region). */
export function createRangePlacer(g: Geometry) {
  const addr: PhysAddr = { zone: 0, cylinder: 0, head: 0, sector: 0 };
  const sizes = new Map<number, number>();
  const tracksOf = new Map<string, TrackArc[]>();
  const MAX_TRACKS = 4096;
  /** the arc of n sectors from lbn, within lbn's track; null outside the disk */
  const arc = (lbn: number, n: number): TrackArc | null => {
    if (lbn < 0 || lbn >= g.totalLbns) return null;
    lbnToPhys(g, lbn, addr);
    const spt = g.zones[addr.zone]!.sectorsPerTrack;
    const startAngle = sectorAngle(g, addr);
    const share = Math.min(Math.max(n, 1), spt - addr.sector) / spt;
    return { cylinder: addr.cylinder, head: addr.head, startAngle, endAngle: startAngle + share };
  };
  // the engine's records share a write's own list of ranges: known lists by identity first
  const tracksOfList = new WeakMap<object, TrackArc[]>();
  const tracks = (ranges: RangeDecisionRecord['ranges']): TrackArc[] => {
    let out = tracksOfList.get(ranges);
    if (out) return out;
    const key = ranges.map((r) => `${r.begin}-${r.end}`).join(',');
    out = tracksOf.get(key);
    if (out) {
      tracksOfList.set(ranges, out);
      return out;
    }
    out = [];
    for (const r of ranges) {
      for (let s = Math.max(0, r.begin); s < r.end && out.length < MAX_TRACKS;) {
        const a = arc(s, r.end - s);
        if (!a) break;
        out.push(a);
        const spt = g.zones[addr.zone]!.sectorsPerTrack;
        s += spt - addr.sector;
      }
    }
    if (tracksOf.size > 2048) tracksOf.clear();
    tracksOf.set(key, out);
    tracksOfList.set(ranges, out);
    return out;
  };
  /** the start angle of lbn on its known track (cylinder, head): no lookup of the track,
   * so the engine's own address memo is left alone (pieces are many) */
  const angleOn = (lbn: number, cylinder: number, head: number): { a: number; spt: number } => {
    const z = zoneOfLbn(g, lbn);
    const spt = z.sectorsPerTrack;
    const a =
      trackStartAngle(g, z, cylinder, head) +
      ((lbn - z.firstLbn + z.emptyFrontSectors) % spt) / spt;
    return { a: a >= 1 ? a - 1 : a, spt };
  };
  return {
    size(rq: number, n: number) {
      sizes.set(rq, n);
    },
    record: (r: RangeDecisionRecord): LogRangeRecord => {
      const n = sizes.get(r.rq) ?? 1;
      let block: TrackArc | null = null;
      const pieces = r.pieces.map((p): LogRangePiece => {
        const first = angleOn(p.firstSector, p.cylinder, p.head);
        const span = Math.min(p.lastSector - p.firstSector + n, first.spt) / first.spt;
        let bestStart = -1;
        let bestEnd = -1;
        if (p.sector >= 0) {
          bestStart = angleOn(p.sector, p.cylinder, p.head).a;
          bestEnd = bestStart + Math.min(n, first.spt) / first.spt;
          if (p.sector === r.sector) {
            block = {
              cylinder: p.cylinder,
              head: p.head,
              startAngle: bestStart,
              endAngle: bestEnd,
            };
          }
        }
        // Named fields, not a spread: spreading the engine's records is ten times slower.
        return {
          cylinder: p.cylinder,
          head: p.head,
          firstSector: p.firstSector,
          lastSector: p.lastSector,
          seekNs: p.seekNs,
          rotationNs: p.rotationNs,
          sector: p.sector,
          pruned: p.pruned,
          startAngle: first.a,
          endAngle: first.a + span,
          bestStart,
          bestEnd,
        };
      });
      if (!block && r.sector >= 0) block = arc(r.sector, n);
      return {
        rq: r.rq,
        scheduler: r.scheduler,
        ranges: r.ranges,
        pieces,
        unvisited: r.unvisited,
        sector: r.sector,
        estimateNs: r.estimateNs,
        tracks: tracks(r.ranges),
        block,
      };
    },
  };
}
