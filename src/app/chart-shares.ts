// Per-process shares of a run, from the chart tables: I/Os completed, MB/s, the share of the
// mechanism's time and Q2C, as the engine's summary counts them (tests/app/chart-data.test.ts).
import type { ChartRun } from './chart-data';

const NS_PER_MS = 1e6;

export interface ProcessShare {
  run: number;
  proc: number;
  name: string;
  /** I/Os completed, and their share of the run's */
  ios: number;
  iosShare: number;
  /** MB/s of its I/Os, over the time to the run's last completion */
  mbps: number;
  /** its share of the mechanism's time (seek + rotation + transfer of its requests, and of
   * the write-back destages of its writes) */
  diskShare: number;
  q2cMeanMs: number;
  q2cMaxMs: number;
}

export function processShares(runs: readonly ChartRun[]): ProcessShare[] {
  const out: ProcessShare[] = [];
  runs.forEach((run, ri) => {
    const { ios, requests: r } = run.log.tables;
    const np = run.log.processes.length;
    const count = new Array<number>(np).fill(0);
    const bytes = new Array<number>(np).fill(0);
    const sum = new Array<number>(np).fill(0);
    const max = new Array<number>(np).fill(0);
    const disk = new Array<number>(np).fill(0);
    let total = 0;
    let last = 0;
    for (let i = 0; i < ios.cNs.length; i++) {
      const c = ios.cNs[i]!;
      const p = ios.proc[i]!;
      if (c !== c || p < 0 || p >= np) continue;
      const q2c = c - ios.qNs[i]!;
      count[p]!++;
      bytes[p]! += ios.nSectors[i]! * 512;
      sum[p]! += q2c;
      if (q2c > max[p]!) max[p] = q2c;
      total++;
    }
    let diskTotal = 0;
    for (let i = 0; i < r.n; i++) {
      const p = r.proc[i]!;
      if (r.cNs[i]! > last) last = r.cNs[i]!;
      const d = r.seekNs[i]! + r.rotationNs[i]! + r.transferNs[i]!;
      diskTotal += d;
      if (p >= 0 && p < np) disk[p]! += d;
    }
    // a write-back destage's media time is its writer's (the engine's noteServiced)
    const destage = run.log.tables.destageNs;
    for (let p = 0; p < destage.length; p++) {
      diskTotal += destage[p]!;
      if (p < np) disk[p]! += destage[p]!;
    }
    const seconds = last / 1e9;
    run.log.processes.forEach((name, p) => {
      out.push({
        run: ri,
        proc: p,
        name,
        ios: count[p]!,
        iosShare: total > 0 ? count[p]! / total : 0,
        mbps: seconds > 0 ? bytes[p]! / seconds / 1e6 : 0,
        diskShare: diskTotal > 0 ? disk[p]! / diskTotal : 0,
        q2cMeanMs: count[p]! > 0 ? sum[p]! / count[p]! / NS_PER_MS : 0,
        q2cMaxMs: max[p]! / NS_PER_MS,
      });
    });
  });
  return out;
}
