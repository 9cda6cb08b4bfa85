// A solid-state device: no positioning; each channel serves one request at a time in
// latency + size / bandwidth, first come first served.
import type { IoRequest } from '../request';
import { noteServiced } from '../metrics/collector';
import { pushEvent } from '../sim/heap';
import { EventKind, EventPriority } from '../sim/events';
import type { DiskSimulation } from './sim-view';

export function ssdSubmit(sim: DiskSimulation, rq: IoRequest, now: number): void {
  const d = sim.model.disk;
  const ssd = d.params.ssd!;
  const drive = sim.state.drive;
  const cmd = rq.write ? d.writeCmdNs : d.readMissNs;
  let ch = 0;
  for (let i = 1; i < drive.ssdChannelFreeNs.length; i++) {
    if (drive.ssdChannelFreeNs[i]! < drive.ssdChannelFreeNs[ch]!) ch = i;
  }
  const start = Math.max(now + cmd, drive.ssdChannelFreeNs[ch]!);
  const latency = (rq.write ? ssd.writeLatencyMs : ssd.readLatencyMs) * 1e6;
  const mbps = rq.write ? ssd.writeMBps : ssd.readMBps;
  const transfer = latency + (rq.nSectors * 512 * 1e3) / mbps; // bytes / (MB/s) → ns
  drive.ssdChannelFreeNs[ch] = start + transfer;
  rq.eligibleNs = now + cmd;
  rq.startNs = start;
  rq.transferNs = transfer;
  rq.media = true;
  rq.overheadNs = cmd + (rq.write ? d.writeCompleteNs : d.readCompleteNs);
  const done = start + transfer + (rq.write ? d.writeCompleteNs : d.readCompleteNs);
  pushEvent(sim.state.heap, done, EventPriority.Complete, EventKind.DriveComplete, 0, rq.slot);
  noteServiced(sim, rq);
}
