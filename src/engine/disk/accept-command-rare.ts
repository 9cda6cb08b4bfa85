// The commands the drive takes off its hot read path (drive.ts acceptCommand): flushes,
// writes (range writes, write-back buffering, DiskSim's extra write disconnect), trace-timed
// service, and SSD or fitted devices. A read reaches this only when trace-timed or on an SSD
// or fitted device, each of which serves it before the write path.
import type { IoRequest } from '../request';
import { pushEvent } from '../sim/heap';
import { EventKind, EventPriority } from '../sim/events';
import type { DiskSimulation } from './sim-view';
import { locate } from './mechanics';
import type { CompiledDisk } from './compile';
import { writeStopsReadAhead } from './cache';
import { writeEmptiesSegments, writeTakesSegment } from './cache-writes';
import { ssdSubmit } from './ssd';
import { fittedSubmit } from './fitted';
import { acceptFlush } from './flush-command';
import { noteServiced } from '../metrics/collector';
import { takeRangeWrite } from './range';
import { acceptRangeWrite } from './range-pick';
import { bufferWrite, writeBufferSegment } from './write-back';
import { commandOverheadNs } from './overheads';
import { schedulePick } from './schedule-pick';

/** acceptCommand for all but a read on a drive model (the same steps in the same order). */
export function acceptCommandRare(
  sim: DiskSimulation,
  rq: IoRequest,
  now: number,
  tag: boolean,
): boolean {
  const drive = sim.state.drive;
  const d = sim.model.disk;
  if (rq.flushOp) {
    // a flush command: no data, no buffer room (disk/flush-command.ts)
    if (tag) {
      drive.tagsInUse++;
      rq.dispatchedNs = now;
    }
    acceptFlush(sim, rq, now);
    return true;
  }
  const rw = drive.ranges !== null && rq.write ? takeRangeWrite(drive.ranges, rq.bios[0]!) : null;
  // Write-back takes a write into its buffer; one larger than the whole buffer streams
  // through to the media instead (write-through). A range write is placed before it is
  // reported done, so it is never buffered.
  const buffered =
    rw === null &&
    rq.write &&
    !d.params.ssd &&
    !d.params.fitted &&
    sim.model.writePolicy === 'write-back' &&
    rq.nSectors <= d.params.cache.writeBufferSectors &&
    d.params.cache.writeSegments > 0;
  const segment = buffered ? writeBufferSegment(sim, rq) : -1;
  if (buffered && segment < 0) {
    drive.queueFullRefusals++;
    if (drive.bufferFullSinceNs < 0) drive.bufferFullSinceNs = now;
    return false;
  }
  if (tag) {
    drive.tagsInUse++;
    rq.dispatchedNs = now;
  }
  if (rq.serviceNs >= 0) {
    // A trace-timed device: done after the traced service time, whatever the disk model says.
    rq.transferNs = rq.serviceNs;
    rq.media = true;
    pushEvent(
      sim.state.heap,
      now + rq.serviceNs,
      EventPriority.Complete,
      EventKind.DriveComplete,
      0,
      rq.slot,
    );
    noteServiced(sim, rq);
    return true;
  }
  if (rw !== null) acceptRangeWrite(sim, rq, rw);
  if (d.params.ssd) {
    ssdSubmit(sim, rq, now);
    return true;
  }
  if (d.params.fitted) {
    fittedSubmit(sim, rq, now);
    return true;
  }
  writeStopsReadAhead(sim, rq, now);
  writeEmptiesSegments(sim, rq, now);
  rq.busNs = rq.nSectors * d.busWriteNsPerSector;
  const extra = buffered ? null : extraDisconnect(sim, rq);
  if (extra !== null) {
    // DiskSim's extra write disconnect (disk_request_arrive): the drive processes the
    // command, disconnects, waits and reconnects for the data; the mechanism may start
    // after the command overhead and the seek delta, well before the data comes
    rq.extraDisconnect = true;
    rq.eligibleNs = now + extra.mechanismNs;
    rq.dataReadyNs = now + extra.dataNs + d.busWriteNsPerSector;
    rq.overheadNs = extra.mechanismNs + extra.completeReselectNs + d.writeCompleteNs;
    locate(d, rq);
    drive.queue.push(rq.slot);
    schedulePick(sim, rq.eligibleNs);
    return true;
  }
  // The mechanism may start after the command overhead; the data crosses the bus meanwhile.
  const cmd = commandOverheadNs(sim, 'write');
  rq.eligibleNs = now + cmd;
  // Sector i's data is in the buffer at dataReadyNs + i·(bus time per sector).
  rq.dataReadyNs = rq.eligibleNs + d.dataPrepNs + d.busWriteNsPerSector;
  if (buffered) {
    writeTakesSegment(sim, rq);
    schedulePick(sim, bufferWrite(sim, rq, now, segment));
    return true;
  }
  rq.overheadNs = cmd + d.reselectNs + d.writeCompleteNs;
  locate(d, rq);
  drive.queue.push(rq.slot);
  schedulePick(sim, rq.eligibleNs);
  return true;
}

/**
 * Whether a write arriving now takes DiskSim's extra write disconnect: the drive has one,
 * the write does not append to the last one written (disk_buffer_select_segment in
 * disksim_diskcache.c sets EXTRA_WRITE_DISCONNECT when the write segment's last access was
 * a write ending elsewhere), and the drive is free to take its data at once — nothing in
 * service or waiting but read-ahead, which stops (disk_request_arrive's write path; a busy
 * drive disconnects as usual). Its timing, or null.
 */
function extraDisconnect(sim: DiskSimulation, rq: IoRequest): CompiledDisk['extraDisc'] {
  const extra = sim.model.disk.extraDisc;
  if (extra === null || rq.internal) return null;
  const drive = sim.state.drive;
  if (drive.mechBusy || drive.queue.length > 0) return null;
  const ws = drive.writeSegment;
  return ws.hi > ws.lo && rq.sector !== ws.hi ? extra : null;
}
