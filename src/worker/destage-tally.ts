// The write-back destages for the charts: drive-internal jobs with no D or C, so in no table
// row. Each one's seek, rotation and transfer count — for the breakdown, and for its writers
// (split by their sectors) in the disk-time shares — once the mechanism is free of it, as the
// engine's collector counts them (noteServiced, noteDestaged).
import type { IoRequest } from '../engine/request';
import { ownerCount, ownerProc, ownerShare } from '../engine/metrics/collector';

export interface DestageTables {
  /** per process: the destages' media time (seek + rotation + transfer) */
  destageNs: Float64Array;
  /** by phase, [seek, rotation, transfer] ns: of every destage, then each process's part
   * (3 per process) */
  destagePhaseNs: { all: Float64Array; byProc: Float64Array };
}

export function createDestageTally() {
  /** per process: [seek, rotation, transfer] so far */
  const byProc: number[] = [];
  const all = [0, 0, 0];
  /** destages on the media, until the mechanism is free of them */
  let onMedia: Array<{ freeNs: number; phases: number[]; owners: Array<[number, number]> }> = [];

  return {
    /** A destage started on the media; it counts once the mechanism is free of it. */
    started(r: IoRequest, freeNs: number): void {
      const owners: Array<[number, number]> = [];
      for (let i = 0, n = ownerCount(r); i < n; i++) {
        const p = ownerProc(r, i);
        if (p >= 0) owners.push([p, ownerShare(r, i)]);
      }
      onMedia.push({ freeNs, phases: [r.seekNs, r.rotationNs, r.transferNs], owners });
    },
    /** Count the destages the mechanism is free of by `now` (the engine counts one when its
     * MechanismFree event runs, which at an instant runs before every other event). */
    settle(now: number): void {
      onMedia = onMedia.filter((m) => {
        if (m.freeNs > now) return true;
        m.phases.forEach((ns, k) => (all[k]! += ns));
        for (const [p, share] of m.owners) {
          while (byProc.length < 3 * (p + 1)) byProc.push(0);
          m.phases.forEach((ns, k) => (byProc[3 * p + k]! += ns * share));
        }
        return false;
      });
    },
    /** The tallies for `processes` processes (at least those seen). */
    tables(processes: number): DestageTables {
      const np = Math.max(processes, byProc.length / 3);
      const phases = new Float64Array(3 * np);
      phases.set(byProc);
      const destageNs = new Float64Array(np);
      for (let p = 0; p < np; p++)
        destageNs[p] = phases[3 * p]! + phases[3 * p + 1]! + phases[3 * p + 2]!;
      return { destageNs, destagePhaseNs: { all: Float64Array.from(all), byProc: phases } };
    },
  };
}
