// A DiskSim `disksim_disk` block (the `.diskspecs`): controller overheads, the buffer
// (segments, read-ahead, write policy) and the disk's side of the bus → the parts of a
// Spindle DiskParams they set. Spindle's drive (drive.ts, cache.ts) was built to DiskSim's
// behaviour at the HP C2247A's settings; a switch set otherwise is named as not modelled.
// The manual's §3.4.5 and disksim_disk.c give each parameter's meaning.
import type { CacheSpec, OverheadSpec } from '../params';
import type { BlockReader } from './block-reader';

export interface DiskPart {
  overheads: OverheadSpec;
  /** the disk's own per-sector transfer time (DiskSim "Bulk sector transfer time") */
  bulkSectorMs: number;
  readWatermark: number;
  cache: CacheSpec;
  minWriteSeekMs: number;
  maxQueueLength: number;
  /** the drive's scheduler block */
  scheduler: BlockReader;
}

export function readDiskBlock(r: BlockReader): DiskPart {
  r.ignore('Model', 'Print stats');
  const scale = r.num('Time scale for overheads', 1);
  const ms = (name: string): number => r.num(name) * scale;
  r.expect('Per-request overhead time', 0, 'a per-request overhead is not modelled');
  const overheads: OverheadSpec = {
    readHitMs: ms('Read hit over. after read'),
    readMissMs: ms('Read miss over. after read'),
    writeMs: ms('Write miss over. after read'),
    dataPrepMs: ms('Data preparation overhead'),
    reselectMs: ms('First reselect overhead'),
    readCompleteMs: ms('Read completion overhead'),
    writeCompleteMs: ms('Write completion overhead'),
  };
  // "After write" figures apply when the last command completed was a write; a write-back
  // drive's writes use the "Write hit" figures (disk_write_arrive). Kept only where they
  // differ, so a drive with one figure each reads as before.
  const writeHitMs = ms('Write hit over. after read');
  const afterWrite = {
    readHitMs: ms('Read hit over. after write'),
    readMissMs: ms('Read miss over. after write'),
    writeMs: ms('Write miss over. after write'),
    writeHitMs: ms('Write hit over. after write'),
  };
  if (writeHitMs !== overheads.writeMs) overheads.writeHitMs = writeHitMs;
  if (
    afterWrite.readHitMs !== overheads.readHitMs ||
    afterWrite.readMissMs !== overheads.readMissMs ||
    afterWrite.writeMs !== overheads.writeMs ||
    afterWrite.writeHitMs !== writeHitMs
  ) {
    overheads.afterWrite = afterWrite;
  }
  // The extra write disconnect (the HP C2247A's): its command overhead, disconnect, delay
  // and seek delta, and the "other" reselect its completion reconnects with.
  if (r.num('Extra write disconnect', 0) === 1) {
    overheads.extraWriteDisconnect = {
      commandMs: ms('Extradisc command overhead'),
      disconnectMs: ms('Extradisc disconnect overhead'),
      interDisconnectMs: ms('Extradisc inter-disconnect delay'),
      seekDeltaMs: ms('Extradisc seek delta'),
      otherReselectMs: ms('Other reselect overhead'),
    };
    r.note(
      'Extradisc 2nd disconnect overhead',
      'the disconnect after the data of an extra-disconnect write is not modelled (nothing waits on it)',
    );
  } else {
    r.expect('Extra write disconnect', 0, 'only the extra write disconnect "1" is modelled');
    for (const name of [
      'Other reselect overhead',
      'Extradisc command overhead',
      'Extradisc disconnect overhead',
      'Extradisc inter-disconnect delay',
      'Extradisc 2nd disconnect overhead',
      'Extradisc seek delta',
    ]) {
      r.expect(name, 0, 'used only with the extra write disconnect, which this drive has not');
    }
  }
  // Bus disconnects after data or status are not modelled (nothing waits on them here).
  for (const name of [
    'Read disconnect afterread',
    'Read disconnect afterwrite',
    'Write disconnect overhead',
  ]) {
    r.expect(
      name,
      0,
      'bus disconnect/reconnect overheads beyond the first reselect are not modelled',
    );
  }
  r.expect('Never disconnect', 0, "Spindle's drive always disconnects during mechanical work");
  r.expect('Hold bus entire read xfer', 1, 'Spindle sends read data as DiskSim does with this 1');
  r.expect('Hold bus entire write xfer', 0, 'Spindle takes write data as DiskSim does with this 0');
  r.expect('Preseeking level', 0, 'preseeking is not modelled (level 0)');
  r.expect('Allow write prebuffering', 0, 'write prebuffering is not modelled');
  for (const name of [
    'Allow almost read hits',
    'Allow sneaky full read hits',
    'Allow sneaky partial read hits',
    'Allow sneaky intermediate read hits',
  ]) {
    r.expect(name, 0, 'these read hits are not modelled');
  }
  r.expect('Set watermark by reqsize', 1, 'Spindle sets the read watermark by request size');
  r.expect('Calc sector by sector', 1, 'Spindle computes transfers sector by sector');
  r.expect('Minimum read-ahead (blks)', 0, 'a minimum read-ahead is not modelled');
  r.expect('Read-ahead over requested', 1, 'read-ahead always counts past the request');
  r.expect('Read-ahead on idle hit', 1, 'a hit on an idle drive always restarts read-ahead');
  r.expect(
    'Read any free blocks',
    0,
    'reading sectors passing during rotational latency is not modelled',
  );
  r.expect('Immediate buffer read', 0, 'immediate (read-on-arrival) reads are not modelled');
  r.expect('Immediate buffer write', 0, 'immediate (write-on-arrival) writes are not modelled');
  r.expect('Combine seq writes', 1, 'sequential writes always combine in the write segment');
  r.expect('Stop prefetch in sector', 1, 'read-ahead stops at a sector boundary');
  r.expect('Disconnect write if seek', 0, 'not modelled');
  r.expect('Write hit stop prefetch', 1, 'a write into the read-ahead segment stops it');
  r.expect('Read directly to buffer', 1, 'reads always go through the buffer');
  r.expect('Immed transfer partial hit', 1, 'a partial hit always sends what is buffered at once');
  r.expect('Enable caching in buffer', 1, 'Spindle models the buffer as a cache (setting 1)');
  r.note(
    'Low (write) water mark',
    'write data is taken as it comes; the write watermark is not modelled',
  );
  r.ignore('Avg sectors per cylinder'); // only for cylinder mapping strategy 6 (checked there)

  const segments = r.num('Number of buffer segments');
  const segmentSectors = r.num('Segment size (in blks)');
  const writeSegments = r.num('Maximum number of write segments');
  const continuous = r.num('Buffer continuous read');
  const STOPS = ['segment', 'track', 'cylinder', 'segment', 'next-track'] as const;
  if (!(continuous >= 0 && continuous <= 4)) {
    r.note('Buffer continuous read', `${continuous} is not a DiskSim read-ahead scheme (0–4)`);
  }
  const maxReadAhead = r.num('Maximum read-ahead (blks)');
  const fastWrite = r.num('Fast write level');
  if (fastWrite === 1) {
    r.note('Fast write level', 'level 1 is modelled as level 2 (write-back)');
  }
  const cache: CacheSpec = {
    segments,
    separateWriteSegment: r.num('Use separate write segment') === 1,
    segmentSectors,
    // DEC's scheme (4) ignores "Maximum read-ahead" (readAheadLimit applies no count to it;
    // the segment keeps the last blocks read)
    readAheadSectors: continuous === 0 ? 0 : continuous === 4 ? segmentSectors : maxReadAhead,
    writePolicy: fastWrite === 0 ? 'write-through' : 'write-back',
    writeBufferSectors: segmentSectors * writeSegments,
    writeSegments,
  };
  const stop = STOPS[continuous] ?? 'segment';
  if (stop !== 'segment') cache.readAheadStop = stop;
  r.ignore('Allow read hits on write data');
  if (r.num('Allow read hits on write data') !== 1 && cache.separateWriteSegment) {
    r.note('Allow read hits on write data', 'reads always hit on the write segment');
  }
  return {
    overheads,
    bulkSectorMs: r.num('Bulk sector transfer time', 0),
    readWatermark: r.num('High (read) water mark'),
    cache,
    minWriteSeekMs: ms('Minimum seek delay'),
    maxQueueLength: r.num('Max queue length'),
    scheduler: r.child('Scheduler'),
  };
}
